/**
 * Bounded size and the store's edges: the ledger text only at checkpoint
 * revisions (a cold reader rebuilds the same state from checkpoint + events),
 * stores written in the earlier format still open (migration 2), the bounded
 * cache, request IDs checked by the store itself, forking past the end,
 * `verify`, and defects that stay defects.
 */
import Database from "better-sqlite3"
import { Cause, Effect, Exit, Option } from "effect"
import { copyFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideWith } from "../../../src/composition/planner/Planner.js"
import { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { boundedCache } from "../../../src/composition/store/Cache.js"
import { CHECKPOINT_INTERVAL, isActiveCheckpoint, isCheckpoint } from "../../../src/composition/store/Core.js"
import { type CommandRequest, ledgerJson, LedgerStore } from "../../../src/composition/store/LedgerStore.js"
import { allPages, BASE, fillWith, keeping, request, type Rt, runtimeOf, sqliteAt, tempDir } from "./support.js"

const tmp = tempDir("store-bounded")
let runtime: Runtime
// The planning cache a planner service would hold for this runtime.
let planning: PlanningCache
beforeAll(async () => {
  runtime = await runtimeOf(BASE)
  planning = new PlanningCache(runtime)
})
afterAll(() => tmp.cleanup())

/** Command j on one instance: apply, remove, apply, remove, … (always applies). */
const alternating = (j: number, instanceId = "basic_attack", prefix = "c"): CommandRequest =>
  request(
    `${prefix}${j}`,
    j % 2 === 0
      ? { kind: "apply", upgradeId: "core.sharpened_strike" }
      : { kind: "remove", entryId: `e${(j + 1) / 2}` },
    j,
    { instanceId }
  )

const fill = (rt: Rt, from: number, to: number, command: (j: number) => CommandRequest) =>
  fillWith(rt, runtime, planning, from, to, command)

const filled = async (file: string, count: number, instanceId = "basic_attack") => {
  const rt = sqliteAt(file)
  const store = await rt.runPromise(LedgerStore)
  await fill(rt, 0, count, (j) => alternating(j, instanceId))
  return { rt, store }
}

describe("checkpoints", () => {
  it("the ledger text is stored at revisions 1, 2, 4, 8, … only; a cold reader rebuilds the same state", async () => {
    expect([1, 2, 3, 4, 6, 8, 64, 100, 128].map(isCheckpoint)).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
      true,
      false,
      true
    ])
    const file = `${tmp.dir}/checkpoints.db`
    const { rt, store } = await filled(file, 300)
    const hot = await rt.runPromise(store.read("main", "basic_attack", "basic_attack"))
    await rt.dispose()
    const db = new Database(file, { readonly: true })
    const stored = db.prepare("SELECT revision FROM snapshots WHERE ledger <> '' ORDER BY revision").all() as Array<
      { revision: number }
    >
    expect(stored.map((r) => r.revision)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256])
    expect(db.prepare("SELECT COUNT(*) AS n FROM snapshots WHERE effective <> ''").get()).toEqual({ n: 0 })
    db.close()
    // a fresh process (empty cache): checkpoint 256 + 44 events
    const cold = sqliteAt(file)
    const state = await cold.runPromise(
      Effect.flatMap(LedgerStore, (s) => s.read("main", "basic_attack", "basic_attack"))
    )
    expect(state.revision).toBe(300)
    expect(ledgerJson(state.ledger)).toBe(ledgerJson(hot.ledger))
    expect(state.effective).toBe(hot.effective)
    expect(JSON.parse(state.effective ?? "null").fingerprint).toBe(state.fingerprint)
    // and it keeps writing from there
    const next = alternating(300)
    const o = await cold.runPromise(
      Effect.flatMap(LedgerStore, (s) => s.execute(next, decideWith(runtime, next, planning)))
    )
    expect(o).toMatchObject({ status: "applied", revision: 301 })
    await cold.dispose()
  })
})

