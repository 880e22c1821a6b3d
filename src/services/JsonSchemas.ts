/**
 * JSON Schemas derived from the Schemas: one source of truth. Each is JSON
 * Schema draft 2020-12 (`$defs`, `$id` under {@link JSON_SCHEMA_ID_PREFIX},
 * so `cardfx validate` recognizes the files `cardfx schema` writes) and
 * compiles under Ajv 2020's strict mode and `@hyperjump/json-schema`:
 *
 * - a numeric bound always comes with its `type` (Ajv strictTypes);
 * - nothing but annotations (`description`, `title`, ...) stands beside a
 *   `$ref`: constraints go inside an `allOf` with it, so every validator
 *   applies them whatever its reading of `$ref` siblings;
 * - every property and definition carries a `description`, written once as
 *   the Schema's `description` annotation (the same text serves `cardfx lsp`
 *   hover, OpenAPI and the docs); {@link undocumented} lists any that do not.
 *
 * @since 0.1.0
 */
import { JSONSchema, Schema } from "effect"
import { Scenario } from "../composition/scenario/Scenario.js"
import { ContentFile, Manifest } from "../composition/schema/Package.js"
import { StarterDeck } from "../hallyu/Schema.js"
import { JSON_SCHEMA_ID_PREFIX } from "../kernel/Json.js"

/** The dialect every schema declares. */
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

/** A JSON Schema document (2020-12) as written. */
export type JsonSchemaDocument = { readonly [key: string]: unknown }

const numericKeywords = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]
/** Keywords that only annotate: they may stand beside a `$ref`. */
const annotationKeywords = new Set([
  "$ref",
  "$defs",
  "$id",
  "$schema",
  "description",
  "title",
  "default",
  "examples",
  "$comment",
  "deprecated"
])
/** The titles Effect gives its own refinements (`between(0, 5)`, `int`, `maxLength(64)`): not authored text. */
const builtInTitle = /^[a-z][A-Za-z]*(\(.*\))?$/s
/** Keywords whose value is data, not a schema: never rewritten. */
const dataKeywords = new Set(["const", "enum", "default", "examples"])

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * A copy where every schema object with a numeric bound and no `type` gets
 * `type: "number"`, and every constraint beside a `$ref` moves into an `allOf`
 * with it.
 */
const normalize = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(normalize)
  if (!isRecord(node)) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) out[k] = dataKeywords.has(k) ? v : normalize(v)
  if (numericKeywords.some((k) => k in out) && !("type" in out) && !("$ref" in out)) out.type = "number"
  // Effect's built-in title and description of a refinement ("a number between 0 and 5") say less than
  // the bounds themselves: dropped, so every description left is one written in the Schemas.
  // (Effect's texts start "a ..." or "an ..." in lower case; the Schemas' own descriptions do not.)
  if (typeof out.title === "string" && builtInTitle.test(out.title)) delete out.title
  if (typeof out.description === "string" && /^an? [a-z]/.test(out.description)) delete out.description
  if (typeof out.$ref === "string") {
    const constraints = Object.keys(out).filter((k) => !annotationKeywords.has(k))
    if (constraints.length > 0) {
      const kept: Record<string, unknown> = {}
      const moved: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(out)) {
        if (k === "$ref") continue
        if (annotationKeywords.has(k)) kept[k] = v
        else moved[k] = v
      }
      return { ...kept, allOf: [{ $ref: out.$ref }, moved] }
    }
  }
  return out
}

/**
 * Inlines the definitions that are only a `type` (Effect's `Int`: `{ "type": "integer" }`), which would
 * otherwise be definitions without a description.
 */
const inlineTrivial = (root: Record<string, unknown>): Record<string, unknown> => {
  const defs = isRecord(root.$defs) ? root.$defs : {}
  const trivial = new Map<string, unknown>()
  for (const [k, v] of Object.entries(defs)) {
    if (isRecord(v) && Object.keys(v).every((key) => key === "type")) trivial.set(`#/$defs/${k}`, v)
  }
  if (trivial.size === 0) return root
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (!isRecord(node)) return node
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(node)) out[k] = dataKeywords.has(k) ? v : walk(v)
    const inlined = typeof out.$ref === "string" ? trivial.get(out.$ref) : undefined
    if (isRecord(inlined)) {
      delete out.$ref
      return { ...inlined, ...out }
    }
    if (Array.isArray(out.allOf)) {
      const rest = out.allOf.filter((s) => !(isRecord(s) && Object.keys(s).length === 1 && "type" in s))
      const types = out.allOf.filter((s) => isRecord(s) && Object.keys(s).length === 1 && "type" in s)
      if (types.length > 0 && rest.length === 1 && isRecord(rest[0]) && !("$ref" in rest[0])) {
        delete out.allOf
        return { ...rest[0], ...(types[0] as Record<string, unknown>), ...out }
      }
    }
    return out
  }
  const walked = walk(root) as Record<string, unknown>
  const kept = Object.fromEntries(
    Object.entries(walked.$defs as Record<string, unknown>).filter(([k]) => !trivial.has(`#/$defs/${k}`))
  )
  return { ...walked, $defs: kept }
}

