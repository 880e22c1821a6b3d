/**
 * The planning services of a served application share one set of planning
 * caches (`Served.layer`): an assessment of a stored instance through the
 * Cards queries and one through the planner plan from the very resolution of
 * the stored ledger, resolved once. A rejected assessment carries the current
 * card's composition trace, so the two traces are one array object when the
 * resolution is shared, and two equal arrays when each service holds caches
 * of its own (checked too, so the first check can fail).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CardTransformationPlanner } from "../../src/composition/planner/Planner.js"
import { LedgerStore } from "../../src/composition/store/LedgerStore.js"
import { Cards, ContentLoader, LiveCatalog, Served } from "../../src/services/index.js"

const BASE = "data/heroscript.base"
const DECK = "data/hallyu-hex/starter-deck.v0.json"
const AFFINITY = "core.ember.affinity"
const ref = { branch: "main", instanceId: "shared-1", cardId: "basic_attack" } as const

/** The two assessments' traces, on a stored instance that holds the affinity (so a second one is rejected). */
const traces = Effect.gen(function*() {
  const runtime = yield* Effect.flatMap(LiveCatalog, (c) => c.current)
  const planner = yield* CardTransformationPlanner
  const cards = yield* Cards.Cards
  const applied = yield* planner.execute(runtime, {
    ...ref,
    commandId: "shared-c1",
    activity: "scenario",
    command: { kind: "apply", upgradeId: AFFINITY }
  })
  expect(applied.status).toBe("applied")
  const command = { kind: "apply", upgradeId: AFFINITY } as const
  const viaCards = yield* cards.assess({
    cardId: ref.cardId,
    command,
    activity: "scenario",
    source: { _tag: "Stored", instanceId: ref.instanceId }
  })
  const viaPlanner = yield* planner.assessStored(runtime, ref, command, "scenario")
  expect(viaCards.isCompatible).toBe(false)
  expect(viaPlanner.isCompatible).toBe(false)
  expect(viaCards.compositionTrace.length).toBe(1)
  return [viaCards.compositionTrace, viaPlanner.compositionTrace] as const
})

const storeFile = () => join(mkdtempSync(join(tmpdir(), "cardfx-shared-")), "ledger.db")

const served = () =>
  Served.layer({ packages: [BASE], store: storeFile(), deckFile: DECK }).pipe(
    Layer.provideMerge(NodeContext.layer),
    Layer.provide(Logger.minimumLogLevel(LogLevel.None))
  )

/** The two services composed by hand, without `SharedPlanningCaches`. */
const separate = () =>
  Layer.mergeAll(Cards.Cards.layer, CardTransformationPlanner.layer).pipe(
    Layer.provideMerge(Layer.merge(LiveCatalog.load([BASE]), LedgerStore.layerFor(storeFile()))),
    Layer.provide(ContentLoader.layer),
    Layer.provide(NodeContext.layer)
  )

describe("shared planning caches", () => {
  it.effect(
    "the Cards queries and the planner of a served application resolve a stored ledger once",
    () =>
      Effect.gen(function*() {
        const [a, b] = yield* traces
        expect(a).toBe(b)
      }).pipe(Effect.provide(served())),
    60_000
  )

  it.effect("services built without them hold their own (equal traces, two resolutions)", () =>
    Effect.gen(function*() {
      const [a, b] = yield* traces
      expect(a).toEqual(b)
      expect(a).not.toBe(b)
    }).pipe(Effect.provide(separate())), 60_000)
})