describe("replay pages", () => {
  it("pages from the stored checkpoints concatenate to the unpaged replay, on main and on a fork, cold", async () => {
    const file = `${tmp.dir}/pages.db`
    const { rt, store } = await filled(file, 150)
    // Another instance between, so the instance's sequences are not consecutive; its first entry stays active
    // across every page (a page must start from the entries the checkpoint carries, not from none).
    for (let j = 0; j < 12; j++) {
      const command = j === 0
        ? { kind: "apply", upgradeId: "core.ember.affinity" } as const
        : j % 2 === 1
        ? { kind: "apply", upgradeId: "core.sharpened_strike" } as const
        : { kind: "remove", entryId: `e${(j + 2) / 2}` } as const
      const r = request(`o${j}`, command, j, { instanceId: "other" })
      expect((await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))).status).toBe("applied")
    }
    await rt.runPromise(store.fork("side"))
    for (let j = 150; j < 170; j++) {
      const r = { ...alternating(j), branch: "side" }
      expect((await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))).status).toBe("applied")
    }
    await rt.dispose()
    // A fresh process: no cached ledger, every page starts from a checkpoint row.
    const cold = sqliteAt(file)
    const s = await cold.runPromise(LedgerStore)
    for (const branch of ["main", "side"]) {
      const whole = (await cold.runPromise(s.replay(branch))).filter((x) => x.instanceId === "basic_attack")
      expect(whole.length).toBe(branch === "main" ? 150 : 170)
      const paged: Array<unknown> = []
      let from: number | null = 0
      let pages = 0
      while (from !== null && pages < 100) {
        const page: { steps: ReadonlyArray<unknown>; next: number | null } = await cold.runPromise(
          s.replayPage(branch, "basic_attack", { from, limit: 7 })
        )
        expect(page.steps.length).toBeLessThanOrEqual(7)
        for (const step of page.steps) paged.push(step)
        from = page.next
        pages++
      }
      expect(pages).toBe(Math.ceil(whole.length / 7))
      expect(paged).toEqual(whole)
    }
    const other = (await cold.runPromise(s.replay("main"))).filter((x) => x.instanceId === "other")
    expect(other.length).toBe(12)
    for (const limit of [2, 3, 5]) {
      const paged: Array<unknown> = []
      let from: number | null = 0
      for (let pages = 0; from !== null && pages < 20; pages++) {
        const page: { steps: ReadonlyArray<unknown>; next: number | null } = await cold.runPromise(
          s.replayPage("main", "other", { from, limit })
        )
        for (const step of page.steps) paged.push(step)
        from = page.next
      }
      expect(paged).toEqual(other)
    }
    // A page that starts mid-history, past the end, and of an instance with no events.
    const [, , , fourth] = (await cold.runPromise(s.replay("main"))).filter((x) => x.instanceId === "basic_attack")
    const mid = await cold.runPromise(s.replayPage("main", "basic_attack", { from: fourth?.sequence ?? -1, limit: 1 }))
    expect(mid.steps.map((x) => x.revision)).toEqual([4])
    expect(await cold.runPromise(s.replayPage("main", "basic_attack", { from: 1e9, limit: 5 }))).toMatchObject({
      steps: [],
      next: null,
      exists: true
    })
    expect(await cold.runPromise(s.replayPage("main", "ghost", { from: 0, limit: 5 }))).toMatchObject({
      steps: [],
      next: null,
      exists: false
    })
    await cold.dispose()
  })
})

