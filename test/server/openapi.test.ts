/**
 * The OpenAPI document `cardfx serve` derives from the API definition
 * (`/openapi.json`) is valid OpenAPI 3.1, checked by a validator package
 * (`@seriousme/openapi-schema-validator`, the OpenAPI Initiative's JSON
 * schemas), and lists every endpoint with its success status and the
 * error statuses every request can meet (test/api/openapi.test.ts checks
 * each operation's own).
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type Running, startServer } from "./support.js"

interface Operation {
  readonly operationId?: string
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema?: unknown }> }>
}
interface Spec {
  readonly openapi: string
  readonly paths: Record<string, Record<string, Operation>>
}

/** Every endpoint, written out independently of the definition, with its success status. */
const ENDPOINTS: ReadonlyArray<readonly [method: string, path: string, success: string]> = [
  ["get", "/v1/health", "200"],
  ["get", "/v1/runtime", "200"],
  ["get", "/v1/runtime/events", "200"],
  ["get", "/v1/cards", "200"],
  ["get", "/v1/cards/{cardId}/effective", "200"],
  ["post", "/v1/assess", "200"],
  ["post", "/v1/discover", "200"],
  ["post", "/v1/instances/{instanceId}/commands", "200"],
  ["get", "/v1/instances/{instanceId}", "200"],
  ["get", "/v1/instances/{instanceId}/history", "200"],
  ["get", "/v1/instances/{instanceId}/replay", "200"],
  ["post", "/v1/instances/{instanceId}/branches", "201"],
  ["get", "/v1/instances/{instanceId}/branches", "200"],
  ["post", "/v1/scenarios/run", "200"],
  ["get", "/v1/hhx/deck", "200"],
  ["post", "/v1/hhx/games", "201"],
  ["post", "/v1/hhx/games/{gameId}/actions", "200"],
  ["get", "/v1/hhx/games/{gameId}", "200"],
  ["get", "/v1/hhx/games/{gameId}/log", "200"],
  ["get", "/v1/hhx/games/{gameId}/explain", "200"],
  ["get", "/v1/hhx/games/{gameId}/events", "200"],
  ["post", "/v1/hhx/invitations", "200"],
  ["post", "/v1/hhx/balance", "200"],
  ["post", "/v1/admin/reload", "200"]
]

/** What every operation can answer: the door's `Host`/`Origin` refusal, a defect, starting or draining. */
const ERROR_STATUSES = ["403", "500", "503"]
/** What every operation with a body adds: the door's checks of it (malformed, too slow, too large, not JSON). */
const BODY_STATUSES = ["400", "408", "413", "415"]

describe("the OpenAPI document", () => {
  let s: Running
  let spec: Spec
  beforeAll(async () => {
    s = await startServer(freshStore("sqlite"))
    spec = (await (await fetch(`${s.url}/openapi.json`)).json()) as Spec
  })
  afterAll(() => s.close())

  it("is valid OpenAPI 3.1", async () => {
    expect(Validator.supportedVersions.has("3.1")).toBe(true)
    const validator = new Validator()
    const result = await validator.validate(structuredClone(spec) as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("the validator rejects a broken document (the check can fail)", async () => {
    const broken = structuredClone(spec) as { paths: Record<string, Record<string, unknown>> }
    const op = broken.paths["/v1/health"]?.["get"] as { responses?: unknown }
    op.responses = "none"
    const result = await new Validator().validate(broken as never)
    expect(result.valid).toBe(false)
  })

  it("every operation has a summary; no schema carries an $id; Last-Event-ID has its numeric pattern", () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const summary = (op as { summary?: unknown }).summary
        expect(typeof summary === "string" && summary.length > 0 && summary.length <= 100, `${method} ${path}`).toBe(
          true
        )
      }
    }
    expect(JSON.stringify(spec)).not.toContain("\"$id\"")
    const events = spec.paths["/v1/hhx/games/{gameId}/events"]?.["get"] as
      | { parameters?: Array<{ name: string; schema?: { pattern?: string } }> }
      | undefined
    expect(events?.parameters?.find((p) => p.name === "last-event-id")?.schema?.pattern).toBe("^[0-9]{1,16}$")
  })

  it("lists every endpoint, and only those", () => {
    const listed = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).map((m) => `${m} ${path}`)
    )
    expect(listed.sort()).toEqual(ENDPOINTS.map(([m, p]) => `${m} ${p}`).sort())
    const ids = listed.map((l) => {
      const [m, p] = l.split(" ") as [string, string]
      return spec.paths[p]?.[m]?.operationId
    })
    expect(new Set(ids).size).toBe(ENDPOINTS.length)
  })

  it.each(ENDPOINTS)(
    "%s %s lists its success status and the door's error statuses with the error body",
    (method, path, ok) => {
      const op = spec.paths[path]?.[method]
      expect(op).toBeDefined()
      const statuses = Object.keys(op?.responses ?? {})
      expect(statuses).toContain(ok)
      for (const status of method === "post" ? [...ERROR_STATUSES, ...BODY_STATUSES] : ERROR_STATUSES) {
        expect(statuses, `${method} ${path} lacks ${status}`).toContain(status)
        const body = JSON.stringify(op?.responses[status]?.content?.["application/json"]?.schema ?? null)
        // the error body `{code, message, diagnostics}`, inline or by reference
        expect(body, `${method} ${path} ${status}`).not.toBe("null")
      }
    }
  )
})
