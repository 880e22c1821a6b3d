/**
 * The workbench's pure rendering functions over the CLI's JSON documents:
 * the component tree and its origins (`inspect`), the bucket-pipeline
 * breakdown (`run`), the offers' order (`discover`), and the Hallyu Hex
 * instance names and unavailable actions against the engine itself.
 */
import { Either } from "effect"
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { makeEngine } from "../../src/hallyu/engine/Engine.js"
import type { GameState } from "../../src/hallyu/engine/State.js"
import { observe } from "../../src/hallyu/engine/View.js"
import { breakdownParts, breakdownText, statusAppliedText } from "../../src/page/model/Breakdown.js"
import { pick, seedOf } from "../../src/page/model/Chooser.js"
import type { ContributionDoc, DiscoverDoc, EffectiveDoc, ExecutorEventDoc } from "../../src/page/model/Docs.js"
import { actionButtons, instanceNames, unavailableCandidates } from "../../src/page/model/Hhx.js"
import { sortOffers } from "../../src/page/model/Offers.js"
import { scenarioBody } from "../../src/page/model/Scenario.js"
import { componentTree, flatten, originLabel } from "../../src/page/model/Tree.js"
import { realDeck } from "../hallyu/fixtures.js"

const cli = (...args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, ["dist/cli/cardfx.mjs", ...args], { encoding: "utf8" })
  return { code: r.status, out: r.stdout }
}
const json = <A>(...args: ReadonlyArray<string>): A => {
  const r = cli(...args)
  expect(r.code).toBe(0)
  return JSON.parse(r.out) as A
}

describe("component tree", () => {
  const inspect = (...withIds: ReadonlyArray<string>) =>
    json<{ inspection: { effectiveBase: EffectiveDoc } }>(
      "inspect",
      "--package",
      "data/heroscript.base",
      "--card",
      "basic_attack",
      ...withIds.flatMap((w) => ["--with", w]),
      "--format",
      "json"
    ).inspection.effectiveBase

  it("puts the ember AfterImpact child under its anchor, marked with the entry and rule that produced it", () => {
    const tree = componentTree(inspect("core.ember.affinity"), ["ember_e7403e04a6f5ca0e.burn", "strike"])
    expect(tree.map((n) => n.componentId)).toEqual(["strike"])
    const strike = tree[0]
    expect(strike?.origin).toEqual({ kind: "base" })
    expect(strike?.placement).toBe("root")
    const burn = strike?.children[0]
    expect(burn?.componentId).toBe("ember_e7403e04a6f5ca0e.burn")
    expect(burn?.origin).toEqual({
      kind: "rule",
      entryId: "e1",
      transformationId: "core.ember.affinity",
      ruleId: "ember.damage",
      bundleId: "ember.burning",
      scope: "AfterImpact"
    })
    expect(burn?.placement).toBe("AfterParentImpact · PerImpact")
    expect(burn?.summary).toBe("APPLY_STATUS burning, 1 stack, 3 turns → TARGET if target.alive")
    expect(burn?.changed).toBe(true)
    expect(originLabel(burn?.origin ?? { kind: "base" })).toBe("e1 · core.ember.affinity / ember.damage (AfterImpact)")
  })

  it("the base card has only base components, none changed", () => {
    const nodes = flatten(componentTree(inspect()))
    expect(nodes.map((n) => [n.componentId, n.origin.kind, n.changed])).toEqual([["strike", "base", false]])
    expect(nodes[0]?.summary).toBe("DAMAGE 6 → TARGET")
  })
})

describe("bucket-pipeline breakdown", () => {
  it("renders exactly the CLI's run line for residual-affinity (9 base +2 strength ×1.5 vulnerable → 16)", () => {
    const doc = json<{ report: { steps: ReadonlyArray<{ events: ReadonlyArray<ExecutorEventDoc> }> } }>(
      "run",
      "data/scenarios/residual-affinity.scenario.json",
      "--format",
      "json"
    )
    const human = cli("run", "data/scenarios/residual-affinity.scenario.json").out
    const events = doc.report.steps[0]?.events ?? []
    const impact = events.find((e) => e.type === "impact") as Extract<
      ExecutorEventDoc,
      { type: "impact"; base: number }
    >
    const parts = breakdownParts(impact.base, impact.contributions, impact.amount)
    expect(parts.map((p) => p.kind)).toEqual(["base", "flat", "multiplier", "result"])
    expect(breakdownText(parts)).toBe("9 base +2 strength ×1.5 vulnerable → 16")
    expect(human).toContain(`DAMAGE ${breakdownText(parts)} (hp 60 → 44)`)
    const applied = events.find((e) => e.type === "statusApplied") as Extract<
      ExecutorEventDoc,
      { type: "statusApplied"; stacksBefore: number }
    >
    expect(human).toContain(statusAppliedText(applied))
  })

  it("percent and negative contributions are written as the CLI writes them", () => {
    const c = (bucket: ContributionDoc["bucket"], value: number): ContributionDoc => ({
      bucket,
      source: "status",
      sourceId: "s",
      holderId: "h",
      direction: "outgoing",
      value
    })
    expect(
      breakdownText(breakdownParts(10, [c("flat", -3), c("percent", 25), c("percent", -10), c("multiplier", 0.5)], 4))
    ).toBe(
      "10 base -3 s +25% s -10% s ×0.5 s → 4"
    )
  })
})

