/**
 * The planner's memo tables, as one value owned by a `Runtime`
 * (`runtime.planningCache`, made by `publish`); a runtime built by hand plans
 * cold. Everything is keyed by immutable objects in `WeakMap`s. What depends
 * on the runtime (its ledgers resolved against its cards, its transformations
 * sealed under its pin) is keyed by the runtime object too, so a runtime
 * copied with a change (`{ ...runtime, cards }`) — which shares this value —
 * never reads the original's entries. No module holds planning state.
 *
 * @since 0.1.0
 */
import type { Either } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import type { seal } from "../BundleCompiler.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import type { CardLedger } from "../ledger/Ledger.js"
import type { Runtime } from "../Runtime.js"
import type { Card } from "../schema/Card.js"
import type { Status } from "../schema/Status.js"
import type { Transformation } from "../schema/Transformation.js"
import type { ReplayContext } from "../store/LedgerStore.js"

/** One component of an effective card as `changedComponentIds` compares it. */
export interface ComponentFacts {
  readonly payload: string
  readonly children: string
  readonly origin: string
}

/** A ledger resolved in a runtime. */
export type Resolved = Either.Either<EffectiveCardDefinition, ReadonlyArray<Diagnostic>>
/** A transformation sealed in a runtime. */
export type Sealed = ReturnType<typeof seal>

const twoLevel = <K1 extends object, K2 extends object, V>(
  outer: WeakMap<K1, WeakMap<K2, V>>,
  k1: K1
): WeakMap<K2, V> => {
  let inner = outer.get(k1)
  if (inner === undefined) {
    inner = new WeakMap()
    outer.set(k1, inner)
  }
  return inner
}

/** Memo tables of planning: component indexes, resolved ledgers, sealed transformations, replay contexts. */
export class PlanningCache {
  /** Effective cards indexed once each (a card is the "after" of one plan and the "before" of the next). */
  readonly componentIndex = new WeakMap<EffectiveCardDefinition, Map<string, ComponentFacts>>()
  private readonly resolvedBy = new WeakMap<Runtime, WeakMap<CardLedger, Resolved>>()
  private readonly sealedBy = new WeakMap<Runtime, WeakMap<Transformation, Sealed>>()
  private readonly contexts = new WeakMap<Card, WeakMap<ReadonlyMap<string, Status>, ReplayContext>>()

  /** A runtime's ledgers, resolved: a ledger resolved once (or produced by a plan) is not resolved again. */
  resolved(runtime: Runtime): WeakMap<CardLedger, Resolved> {
    return twoLevel(this.resolvedBy, runtime)
  }
  /** A runtime's transformations, sealed once each (entries made from one share the sealed objects). */
  sealed(runtime: Runtime): WeakMap<Transformation, Sealed> {
    return twoLevel(this.sealedBy, runtime)
  }
  /** Replay contexts, one object per base card and statuses (so the store serializes each once). */
  replayContexts(baseCard: Card): WeakMap<ReadonlyMap<string, Status>, ReplayContext> {
    return twoLevel(this.contexts, baseCard)
  }
}
