/**
 * The served OpenAPI document as a test oracle: Ajv 2020 (the dialect of
 * OpenAPI 3.1) over the whole document, in strict mode, and a check that an
 * answer (status, content type, body) is one the spec declares for its
 * operation.
 */
import Ajv2020 from "ajv/dist/2020.js"
import { request } from "node:http"

/** One HTTP exchange over node:http (it sends any `Host`, unlike fetch), bounded by `timeoutMs`. */
export const send = (
  base: string,
  method: string,
  url: string,
  options: { readonly headers?: Record<string, string>; readonly body?: string; readonly timeoutMs?: number } = {}
): Promise<{ status: number; contentType: string | null; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(`${base}${url}`, {
      method: method.toUpperCase(),
      headers: {
        ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
        ...options.headers
      },
      timeout: options.timeoutMs ?? 10_000
    }, (res) => {
      const chunks: Array<Buffer> = []
      const type = res.headers["content-type"] ?? null
      // An event stream stays open: its status and type are the answer.
      if (type?.startsWith("text/event-stream") === true) {
        res.destroy()
        return resolve({ status: res.statusCode ?? 0, contentType: type, body: "" })
      }
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, contentType: type, body: Buffer.concat(chunks).toString() }))
      res.on("error", reject)
    })
    req.on("timeout", () =>
      req.destroy(new Error(`${method} ${url}: no answer within the timeout`)))
    req.on("error", reject)
    req.end(options.body)
  })

export interface Operation {
  readonly operationId: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<{
    readonly name: string
    readonly in: "path" | "query" | "header"
    readonly required?: boolean
    readonly schema: unknown
  }>
  readonly requestBody?: { readonly content: Record<string, { readonly schema: unknown }> }
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema?: unknown }> }>
}
export interface Spec {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

export const METHODS = ["get", "post", "put", "patch", "delete"]

/** Every operation: method, path template, operation. */
export const operations = (spec: Spec): ReadonlyArray<readonly [string, string, Operation]> =>
  Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).filter(([m]) => METHODS.includes(m)).map(([m, op]) => [m, path, op] as const)
  )

const REF = "#/components/schemas/"

/** A schema of the document with its `$ref`s pointing into the registered components. */
const rebased = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(rebased)
  if (typeof node !== "object" || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith(REF)
      ? `cardfx#/$defs/${v.slice(REF.length)}`
      : rebased(v)
  }
  return out
}

/**
 * Ajv over the document's schemas: the components registered as one schema
 * (`$defs`), every other schema compiled against it. Strict by default: a
 * schema Ajv's strict mode complains about does not compile.
 */
export const makeAjv = (spec: Spec, strict = true) => {
  const ajv = new Ajv2020.default({ strict, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: "cardfx", $defs: rebased(spec.components.schemas) })
  const cache = new Map<string, ReturnType<typeof ajv.compile>>()
  return {
    ajv,
    /** The validator of the schema at a place of the document (its keys from the root). */
    at: (parts: ReadonlyArray<string>) => {
      const key = JSON.stringify(parts)
      const known = cache.get(key)
      if (known !== undefined) return known
      let node: unknown = spec
      for (const p of parts) {
        node = typeof node === "object" && node !== null
          ? (node as Record<string, unknown>)[p]
          : undefined
      }
      if (node === undefined) throw new Error(`no schema at ${parts.join("/")}`)
      const validate = ajv.compile(rebased(node) as object)
      cache.set(key, validate)
      return validate
    },
    /** Every component compiled (throws on the first that does not). */
    compileAll: () => Object.keys(spec.components.schemas).map((name) => ajv.getSchema(`cardfx#/$defs/${name}`))
  }
}
export type SpecAjv = ReturnType<typeof makeAjv>

/**
 * Why an answer is outside the spec (undefined: inside): its status must be
 * listed by the operation, and a JSON body must validate against that
 * response's schema.
 */
export const outsideSpec = (
  ajv: SpecAjv,
  spec: Spec,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: string
): string | undefined => {
  const op = spec.paths[path]?.[method]
  if (op === undefined) return `no operation ${method} ${path}`
  const response = op.responses[String(status)]
  if (response === undefined) {
    return `${method} ${path} answered ${status}, not listed (${Object.keys(op.responses).join(", ")}): ${
      body.slice(0, 200)
    }`
  }
  const declared = Object.keys(response.content ?? {})
  const type = (contentType ?? "").split(";")[0]?.trim() ?? ""
  if (declared.length > 0 && !declared.includes(type)) return `${method} ${path} ${status}: content type ${type}`
  if (type !== "application/json") return undefined
  const validate = ajv.at(["paths", path, method, "responses", String(status), "content", type, "schema"])
  const value: unknown = JSON.parse(body)
  if (validate(value)) return undefined
  return `${method} ${path} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${body.slice(0, 300)}`
}
