/**
 * The OpenAPI document names every Schema once: no two different Schemas of
 * the HTTP contract (src/api) share a component name — Effect's generator
 * writes the first Schema it meets under a name and points every later one
 * with that name at it, so a shared name silently makes an answer contradict
 * its own spec. And the real `GET /v1/hhx/deck` answer validates (Ajv, JSON
 * Schema 2020-12: the dialect of OpenAPI 3.1) against the schema the spec
 * declares for it. The document is an exact contract (Ajv 2020 strict over
 * every schema, Spectral's `spectral:oas` with no error or warning, integers
 * as `integer`, no tuples, each operation's own statuses, each error
 * schema's own codes), and real answers — every endpoint's success and every
 * error status — validate against it.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import spectralCore from "@stoplight/spectral-core"
import spectralParsers from "@stoplight/spectral-parsers"
import spectralRulesets from "@stoplight/spectral-rulesets"
import Ajv2020 from "ajv/dist/2020.js"
import { JSONSchema, Option, Schema, SchemaAST as AST } from "effect"
import { type ClientRequest, request } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CardfxApi } from "../../src/api/Api.js"
import { DiagnosticCodeTable } from "../../src/kernel/DiagnosticCode.js"
import { freshStore, type Running, startServer } from "../server/support.js"
import { makeAjv, operations, outsideSpec, send, type Spec as FullSpec } from "./spec.js"

/** The name Effect's JSON Schema generator gives an AST node (JSONSchema.ts `getIdentifierAnnotation`). */
const identifierOf = (ast: AST.AST): string | undefined => {
  const id = Option.getOrUndefined(AST.getJSONIdentifier(ast))
  if (id !== undefined) return id
  if (AST.isTransformation(ast) && AST.isTypeLiteral(ast.from) && AST.isDeclaration(ast.to)) {
    if (Option.isSome(AST.getSurrogateAnnotation(ast.to))) return identifierOf(ast.to)
  }
  return undefined
}

/** Every named AST node reachable from `root`, by name (each distinct node once). */
const namedNodes = (roots: ReadonlyArray<AST.AST>): Map<string, Set<AST.AST>> => {
  const byName = new Map<string, Set<AST.AST>>()
  const seen = new Set<AST.AST>()
  const visit = (ast: AST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    const id = identifierOf(ast)
    if (id !== undefined) byName.set(id, (byName.get(id) ?? new Set()).add(ast))
    const surrogate = AST.getSurrogateAnnotation(ast)
    if (Option.isSome(surrogate)) visit(surrogate.value)
    switch (ast._tag) {
      case "TypeLiteral":
        for (const p of ast.propertySignatures) visit(p.type)
        for (const i of ast.indexSignatures) visit(i.type)
        return
      case "Union":
        for (const t of ast.types) visit(t)
        return
      case "TupleType":
        for (const e of ast.elements) visit(e.type)
        for (const r of ast.rest) visit(r.type)
        return
      case "Refinement":
        return visit(ast.from)
      case "Transformation":
        // The generator writes the encoded side (a Class is named after its type side: `identifierOf`).
        return visit(ast.from)
      case "Suspend":
        return visit(ast.f())
      case "Declaration":
        for (const t of ast.typeParameters) visit(t)
        return
      default:
        return
    }
  }
  for (const r of roots) visit(r)
  return byName
}

/** Every Schema the API definition holds: paths, query parameters, bodies, answers, errors, middleware failures. */
const apiSchemas = (): ReadonlyArray<AST.AST> => {
  const out: Array<AST.AST> = [CardfxApi.errorSchema.ast]
  HttpApi.reflect(CardfxApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, errors, middleware, successes }) => {
      for (const s of [endpoint.pathSchema, endpoint.urlParamsSchema, endpoint.payloadSchema, endpoint.headersSchema]) {
        if (Option.isSome(s)) out.push(s.value.ast)
      }
      for (const [, r] of successes) if (Option.isSome(r.ast)) out.push(r.ast.value)
      for (const [, r] of errors) if (Option.isSome(r.ast)) out.push(r.ast.value)
      for (const m of middleware) out.push(m.failure.ast)
    }
  })
  return out
}

