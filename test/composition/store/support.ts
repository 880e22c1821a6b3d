/** Test support for the store: temp dirs, requests, and a managed runtime over a store layer. */
import { Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { LedgerCommand } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
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
