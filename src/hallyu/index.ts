/**
 * Hallyu Hex: the deck file's Schemas, the validator, the explain renderer
 * and the engine (legal actions, resolution, simulation and replay).
 *
 * @since 0.1.0
 */
/** Agents: random, greedy, ismcts and (measurement only) cheater; `playGame`; matches and tournaments. */
export * as Agents from "./agents/index.js"
export * from "./engine/index.js"
export * from "./Explain.js"
export * from "./Schema.js"
export { HallyuHex, type HallyuHexService, make as makeHallyuHex } from "./Service.js"
export * from "./Validate.js"
export * from "./Validated.js"
export * from "./Vocabulary.js"
