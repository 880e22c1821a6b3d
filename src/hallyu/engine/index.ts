/**
 * The Hallyu Hex engine: state, legal actions, resolution, simulation, replay.
 *
 * @since 0.1.0
 */
export * from "./Balance.js"
export * from "./Compiled.js"
export * from "./Engine.js"
export * from "./Simulate.js"
export * from "./State.js"
export * from "./View.js"
