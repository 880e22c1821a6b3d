/**
 * JSON Schemas (draft-07) derived from the Schemas: one source of truth.
 *
 * @since 0.1.0
 */
import { JSONSchema } from "effect"
import { Scenario } from "./composition/scenario/Scenario.js"
import { ContentFile, Manifest } from "./composition/schema/Package.js"
import { deckJsonSchema } from "./hallyu/Schema.js"

/** Every exported JSON Schema by file stem. */
export const jsonSchemas = (): Record<string, JSONSchema.JsonSchema7Root> => ({
  manifest: JSONSchema.make(Manifest),
  content: JSONSchema.make(ContentFile),
  scenario: JSONSchema.make(Scenario),
  "hallyu-hex-deck": deckJsonSchema()
})