describe("replay pages: bounded work", () => {
  // Revisions 1..2,600 (ten checkpoint intervals): whole ledgers at 1, 2, 4, …, 2048, active entries at
  // 256, 512, …, 2560; a fork at revision 2,400 with 300 more of its own.
  const LENGTH = 2600
  const ACTIVE = [256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560]
  const file = () => `${tmp.dir}/long.db`
  let sequences: Map<number, number>

  beforeAll(async () => {
    const rt = sqliteAt(file())
    await fill(rt, 0, 2400, (j) => keeping(j))
    // Another instance between, so sequences and revisions differ.
    await fill(rt, 0, 30, (j) => keeping(j, "other", "o"))
    const store = await rt.runPromise(LedgerStore)
    await rt.runPromise(store.fork("late"))
    await fill(rt, 2400, LENGTH, (j) => keeping(j))
    await fill(rt, 2400, 2700, (j) => keeping(j, "basic_attack", "f", "late"))
    sequences = new Map(
      (await rt.runPromise(store.history("main", "basic_attack"))).map((e) => [e.revision, e.sequence])
    )
    await rt.dispose()
  }, 120_000)

  it("the active entries are stored every 256 revisions, as ledger documents of the active entries alone", () => {
    expect(CHECKPOINT_INTERVAL).toBe(256)
    expect([256, 512, 768, 0, 255, 257, 128].map(isActiveCheckpoint)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false
    ])
    const db = new Database(file(), { readonly: true })
    const rows = db.prepare(
      "SELECT branch, revision, sequence, active FROM checkpoints WHERE instance_id = 'basic_attack' ORDER BY branch, revision"
    ).all() as Array<{ branch: string; revision: number; sequence: number; active: string }>
    expect(rows.map((r) => `${r.branch}@${r.revision}`)).toEqual([
      "late@2560",
      ...ACTIVE.map((r) => `main@${r}`)
    ])
    for (const r of rows) {
      if (r.branch === "main") expect(r.sequence).toBe(sequences.get(r.revision))
      const doc = JSON.parse(r.active) as { revision: number; entries: Array<{ entryId: string; state: string }> }
      expect(doc.revision).toBe(r.revision)
      // e1 for good, and the sharpened strike applied at odd commands (revision r = command r - 1 + 1).
      expect(doc.entries.map((e) => [e.entryId, e.state])).toEqual(
        r.revision % 2 === 0 ? [["e1", "active"], [`e${r.revision / 2 + 1}`, "active"]] : [["e1", "active"]]
      )
    }
    // A whole ledger only at powers of two, as before.
    expect(
      (db.prepare(
        "SELECT revision FROM snapshots WHERE instance_id = 'basic_attack' AND ledger <> '' ORDER BY revision"
      )
        .all() as Array<{ revision: number }>).map((r) => r.revision)
    ).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048])
    db.close()
  })

  it("a page late in the history folds at most 255 events and reads a bounded number of rows, cold", async () => {
    const cold = sqliteAt(file())
    const s = await cold.runPromise(LedgerStore)
    // The worst places: just before a checkpoint (255 events past the last), at every stretch of the history.
    for (const first of [255, 257, 767, 1279, 2047, 2303, 2559, LENGTH]) {
      const page = await cold.runPromise(
        s.replayPage("main", "basic_attack", { from: sequences.get(first) ?? -1, limit: 3 })
      )
      expect(page.steps[0]?.revision).toBe(first)
      expect(page.steps.every((x) => x.fingerprint === x.stored)).toBe(true)
      const checkpoint = [0, 1, 2, 4, 8, 16, 32, 64, 128, ...ACTIVE].filter((r) => r < first)
        .reduce((a, b) => Math.max(a, b), 0)
      expect(page.work).toEqual({ checkpoint, folded: first - 1 - checkpoint, eventRows: expect.any(Number) })
      expect(page.work.folded).toBeLessThan(CHECKPOINT_INTERVAL)
      // the page's rows (limit + 1), the row before it, the folded ones
      expect(page.work.eventRows).toBeLessThanOrEqual(3 + 1 + 1 + page.work.folded)
    }
    // On the fork: its own checkpoint (2560), or main's before the fork point (2304), through the chain.
    const fork = await cold.runPromise(s.history("late", "basic_attack"))
    for (const [first, checkpoint] of [[2700, 2560], [2401, 2304], [2559, 2304]] as const) {
      const event = fork.find((e) => e.revision === first)
      const page = await cold.runPromise(
        s.replayPage("late", "basic_attack", { from: event?.sequence ?? -1, limit: 2 })
      )
      expect(page.steps[0]?.revision).toBe(first)
      expect(page.work).toMatchObject({ checkpoint, folded: first - 1 - checkpoint })
      expect(page.work.eventRows).toBeLessThanOrEqual(2 * (2 + 1) + 1 + page.work.folded)
    }
    await cold.dispose()
  })

  it("pages concatenate to the whole replay, on main and on the fork", async () => {
    const cold = sqliteAt(file())
    const s = await cold.runPromise(LedgerStore)
    for (const [branch, length] of [["main", LENGTH], ["late", 2700]] as const) {
      const whole = (await cold.runPromise(s.replay(branch))).filter((x) => x.instanceId === "basic_attack")
      expect(whole.length).toBe(length)
      expect(await allPages(cold, branch, "basic_attack", 500)).toEqual(whole)
    }
    await cold.dispose()
  })

  it("verify checks that every checkpoint row has its snapshot row", async () => {
    const copy = `${tmp.dir}/long-damaged.db`
    copyFileSync(file(), copy)
    const db = new Database(copy)
    db.prepare("UPDATE checkpoints SET sequence = sequence + 1 WHERE branch = 'main' AND revision = 768").run()
    db.close()
    const rt = sqliteAt(copy)
    const report = await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.verify))
    await rt.dispose()
    expect(report.ok).toBe(false)
    expect(report.checks.filter((c) => !c.ok)).toEqual([
      { check: "checkpoints", ok: false, problems: ["checkpoint main/basic_attack@768 has no snapshot row"] }
    ])
  })

  it("a store written before migration 3 (powers of two only) replays the same, and gets the new checkpoints as it grows", async () => {
    const old = `${tmp.dir}/long-v2.db`
    copyFileSync(file(), old)
    const whole = await (async () => {
      const rt = sqliteAt(file())
      const steps = await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay("main")))
      await rt.dispose()
      return steps.filter((x) => x.instanceId === "basic_attack")
    })()
    // As version 2 left it: no checkpoints table, no index by sequence, no version 3.
    const db = new Database(old)
    db.exec("DROP INDEX events_instance_sequence")
    db.exec("DROP TABLE checkpoints")
    db.exec("DELETE FROM schema_migrations WHERE version = 3")
    db.close()
    const rt = sqliteAt(old)
    const s = await rt.runPromise(LedgerStore)
    expect(await allPages(rt, "main", "basic_attack", 500)).toEqual(whole)
    // Correct, from the nearest power of two: the rows say where the checkpoints are.
    const page = await rt.runPromise(
      s.replayPage("main", "basic_attack", { from: sequences.get(2559) ?? -1, limit: 1 })
    )
    expect(page.work).toMatchObject({ checkpoint: 2048, folded: 510 })
    await fill(rt, LENGTH, 3100, (j) => keeping(j))
    await rt.dispose()
    const check = new Database(old, { readonly: true })
    expect(
      check.prepare("SELECT revision FROM checkpoints WHERE instance_id = 'basic_attack' ORDER BY revision").all()
    ).toEqual([{ revision: 2816 }, { revision: 3072 }])
    check.close()
    const cold = sqliteAt(old)
    const later = await cold.runPromise(
      Effect.flatMap(LedgerStore, (st) => Effect.map(st.history("main", "basic_attack"), (h) => h.at(-1)))
    )
    const last = await cold.runPromise(
      Effect.flatMap(
        LedgerStore,
        (st) => st.replayPage("main", "basic_attack", { from: later?.sequence ?? -1, limit: 1 })
      )
    )
    expect(last.steps.map((x) => x.revision)).toEqual([3100])
    expect(last.work).toMatchObject({ checkpoint: 3072, folded: 27 })
    await cold.dispose()
  })
})

