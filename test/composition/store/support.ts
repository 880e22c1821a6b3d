/** Test support for the store: temp dirs, requests, and a managed runtime over a store layer. */
import { Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { LedgerCommand } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner, decideWith } from "../../../src/composition/planner/Planner.js"
import type { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import {
  type CommandRequest,
  LedgerStore,
  MAIN,
  type StoreOpenError
} from "../../../src/composition/store/LedgerStore.js"
import { BASE, runtimeOf } from "../../support/content.js"

export { BASE, runtimeOf }

/** A fresh temporary folder (removed by `cleanup`). */
export const tempDir = (name: string): { dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), `cardfx-${name}-`))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

export type Services = CardTransformationPlanner | LedgerStore
export type Rt = ManagedRuntime.ManagedRuntime<Services, StoreOpenError>

/** The planner layer on top of a store layer (both services exposed). */
export const withPlanner = (layer: Layer.Layer<LedgerStore, StoreOpenError>): Layer.Layer<Services, StoreOpenError> =>
  Layer.provideMerge(CardTransformationPlanner.layer, layer)

/** Store + planner as a managed runtime; `dispose()` closes the database (a "restart" reopens it). */
export const open = (layer: Layer.Layer<LedgerStore, StoreOpenError>): Rt => ManagedRuntime.make(withPlanner(layer))

/** A SQLite file store. */
export const sqliteAt = (filename: string): Rt => open(LedgerStore.layerSqlite({ filename }))

/** A request with defaults (main branch, instance = card, activity scenario). */
export const request = (
  commandId: string,
  command: LedgerCommand,
  expectedRevision: number,
  opts: { cardId?: string; instanceId?: string; branch?: string; activity?: string } = {}
): CommandRequest => ({
  commandId,
  branch: opts.branch ?? MAIN,
  instanceId: opts.instanceId ?? opts.cardId ?? "basic_attack",
  cardId: opts.cardId ?? "basic_attack",
  expectedRevision,
  activity: opts.activity ?? "scenario",
  command
})

/**
 * Command j of a long history on one instance that keeps its first entry: apply core.ember.affinity
 * (e1, active for good), then apply and remove core.sharpened_strike alternately, so a checkpoint
 * carries two active entries or one while the removed entries pile up.
 */
export const keeping = (j: number, instanceId = "basic_attack", prefix = "k", branch: string = MAIN): CommandRequest =>
  request(
    `${prefix}${j}`,
    j === 0
      ? { kind: "apply", upgradeId: "core.ember.affinity" }
      : j % 2 === 1
      ? { kind: "apply", upgradeId: "core.sharpened_strike" }
      : { kind: "remove", entryId: `e${(j + 2) / 2}` },
    j,
    { instanceId, branch }
  )

/** Commands `command(from)` … `command(to - 1)`, 50 to a batch, decided with the given runtime; each must apply. */
export const fillWith = async (
  rt: Rt,
  runtime: Runtime,
  planning: PlanningCache,
  from: number,
  to: number,
  command: (j: number) => CommandRequest
): Promise<void> => {
  const store = await rt.runPromise(LedgerStore)
  for (let b = from; b < to; b += 50) {
    const items = Array.from({ length: Math.min(50, to - b) }, (_, k) => {
      const r = command(b + k)
      return [r, decideWith(runtime, r, planning)] as const
    })
    const outs = await rt.runPromise(store.executeBatch(items))
    const rejected = outs.find((o) => o.status !== "applied")
    if (rejected !== undefined) throw new Error(`not applied: ${JSON.stringify(rejected)}`)
  }
}

type Page = { readonly steps: ReadonlyArray<unknown>; readonly next: number | null }

/** Every page of an instance's replay on a branch, `limit` at a time, concatenated (at most 100 pages). */
export const allPages = async (
  rt: Rt,
  branch: string,
  instanceId: string,
  limit: number
): Promise<Array<unknown>> => {
  const s = await rt.runPromise(LedgerStore)
  const out: Array<unknown> = []
  let from: number | null = 0
  for (let pages = 0; from !== null && pages < 100; pages++) {
    const page: Page = await rt.runPromise(s.replayPage(branch, instanceId, { from, limit }))
    for (const step of page.steps) out.push(step)
    from = page.next
  }
  return out
}