const finish = (name: string, schema: Record<string, unknown>): JsonSchemaDocument => {
  const { $schema: _draft, ...rest } = inlineTrivial(schema)
  return { $schema: DRAFT_2020_12, $id: jsonSchemaId(name), ...rest }
}

/** The `$id` of the schema written as `NAME.schema.json`. */
export const jsonSchemaId = (name: string): string => `${JSON_SCHEMA_ID_PREFIX}${name}.schema.json`

/**
 * The structural path of every described schema node: `$defs`, `properties`, `items`, `anyOf` and
 * `additionalProperties` steps; an `allOf` is transparent (a `$ref` with its bounds). The first
 * description met on a path is kept.
 */
const descriptionsByPath = (root: unknown): Map<string, string> => {
  const found = new Map<string, string>()
  const visit = (node: unknown, path: string): void => {
    if (!isRecord(node)) return
    if (typeof node.description === "string" && !found.has(path)) found.set(path, node.description)
    for (const key of ["$defs", "properties"]) {
      const m = node[key]
      if (isRecord(m)) { for (const [k, v] of Object.entries(m)) visit(v, `${path}/${key}/${k}`) }
    }
    if (isRecord(node.items)) visit(node.items, `${path}/items`)
    if (isRecord(node.additionalProperties)) visit(node.additionalProperties, `${path}/additionalProperties`)
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((v, i) => visit(v, `${path}/anyOf/${i}`))
    if (Array.isArray(node.allOf)) node.allOf.forEach((v) => visit(v, path))
  }
  visit(root, "#")
  return found
}

/**
 * Effect derives a JSON Schema from the encoded side of a Schema; where a struct has a field with a
 * default (a transformation), the encoded side loses the other fields' annotations. They are taken back
 * from the type side, path by path (same text, same annotations).
 */
const withTypeSideDescriptions = (encoded: unknown, typeSide: unknown): unknown => {
  const descriptions = descriptionsByPath(typeSide)
  const visit = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node
    if (!isRecord(node)) return node
    const out: Record<string, unknown> = { ...node }
    if (out.description === undefined && descriptions.has(path)) out.description = descriptions.get(path)
    for (const key of ["$defs", "properties"]) {
      const m = out[key]
      if (isRecord(m)) {
        out[key] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, visit(v, `${path}/${key}/${k}`)]))
      }
    }
    if (isRecord(out.items)) out.items = visit(out.items, `${path}/items`)
    if (isRecord(out.additionalProperties)) {
      out.additionalProperties = visit(out.additionalProperties, `${path}/additionalProperties`)
    }
    if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((v, i) => visit(v, `${path}/anyOf/${i}`))
    return out
  }
  return visit(encoded, "#")
}

const make = <A, I, R>(schema: Schema.Schema<A, I, R>): Record<string, unknown> => {
  const encoded = normalize(JSONSchema.make(schema, { target: "jsonSchema2020-12" }))
  const typeSide = normalize(JSONSchema.make(Schema.typeSchema(schema), { target: "jsonSchema2020-12" }))
  // The type side of a transformation has no identifier: its root is the encoded side's root definition.
  const rootRef = isRecord(encoded) && typeof encoded.$ref === "string" ? encoded.$ref : undefined
  const aligned = rootRef !== undefined && isRecord(typeSide) && typeSide.$ref === undefined
    ? (() => {
      const { $defs, $schema: _s, ...root } = typeSide
      return { $defs: { ...(isRecord($defs) ? $defs : {}), [rootRef.replace("#/$defs/", "")]: root } }
    })()
    : typeSide
  const described = withTypeSideDescriptions(encoded, aligned)
  return isRecord(described) ? described : {}
}

/** Every exported JSON Schema by file stem. */
export const jsonSchemas = (): Record<string, JsonSchemaDocument> => ({
  manifest: finish("manifest", make(Manifest)),
  content: finish("content", make(ContentFile)),
  scenario: finish("scenario", make(Scenario)),
  "hallyu-hex-deck": finish("hallyu-hex-deck", make(StarterDeck))
})

