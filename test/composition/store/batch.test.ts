/**
 * `executeBatch` decides each command exactly as `execute` would, in order:
 * the same random command logs (several instances, a forked branch, a
 * missing branch, stale revisions, retries inside and across batches) run
 * one command per transaction on one store and in random batches on another
 * give the same outcomes, byte-identical rows, and replay. The store's direct
 * writers of outcomes and request hashes agree with the kernel's canonical JSON.
 */
import { Effect } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { LedgerCommand } from "../../../src/composition/planner/Plan.js"
import { decideWith } from "../../../src/composition/planner/Planner.js"
import { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import {
  type CommandRequest,
  LedgerStore,
  outcomeJson,
  requestHash
} from "../../../src/composition/store/LedgerStore.js"
import { canonicalJson, hashCanonical } from "../../../src/kernel/Canonical.js"
import { BASE, request, runtimeOf, sqliteAt, tempDir } from "./support.js"

const tmp = tempDir("store-batch")
let runtime: Runtime
// The planning cache a planner service would hold for this runtime.
let planning: PlanningCache
let n = 0
beforeAll(async () => {
  runtime = await runtimeOf(BASE)
  planning = new PlanningCache(runtime)
})
afterAll(() => tmp.cleanup())

const commandArb: fc.Arbitrary<LedgerCommand> = fc.oneof(
  fc.constantFrom<LedgerCommand>(
    { kind: "apply", upgradeId: "core.sharpened_strike" },
    { kind: "apply", upgradeId: "core.ember.affinity" }
  ),
  fc.integer({ min: 1, max: 4 }).map((k): LedgerCommand => ({ kind: "remove", entryId: `e${k}` })),
  fc.integer({ min: 1, max: 4 }).map((k): LedgerCommand => ({
    kind: "replace",
    entryId: `e${k}`,
    upgradeId: "core.sharpened_strike"
  }))
)

const stepArb = fc.record({
  command: commandArb,
  instance: fc.constantFrom("a", "b", "c"),
  branch: fc.constantFrom("main", "main", "side", "ghost"),
  /** Stale (a random revision) or current (read from the store when the command is made). */
  stale: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, {
    arbitrary: fc.integer({ min: 0, max: 4 }),
    weight: 1
  }),
  retry: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.nat(), weight: 1 })
})

describe("executeBatch", () => {
  it("gives the outcomes and rows of one command per transaction", async () => {
    let applied = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 10, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 10 }),
        async (steps, sizes) => {
          const requests: Array<CommandRequest> = []
          const one = sqliteAt(`${tmp.dir}/one${n}/ledger.db`)
          const many = sqliteAt(`${tmp.dir}/many${n++}/ledger.db`)
          try {
            const program = (batched: boolean) =>
              Effect.gen(function*() {
                const store = yield* LedgerStore
                yield* store.fork("side")
                const outcomes = []
                if (!batched) {
                  for (const [i, s] of steps.entries()) {
                    // A retry repeats an earlier request byte for byte; otherwise the revision is current unless stale.
                    const earlier = s.retry !== undefined && requests.length > 0
                      ? requests[s.retry % requests.length]
                      : undefined
                    const state = yield* Effect.option(store.read(s.branch, s.instance, "basic_attack"))
                    const current = state._tag === "Some" ? state.value.revision : 0
                    // Removals and replacements mostly name an active entry (e<k> picks the k-th one).
                    const active = state._tag === "Some"
                      ? state.value.ledger.entries.filter((e) => e.state === "active")
                      : []
                    const target = (id: string) =>
                      active[Number(id.slice(1)) % Math.max(1, active.length)]?.entryId ?? id
                    const command: LedgerCommand = s.command.kind === "apply"
                      ? s.command
                      : { ...s.command, entryId: target(s.command.entryId) }
                    const r = earlier ??
                      request(`k${i}`, command, s.stale ?? current, { instanceId: s.instance, branch: s.branch })
                    requests.push(r)
                    outcomes.push(yield* store.execute(r, decideWith(runtime, r, planning)))
                  }
                } else {
                  for (let at = 0, k = 0; at < requests.length; k++) {
                    const size = sizes[k % sizes.length] ?? 1
                    const part = requests.slice(at, at + size)
                    at += size
                    for (
                      const o of yield* store.executeBatch(
                        part.map((r) => [r, decideWith(runtime, r, planning)] as const)
                      )
                    ) outcomes.push(o)
                  }
                }
                const dumps = [yield* store.dump("main"), yield* store.dump("side")]
                const replayed = yield* store.replay()
                return { outcomes, dumps, replayed: replayed.length, sequence: yield* store.sequence }
              })
            const a = await one.runPromise(program(false))
            const b = await many.runPromise(program(true))
            expect(b.outcomes).toEqual(a.outcomes)
            applied += a.outcomes.filter((o) => o.status === "applied").length
            // The store's direct writers give the kernel's canonical bytes.
            for (const o of a.outcomes) expect(outcomeJson(o)).toBe(canonicalJson(o))
            for (const r of requests) expect(requestHash(r)).toBe(hashCanonical(r))
            expect(b.dumps).toEqual(a.dumps)
            expect(b.replayed).toBe(a.replayed)
            expect(b.sequence).toBe(a.sequence)
          } finally {
            await one.dispose()
            await many.dispose()
          }
        }
      ),
      { numRuns: 40 }
    )
    // The logs must exercise applied commands (including several on one instance in one batch), not only rejections.
    expect(applied).toBeGreaterThan(100)
  }, 60_000)
})
