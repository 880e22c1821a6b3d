/**
 * The planner's memo tables for ONE runtime, as one value. The planning
 * services hold them (`PlanningCaches`: one per runtime planned
 * against, weakly keyed), and a caller of the pure `plan` may pass one it
 * made for its runtime; a runtime value carries no cache, and no module
 * holds planning state. A cache made for one runtime is ignored when handed
 * to a plan against another (a runtime copied with a change,
 * `{ ...runtime, cards }`, is another runtime), so it never answers with a
 * different catalog's results. Everything inside is keyed by immutable
 * objects in `WeakMap`s.
 *
 * @since 0.1.0
 */
import { Context, type Either, Layer } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import type { seal } from "../BundleCompiler.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import { type CardLedger, emptyLedger, type SealedEntryContent } from "../ledger/Ledger.js"
import { ResolutionCache } from "../ResolutionCache.js"
import type { Runtime } from "../Runtime.js"
import type { Card, EffectComponent } from "../schema/Card.js"
import type { Status } from "../schema/Status.js"
import type { Transformation } from "../schema/Transformation.js"
import type { ReplayContext } from "../store/Schemas.js"

/** One component of an effective card as `changedComponentIds` compares it: the component and its origin. */
export interface ComponentFacts {
  readonly component: EffectComponent
  readonly origin: string
}

/** A ledger resolved in a runtime. */
export type Resolved = Either.Either<EffectiveCardDefinition, ReadonlyArray<Diagnostic>>
/** A transformation sealed in a runtime. */
export type Sealed = ReturnType<typeof seal>

/** Memo tables of planning against one runtime: resolution, resolved ledgers, sealed transformations, component facts, replay contexts. */
export class PlanningCache {
  /** The resolution cache the plans of this runtime resolve through. */
  readonly resolution = new ResolutionCache()
  /** This runtime's ledgers, resolved: a ledger resolved once (or produced by a plan) is not resolved again. */
  readonly resolved = new WeakMap<CardLedger, Resolved>()
  /** This runtime's transformations, sealed once each (entries made from one share the sealed objects). */
  readonly sealed = new WeakMap<Transformation, Sealed>()
  /** Sealed content already verified (its hash checked) once: entries made from it are admitted without hashing it again. */
  readonly verified = new WeakSet<SealedEntryContent>()
  /** Effective cards indexed once each (a card is the "after" of one plan and the "before" of the next). */
  readonly componentIndex = new WeakMap<EffectiveCardDefinition, Map<string, ComponentFacts>>()
  /** The canonical JSON of a component's own payload (without its children), once per component object. */
  readonly componentPayload = new WeakMap<EffectComponent, string>()
  private readonly contexts = new WeakMap<Card, WeakMap<ReadonlyMap<string, Status>, ReplayContext>>()
  private readonly empties = new Map<string, CardLedger>()

  /** @param runtime the runtime whose plans this cache serves */
  constructor(readonly runtime: Runtime) {}

  /**
   * A card's empty ledger, one object per card of this runtime: queries against an empty ledger then share
   * its resolution (remembered by ledger object) instead of composing the base card again. Callers ask only
   * for the runtime's cards, so the map is bounded by them.
   */
  emptyLedger(cardId: string): CardLedger {
    let ledger = this.empties.get(cardId)
    if (ledger === undefined) {
      ledger = emptyLedger(cardId)
      this.empties.set(cardId, ledger)
    }
    return ledger
  }

  /** Replay contexts, one object per base card and statuses (so the store serializes each once). */
  replayContexts(baseCard: Card): WeakMap<ReadonlyMap<string, Status>, ReplayContext> {
    let inner = this.contexts.get(baseCard)
    if (inner === undefined) {
      inner = new WeakMap()
      this.contexts.set(baseCard, inner)
    }
    return inner
  }
}

/** Planning caches, one per runtime (weakly keyed): what the planner service and the Cards queries hold. */
export class PlanningCaches {
  private readonly byRuntime = new WeakMap<Runtime, PlanningCache>()

  /** The cache of a runtime, made on first use. */
  of(runtime: Runtime): PlanningCache {
    let c = this.byRuntime.get(runtime)
    if (c === undefined) {
      c = new PlanningCache(runtime)
      this.byRuntime.set(runtime, c)
    }
    return c
  }
}

/**
 * One `PlanningCaches` for every planning service of an application (the
 * planner and the Cards queries), so a transformation is sealed, a card's base
 * composed and a stored ledger resolved once for both: an assessment of a
 * stored instance leaves the resolution its apply plans from. Optional: a
 * service built without it holds caches of its own.
 */
export class SharedPlanningCaches extends Context.Tag("cardfx/SharedPlanningCaches")<
  SharedPlanningCaches,
  PlanningCaches
>() {
  static readonly layer: Layer.Layer<SharedPlanningCaches> = Layer.sync(
    SharedPlanningCaches,
    () => new PlanningCaches()
  )
}