/** The JSON Schema a node stands for when it is given a name of its own. */
const jsonSchemaOf = (ast: AST.AST): string => {
  try {
    return JSON.stringify(
      JSONSchema.fromAST(ast, { definitions: {}, target: "openApi3.1", topLevelReferenceStrategy: "skip" })
    )
  } catch (e) {
    // Not representable (a type-side node the generator never reaches): distinct by its AST.
    return `unrepresentable ${String(e)} ${String(ast)}`
  }
}

describe("every Schema that reaches the OpenAPI document has a name of its own", () => {
  const byName = namedNodes(apiSchemas())

  it("the walk reaches the contract's Schemas (the check can fail)", () => {
    for (const name of ["GameDocument", "HallyuHexDeck", "CardLedger", "NotFound"]) {
      expect(byName.has(name), name).toBe(true)
    }
    // A name shared by two different Schemas is caught: the composition effect and a renamed copy.
    const twin = Schema.Struct({ other: Schema.String }).annotations({ identifier: "GameDocument" })
    const clash = namedNodes([...apiSchemas(), twin.ast]).get("GameDocument")
    expect(new Set([...clash ?? []].map(jsonSchemaOf)).size).toBe(2)
  })

  it("no two different Schemas share a component name", () => {
    const shared = [...byName].flatMap(([name, nodes]) => {
      const distinct = new Set([...nodes].map(jsonSchemaOf))
      return distinct.size > 1 ? [`${name}: ${distinct.size} different Schemas`] : []
    })
    expect(shared).toEqual([])
  })

  it("every component of the generated document is one of those names, each $ref points at a component", () => {
    const spec = OpenApi.fromApi(CardfxApi)
    const components = Object.keys(spec.components.schemas)
    expect(components.length).toBeGreaterThan(50)
    for (const c of components) expect(byName.has(c), c).toBe(true)
    const refs = [...JSON.stringify(spec).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1])
    expect(refs.filter((r) => r === undefined || !components.includes(r))).toEqual([])
  })
})

interface Spec {
  readonly paths: Record<string, Record<string, unknown>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

describe("GET /v1/hhx/deck validates against its own OpenAPI schema", () => {
  let s: Running
  let spec: Spec
  let deck: unknown
  beforeAll(async () => {
    s = await startServer(freshStore("sqlite"))
    spec = (await (await fetch(`${s.url}/openapi.json`)).json()) as Spec
    const response = await fetch(`${s.url}/v1/hhx/deck`)
    expect(response.status).toBe(200)
    deck = await response.json()
  })
  afterAll(() => s.close())

  const validatorFor = (path: string, method: string, status: string) => {
    // OpenAPI 3.1's schemas are JSON Schema 2020-12; the document is registered whole so `#/components/...` resolves.
    const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: false })
    ajv.addSchema(spec, "openapi.json")
    const pointer = ["paths", path, method, "responses", status, "content", "application/json", "schema"]
      .map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1"))
      .join("/")
    const validate = ajv.getSchema(`openapi.json#/${pointer}`)
    if (validate === undefined) throw new Error(`no schema at ${pointer}`)
    return validate
  }

  it("the real answer is valid", () => {
    const validate = validatorFor("/v1/hhx/deck", "get", "200")
    const ok = validate(deck)
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([])
    expect(ok).toBe(true)
  })

  it("an answer that breaks the deck schema is not (the check can fail)", () => {
    const validate = validatorFor("/v1/hhx/deck", "get", "200")
    const broken = structuredClone(deck) as { cards: Array<{ effects: Array<Record<string, unknown>> }> }
    const effect = broken.cards.find((c) => c.effects.length > 0)?.effects[0]
    expect(effect).toBeDefined()
    if (effect !== undefined) effect["actions"] = "none"
    expect(validate(broken)).toBe(false)
  })
})

// ---------------------------------------------------------------- the document as an exact contract

const TOKEN = "contract-token"
const ember = { kind: "apply", upgradeId: "core.ember.affinity" } as const

