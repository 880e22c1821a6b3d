/**
 * Bounded size and the store's edges: the ledger text only at checkpoint
 * revisions (a cold reader rebuilds the same state from checkpoint + events),
 * stores written in the earlier format still open (migration 2), the bounded
 * cache, request IDs checked by the store itself, forking past the end,
 * `verify`, and defects that stay defects.
 */
import Database from "better-sqlite3"
import { Cause, Effect, Exit, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideWith } from "../../../src/composition/planner/Planner.js"
import { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { boundedCache } from "../../../src/composition/store/Cache.js"
import { isCheckpoint } from "../../../src/composition/store/Core.js"
import { type CommandRequest, ledgerJson, LedgerStore } from "../../../src/composition/store/LedgerStore.js"
import { BASE, request, runtimeOf, sqliteAt, tempDir } from "./support.js"

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

const fill = async (file: string, count: number, instanceId = "basic_attack") => {
  const rt = sqliteAt(file)
  const store = await rt.runPromise(LedgerStore)
  for (let b = 0; b < count; b += 50) {
    const items = Array.from({ length: Math.min(50, count - b) }, (_, k) => {
      const r = alternating(b + k, instanceId)
      return [r, decideWith(runtime, r, planning)] as const
    })
    const outs = await rt.runPromise(store.executeBatch(items))
    expect(outs.every((o) => o.status === "applied")).toBe(true)
  }
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
    const { rt, store } = await fill(file, 300)
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
    const { rt, store } = await fill(file, 150)
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
    expect(await cold.runPromise(s.replayPage("main", "basic_attack", { from: 1e9, limit: 5 }))).toEqual({
      steps: [],
      next: null
    })
    expect(await cold.runPromise(s.replayPage("main", "ghost", { from: 0, limit: 5 }))).toEqual({
      steps: [],
      next: null
    })
    await cold.dispose()
  })
})

describe("migration from the earlier format", () => {
  it("a store with the ledger and effective card in every snapshot (schema version 1) opens, reads, replays and writes", async () => {
    const file = `${tmp.dir}/v1.db`
    const { rt, store } = await fill(file, 40)
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
    expect(check.prepare("SELECT MAX(version) AS v FROM schema_migrations").get()).toEqual({ v: 2 })
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
    const { rt, store } = await fill(file, 2)
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
