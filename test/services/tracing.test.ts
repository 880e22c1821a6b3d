/**
 * One span per service call (issue 42.6): an in-memory tracer attached to
 * the server `cardfx serve` runs (in this process, 127.0.0.1, an ephemeral
 * port) sees, for each HTTP request, one `Service.method` span per call the
 * handler makes, nested under the method that made it.
 */
import { Effect, Exit, Layer, Logger, LogLevel, Option, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeLifecycle, serverLayer, serverUrl } from "../../src/server/Server.js"
import { memoryTracer } from "../../src/testing/tracing.js"

const tracer = memoryTracer()
const dir = mkdtempSync(join(tmpdir(), "cardfx-trace-"))
const scope = Effect.runSync(Scope.make())
let url = ""

beforeAll(async () => {
  const layer = serverLayer({
    packages: ["data/heroscript.base"],
    store: join(dir, "ledger.db"),
    deckFile: "data/hallyu-hex/starter-deck.v0.json",
    host: "127.0.0.1",
    port: 0,
    token: Option.none()
  }, Effect.runSync(makeLifecycle)).pipe(
    Layer.provide(Logger.minimumLogLevel(LogLevel.None)),
    Layer.provide(tracer.layer)
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  url = Effect.runSync(Effect.provide(serverUrl, context))
}, 60_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

/** The spans one request opened: their names, and each one's parent's name (if the parent is a span of the request). */
const spansOf = async (path: string) => {
  tracer.clear()
  const response = await fetch(`${url}${path}`)
  await response.arrayBuffer()
  const spans = [...tracer.spans]
  const names = new Map(spans.map((s) => [s.spanId, s.name]))
  return {
    status: response.status,
    names: spans.map((s) => s.name),
    parents: spans.map((s) => [s.name, Option.getOrUndefined(Option.map(s.parent, (p) => names.get(p.spanId)))])
  }
}

const count = (names: ReadonlyArray<string>, name: string) => names.filter((n) => n === name).length

describe("a tracer attached to the server sees one span per service call", () => {
  it("GET /v1/cards: one Cards.list span, the catalog read under it", async () => {
    const r = await spansOf("/v1/cards")
    expect(r.status).toBe(200)
    expect(count(r.names, "Cards.list")).toBe(1)
    // Every span of the request is a service method's (`Service.method`).
    expect(r.names.every((n) => /^[A-Z][A-Za-z]+\.[a-z][A-Za-z]+$/.test(n)), r.names.join(", ")).toBe(true)
    for (const [name, parent] of r.parents) if (name !== "Cards.list") expect(parent, name).toBe("Cards.list")
  })

  it("GET /v1/cards/{id}/effective?with=...: one Cards.inspect span; a failure is one span too", async () => {
    const ok = await spansOf("/v1/cards/basic_attack/effective?with=core.ember.affinity")
    expect(ok.status).toBe(200)
    expect(count(ok.names, "Cards.inspect")).toBe(1)
    const missing = await spansOf("/v1/cards/nope/effective")
    expect(missing.status).toBe(404)
    expect(count(missing.names, "Cards.inspect")).toBe(1)
  })

  it("a command: one Instances.command span, the planner and the store under it", async () => {
    tracer.clear()
    const response = await fetch(`${url}/v1/instances/i1/commands`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        commandId: "c1",
        cardId: "basic_attack",
        expectedRevision: 0,
        command: { kind: "apply", upgradeId: "core.ember.affinity" }
      })
    })
    const body = await response.text()
    const names = tracer.spans.map((s) => s.name)
    expect(count(names, "Instances.command"), `${response.status} ${body}`).toBe(1)
    expect(names.some((n) => n.startsWith("CardTransformationPlanner.")), names.join(", ")).toBe(true)
    expect(names.some((n) => n.startsWith("LedgerStore.")), names.join(", ")).toBe(true)
  })
})
