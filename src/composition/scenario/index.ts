/**
 * Scenarios: the JSON format, its validation and the deterministic runner.
 *
 * @since 0.1.0
 */
export * from "./Runner.js"
export * from "./Scenario.js"
