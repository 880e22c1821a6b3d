/**
 * The store's guarantees on a real SQLite file: synchronous=FULL on every
 * open, optimistic concurrency (in-process fibers and separate writer
 * processes), retry across a restart, command conflicts, recorded rejections,
 * replay without the catalog, isolated and discardable branches, and
 * store failures as typed errors.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { LedgerStore, MAIN, sqliteClientLayer } from "../../../src/composition/store/LedgerStore.js"
import { buildChild, removeChild, spawnChild } from "./childProcess.js"
import { BASE, request, type Rt, runtimeOf, sqliteAt, tempDir } from "./support.js"

const tmp = tempDir("store")
let runtime: Runtime
let n = 0
const dbFile = () => `${tmp.dir}/db${n++}/ledger.db`

beforeAll(async () => {
  runtime = await runtimeOf(BASE)
})
afterAll(() => {
  tmp.cleanup()
  removeChild()
})

const EMBER = { kind: "apply", upgradeId: "core.ember.affinity" } as const
const SHARP = { kind: "apply", upgradeId: "core.sharpened_strike" } as const

const run = <A, E>(
  rt: Rt,
  f: (s: { store: LedgerStore["Type"]; planner: CardTransformationPlanner["Type"] }) => Effect.Effect<A, E>
) =>
  rt.runPromise(
    Effect.gen(function*() {
      const store = yield* LedgerStore
      const planner = yield* CardTransformationPlanner
      return yield* f({ store, planner })
    })
  )

describe("connection settings", () => {
  it("sets WAL and synchronous=FULL on the connection, also after a reopen", async () => {
    const file = dbFile()
    for (let i = 0; i < 2; i++) {
      const rt = ManagedRuntime.make(Layer.merge(sqliteClientLayer(file), LedgerStore.layerSqlite({ filename: file })))
      const [sync, mode] = await rt.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            Effect.all([
              sql<{ synchronous: number }>`PRAGMA synchronous`,
              sql<{ journal_mode: string }>`PRAGMA journal_mode`
            ])
        )
      )
      expect(sync[0]?.synchronous).toBe(2) // FULL
      expect(mode[0]?.journal_mode).toBe("wal")
      await rt.dispose()
    }
  })
})

describe("optimistic concurrency", () => {
  it("concurrent fibers on one card: exactly one winner per revision, the others revision_conflict", async () => {
    const rt = sqliteAt(dbFile())
    const outcomes = await run(rt, ({ planner }) =>
      Effect.all(
        Array.from({ length: 12 }, (_, i) => planner.execute(runtime, request(`w${i}`, SHARP, 0))),
        { concurrency: "unbounded" }
      ))
    expect(outcomes.filter((o) => o.status === "applied").length).toBe(1)
    for (const o of outcomes.filter((o) => o.status === "rejected")) {
      expect(o.diagnostics[0]?.code).toBe("revision_conflict")
    }
    const stale = await run(rt, ({ planner }) => Effect.flip(planner.apply(runtime, request("stale", SHARP, 0))))
    expect(stale._tag).toBe("RevisionConflict")
    expect(stale.code).toBe("revision_conflict")
    await rt.dispose()
  })

  it("writer processes racing on one card: one winner per revision, no gaps", async () => {
    await buildChild()
    const file = dbFile()
    // create the database first so the racers do not race on the migration
    const rt = sqliteAt(file)
    await run(rt, ({ store }) => store.sequence)
    await rt.dispose()
    const lines: Array<string> = []
    const racers = Array.from(
      { length: 3 },
      (_, i) => spawnChild(["race", file, "20", `r${i}`], (line) => lines.push(line))
    )
    await Promise.all(racers.map((r) => r.done))
    expect(lines.length).toBe(60)
    const applied = lines.filter((l) => l.startsWith("race applied")).map((l) => Number(l.split(" ")[2]))
    const conflicts = lines.filter((l) => l.startsWith("race rejected"))
    for (const c of conflicts) expect(c.endsWith("revision_conflict")).toBe(true)
    // each applied outcome has its own revision, and together they are 1..n
    expect([...applied].sort((a, b) => a - b)).toEqual(Array.from({ length: applied.length }, (_, i) => i + 1))
    const rt2 = sqliteAt(file)
    const history = await run(rt2, ({ store }) => store.history(MAIN, "race"))
    expect(history.map((e) => e.revision)).toEqual(Array.from({ length: applied.length }, (_, i) => i + 1))
    await rt2.dispose()
  }, 60_000)
})

describe("retry and idempotence", () => {
  it("the same command ID returns the first outcome and applies nothing twice, also after a restart", async () => {
    const file = dbFile()
    const rt = sqliteAt(file)
    const first = await run(rt, ({ planner }) => planner.execute(runtime, request("c1", EMBER, 0)))
    const again = await run(rt, ({ planner }) => planner.execute(runtime, request("c1", EMBER, 0)))
    expect(again).toEqual(first)
    await rt.dispose()
    const rt2 = sqliteAt(file)
    const afterRestart = await run(rt2, ({ planner }) => planner.execute(runtime, request("c1", EMBER, 0)))
    expect(afterRestart).toEqual(first)
    const { state, history } = await run(
      rt2,
      ({ store }) =>
        Effect.all({
          state: store.read(MAIN, "basic_attack", "basic_attack"),
          history: store.history(MAIN, "basic_attack")
        })
    )
    expect(state.revision).toBe(1)
    expect(history.length).toBe(1)
    await rt2.dispose()
  })

  it("the same command ID with another request is a typed command_conflict", async () => {
    const rt = sqliteAt(dbFile())
    await run(rt, ({ planner }) => planner.execute(runtime, request("c1", EMBER, 0)))
    const e = await run(rt, ({ planner }) => Effect.flip(planner.execute(runtime, request("c1", SHARP, 1))))
    expect(e._tag).toBe("CommandConflict")
    expect(e.code).toBe("command_conflict")
    await rt.dispose()
  })

  it("a rejection writes nothing to the ledger, is recorded, and a retry returns it even after the card changed", async () => {
    const rt = sqliteAt(dbFile())
    const dump0 = await run(rt, ({ store }) => store.dump(MAIN))
    const denied = request("deny", EMBER, 0, { activity: "journey_opportunity" })
    const r1 = await run(rt, ({ planner }) => planner.execute(runtime, denied))
    expect(r1.status).toBe("rejected")
    expect(r1.diagnostics.map((d) => d.code)).toEqual(["not_authorized"])
    expect(await run(rt, ({ store }) => store.dump(MAIN))).toBe(dump0)
    await run(rt, ({ planner }) => planner.execute(runtime, request("ok", EMBER, 0)))
    const r2 = await run(rt, ({ planner }) => planner.execute(runtime, denied))
    expect(r2).toEqual(r1)
    const typed = await run(rt, ({ planner }) => Effect.flip(planner.apply(runtime, denied)))
    expect(typed._tag).toBe("NotAuthorized")
    await rt.dispose()
  })
})

describe("replay", () => {
  it("rebuilds every snapshot's fingerprint from the events alone, without the catalog", async () => {
    const file = dbFile()
    const rt = sqliteAt(file)
    const fingerprints = await run(rt, ({ planner }) =>
      Effect.gen(function*() {
        const a = yield* planner.execute(runtime, request("a", EMBER, 0))
        const b = yield* planner.execute(runtime, request("b", SHARP, 1))
        const c = yield* planner.execute(
          runtime,
          request("c", { kind: "replace", entryId: "e2", upgradeId: "core.sharpened_strike" }, 2)
        )
        const d = yield* planner.execute(runtime, request("d", EMBER, 0, { cardId: "heal" }))
        const e = yield* planner.execute(runtime, request("e", { kind: "remove", entryId: "e1" }, 3))
        return [a, b, c, d, e].map((o) => {
          expect(o.status).toBe("applied")
          return o.fingerprint
        })
      }))
    await rt.dispose()
    // a fresh process with NO runtime: the store alone replays
    const rt2 = ManagedRuntime.make(LedgerStore.layerSqlite({ filename: file }))
    const steps = await rt2.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay()))
    expect(steps.map((s) => s.fingerprint).sort()).toEqual([...fingerprints].sort())
    for (const s of steps) expect(s.fingerprint).toBe(s.stored)
    await rt2.dispose()
  })
})

describe("branches", () => {
  it("a branch forks at a sequence, writes stay on it, main is byte-identical, and it can be discarded", async () => {
    const rt = sqliteAt(dbFile())
    await run(rt, ({ planner }) => planner.execute(runtime, request("m1", SHARP, 0)))
    const fork = await run(rt, ({ store }) => store.sequence)
    await run(rt, ({ planner }) => planner.execute(runtime, request("m2", SHARP, 1)))
    const mainBefore = await run(rt, ({ store }) => store.dump(MAIN))
    await run(rt, ({ store }) => store.fork("what-if", { atSequence: fork }))
    const onBranch = await run(rt, ({ store }) => store.read("what-if", "basic_attack", "basic_attack"))
    expect(onBranch.revision).toBe(1) // the branch sees main as of the fork
    const b1 = await run(rt, ({ planner }) => planner.execute(runtime, request("b1", EMBER, 1, { branch: "what-if" })))
    const b2 = await run(
      rt,
      ({ planner }) =>
        planner.execute(runtime, request("b2", { kind: "remove", entryId: "e1" }, 2, { branch: "what-if" }))
    )
    const b3 = await run(
      rt,
      ({ planner }) => planner.execute(runtime, request("b3", EMBER, 0, { branch: "what-if", cardId: "heal" }))
    )
    expect([b1.status, b2.status, b3.status]).toEqual(["applied", "applied", "applied"])
    expect(await run(rt, ({ store }) => store.dump(MAIN))).toBe(mainBefore)
    const mainState = await run(rt, ({ store }) => store.read(MAIN, "basic_attack", "basic_attack"))
    expect(mainState.revision).toBe(2)
    expect((await run(rt, ({ store }) => store.read("what-if", "basic_attack", "basic_attack"))).revision).toBe(3)
    const steps = await run(rt, ({ store }) => store.replay())
    for (const s of steps) expect(s.fingerprint).toBe(s.stored)
    await run(rt, ({ store }) => store.discard("what-if"))
    expect(await run(rt, ({ store }) => store.dump(MAIN))).toBe(mainBefore)
    expect(await run(rt, ({ store }) => store.dump("what-if"))).toBe(
      "{\"branch\":\"what-if\",\"checkpoints\":[],\"events\":[],\"snapshots\":[]}"
    )
    const gone = await run(rt, ({ store }) => Effect.flip(store.read("what-if", "basic_attack", "basic_attack")))
    expect(gone._tag).toBe("BranchNotFound")
    const gone2 = await run(rt, ({ store }) => Effect.flip(store.discard("what-if")))
    expect(gone2.code).toBe("branch_not_found")
    const dup = await run(rt, ({ store }) => Effect.flip(store.fork(MAIN)))
    expect(dup._tag).toBe("DuplicateId")
    const onMissing = await run(
      rt,
      ({ planner }) => planner.execute(runtime, request("x", SHARP, 0, { branch: "nope" }))
    )
    expect(onMissing.diagnostics[0]?.code).toBe("branch_not_found")
    await rt.dispose()
  })
})

describe("failures", () => {
  it("a database that cannot be opened is a typed store_unavailable naming the path", async () => {
    // the parent "folder" is a regular file: the folder cannot be created, the database not opened
    writeFileSync(`${tmp.dir}/plain-file`, "x")
    const e = await Effect.runPromise(
      Effect.flip(Effect.provide(LedgerStore, LedgerStore.layerSqlite({ filename: `${tmp.dir}/plain-file/ledger.db` })))
    )
    expect(e._tag).toBe("StoreUnavailable")
    expect(e.code).toBe("store_unavailable")
    expect(e.message).toContain(`${tmp.dir}/plain-file/ledger.db`)
    expect(e.message).toContain("is not a folder")
  })
})

describe("serialization", () => {
  it("the fast ledger and event writers give the kernel's canonical JSON", async () => {
    const { ledgerJson } = await import("../../../src/composition/store/LedgerStore.js")
    const { canonicalJson } = await import("../../../src/kernel/Canonical.js")
    const file = dbFile()
    const rt = sqliteAt(file)
    await run(rt, ({ planner }) =>
      Effect.gen(function*() {
        yield* planner.execute(runtime, request("a", EMBER, 0))
        yield* planner.execute(runtime, request("b", SHARP, 1))
        yield* planner.execute(runtime, request("c", { kind: "remove", entryId: "e2" }, 2))
      }))
    const { state, history } = await run(
      rt,
      ({ store }) =>
        Effect.all({
          state: store.read(MAIN, "basic_attack", "basic_attack"),
          history: store.history(MAIN, "basic_attack")
        })
    )
    expect(ledgerJson(state.ledger)).toBe(canonicalJson(state.ledger))
    const raw = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ body: string }>`SELECT body FROM events ORDER BY sequence`)
          .pipe(
            Effect.provide(sqliteClientLayer(file))
          )
      )
    )
    expect(raw.map((r) => r.body)).toEqual(history.map((e) => canonicalJson(e.body)))
    await rt.dispose()
  })
})
