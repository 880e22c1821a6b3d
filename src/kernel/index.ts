/**
 * The shared kernel of both systems: diagnostics and their one code table,
 * tagged errors, hardened JSON, canonical JSON + sha256, ordinal comparison,
 * the seeded RNG, budgets and limits.
 *
 * @since 0.1.0
 */
export * from "./Budget.js"
export * from "./Canonical.js"
export * from "./Decode.js"
export * from "./Diagnostic.js"
export * from "./DiagnosticCode.js"
export * from "./Errors.js"
export * from "./Json.js"
export * from "./Limits.js"
export * from "./Ordinal.js"
export * from "./Rng.js"
export * from "./SchemaExt.js"
