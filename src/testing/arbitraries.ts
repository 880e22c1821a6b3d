/**
 * Arbitraries derived from the Schemas (bounded sizes), part of the kit;
 * they live beside the fuzz runner that uses them (`src/services/fuzz/`).
 *
 * @since 0.1.0
 */
export * from "../services/fuzz/Arbitraries.js"