describe("offers", () => {
  it("compatible first, incompatible after with their codes (journey_opportunity does not authorize ember)", () => {
    const doc = json<DiscoverDoc>(
      "discover",
      "--package",
      "data/heroscript.base",
      "--card",
      "basic_attack",
      "--activity",
      "journey_opportunity",
      "--format",
      "json"
    )
    const sorted = sortOffers(doc.offers)
    expect(sorted.map((o) => [o.upgradeId, o.assessment.isCompatible])).toEqual([
      ["core.sharpened_strike", true],
      ["core.ember.affinity", false]
    ])
    expect(sorted[1]?.assessment.diagnostics.map((d) => d.code)).toEqual(["not_authorized"])
  })
})

describe("try-it scenario body", () => {
  it("hero attributes and target statuses become the scenario's state; upgrades its ledger, in order", () => {
    const body = scenarioBody(
      { packages: [{ packageId: "heroscript.base" }] },
      {
        cardId: "basic_attack",
        upgrades: ["core.sharpened_strike", "core.ember.affinity"],
        seed: 3,
        targetHp: 50,
        sources: [
          { holder: "hero", kind: "attribute", id: "strength", amount: 2, turns: 0 },
          { holder: "target", kind: "status", id: "vulnerable", amount: 1, turns: 2 },
          { holder: "target", kind: "status", id: "", amount: 1, turns: 0 }
        ]
      }
    )
    expect(body.packages).toEqual(["heroscript.base"])
    expect(body.ledgers).toEqual({ hero: { basic_attack: ["core.sharpened_strike", "core.ember.affinity"] } })
    expect(body.state.characters[0]).toMatchObject({ attributes: { strength: 2 }, statuses: [] })
    expect(body.state.characters[1]).toMatchObject({
      hp: 50,
      statuses: [{ statusId: "vulnerable", stacks: 1, remaining: 2 }]
    })
    expect(body.steps).toEqual([{ op: "play", actor: "hero", card: "basic_attack", targets: ["target"] }])
  })
})

describe("Hallyu Hex table model", () => {
  const engine = Either.getOrThrow(makeEngine(realDeck()))
  const start = Either.getOrThrow(engine.newGame({ seed: 7 }))

  it("names every instance as the engine numbered it at set-up", () => {
    const names = instanceNames(realDeck(), null)
    const ids = Object.keys(start.cardOf)
    expect(ids.length).toBe(names.size)
    for (const inst of ids) expect(names.get(inst)).toBe(realDeck().cards[start.cardOf[inst] ?? -1]?.name)
  })

  it("every candidate shown disabled is one the engine's explain calls illegal, with a reason", () => {
    let s: GameState = start
    let rng = seedOf("model-test")
    let shown = 0
    for (let step = 0; step < 200 && s.result === null; step++) {
      const legal = engine.legalActions(s)
      const seat = s.decision?.player ?? null
      const view = seat === null ? null : observe(s, seat)
      const ids = unavailableCandidates(view, legal)
      for (const id of ids) {
        const why = engine.explain(s, id)
        expect(why.legal, id).toBe(false)
        shown++
      }
      const buttons = actionButtons(legal, ids.map((actionId) => ({ actionId, reason: "r", message: "m" })))
      expect(buttons.filter((b) => b.enabled).map((b) => b.id)).toEqual(legal.map((a) => a.id))
      const p = pick(rng, legal.length)
      rng = p.state
      s = Either.getOrThrow(engine.apply(s, legal[p.index]?.id ?? ""))
    }
    expect(shown).toBeGreaterThan(0)
  })
})