describe("migration from the earlier format", () => {
  it("a store with the ledger and effective card in every snapshot (schema version 1) opens, reads, replays and writes", async () => {
    const file = `${tmp.dir}/v1.db`
    const { rt, store } = await filled(file, 40)
    const before = await rt.runPromise(store.read("main", "basic_attack", "basic_attack"))
    const history = await rt.runPromise(store.history("main", "basic_attack"))
    await rt.dispose()
    // Rewrite it as version 1 wrote it: every snapshot holds its full ledger and an effective card; no version 2.
    const db = new Database(file)
    const rows = db.prepare("SELECT revision FROM snapshots ORDER BY revision").all() as Array<{ revision: number }>
    const update = db.prepare("UPDATE snapshots SET ledger = ?, effective = ? WHERE revision = ?")
    let entries: Array<unknown> = []
    for (const { revision } of rows) {
      const event = history[revision - 1]
      if (event === undefined) throw new Error(`no event for revision ${revision}`)
      const body = event.body
      entries = entries.map((
        e
      ) => ((e as { entryId: string }).entryId === body.removedEntryId ? { ...(e as object), state: "removed" } : e))
      if (body.entry !== null) entries.push(body.entry)
      update.run(JSON.stringify({ cardId: "basic_attack", entries, revision }), "{\"old\":\"effective\"}", revision)
    }
    db.prepare("DELETE FROM schema_migrations WHERE version = 2").run()
    const pagesBefore = Number(db.pragma("page_count", { simple: true }))
    db.close()
    const reopened = sqliteAt(file)
    const after = await reopened.runPromise(
      Effect.flatMap(LedgerStore, (s) => s.read("main", "basic_attack", "basic_attack"))
    )
    expect(after.revision).toBe(40)
    expect(after.fingerprint).toBe(before.fingerprint)
    expect(after.effective).toBe(before.effective)
    const steps = await reopened.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay()))
    expect(steps).toHaveLength(40)
    const next = alternating(40)
    const o = await reopened.runPromise(
      Effect.flatMap(LedgerStore, (s) => s.execute(next, decideWith(runtime, next, planning)))
    )
    expect(o).toMatchObject({ status: "applied", revision: 41 })
    await reopened.dispose()
    const check = new Database(file, { readonly: true })
    expect(check.prepare("SELECT MAX(version) AS v FROM schema_migrations").get()).toEqual({ v: 3 })
    // The pages the migration freed were returned (VACUUM), not kept in the file.
    expect(check.pragma("freelist_count", { simple: true })).toBe(0)
    expect(Number(check.pragma("page_count", { simple: true }))).toBeLessThan(pagesBefore)
    expect(check.prepare("SELECT revision FROM snapshots WHERE ledger <> '' ORDER BY revision").all()).toEqual(
      [1, 2, 4, 8, 16, 32].map((revision) => ({ revision }))
    )
    check.close()
  })
})

