/**
 * The common executor: combat state, bucket pipeline, statuses and turns,
 * the pure sequence core and the `CardExecutor` service.
 *
 * @since 0.1.0
 */
export * from "./Buckets.js"
export * from "./CardExecutor.js"
export * from "./CombatState.js"
export * from "./Events.js"
export * from "./Execute.js"
export * from "./Render.js"
export * from "./Statuses.js"
