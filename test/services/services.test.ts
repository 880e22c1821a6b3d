/**
 * Each service through its own layer (issue 42.6), in process, with
 * @effect/vitest: what a face would call, and the tagged error (carrying
 * every diagnostic) a failure is. The Cards and ContentCatalog services are
 * tested the same way in ./contract.test.ts; the HTTP-facing spans of every
 * service in ./tracing.test.ts.
 */
import { NodeContext } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { CardTransformationPlanner } from "../../src/composition/planner/Planner.js"
import { LedgerStore } from "../../src/composition/store/LedgerStore.js"
import { HallyuHex } from "../../src/hallyu/Service.js"
import { CardCompiler } from "../../src/services/CardCompiler.js"
import { ContentLoader, LiveCatalog } from "../../src/services/Catalog.js"
import { ContentCatalog } from "../../src/services/ContentCatalog.js"
import { Games } from "../../src/services/Games.js"
import { GameStore } from "../../src/services/GameStore.js"
import { Instances } from "../../src/services/Instances.js"
import { Scenarios } from "../../src/services/Scenarios.js"
import { Simulation } from "../../src/services/Simulation.js"

const PACKAGE = "data/heroscript.base"
const DECK = "data/hallyu-hex/starter-deck.v0.json"

const runtime = Effect.flatMap(ContentLoader, (l) => l.load([PACKAGE])).pipe(
  Effect.provide(ContentLoader.layerNode),
  Effect.orDie
)

layer(CardCompiler.layer)("CardCompiler", (it) => {
  it.effect("compiles a card; a failure is its first error's tagged error, carrying every diagnostic", () =>
    Effect.gen(function*() {
      const compiler = yield* CardCompiler
      const rt = yield* runtime
      const expose = rt.cards.get("expose")
      if (expose === undefined) return expect.fail("no card expose")
      const ok = yield* compiler.compileCard(expose, rt.statuses)
      expect(ok.cardId).toBe("expose")
      // Without the status catalog, the card's APPLY_STATUS names a status that does not exist.
      const one = yield* Effect.flip(compiler.compileCard(expose, new Map()))
      expect(one._tag).toBe("UnknownReference")
      expect(one.diagnostics.every((d) => d.severity !== "error" || d.code === "unknown_reference")).toBe(true)
      const input = { cardId: expose.cardId, cost: expose.cost, tags: expose.tags, components: expose.components }
      const all = yield* Effect.flip(compiler.compileAll(input, { statuses: new Map() }))
      expect(all).toEqual(yield* Effect.flip(compiler.compile(input, { statuses: new Map() })))
      expect(all.diagnostics).toEqual(one.diagnostics)
    }))
})

layer(Scenarios.layer.pipe(Layer.provide(NodeContext.layer)))("Scenarios", (it) => {
  it.effect("runs a scenario file twice byte for byte; an unreadable file is FileUnreadable with its diagnostic", () =>
    Effect.gen(function*() {
      const scenarios = yield* Scenarios
      const report = yield* scenarios.runFile("data/scenarios/ember-affinity.scenario.json", { times: 2 })
      expect(report.steps.length).toBeGreaterThan(0)
      const missing = yield* Effect.flip(scenarios.runFile("data/scenarios/absent.scenario.json"))
      expect(missing._tag).toBe("FileUnreadable")
      expect(missing.diagnostics[0]?.code).toBe("file_unreadable")
    }))
})

const instancesLayer = Instances.layer.pipe(
  Layer.provideMerge(CardTransformationPlanner.layer),
  Layer.provideMerge(ContentCatalog.load([PACKAGE])),
  Layer.provideMerge(Layer.merge(ContentLoader.layerNode, LedgerStore.layerMemory)),
  Layer.orDie
)

layer(instancesLayer)("Instances", (it) => {
  it.effect("commands, get and history of a stored instance; an unknown one is UnknownInstance", () =>
    Effect.gen(function*() {
      const instances = yield* Instances
      const outcome = yield* instances.command({
        instanceId: "i1",
        cardId: "basic_attack",
        commandId: "c1",
        expectedRevision: 0,
        command: { kind: "apply", upgradeId: "core.ember.affinity" }
      })
      expect(outcome.status).toBe("applied")
      expect((yield* instances.get("i1")).revision).toBe(1)
      expect((yield* instances.history("i1")).events).toHaveLength(1)
      const stale = yield* Effect.flip(instances.command({
        instanceId: "i1",
        cardId: "basic_attack",
        commandId: "c2",
        expectedRevision: 0,
        command: { kind: "apply", upgradeId: "core.sharpened_strike" }
      }))
      expect(stale._tag).toBe("RevisionConflict")
      const unknown = yield* Effect.flip(instances.get("nobody"))
      expect(unknown._tag).toBe("UnknownInstance")
      expect((yield* (yield* LiveCatalog).current).cards.has("basic_attack")).toBe(true)
    }))
})

layer(Simulation.layer)("Simulation", (it) => {
  it.effect("simulates a few games of the starter deck, the same summary twice; a broken deck is a tagged error", () =>
    Effect.gen(function*() {
      const simulation = yield* Simulation
      const deck = { json: readFileSync(join(DECK), "utf8"), file: DECK }
      const a = yield* simulation.simulate({ deck, games: 4, seed: "s" })
      const b = yield* simulation.simulate({ deck, games: 4, seed: "s" })
      expect(a.summary.games).toBe(4)
      expect(b.summary).toEqual(a.summary)
      const broken = yield* Effect.flip(
        simulation.simulate({ deck: { json: "{", file: "d.json" }, games: 1, seed: "s" })
      )
      expect(broken._tag).toBe("JsonSyntax")
      expect(broken.diagnostics[0]?.file).toBe("d.json")
    }))
})

const gamesLayer = Layer.unwrapEffect(
  Effect.map(Effect.flatMap(HallyuHex, (h) => h.engine(DECK)), (engine) => Games.layer(engine))
).pipe(
  Layer.provide(Layer.merge(GameStore.layerFor(":memory:"), HallyuHex.layer.pipe(Layer.provide(NodeContext.layer)))),
  Layer.orDie
)

layer(gamesLayer)("Games (over GameStore)", (it) => {
  it.effect("creates a game with a secret per seat; a seat reads its own view; unknown and other seats are refused", () =>
    Effect.gen(function*() {
      const games = yield* Games
      const created = yield* games.create({ seed: 7 })
      expect(created.seats.map((s) => s.seat)).toEqual([0, 1])
      const [zero, one] = created.seats
      if (zero === undefined || one === undefined) {
        return yield* Effect.die("a game without an invitation has two seats")
      }
      const mine = yield* games.get(created.game.gameId, { operator: false, secret: zero.secret, seat: 0 })
      expect(mine.viewer).toBe(0)
      expect(mine.step).toBe(created.game.step)
      const other = yield* Effect.flip(games.get(created.game.gameId, { operator: false, secret: one.secret, seat: 0 }))
      expect(other._tag).toBe("Forbidden")
      const unknown = yield* Effect.flip(games.get("no-such-game", { operator: true }))
      expect(unknown._tag).toBe("UnknownGame")
    }))
})