describe("bounded cache", () => {
  it("keeps its total weight under the bound, evicting the least recently used", () => {
    const c = boundedCache<string, number>(10)
    for (let i = 0; i < 100; i++) c.set(`k${i}`, i, 3)
    expect(c.weight()).toBeLessThanOrEqual(10)
    expect(c.size()).toBe(3)
    expect(c.get("k99")).toBe(99)
    expect(c.get("k0")).toBeUndefined()
    c.get("k97") // now most recent
    c.set("x", 0, 3)
    expect(c.has("k97")).toBe(true)
    expect(c.has("k98")).toBe(false)
    // one entry heavier than the bound is still held (the one just set)
    c.set("big", 1, 50)
    expect([c.size(), c.get("big")]).toEqual([1, 1])
  })
})

describe("the store's own checks", () => {
  it("request IDs outside the syntax or over 128 characters are invalid_id, nothing written", async () => {
    const rt = sqliteAt(`${tmp.dir}/ids.db`)
    const store = await rt.runPromise(LedgerStore)
    for (
      const bad of [
        { commandId: "" },
        { commandId: "x".repeat(129) },
        { instanceId: "i".repeat(10_000) },
        { branch: "no spaces" },
        { cardId: "c".repeat(129) },
        // Once stored whole in a rejected command's row: every ID of a request is bounded.
        { activity: "a".repeat(900_000) },
        { command: { kind: "apply" as const, upgradeId: "u".repeat(129) } }
      ]
    ) {
      const r = { ...alternating(0), ...bad }
      const e = await rt.runPromise(Effect.flip(store.execute(r, decideWith(runtime, r, planning))))
      expect(e._tag).toBe("InvalidId")
    }
    expect(await rt.runPromise(store.sequence)).toBe(0)
    const ok = { ...alternating(0), commandId: "c".repeat(128), instanceId: "i".repeat(128) }
    expect((await rt.runPromise(store.execute(ok, decideWith(runtime, ok, planning)))).status).toBe("applied")
    const past = await rt.runPromise(Effect.flip(store.fork("later", { atSequence: 2 })))
    expect(past._tag).toBe("ForkOutOfRange")
    expect(past.code).toBe("fork_out_of_range")
    expect((await rt.runPromise(Effect.flip(store.fork("x".repeat(129)))))._tag).toBe("InvalidId")
    expect((await rt.runPromise(Effect.flip(store.fork("later", { parent: "p".repeat(129) }))))._tag).toBe("InvalidId")
    expect(await rt.runPromise(store.branches)).toEqual([])
    expect((await rt.runPromise(store.verify)).ok).toBe(true)
    await rt.dispose()
  })

  it("a request without expectedRevision applies to the current revision, and its retry is the same request", async () => {
    const rt = sqliteAt(`${tmp.dir}/unstated.db`)
    const store = await rt.runPromise(LedgerStore)
    const { expectedRevision: _, ...r } = alternating(0)
    const first = await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))
    const again = await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))
    expect(again).toEqual(first)
    expect(JSON.stringify(again)).toBe(JSON.stringify(first))
    expect(await rt.runPromise(store.sequence)).toBe(1)
    await rt.dispose()
  })

  it("a programming error inside a command stays a defect (not store_failure), and the transaction rolls back", async () => {
    const rt = sqliteAt(`${tmp.dir}/defect.db`)
    const store = await rt.runPromise(LedgerStore)
    const r = alternating(0)
    const exit = await rt.runPromiseExit(
      store.execute(r, () => {
        throw new TypeError("a bug in a decide function")
      })
    )
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      expect(Option.isNone(Cause.failureOption(exit.cause))).toBe(true)
      expect(String(Cause.squash(exit.cause))).toContain("a bug in a decide function")
    }
    expect(await rt.runPromise(store.sequence)).toBe(0)
    expect(Option.isNone(await rt.runPromise(store.outcome(r.commandId)))).toBe(true)
    await rt.dispose()
  })

  it("a SQL error is store_failure", async () => {
    const file = `${tmp.dir}/sqlerror.db`
    const { rt, store } = await filled(file, 2)
    const db = new Database(file)
    db.exec("DROP TABLE commands")
    db.close()
    const r = alternating(2)
    const e = await rt.runPromise(Effect.flip(store.execute(r, decideWith(runtime, r, planning))))
    expect(e._tag).toBe("StoreFailure")
    expect(e.message).toContain("commands")
    await rt.dispose()
  })
})
