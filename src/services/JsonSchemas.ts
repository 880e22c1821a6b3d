/**
 * JSON Schemas derived from the Schemas: one source of truth. Each declares
 * the draft whose keywords it uses (draft-07: `definitions`, never `$defs`),
 * has an `$id` under {@link JSON_SCHEMA_ID_PREFIX} (so `cardfx validate`
 * recognizes the files `cardfx schema` writes) and compiles under Ajv's
 * strict mode: a numeric bound always comes with its `type`.
 *
 * @since 0.1.0
 */
import { JSONSchema } from "effect"
import { Scenario } from "../composition/scenario/Scenario.js"
import { ContentFile, Manifest } from "../composition/schema/Package.js"
import { deckJsonSchema } from "../hallyu/Schema.js"
import { JSON_SCHEMA_ID_PREFIX } from "./Validation.js"

const DRAFT_07 = "http://json-schema.org/draft-07/schema#"
const numericKeywords = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]

/** A copy where every schema object with a numeric bound and no `type` gets `type: "number"` (Ajv strictTypes). */
const withNumericTypes = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withNumericTypes)
  if (typeof node !== "object" || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === "const" || k === "enum" || k === "default" || k === "examples" ? v : withNumericTypes(v)
  }
  if (numericKeywords.some((k) => k in out) && !("type" in out)) out.type = "number"
  return out
}

const finish = (name: string, schema: JSONSchema.JsonSchema7Root): JSONSchema.JsonSchema7Root => {
  const { $schema: _draft, ...rest } = withNumericTypes(schema) as JSONSchema.JsonSchema7Root & {
    readonly $schema?: string
  }
  const text = JSON.stringify(rest)
  // draft-07 names its definitions `definitions`; `$defs` is 2019-09 (Ajv's default class would ignore it).
  const body = text.includes("\"$defs\"")
    ? (JSON.parse(
      text.replace(/"\$defs"/g, "\"definitions\"").replace(/#\/\$defs\//g, "#/definitions/")
    ) as typeof rest)
    : rest
  return {
    $schema: DRAFT_07,
    $id: `${JSON_SCHEMA_ID_PREFIX}${name}.schema.json`,
    ...body
  } as JSONSchema.JsonSchema7Root
}

/** Every exported JSON Schema by file stem. */
export const jsonSchemas = (): Record<string, JSONSchema.JsonSchema7Root> => ({
  manifest: finish("manifest", JSONSchema.make(Manifest)),
  content: finish("content", JSONSchema.make(ContentFile)),
  scenario: finish("scenario", JSONSchema.make(Scenario)),
  "hallyu-hex-deck": finish("hallyu-hex-deck", deckJsonSchema())
})
