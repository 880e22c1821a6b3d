/**
 * Every endpoint of `cardfx serve` and every error status, through the typed
 * client (`cardfx/client`) against a server on an ephemeral 127.0.0.1 port,
 * on SQLite and (when reachable; required in CI) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dropPgTables, errorOf, freshStore, pgUp, type Running, startServer, type StoreKind } from "./support.js"

afterAll(dropPgTables)

const stores: Array<StoreKind> = pgUp ? ["sqlite", "postgres"] : ["sqlite"]

const ember = { kind: "apply", upgradeId: "core.ember.affinity" } as const
const sharpen = { kind: "apply", upgradeId: "core.sharpened_strike" } as const

describe.each(stores)("cardfx serve on %s", (kind) => {
  let s: Running
  beforeAll(async () => {
    s = await startServer(freshStore(kind))
  })
  afterAll(() => s.close())

  it("health and runtime", async () => {
    expect(await s.run(s.client.runtime.health())).toEqual({ status: "ok" })
    const rt = await s.run(s.client.runtime.runtime())
    expect(rt.engineVersion).toBe(17)
    expect(rt.packages.map((p) => p.packageId)).toEqual(["heroscript.base"])
    expect(rt.cards).toContain("basic_attack")
    expect(rt.activities).toEqual(["canonical_command", "journey_opportunity", "scenario"])
    expect(rt.contentHash).toMatch(/^[0-9a-f]{64}$/)
    // The display names of the served content (data/heroscript.base/locales.en.json).
    expect(rt.locales.map((l) => l.locale)).toEqual(["en"])
    expect(rt.locales[0]?.names["card.basic_attack.name"]).toBe("Basic Attack")
    expect(rt.locales[0]?.names["upgrade.core.ember.affinity.name"]).toBe("Ember affinity")
  })

  it("cards: list, effective with transformations, unknown card 404", async () => {
    const list = await s.run(s.client.cards.list())
    expect(list.cards.map((c) => c.cardId)).toContain("basic_attack")
    const doc = await s.run(
      s.client.cards.effective({ path: { cardId: "basic_attack" }, urlParams: { with: ["core.ember.affinity"] } })
    )
    expect(doc.ok).toBe(true)
    expect(doc.inspection.ledger.entries.map((e) => e.upgradeId)).toEqual(["core.ember.affinity"])
    const origins = Object.values(doc.inspection.origins ?? {})
    expect(origins.some((o) => o.startsWith("rule:e1/"))).toBe(true)
    const notFound = await errorOf(s.client.cards.effective({ path: { cardId: "nope" }, urlParams: {} }))
    expect(notFound._tag).toBe("NotFound")
    expect(notFound.code).toBe("unknown_card")
    const badUpgrade = await errorOf(
      s.client.cards.effective({ path: { cardId: "basic_attack" }, urlParams: { with: ["nope"] } })
    )
    expect(badUpgrade.code).toBe("unknown_transformation")
    expect(badUpgrade.diagnostics[0]?.path).toBe("/with/0")
  })

  it("assess and discover: the CLI's documents", async () => {
    const a = await s.run(s.client.cards.assess({ payload: { cardId: "basic_attack", command: ember } }))
    expect(a.isCompatible).toBe(true)
    expect(a.changedComponentIds.length).toBeGreaterThan(0)
    const refused = await s.run(
      s.client.cards.assess({ payload: { cardId: "basic_attack", command: ember, activity: "journey_opportunity" } })
    )
    expect(refused.isCompatible).toBe(false)
    expect(refused.diagnostics[0]?.code).toBe("not_authorized")
    const d = await s.run(
      s.client.cards.discover({ payload: { cardId: "basic_attack", activity: "journey_opportunity" } })
    )
    expect(d.offers.map((o) => [o.upgradeId, o.assessment.isCompatible])).toEqual([
      ["core.ember.affinity", false],
      ["core.sharpened_strike", true]
    ])
    const unknown = await errorOf(s.client.cards.discover({ payload: { cardId: "nope" } }))
    expect(unknown.code).toBe("unknown_card")
  })

  it("stored instances: commands, idempotent retries, 409 conflicts, 422 rejections, get, history, replay, branches", async () => {
    const cmd = (
      commandId: string,
      expectedRevision: number,
      command: typeof ember | typeof sharpen | { kind: "remove"; entryId: string }
    ) =>
      s.client.instances.command({
        path: { instanceId: "hero-1" },
        payload: { commandId, cardId: "basic_attack", expectedRevision, command }
      })
    const first = await s.run(cmd("c1", 0, ember))
    expect(first.status).toBe("applied")
    expect(first.revision).toBe(1)
    // a retry answers the recorded outcome
    expect(await s.run(cmd("c1", 0, ember))).toEqual(first)
    // same ID, another body
    const reused = await errorOf(cmd("c1", 0, sharpen))
    expect(reused._tag).toBe("Conflict")
    expect(reused.code).toBe("command_conflict")
    // stale revision
    const stale = await errorOf(cmd("c2", 0, sharpen))
    expect(stale._tag).toBe("Conflict")
    expect(stale.code).toBe("revision_conflict")
    // rejected by the planner: not authorized in the activity
    const refused = await errorOf(
      s.client.instances.command({
        path: { instanceId: "hero-1" },
        payload: { commandId: "c3", cardId: "basic_attack", expectedRevision: 1, command: sharpen, activity: "nowhere" }
      })
    )
    expect(refused.code).toBe("not_authorized")
    expect(refused._tag).toBe("Unprocessable")
    const second = await s.run(cmd("c4", 1, sharpen))
    expect(second.revision).toBe(2)

    const inst = await s.run(s.client.instances.get({ path: { instanceId: "hero-1" }, urlParams: {} }))
    expect(inst.revision).toBe(2)
    expect(inst.fingerprint).toBe(second.fingerprint)
    expect(inst.effective.fingerprint).toBe(second.fingerprint)
    expect(Object.values(inst.origins).some((o) => o.startsWith("rule:e1/"))).toBe(true)
    const missing = await errorOf(s.client.instances.get({ path: { instanceId: "ghost" }, urlParams: {} }))
    expect(missing.code).toBe("unknown_instance")
    expect(missing._tag).toBe("NotFound")

    const history = await s.run(s.client.instances.history({ path: { instanceId: "hero-1" }, urlParams: {} }))
    expect(history.events.map((e) => e.commandId)).toEqual(["c1", "c4"])
    const replay = await s.run(s.client.instances.replay({ path: { instanceId: "hero-1" }, urlParams: {} }))
    expect(replay.matches).toBe(true)
    expect(replay.steps.map((x) => x.revision)).toEqual([1, 2])
    expect(replay.next).toBeNull()
    // Pages of one event: the second starts at the first's `next` (an event sequence) and is the last.
    const page1 = await s.run(
      s.client.instances.replay({ path: { instanceId: "hero-1" }, urlParams: { limit: 1 } })
    )
    expect(page1.steps).toEqual(replay.steps.slice(0, 1))
    expect(page1.next).toBe(replay.steps[1]?.sequence)
    const page2 = await s.run(
      s.client.instances.replay({ path: { instanceId: "hero-1" }, urlParams: { from: page1.next ?? 0, limit: 1 } })
    )
    expect(page2).toEqual({ ...replay, steps: replay.steps.slice(1) })
    const past = await s.run(
      s.client.instances.replay({ path: { instanceId: "hero-1" }, urlParams: { from: 1e9 } })
    )
    expect(past.steps).toEqual([])
    expect(past.next).toBeNull()
    const ghostReplay = await errorOf(s.client.instances.replay({ path: { instanceId: "ghost" }, urlParams: {} }))
    expect(ghostReplay.code).toBe("unknown_instance")
    // Out of range or not an integer: 400 with the schema's code, on the wire as any client would send it.
    for (const query of ["from=-1", "from=1.5", "from=x", "limit=0", "limit=5001", "limit=" + "9".repeat(17)]) {
      const res = await fetch(`${s.url}/v1/instances/hero-1/replay?${query}`)
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { code: string }).code, query).toBe("schema_invalid")
    }

    const branch = await s.run(
      s.client.instances.createBranch({ path: { instanceId: "hero-1" }, payload: { name: "trial" } })
    )
    expect(branch.name).toBe("trial")
    const dup = await errorOf(
      s.client.instances.createBranch({ path: { instanceId: "hero-1" }, payload: { name: "trial" } })
    )
    expect(dup.code).toBe("duplicate_id")
    expect(dup._tag).toBe("Conflict")
    const onBranch = await s.run(
      s.client.instances.command({
        path: { instanceId: "hero-1" },
        payload: {
          commandId: "b1",
          cardId: "basic_attack",
          expectedRevision: 2,
          command: { kind: "remove", entryId: "e2" },
          branch: "trial"
        }
      })
    )
    expect(onBranch.branch).toBe("trial")
    expect(
      (await s.run(s.client.instances.get({ path: { instanceId: "hero-1" }, urlParams: { branch: "trial" } }))).revision
    ).toBe(3)
    expect((await s.run(s.client.instances.get({ path: { instanceId: "hero-1" }, urlParams: {} }))).revision).toBe(2)
    // Branches live under the instance's route; `main` is listed first, as the root.
    expect((await s.run(s.client.instances.branches({ path: { instanceId: "hero-1" } }))).branches).toEqual([
      { name: "main", parent: null, forkSequence: 0 },
      { name: "trial", parent: "main", forkSequence: expect.any(Number) }
    ])
    // An instance made on a fork is listed there and on the forks made from it later, not on main
    // nor on main's other forks; one that exists on no branch is 404.
    await s.run(s.client.instances.createBranch({ path: { instanceId: "hero-1" }, payload: { name: "sibling" } }))
    const onFork = await s.run(
      s.client.instances.command({
        path: { instanceId: "fork-only" },
        payload: { commandId: "f1", cardId: "basic_attack", expectedRevision: 0, command: ember, branch: "trial" }
      })
    )
    expect(onFork.status).toBe("applied")
    await s.run(
      s.client.instances.createBranch({
        path: { instanceId: "fork-only" },
        payload: { name: "trial-child", parent: "trial" }
      })
    )
    const branchesOf = async (instanceId: string) =>
      (await s.run(s.client.instances.branches({ path: { instanceId } }))).branches.map((b) => [b.name, b.parent])
    expect(await branchesOf("fork-only")).toEqual([["trial", "main"], ["trial-child", "trial"]])
    expect(await branchesOf("hero-1")).toEqual([
      ["main", null],
      ["sibling", "main"],
      ["trial", "main"],
      ["trial-child", "trial"]
    ])
    const ghostBranches = await errorOf(s.client.instances.branches({ path: { instanceId: "ghost" } }))
    expect([ghostBranches._tag, ghostBranches.code]).toEqual(["NotFound", "unknown_instance"])
    const noBranch = await errorOf(
      s.client.instances.history({ path: { instanceId: "hero-1" }, urlParams: { branch: "nope" } })
    )
    expect(noBranch.code).toBe("branch_not_found")
  })

  it("scenarios run over served packages only", async () => {
    const scenario = {
      scenario: 1 as const,
      packages: ["heroscript.base"] as [string, ...Array<string>],
      seed: 7,
      state: {
        turn: 1,
        activeSide: "ally" as const,
        characters: [
          // The typed client takes the Schema's Type side: defaulted fields are given.
          {
            characterId: "hero",
            side: "ally" as const,
            hp: 30,
            maxHp: 40,
            attributes: { strength: 2 },
            statuses: [],
            relics: [],
            buffs: []
          },
          {
            characterId: "slime",
            side: "enemy" as const,
            hp: 40,
            maxHp: 40,
            attributes: {},
            statuses: [],
            relics: [],
            buffs: []
          }
        ]
      },
      ledgers: { hero: { basic_attack: ["core.ember.affinity"] } },
      steps: [{ op: "play" as const, actor: "hero", card: "basic_attack", targets: ["slime"] }]
    }
    const r = await s.run(s.client.scenarios.run({ payload: scenario }))
    expect(r.ok).toBe(true)
    const impact = r.report.steps[0]?.events.find((e) => e.type === "impact")
    expect(impact).toBeDefined()
    expect(r.report.steps[0]?.events.some((e) => e.type === "statusApplied")).toBe(true)
    // The folder the server was started with, named as a path: packages are served package IDs, never paths
    // (a path outside the ID syntax, `../etc`, is not a request ID at all: 422 `invalid_id`, refused by the client).
    const path = await errorOf(
      s.client.scenarios.run({ payload: { ...scenario, packages: ["data/heroscript.base"] } })
    )
    expect(path.code).toBe("unknown_reference")
    expect(path._tag).toBe("Unprocessable")
    expect(path.diagnostics[0]?.path).toBe("/packages/0")
    const actor = await errorOf(
      s.client.scenarios.run({
        payload: { ...scenario, steps: [{ op: "play" as const, actor: "ghost", card: "basic_attack", targets: [] }] }
      })
    )
    expect(actor.code).toBe("unknown_character")
  })

  it("Hallyu Hex: create (random ID, a secret per seat), act as the seat to act, stale step 409, illegal 422 with the explain reason, get, log, explain", async () => {
    const created = await s.run(s.client.hhx.create({ payload: { seed: 11 } }))
    const g = created.game
    expect(g.gameId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(g.step).toBe(0)
    expect(g.viewer).toBeNull() // the spectator's view
    expect(created.seats.map((x) => x.seat)).toEqual([0, 1])
    const as = (seat: 0 | 1 | null) => ({ "x-seat-secret": created.seats[seat ?? 0]?.secret ?? "" })
    const gameId = g.gameId
    const mine = await s.run(s.client.hhx.get({ path: { gameId }, urlParams: {}, headers: as(g.toAct) }))
    expect(mine.viewer).toBe(g.toAct)
    expect(mine.legalActions.length).toBeGreaterThan(0)
    const action = mine.legalActions[0]
    if (action === undefined) throw new Error("no legal action")
    const next = await s.run(
      s.client.hhx.act({ path: { gameId }, headers: as(g.toAct), payload: { actionId: action.id, expectedStep: 0 } })
    )
    expect(next.step).toBe(1)
    const stale = await errorOf(
      s.client.hhx.act({ path: { gameId }, headers: as(next.toAct), payload: { actionId: action.id, expectedStep: 0 } })
    )
    expect(stale.code).toBe("step_conflict")
    expect(stale._tag).toBe("Conflict")
    const illegal = await errorOf(
      s.client.hhx.act({
        path: { gameId },
        headers: as(next.toAct),
        payload: { actionId: "cast:nothing", expectedStep: 1 }
      })
    )
    expect(illegal.code).toBe("illegal_action")
    expect(illegal._tag).toBe("Unprocessable")
    expect(illegal.diagnostics[0]?.details?.["reason"]).toBeTypeOf("string")
    const again = await s.run(s.client.hhx.get({ path: { gameId }, urlParams: {}, headers: as(next.toAct) }))
    expect(again.step).toBe(1)
    expect(again.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    // In progress, on a server with no operator: nobody gets the log.
    const log = await errorOf(s.client.hhx.log({ path: { gameId }, headers: as(0) }))
    expect([log._tag, log.code]).toEqual(["Forbidden", "forbidden"])
    const why = await s.run(
      s.client.hhx.explain({ path: { gameId }, urlParams: { actionId: "cast:nothing" }, headers: as(next.toAct) })
    )
    expect(why.legal).toBe(false)
    expect(why.reason).toBe(illegal.diagnostics[0]?.details?.["reason"])
    const unknown = await errorOf(s.client.hhx.get({ path: { gameId: "g999" }, urlParams: {}, headers: {} }))
    expect(unknown.code).toBe("unknown_game")
    const deck = await s.run(s.client.hhx.deck())
    expect(deck.cards.length).toBeGreaterThan(0)
  })

  it("bad bodies are 400 with a code, unknown routes 404, never a 500", async () => {
    const post = (path: string, body: string, type = "application/json") =>
      fetch(`${s.url}${path}`, { method: "POST", headers: { "content-type": type }, body }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { code: string; diagnostics: Array<{ path?: string }> }
      }))
    const cases: Array<[string, string]> = [
      ["{", "json_syntax"],
      [
        "{\"cardId\":\"basic_attack\",\"cardId\":\"x\",\"command\":{\"kind\":\"apply\",\"upgradeId\":\"core.ember.affinity\"}}",
        "duplicate_key"
      ],
      ["{\"__proto__\":{},\"cardId\":\"basic_attack\"}", "forbidden_key"],
      ["{\"cardId\":\"basic_attack\",\"n\":1e400}", "unsafe_number"],
      [`${"[".repeat(200)}${"]".repeat(200)}`, "depth_limit"],
      ["{\"cardId\":\"basic_attack\"}", "schema_invalid"],
      [
        "{\"cardId\":\"basic_attack\",\"command\":{\"kind\":\"apply\",\"upgradeId\":\"core.ember.affinity\"},\"extra\":1}",
        "unknown_field"
      ]
    ]
    for (const [body, code] of cases) {
      const r = await post("/v1/assess", body)
      expect([r.status, r.body.code]).toEqual([400, code])
    }
    const extra = await post("/v1/assess", cases[6]?.[0] ?? "")
    expect(extra.body.diagnostics[0]?.path).toBe("/extra")
    const form = await post("/v1/assess", "a=b", "application/x-www-form-urlencoded")
    expect([form.status, form.body.code]).toEqual([415, "unsupported_media_type"])
    const route = await fetch(`${s.url}/v1/nope`)
    expect(route.status).toBe(404)
    expect(((await route.json()) as { code: string }).code).toBe("unknown_route")
  })
})

describe("authorization and limits", () => {
  let s: Running
  beforeAll(async () => {
    s = await startServer({ ...freshStore("sqlite"), token: "s3cret" })
  })
  afterAll(() => s.close())

  it("mutating endpoints need the bearer token: 401 without, 403 with another; reads need none", async () => {
    const body = JSON.stringify({ seed: 1 })
    const none = await fetch(`${s.url}/v1/hhx/games`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body
    })
    expect(none.status).toBe(401)
    expect(((await none.json()) as { code: string }).code).toBe("unauthorized")
    const wrong = await fetch(`${s.url}/v1/hhx/games`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer nope" },
      body
    })
    expect(wrong.status).toBe(403)
    expect(((await wrong.json()) as { code: string }).code).toBe("forbidden")
    const reload = await fetch(`${s.url}/v1/admin/reload`, { method: "POST" })
    expect(reload.status).toBe(401)
    // the typed client sends the token
    expect((await s.run(s.client.hhx.create({ payload: { seed: 1 } }))).game.step).toBe(0)
    expect((await fetch(`${s.url}/v1/health`)).status).toBe(200)
  })

  it("a body over 1 MiB is 413 before it is read", async () => {
    const big = `{"cardId":"${"x".repeat(2 * 1024 * 1024)}"}`
    const r = await fetch(`${s.url}/v1/assess`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big
    })
    expect(r.status).toBe(413)
    expect(((await r.json()) as { code: string }).code).toBe("body_too_large")
  })

  it("the OpenAPI document lists every endpoint and /docs is served offline", async () => {
    const spec = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      openapi: string
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    expect(spec.openapi).toBe("3.1.0")
    expect(Object.keys(spec.paths).sort()).toEqual([
      "/v1/admin/reload",
      "/v1/assess",
      "/v1/cards",
      "/v1/cards/{cardId}/effective",
      "/v1/discover",
      "/v1/health",
      "/v1/hhx/balance",
      "/v1/hhx/deck",
      "/v1/hhx/games",
      "/v1/hhx/games/{gameId}",
      "/v1/hhx/games/{gameId}/actions",
      "/v1/hhx/games/{gameId}/events",
      "/v1/hhx/games/{gameId}/explain",
      "/v1/hhx/games/{gameId}/log",
      "/v1/hhx/invitations",
      "/v1/instances/{instanceId}",
      "/v1/instances/{instanceId}/branches",
      "/v1/instances/{instanceId}/commands",
      "/v1/instances/{instanceId}/history",
      "/v1/instances/{instanceId}/replay",
      "/v1/runtime",
      "/v1/runtime/events",
      "/v1/scenarios/run"
    ])
    const responses = spec.paths["/v1/instances/{instanceId}/commands"]?.["post"]?.responses ?? {}
    for (const status of ["200", "400", "401", "403", "404", "409", "413", "422", "503"]) {
      expect(Object.keys(responses)).toContain(status)
    }
    const html = await (await fetch(`${s.url}/docs`)).text()
    expect(html).toContain("SwaggerUIBundle")
    expect(html).not.toMatch(/<script[^>]+src=/)
    expect(html).not.toMatch(/<link[^>]+href="https?:/)
  })
})
