/**
 * The memo tables of resolution, as one value. Everything memoized is keyed
 * by immutable objects (base cards, status maps, sealed entries and rules,
 * component objects) in `WeakMap`s, so a cache holds nothing its keys do not
 * keep alive and is valid for any input. It is owned by the service that
 * resolves repeatedly: a `CardResolver` service value holds one, the
 * planner holds one per runtime (inside its `PlanningCache`), a scenario run
 * one for the run. It is passed to `resolveEffectiveCard`; without one, a
 * resolution runs cold with a cache of its own. No module and no runtime
 * value holds resolution state.
 *
 * @since 0.1.0
 */
import { FingerprintText } from "./FingerprintText.js"
import { ActiveOrders } from "./ledger/Ledger.js"
import { Preparation } from "./Lowering.js"
import { StructuralStates } from "./Structural.js"

/** Memo tables of the resolver: ledgers' active orders, structural states, prepared sealed content, fingerprint text. */
export class ResolutionCache {
  readonly active = new ActiveOrders()
  readonly structural = new StructuralStates()
  readonly preparation = new Preparation()
  readonly text = new FingerprintText()
}