/** Which schema file a document of each kind is checked against. */
export const schemaFileFor = {
  manifest: "manifest.schema.json",
  content: "content.schema.json",
  scenario: "scenario.schema.json",
  deck: "hallyu-hex-deck.schema.json"
} as const

const resolveRef = (root: JsonSchemaDocument, ref: string): unknown => {
  if (!ref.startsWith("#/")) return undefined
  let node: unknown = root
  for (const seg of ref.slice(2).split("/")) {
    if (!isRecord(node)) return undefined
    node = node[seg.replace(/~1/g, "/").replace(/~0/g, "~")]
  }
  return node
}

/** True when a (sub)schema describes itself, or is a `$ref` (possibly in an `allOf`) to one that does. */
const isDescribed = (root: JsonSchemaDocument, node: unknown, depth = 0): boolean => {
  if (!isRecord(node) || depth > 8) return false
  if (typeof node.description === "string" && node.description.length > 0) return true
  if (typeof node.$ref === "string") return isDescribed(root, resolveRef(root, node.$ref), depth + 1)
  if (Array.isArray(node.allOf)) return node.allOf.some((s) => isDescribed(root, s, depth + 1))
  return false
}

/**
 * Every property (`properties/NAME`, with its JSON path in the schema) and
 * every definition (`$defs/NAME`) without a description, in document order.
 */
export const undocumented = (root: JsonSchemaDocument): ReadonlyArray<string> => {
  const missing: Array<string> = []
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`))
    if (!isRecord(node)) return
    for (const [k, v] of Object.entries(node)) {
      if (dataKeywords.has(k)) continue
      if ((k === "properties" || k === "$defs") && isRecord(v)) {
        for (const [name, sub] of Object.entries(v)) {
          if (!isDescribed(root, sub)) missing.push(`${path}/${k}/${name}`)
          walk(sub, `${path}/${k}/${name}`)
        }
      } else walk(v, `${path}/${k}`)
    }
  }
  walk(root, "#")
  return missing
}

/**
 * The description of the property at a JSON path in a document checked
 * against `root` (hover text): follows `properties`, `items`,
 * `additionalProperties`, `$ref`, `allOf` and the `anyOf` branch whose
 * `const` discriminators the value matches (when the value is given).
 */
export const describeAt = (
  root: JsonSchemaDocument,
  path: ReadonlyArray<string | number>,
  value?: unknown
): string | undefined => {
  const candidates = (node: unknown, depth = 0): Array<Record<string, unknown>> => {
    if (!isRecord(node) || depth > 16) return []
    const out: Array<Record<string, unknown>> = [node]
    if (typeof node.$ref === "string") out.push(...candidates(resolveRef(root, node.$ref), depth + 1))
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = node[key]
      if (Array.isArray(list)) { for (const s of list) out.push(...candidates(s, depth + 1)) }
    }
    return out
  }
  const valueAt = (i: number): unknown => {
    let v: unknown = value
    for (const seg of path.slice(0, i)) {
      v = isRecord(v) || Array.isArray(v)
        ? (v as Record<string, unknown>)[seg]
        : undefined
    }
    return v
  }
  const matches = (node: Record<string, unknown>, v: unknown): boolean => {
    if (!isRecord(node.properties) || !isRecord(v)) return true
    for (const [k, p] of Object.entries(node.properties)) {
      if (!isRecord(p) || !(k in v)) continue
      const only = "const" in p ? [p.const] : Array.isArray(p.enum) ? p.enum : undefined
      if (only !== undefined && !only.includes(v[k])) return false
    }
    return true
  }
  let nodes: Array<unknown> = [root]
  let description: string | undefined
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]
    const here = valueAt(i)
    const next: Array<unknown> = []
    description = undefined
    for (const n of nodes.flatMap((x) => candidates(x))) {
      if (!matches(n, here)) continue
      if (typeof seg === "number" || /^\d+$/.test(String(seg))) {
        if (n.items !== undefined) next.push(n.items)
        if (Array.isArray(n.prefixItems) && n.prefixItems[Number(seg)] !== undefined) {
          next.push(n.prefixItems[Number(seg)])
        }
      }
      if (typeof seg === "string" && isRecord(n.properties) && n.properties[seg] !== undefined) {
        next.push(n.properties[seg])
      } else if (typeof seg === "string" && isRecord(n.additionalProperties)) next.push(n.additionalProperties)
    }
    if (next.length === 0) return undefined
    for (const n of next) {
      for (const c of candidates(n)) {
        if (typeof c.description === "string") {
          description = c.description
          break
        }
      }
      if (description !== undefined) break
    }
    nodes = next
  }
  return description
}
