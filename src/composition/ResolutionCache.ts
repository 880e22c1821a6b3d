/**
 * The memo tables of resolution, as one value. Everything memoized is keyed
 * by immutable objects (base cards, status maps, sealed entries and rules,
 * component objects) in `WeakMap`s, so a cache holds nothing its keys do not
 * keep alive and is valid for any input. It is owned by whoever resolves
 * repeatedly: a `CardResolver` service instance, a `Runtime`
 * (`runtime.resolutionCache`, used by the planner and the scenario runner).
 * It is passed to `resolveEffectiveCard`; without one, a resolution runs cold
 * with a cache of its own. No module holds resolution state.
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
