/**
 * Generators of valid content (composition content that publishes, Hallyu
 * Hex cards and decks that validate), part of the kit; they live beside the
 * fuzz runner that uses them (`src/services/fuzz/`).
 *
 * @since 0.1.0
 */
export * from "../services/fuzz/ValidContent.js"