describe("the OpenAPI document is an exact contract", () => {
  let s: Running
  let spec: FullSpec
  let ajv: ReturnType<typeof makeAjv>
  beforeAll(async () => {
    s = await startServer({ ...freshStore("sqlite"), token: TOKEN })
    spec = (await (await fetch(`${s.url}/openapi.json`)).json()) as FullSpec
    ajv = makeAjv(spec)
  })
  afterAll(() => s.close())

  it("every schema compiles under Ajv 2020 strict, and so does every operation's", () => {
    expect(ajv.compileAll().filter((v) => v === undefined)).toEqual([])
    for (const [method, path, op] of operations(spec)) {
      for (const [i] of (op.parameters ?? []).entries()) {
        ajv.at(["paths", path, method, "parameters", String(i), "schema"])
      }
      for (const type of Object.keys(op.requestBody?.content ?? {})) {
        ajv.at(["paths", path, method, "requestBody", "content", type, "schema"])
      }
      for (const [status, r] of Object.entries(op.responses)) {
        for (const type of Object.keys(r.content ?? {})) {
          ajv.at(["paths", path, method, "responses", status, "content", type, "schema"])
        }
      }
    }
    // The check can fail: bounds beside a `$ref` with no `type` (what the generator used to write).
    const broken = structuredClone(spec) as { components: { schemas: Record<string, unknown> } }
    broken.components.schemas["Bounded"] = { $ref: "#/components/schemas/Int", maximum: 3 }
    expect(() => makeAjv(broken as FullSpec).compileAll()).toThrow(/strict mode/)
  })

  it("spectral lint with spectral:oas: no error, no warning", async () => {
    const spectral = new spectralCore.Spectral()
    spectral.setRuleset({ extends: [[spectralRulesets.oas, "recommended"]] } as never)
    const lint = (doc: unknown) =>
      spectral.run(new spectralCore.Document(JSON.stringify(doc), spectralParsers.Json, "openapi.json"))
    const results = await lint(spec)
    expect(results.filter((r) => r.severity <= 1).map((r) => `${r.code} ${r.path.join("/")}: ${r.message}`)).toEqual(
      []
    )
    // The check can fail: an operation without a description is a warning.
    const broken = structuredClone(spec) as { paths: Record<string, Record<string, { description?: string }>> }
    const health = broken.paths["/v1/health"]?.["get"]
    if (health !== undefined) delete health.description
    expect((await lint(broken)).some((r) => r.code === "operation-description")).toBe(true)
  })

  it("no tuple `prefixItems`, every operation described, integers typed `integer`", () => {
    expect(JSON.stringify(spec)).not.toContain("prefixItems")
    for (const [method, path, op] of operations(spec)) expect(op.description ?? "", `${method} ${path}`).not.toBe("")
    const c = spec.components.schemas as Record<
      string,
      { properties: Record<string, { type?: string; $ref?: string }> }
    >
    const integer = (schema: { type?: string; $ref?: string } | undefined) =>
      schema?.type === "integer" || schema?.$ref === "#/components/schemas/Int" ||
      schema?.$ref === "#/components/schemas/NonNegativeInt"
    for (
      const [name, field] of [
        ["HhxPlayerView", "turn"],
        ["HhxSeatView", "composure"],
        ["HhxSeatView", "handSize"],
        ["StoredEvent", "sequence"],
        ["StoredEvent", "revision"],
        ["Branch", "forkSequence"],
        ["CardSummary", "cost"],
        ["GameDocument", "step"],
        ["InstanceDocument", "revision"]
      ] as const
    ) expect(integer(c[name]?.properties[field]), `${name}.${field}`).toBe(true)
    expect(JSON.stringify(c["HhxPlayerView"]?.properties["seats"])).toContain("\"minItems\":2")
  })

  it("every string a request carries has a limit (parameters, headers, bodies)", () => {
    const unbounded = new Set<string>()
    const seen = new Set<unknown>()
    const visit = (node: unknown, where: string): void => {
      if (typeof node !== "object" || node === null || seen.has(node)) return
      seen.add(node)
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}/${i}`))
      const o = node as Record<string, unknown>
      const ref = o["$ref"]
      if (typeof ref === "string") {
        visit(spec.components.schemas[ref.split("/").pop() ?? ""], ref.split("/").pop() ?? "")
      }
      const bounded = o["maxLength"] !== undefined || o["enum"] !== undefined || o["const"] !== undefined ||
        typeof ref === "string"
      if (o["type"] === "string" && !bounded) unbounded.add(where)
      for (const [k, v] of Object.entries(o)) if (k !== "$ref") visit(v, `${where}/${k}`)
    }
    for (const [method, path, op] of operations(spec)) {
      for (const p of op.parameters ?? []) visit(p.schema, `${method} ${path} ${p.name}`)
      visit(op.requestBody?.content["application/json"]?.schema, `${method} ${path} body`)
    }
    expect([...unbounded].sort()).toEqual([])
  })

  it("every ID a request names carries the request ID's pattern and maxLength 128", () => {
    type Node = Record<string, unknown>
    const resolve = (node: unknown): Node => {
      let n = node as Node
      while (typeof n["$ref"] === "string") n = spec.components.schemas[n["$ref"].split("/").pop() ?? ""] as Node
      return n
    }
    // A list of IDs (`with`, `decks`, `packages`): its items.
    const id = (node: unknown): unknown => {
      const n = resolve(node)
      const one = n["type"] === "array" ? resolve(n["items"]) : n
      return { pattern: one["pattern"], maxLength: one["maxLength"] }
    }
    const fields = new Map<string, unknown>()
    for (const [method, path, op] of operations(spec)) {
      for (const p of op.parameters ?? []) {
        // Every path and query ID (an action ID is the engine's key, not an ID of this syntax).
        if (p.in !== "header" && /Id$|^branch$|^with$/.test(p.name) && p.name !== "actionId") {
          fields.set(`${method} ${path} ${p.name}`, id(p.schema))
        }
      }
    }
    const body = (name: string, keys: ReadonlyArray<string>) => {
      const props = resolve(spec.components.schemas[name])["properties"] as Record<string, unknown>
      for (const k of keys) fields.set(`${name}.${k}`, id(props[k]))
    }
    body("AssessRequest", ["cardId", "activity", "instanceId", "branch"])
    body("DiscoverRequest", ["cardId", "activity", "instanceId", "branch"])
    body("InstanceCommand", ["commandId", "cardId", "activity", "branch"])
    body("BranchRequest", ["name", "parent"])
    body("NewGameRequest", ["decks"])
    body("ScenarioRunRequest", ["packages"])
    const command = resolve(spec.components.schemas["LedgerCommand"])["anyOf"] as ReadonlyArray<Node>
    command.forEach((member, i) => {
      for (const [k, v] of Object.entries(member["properties"] as Node)) {
        if (k !== "kind") fields.set(`LedgerCommand[${i}].${k}`, id(v))
      }
    })
    const want = { pattern: "^[A-Za-z0-9][A-Za-z0-9_.:\\-/]*$", maxLength: 128 }
    expect([...fields].filter(([, v]) => JSON.stringify(v) !== JSON.stringify(want))).toEqual([])
    // Parameters: cardId, instanceId, gameId, branch (three reads), with; bodies: 17; commands: 4.
    expect(fields.size).toBeGreaterThanOrEqual(30)
  })

  it("each error schema lists only the codes of its status", () => {
    const byStatus = new Map<number, Array<string>>()
    for (const [code, row] of Object.entries(DiagnosticCodeTable)) {
      byStatus.set(row.status, [...byStatus.get(row.status) ?? [], code])
    }
    const errors = ["BadRequest", "Unauthorized", "Forbidden", "NotFound", "RequestTimeout", "Conflict"]
      .concat(["PayloadTooLarge", "UnsupportedMediaType", "Unprocessable", "InternalError", "Unavailable"])
    for (const name of errors) {
      const schema = spec.components.schemas[name] as { properties: { code: { enum: Array<string> } } } | undefined
      expect(schema, name).toBeDefined()
      const status = Object.entries(spec.paths).flatMap(([, ops]) =>
        Object.values(ops).flatMap((op) =>
          Object.entries(op.responses).filter(([, r]) =>
            JSON.stringify(r.content ?? {}).includes(`"#/components/schemas/${name}"`)
          ).map(([st]) => Number(st))
        )
      )
      expect(new Set(status).size, name).toBe(1)
      expect([...schema?.properties.code.enum ?? []].sort(), name).toEqual(
        [...byStatus.get(status[0] ?? 0) ?? []].sort()
      )
    }
    expect(JSON.stringify(spec)).not.toContain("HttpApiDecodeError")
  })

  it("each operation lists its own statuses, not every status", () => {
    const statusesOf = (m: string, p: string) => Object.keys(spec.paths[p]?.[m]?.responses ?? {}).sort()
    expect(statusesOf("get", "/v1/health")).toEqual(["200", "403", "500", "503"])
    expect(statusesOf("get", "/v1/hhx/deck")).toEqual(["200", "401", "403", "500", "503"])
    expect(statusesOf("post", "/v1/instances/{instanceId}/commands")).toEqual(
      ["200", "400", "401", "403", "404", "408", "409", "413", "415", "422", "500", "503"]
    )
  })

  // ---------------------------------------------------------------- real answers

  /** Sends a request and checks its answer against the spec; answers the status and body. */
  const answer = async (
    method: string,
    template: string,
    url: string,
    init: { body?: string; headers?: Record<string, string> } = {}
  ): Promise<{ status: number; body: string }> => {
    const response = await send(s.url, method, url, {
      headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {})
    })
    const body = response.body
    const problem = outsideSpec(ajv, spec, method, template, response.status, response.contentType, body)
    expect(problem).toBeUndefined()
    return { status: response.status, body }
  }
  const auth = { authorization: `Bearer ${TOKEN}` }
  const json = (v: unknown) => JSON.stringify(v)

  it("every endpoint's success answer validates against its schema", async () => {
    const seen = new Set<string>()
    const ok = async (method: string, template: string, url: string, init?: Parameters<typeof answer>[3]) => {
      const r = await answer(method, template, url, init)
      expect(r.status, `${method} ${url}: ${r.body.slice(0, 300)}`).toBeLessThan(300)
      seen.add(`${method} ${template}`)
      return JSON.parse(r.body === "" ? "null" : r.body) as Record<string, unknown>
    }
    await ok("get", "/v1/health", "/v1/health")
    await ok("get", "/v1/runtime", "/v1/runtime")
    await ok("get", "/v1/runtime/events", "/v1/runtime/events?once=true")
    await ok("get", "/v1/cards", "/v1/cards")
    await ok("get", "/v1/hhx/deck", "/v1/hhx/deck")
    await ok("get", "/v1/cards/{cardId}/effective", "/v1/cards/basic_attack/effective?with=core.ember.affinity")
    await ok("post", "/v1/assess", "/v1/assess", { body: json({ cardId: "basic_attack", command: ember }) })
    await ok("post", "/v1/discover", "/v1/discover", { body: json({ cardId: "basic_attack" }) })
    const id = "i".repeat(128)
    await ok("post", "/v1/instances/{instanceId}/commands", `/v1/instances/${id}/commands`, {
      headers: auth,
      body: json({ commandId: "c1", cardId: "basic_attack", expectedRevision: 0, command: ember })
    })
    await ok("get", "/v1/instances/{instanceId}", `/v1/instances/${id}`)
    await ok("get", "/v1/instances/{instanceId}/history", `/v1/instances/${id}/history`)
    await ok("get", "/v1/instances/{instanceId}/replay", `/v1/instances/${id}/replay`)
    await ok("post", "/v1/instances/{instanceId}/branches", `/v1/instances/${id}/branches`, {
      headers: auth,
      body: json({ name: "b".repeat(128) })
    })
    await ok("get", "/v1/instances/{instanceId}/branches", `/v1/instances/${id}/branches`)
    await ok("post", "/v1/scenarios/run", "/v1/scenarios/run", {
      body: json({
        scenario: 1,
        packages: ["heroscript.base"],
        seed: 7,
        state: {
          turn: 1,
          activeSide: "ally",
          characters: [
            { characterId: "hero", side: "ally", hp: 30, maxHp: 40 },
            { characterId: "slime", side: "enemy", hp: 40, maxHp: 40 }
          ]
        },
        steps: [{ op: "play", actor: "hero", card: "basic_attack", targets: ["slime"] }]
      })
    })
    const created = await ok("post", "/v1/hhx/games", "/v1/hhx/games", { headers: auth, body: json({ seed: 5 }) })
    const game = created["game"] as { gameId: string; step: number }
    const seats = created["seats"] as Array<{ secret: string }>
    const g = `/v1/hhx/games/${game.gameId}`
    const view = await ok("get", "/v1/hhx/games/{gameId}", `${g}?seat=0`, { headers: auth })
    const toAct = view["toAct"] as number
    const mine = { "x-seat-secret": seats[toAct]?.secret ?? "" }
    const acting = await ok("get", "/v1/hhx/games/{gameId}", g, { headers: mine })
    const action = (acting["legalActions"] as Array<{ id: string }>)[0]?.id ?? ""
    await ok("get", "/v1/hhx/games/{gameId}/explain", `${g}/explain?actionId=${encodeURIComponent(action)}`, {
      headers: mine
    })
    await ok("post", "/v1/hhx/games/{gameId}/actions", `${g}/actions`, {
      headers: mine,
      body: json({ actionId: action, expectedStep: game.step })
    })
    await ok("get", "/v1/hhx/games/{gameId}/log", `${g}/log`, { headers: auth })
    await ok("get", "/v1/hhx/games/{gameId}/events", `${g}/events`, { headers: auth })
    const invited = await ok("post", "/v1/hhx/games", "/v1/hhx/games", { headers: auth, body: json({ invite: true }) })
    const code = (invited["invitation"] as { code: string }).code
    await ok("post", "/v1/hhx/invitations", "/v1/hhx/invitations", { body: json({ code }) })
    await ok("post", "/v1/hhx/balance", "/v1/hhx/balance", { headers: auth, body: json({ games: 2, seed: 3 }) })
    await ok("post", "/v1/admin/reload", "/v1/admin/reload", { headers: auth })
    expect([...seen].sort()).toEqual(operations(spec).map(([m, p]) => `${m} ${p}`).sort())
  })

  it("every error status an endpoint lists is answered as the spec says (each status at least once)", async () => {
    const statuses = new Map<string, Set<number>>()
    const err = async (
      method: string,
      template: string,
      url: string,
      want: number,
      init?: Parameters<typeof answer>[3]
    ) => {
      const r = await answer(method, template, url, init)
      expect(r.status, `${method} ${url}: ${r.body.slice(0, 300)}`).toBe(want)
      // The body's code is one of the status's (the codes check of the suite records it).
      expect(JSON.parse(r.body)).toMatchObject({ code: expect.any(String) })
      statuses.set(`${method} ${template}`, (statuses.get(`${method} ${template}`) ?? new Set()).add(want))
      return JSON.parse(r.body) as { code: string }
    }
    const id = "inst-err"
    for (const [method, template] of operations(spec).map(([m, p]) => [m, p] as const)) {
      const url = template.replace("{instanceId}", id).replace("{cardId}", "basic_attack").replace(
        "{gameId}",
        "nogame"
      )
      // 403: a Host the server does not answer for (every operation).
      await err(method, template, url, 403, { headers: { host: "evil.example" } })
      if (method === "post") {
        // 415, 413, 400 (malformed JSON) and 401 (no token where the operation needs it) for every body.
        await err(method, template, url, 415, { headers: { ...auth, "content-type": "text/plain" }, body: "{}" })
        await err(method, template, url, 413, { headers: auth, body: "x".repeat(1024 * 1024 + 1) })
        await err(method, template, url, 400, { headers: auth, body: "{" })
      }
    }
    // 401 and 403: the token.
    await err("post", "/v1/admin/reload", "/v1/admin/reload", 401)
    await err("post", "/v1/admin/reload", "/v1/admin/reload", 403, { headers: { authorization: "Bearer nope" } })
    // 404 by path, 400 by query, 422 by content.
    await err("get", "/v1/cards/{cardId}/effective", "/v1/cards/nope/effective", 404)
    await err("get", "/v1/instances/{instanceId}", `/v1/instances/${id}`, 404)
    await err("get", "/v1/instances/{instanceId}/history", `/v1/instances/${id}/history`, 404)
    await err("get", "/v1/instances/{instanceId}/replay", `/v1/instances/${id}/replay`, 404)
    await err("get", "/v1/hhx/games/{gameId}", "/v1/hhx/games/nogame", 404)
    await err("get", "/v1/hhx/games/{gameId}/log", "/v1/hhx/games/nogame/log", 404)
    await err("get", "/v1/hhx/games/{gameId}/explain", "/v1/hhx/games/nogame/explain?actionId=x", 404)
    await err("get", "/v1/hhx/games/{gameId}/events", "/v1/hhx/games/nogame/events", 404)
    await err("get", "/v1/hhx/games/{gameId}", "/v1/hhx/games/nogame?seat=2", 400)
    expect(await err("post", "/v1/hhx/invitations", "/v1/hhx/invitations", 404, { body: json({ code: "nogame.x" }) }))
      .toMatchObject({ code: "invitation_invalid" })
    // An ID outside the syntax or over 128 characters is `invalid_id` (422), as on the CLI and in the library,
    // not a bare Schema failure; one of 65..128 characters that names nothing is not found.
    expect(await err("get", "/v1/hhx/games/{gameId}", "/v1/hhx/games/bad%20id", 422)).toMatchObject({
      code: "invalid_id"
    })
    await err("get", "/v1/instances/{instanceId}", `/v1/instances/${"x".repeat(129)}`, 422)
    await err("get", "/v1/cards/{cardId}/effective", `/v1/cards/${"c".repeat(100)}/effective`, 404)
    await err("post", "/v1/assess", "/v1/assess", 404, { body: json({ cardId: "nope", command: ember }) })
    await err(
      "get",
      "/v1/cards/{cardId}/effective",
      "/v1/cards/basic_attack/effective?with=core.ember.affinity&with=core.ember.affinity",
      422
    )
    await err("post", "/v1/discover", "/v1/discover", 404, {
      body: json({ cardId: "basic_attack", activity: "nowhere" })
    })
    await err("post", "/v1/instances/{instanceId}/commands", `/v1/instances/${id}/commands`, 409, {
      headers: auth,
      body: json({ commandId: "c1", cardId: "basic_attack", expectedRevision: 3, command: ember })
    })
    await err("post", "/v1/instances/{instanceId}/branches", `/v1/instances/${id}/branches`, 404, {
      headers: auth,
      body: json({ name: "b2", parent: "nope" })
    })
    // An instance that exists on no branch has no branches to list.
    await err("get", "/v1/instances/{instanceId}/branches", "/v1/instances/ghost/branches", 404)
    await err("post", "/v1/hhx/games", "/v1/hhx/games", 422, {
      headers: auth,
      body: json({ seed: 1, decks: ["nope", "nope"] })
    })
    // A balance run past its bound (20,000 games) is refused before it starts, naming the field.
    const tooMany = await err("post", "/v1/hhx/balance", "/v1/hhx/balance", 400, {
      headers: auth,
      body: json({ games: 20_001, seed: 1 })
    }) as { code: string; diagnostics: Array<{ path?: string; subject?: string; message: string }> }
    expect(tooMany.code).toBe("schema_invalid")
    expect(JSON.stringify(tooMany.diagnostics)).toContain("games")
    // A turn past the limit is the scenario's own 422 `turn_limit` (it once broke the answer's encoding: a 500).
    expect(
      await err("post", "/v1/scenarios/run", "/v1/scenarios/run", 422, {
        body: json({
          scenario: 1,
          packages: ["heroscript.base"],
          seed: 7,
          state: {
            turn: 1_000_000,
            activeSide: "ally",
            characters: [{ characterId: "hero", side: "ally", hp: 3, maxHp: 4 }]
          },
          steps: [{ op: "startTurn", side: "enemy" }]
        })
      })
    ).toMatchObject({ code: "turn_limit" })
    // 408: a body that does not arrive (the door's body timeout), over a raw socket.
    const slow = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(s.url)
      const socket = connect(Number(port), "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.setTimeout(10_000, () => socket.destroy(new Error("no 408 within 10 s")))
      socket.on("data", (c: Buffer) => chunks.push(c))
      socket.on("close", () => resolve(Buffer.concat(chunks).toString()))
      socket.on("error", reject)
      socket.write(
        "POST /v1/assess HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{"
      )
    })
    const [head = "", body = ""] = slow.split("\r\n\r\n")
    expect(head).toMatch(/^HTTP\/1\.1 408/)
    const json408 = body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1)
    expect(outsideSpec(ajv, spec, "post", "/v1/assess", 408, "application/json", json408)).toBeUndefined()
    statuses.set("post /v1/assess", (statuses.get("post /v1/assess") ?? new Set()).add(408))
    // 503: a game with as many event streams as allowed.
    const created = JSON.parse(
      (await answer("post", "/v1/hhx/games", "/v1/hhx/games", { headers: auth, body: json({ seed: 9 }) })).body
    ) as { game: { gameId: string } }
    const events = `/v1/hhx/games/${created.game.gameId}/events`
    const streams = await Promise.all(
      Array.from({ length: 8 }, () =>
        new Promise<ClientRequest>((resolve, reject) => {
          const req = request(`${s.url}${events}`, (res) => {
            expect(res.statusCode).toBe(200)
            resolve(req)
          })
          req.on("error", reject)
          req.end()
        }))
    )
    await err("get", "/v1/hhx/games/{gameId}/events", events, 503)
    for (const req of streams) req.destroy()
    const answered = new Set([...statuses.values()].flatMap((set) => [...set]))
    expect([...answered].sort()).toEqual([400, 401, 403, 404, 408, 409, 413, 415, 422, 503])
  })
})
