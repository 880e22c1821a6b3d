/**
 * A long-running writer's memory stays flat: 100,000 commands (set
 * `CARDFX_MEMORY_COMMANDS` to run fewer locally; CI runs the default) over
 * ever new card instances (4 commands each, 25,000 instances at the default),
 * heap measured after a full GC at five checkpoints. Without the bound on
 * the store's ledger cache the heap grows with the instances (every ledger
 * it ever wrote); with it, the last checkpoint is within a few MB of the first.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decideWith } from "../../../src/composition/planner/Planner.js"
import { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { LedgerStore } from "../../../src/composition/store/LedgerStore.js"
import { BASE, open, request, runtimeOf, tempDir } from "./support.js"

const COMMANDS = Number(process.env.CARDFX_MEMORY_COMMANDS ?? 100_000)
const BATCH = 200
const CHECKPOINTS = 5

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const tmp = tempDir("store-memory")
let runtime: Runtime
// The planning cache a planner service would hold for this runtime.
let planning: PlanningCache
beforeAll(async () => {
  runtime = await runtimeOf(BASE)
  planning = new PlanningCache(runtime)
})
afterAll(() => tmp.cleanup())

const heapAfterGc = () => {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed
}

describe("memory", () => {
  it(`stays flat over ${COMMANDS} commands on ${COMMANDS / 4} instances`, { timeout: 900_000 }, async () => {
    // A small ledger-cache bound (2,000 entries) so evictions start early; the default is 200,000.
    const rt = open(LedgerStore.layerSqlite({ filename: `${tmp.dir}/memory.db`, caches: { ledgerEntries: 2000 } }))
    const store = await rt.runPromise(LedgerStore)
    const heap: Array<number> = []
    const every = COMMANDS / CHECKPOINTS
    for (let b = 0; b < COMMANDS; b += BATCH) {
      const items = Array.from({ length: BATCH }, (_, k) => {
        const j = b + k
        const r = request(
          `m${j}`,
          j % 2 === 0
            ? { kind: "apply", upgradeId: "core.sharpened_strike" }
            : { kind: "remove", entryId: `e${((j % 4) + 1) / 2}` },
          j % 4,
          { instanceId: `inst${Math.floor(j / 4)}` }
        )
        return [r, decideWith(runtime, r, planning)] as const
      })
      const outs = await rt.runPromise(store.executeBatch(items))
      if (outs.some((o) => o.status !== "applied")) {
        throw new Error(JSON.stringify(outs.find((o) => o.status !== "applied")))
      }
      if ((b + BATCH) % every === 0) heap.push(heapAfterGc())
    }
    await rt.dispose()
    const mb = heap.map((h) => Math.round((h / 2 ** 20) * 10) / 10)
    console.log(`heap after GC at each fifth of ${COMMANDS} commands (MB): ${mb.join(", ")}`)
    expect(heap).toHaveLength(CHECKPOINTS)
    // flat: from the first checkpoint to the last, under 8 MB of growth
    expect((heap[CHECKPOINTS - 1] as number) - (heap[0] as number)).toBeLessThan(8 * 2 ** 20)
  })
})
