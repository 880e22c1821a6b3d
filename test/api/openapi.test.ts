/**
 * The OpenAPI document names every Schema once: no two different Schemas of
 * the HTTP contract (src/api) share a component name — Effect's generator
 * writes the first Schema it meets under a name and points every later one
 * with that name at it, so a shared name silently makes an answer contradict
 * its own spec. And the real `GET /v1/hhx/deck` answer validates (Ajv, JSON
 * Schema 2020-12: the dialect of OpenAPI 3.1) against the schema the spec
 * declares for it.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import Ajv2020 from "ajv/dist/2020.js"
import { JSONSchema, Option, Schema, SchemaAST as AST } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CardfxApi } from "../../src/api/Api.js"
import { freshStore, type Running, startServer } from "../server/support.js"

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
