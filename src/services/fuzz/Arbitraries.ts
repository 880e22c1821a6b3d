/**
 * fast-check arbitraries derived from the Schemas with `Arbitrary.makeLazy`:
 * every value they produce has the shape its Schema requires (IDs, symbol
 * lists, ranges), nothing more. The content Schemas are recursive and their
 * lists long, so the lazy arbitraries are given a fast-check whose arrays and
 * strings are bounded (`maxItems` items per list, "xsmall" string sizes):
 * generation stays fast and shrinking stays short. Use them to test that a
 * consumer never throws on shape-valid content; use `./ValidContent.ts` for content
 * that must publish.
 *
 * @since 0.1.0
 */
import { Arbitrary, FastCheck as fc, type Schema } from "effect"
import { CardLedger } from "../../composition/ledger/Ledger.js"
import { Scenario } from "../../composition/scenario/Scenario.js"
import { Bundle } from "../../composition/schema/Bundle.js"
import { Card, EffectComponent } from "../../composition/schema/Card.js"
import { Status } from "../../composition/schema/Status.js"
import { Patch, Transformation } from "../../composition/schema/Transformation.js"
import { Card as HallyuCard, StarterDeck } from "../../hallyu/Schema.js"

/** How big generated values may get. */
export interface ArbitrarySize {
  /** Items per generated list (default 3). A Schema's own `minItems` wins when larger. */
  readonly maxItems?: number
}

/**
 * The fast-check module with bounded arrays and strings. `Arbitrary.makeLazy`
 * builds everything through the module it is given, so bounding these three
 * constructors bounds every list and string of every Schema.
 */
export const boundedFastCheck = (size: ArbitrarySize = {}): typeof fc => {
  const maxItems = size.maxItems ?? 3
  const array = <T>(item: fc.Arbitrary<T>, constraints: fc.ArrayConstraints = {}): fc.Arbitrary<Array<T>> => {
    const min = constraints.minLength ?? 0
    const max = Math.max(min, Math.min(constraints.maxLength ?? maxItems, maxItems))
    return fc.array(item, { ...constraints, minLength: min, maxLength: max, size: "xsmall" })
  }
  const string = (constraints: fc.StringConstraints = {}): fc.Arbitrary<string> =>
    fc.string({ ...constraints, size: "xsmall" })
  const stringMatching = (regex: RegExp, constraints: fc.StringMatchingConstraints = {}): fc.Arbitrary<string> =>
    fc.stringMatching(regex, { ...constraints, size: "xsmall" })
  return { ...fc, array, string, stringMatching } as typeof fc
}

/** A bounded fast-check arbitrary for any Schema's type. */
export const arbitraryOf = <A, I, R>(schema: Schema.Schema<A, I, R>, size: ArbitrarySize = {}): fc.Arbitrary<A> =>
  Arbitrary.makeLazy(schema)(boundedFastCheck(size))

/** Composition: effect components (recursive, bounded). */
export const effectComponentArbitrary = (size?: ArbitrarySize): fc.Arbitrary<EffectComponent> =>
  arbitraryOf(EffectComponent, size)
/** Composition: cards. */
export const cardArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Card> => arbitraryOf(Card, size)
/** Composition: statuses. */
export const statusArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Status> => arbitraryOf(Status, size)
/** Composition: rule bundles and templates. */
export const bundleArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Bundle> => arbitraryOf(Bundle, size)
/** Composition: structural patches. */
export const patchArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Patch> => arbitraryOf(Patch, size)
/** Composition: transformations (upgrades). */
export const transformationArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Transformation> =>
  arbitraryOf(Transformation, size)
/** Composition: card ledgers (sealed entries; their seal hashes are random, so `verifyLedger` rejects most). */
export const ledgerArbitrary = (size?: ArbitrarySize): fc.Arbitrary<CardLedger> => arbitraryOf(CardLedger, size)
/** Executor scenarios. */
export const scenarioArbitrary = (size?: ArbitrarySize): fc.Arbitrary<Scenario> => arbitraryOf(Scenario, size)
/** Hallyu Hex: cards (shape only: the validator decides what they mean). */
export const hallyuCardArbitrary = (size?: ArbitrarySize): fc.Arbitrary<HallyuCard> => arbitraryOf(HallyuCard, size)
/** Hallyu Hex: whole deck files (shape only). */
export const hallyuDeckArbitrary = (size?: ArbitrarySize): fc.Arbitrary<StarterDeck> => arbitraryOf(StarterDeck, size)
