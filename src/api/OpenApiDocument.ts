/**
 * The last step of the OpenAPI document `/openapi.json` serves (an
 * `OpenApi.Transform` of {@link CardfxApi}): what Effect's generator writes
 * that is not the contract, corrected in one place.
 *
 * - `HttpApi.make` declares `HttpApiDecodeError` on every operation's 400;
 *   the server never sends it (a decode failure is the API's own error body,
 *   src/server/Server.ts), so it leaves the document with its `Issue` and
 *   `PropertyKey` parts.
 * - A refinement of a named Schema (`Schema.Int.pipe(Schema.between(...))`)
 *   is written as `{$ref, minimum, maximum}` with no `type`: JSON Schema
 *   validators in strict mode (Ajv 2020 `strictTypes`) refuse bounds without
 *   a type, so the type of the referenced schema is written beside them.
 * - Tags in alphabetical order; the contact of `info`.
 * - Every operation has a `summary`: the first sentence of its description
 *   (at most 100 characters), for generated clients and the docs' index.
 * - No `$id` inside a schema: the generator writes one on `Schema.Unknown`
 *   (`{"$id": "/schemas/unknown"}`, e.g. in `HhxDecision.additionalProperties`),
 *   which changes the base URI there; `@hyperjump/json-schema` refuses it and
 *   a generated TypeScript type became an open index. It means "any value".
 *
 * The function is pure and total over the generator's output; it never
 * adds an operation, status or field the API definition does not have.
 *
 * @since 0.1.0
 */

type Json = Record<string, unknown>

const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"

/** The keywords that need a `type` beside them, by the type they apply to. */
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
const STRING_KEYWORDS = ["minLength", "maxLength", "pattern"]
const ARRAY_KEYWORDS = ["minItems", "maxItems", "uniqueItems"]

const refTarget = (components: Json, node: Json): Json | undefined => {
  const ref = node["$ref"] ?? (Array.isArray(node["allOf"]) && node["allOf"].length === 1 && isObject(node["allOf"][0])
    ? node["allOf"][0]["$ref"]
    : undefined)
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return undefined
  const target = components[ref.slice("#/components/schemas/".length)]
  return isObject(target) ? target : undefined
}

/** The `type` a schema node needs beside its keywords, from the schema it refers to (or its own keywords). */
const missingType = (components: Json, node: Json): string | undefined => {
  if (node["type"] !== undefined) return undefined
  const keys = Object.keys(node)
  const needs = (list: ReadonlyArray<string>) => list.some((k) => keys.includes(k))
  if (!needs(NUMBER_KEYWORDS) && !needs(STRING_KEYWORDS) && !needs(ARRAY_KEYWORDS)) return undefined
  const seen = new Set<Json>()
  let target = refTarget(components, node)
  while (target !== undefined && !seen.has(target)) {
    seen.add(target)
    if (typeof target["type"] === "string") return target["type"]
    target = refTarget(components, target)
  }
  return needs(NUMBER_KEYWORDS) ? "number" : needs(STRING_KEYWORDS) ? "string" : "array"
}

const typed = (components: Json, node: unknown): unknown => {
  if (Array.isArray(node)) return node.map((n) => typed(components, n))
  if (!isObject(node)) return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node)) if (k !== "$id") out[k] = typed(components, v)
  const type = missingType(components, node)
  return type === undefined ? out : { ...out, type }
}

/** A response schema without the decode error the server never sends. */
const withoutDecodeError = (schema: unknown): unknown => {
  if (!isObject(schema) || !Array.isArray(schema["anyOf"])) return schema
  const kept = schema["anyOf"].filter((s) => !(isObject(s) && s["$ref"] === DECODE_ERROR))
  if (kept.length === schema["anyOf"].length) return schema
  const { anyOf: _, ...rest } = schema
  return kept.length === 1 && Object.keys(rest).length === 0 ? kept[0] : { ...rest, anyOf: kept }
}

/** A response whose one schema is the decode error (an operation with no input): the server never answers it. */
const onlyDecodeError = (response: unknown): boolean =>
  isObject(response) && isObject(response["content"]) &&
  Object.values(response["content"]).every((media) =>
    isObject(media) && isObject(media["schema"]) && media["schema"]["$ref"] === DECODE_ERROR
  )

/** An operation's summary: the first sentence of its description, at most 100 characters. */
const summaryOf = (description: unknown, method: string, path: string): string => {
  const text = typeof description === "string" ? description.trim() : ""
  if (text === "") return `${method.toUpperCase()} ${path}`
  const end = text.search(/\.(\s|$)/)
  const first = end < 0 ? text : text.slice(0, end)
  return first.length <= 100 ? first : `${first.slice(0, 99)}…`
}

const mapResponses = (paths: Json): Json => {
  const out: Json = {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) {
      out[path] = item
      continue
    }
    const ops: Json = {}
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !isObject(op["responses"])) {
        ops[method] = op
        continue
      }
      const responses: Json = {}
      for (const [status, response] of Object.entries(op["responses"])) {
        if (onlyDecodeError(response)) continue
        if (!isObject(response) || !isObject(response["content"])) {
          responses[status] = response
          continue
        }
        const content: Json = {}
        for (const [type, media] of Object.entries(response["content"])) {
          content[type] = isObject(media) ? { ...media, schema: withoutDecodeError(media["schema"]) } : media
        }
        responses[status] = { ...response, content }
      }
      ops[method] = {
        ...op,
        ...(op["summary"] === undefined ? { summary: summaryOf(op["description"], method, path) } : {}),
        responses
      }
    }
    out[path] = ops
  }
  return out
}

/** The component names a value refers to (`$ref`s), transitively from `roots` through `components`. */
const reachable = (components: Json, roots: unknown): Set<string> => {
  const found = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!isObject(node)) return
    const ref = node["$ref"]
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const name = ref.slice("#/components/schemas/".length)
      if (!found.has(name)) {
        found.add(name)
        visit(components[name])
      }
    }
    for (const v of Object.values(node)) visit(v)
  }
  visit(roots)
  return found
}

/** The document as the contract: see the module comment. */
export const exact = (spec: Json): Json => {
  const components = isObject(spec["components"]) ? spec["components"] : {}
  const schemas = isObject(components["schemas"]) ? components["schemas"] : {}
  const paths = mapResponses(isObject(spec["paths"]) ? spec["paths"] : {})
  const used = reachable(schemas, paths)
  const kept: Json = {}
  for (const name of Object.keys(schemas).sort()) if (used.has(name)) kept[name] = typed(schemas, schemas[name])
  const nameOf = (tag: unknown): string => (isObject(tag) && typeof tag["name"] === "string" ? tag["name"] : "")
  const tags = Array.isArray(spec["tags"]) ? [...spec["tags"]] : []
  tags.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0))
  const info = isObject(spec["info"]) ? spec["info"] : {}
  return {
    ...spec,
    info: { ...info, contact: { name: "cardfx" } },
    tags,
    paths: typed(schemas, paths),
    components: { ...components, schemas: kept }
  }
}
