/**
 * Hallyu Hex agents: random, greedy, ismcts and (for measurement) cheater.
 *
 * @since 0.1.0
 */
export * from "./Agent.js"
export { evaluate, winChance } from "./Evaluate.js"
export * from "./Matches.js"
export * from "./Play.js"
export { greedy, ismcts, PLAYOUT_PLIES, type PlayoutPolicy, type Sampler, type SearchStats, UCB_C } from "./Search.js"
export { determinize } from "./World.js"
