/**
 * `cardfx/testing`: the generative testing kit.
 *
 * - Arbitraries derived from the Schemas (bounded sizes): cards, effect
 *   components, statuses, bundles, patches, transformations, ledgers,
 *   scenarios, Hallyu Hex cards and decks.
 * - Generators of *valid* content: composition content that publishes
 *   (`validCompositionContent`, `publishContent`) and Hallyu Hex cards and
 *   decks that validate (`validHallyuCard`, `validHallyuDeck`).
 * - Limit walkers for every entry of `Limits` (`walkers`, `limitCoverage`):
 *   cases exactly at a limit and one past it, with the code the latter must
 *   produce and the stage that enforces it.
 * - The fuzz properties behind `cardfx fuzz` (`runFuzz`).
 *
 * @since 0.1.0
 */
export { type LimitWalker, limitWalkers as compositionLimitWalkers } from "../composition/testing/limits.js"
export * from "./arbitraries.js"
export * from "./fuzz.js"
export * from "./limits.js"
export * from "./tracing.js"
export * from "./valid.js"
