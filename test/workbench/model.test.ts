/**
 * The workbench's pure rendering functions over the CLI's JSON documents:
 * the component tree and its origins (`inspect`), the bucket-pipeline
 * breakdown (`run`), the offers' order (`discover`), and the Hallyu Hex
 * instance names and unavailable actions against the engine itself.
 */
import { Either } from "effect"
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { BALANCE_RECORDS, balanceReport } from "../../src/hallyu/engine/Balance.js"
import { makeEngine } from "../../src/hallyu/engine/Engine.js"
import type { GameState } from "../../src/hallyu/engine/State.js"
import { observe } from "../../src/hallyu/engine/View.js"
import { cardRows, compareRuns, deckAverage, sortRows } from "../../src/page/model/Balance.js"
import { breakdownParts, breakdownText, statusAppliedText } from "../../src/page/model/Breakdown.js"
import { pick, seedOf } from "../../src/page/model/Chooser.js"
import { cardDiff } from "../../src/page/model/Diff.js"
import type { ContributionDoc, DiscoverDoc, EffectiveDoc, ExecutorEventDoc } from "../../src/page/model/Docs.js"
import {
  actionButtons,
  actionLabel,
  decisionPrompt,
  GLOSSARY,
  instanceCards,
  instanceNames,
  logLine,
  placedNames,
  unavailableCandidates
} from "../../src/page/model/Hhx.js"
import { makeNames, namesOfRuntime, pickLocale } from "../../src/page/model/Names.js"
import { sortOffers } from "../../src/page/model/Offers.js"
import { rulesText } from "../../src/page/model/RulesText.js"
import { scenarioBody } from "../../src/page/model/Scenario.js"
import { componentTree, flatten, originLabel } from "../../src/page/model/Tree.js"
import { runtimeInfo } from "../../src/services/ContentCatalog.js"
import { realDeck } from "../hallyu/fixtures.js"
import { BASE, runtimeOf } from "../support/content.js"

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

// The names the page shows come from the served runtime (`GET /v1/runtime`'s `locales`), in the browser's languages.
const served = runtimeInfo(await runtimeOf(BASE))

describe("card faces and before/after", () => {
  const names = namesOfRuntime(served, ["en-US", "en"])
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
  const base = inspect()
  const ember = inspect("core.ember.affinity")
  const both = inspect("core.ember.affinity", "core.sharpened_strike")

  it("names cards and upgrades from the locale table, falling back to the ID, and members by their origin", () => {
    expect(names.card("basic_attack", "card.basic_attack.name")).toBe("Basic Attack")
    expect(names.card("residual_card", "card.residual_card.name")).toBe("residual_card")
    expect(names.upgrade("core.ember.affinity")).toBe("Ember affinity")
    const burn = flatten(componentTree(ember)).find((n) => n.componentId.endsWith(".burn"))
    expect(names.component(burn?.componentId ?? "", burn?.origin ?? { kind: "base" })).toBe("Ember affinity → burn")
    expect(names.component("strike", { kind: "base" })).toBe("strike")
    expect(names.locale).toBe("en")
    expect(names.status("burning")).toBe("Burning")
    expect(names.status("no_such_status")).toBe("no_such_status")
  })

  it("picks the table of the browser's languages (tag, then language), else en, else the first; none: IDs", () => {
    const en = { locale: "en", names: { "card.heal.name": "Heal" } }
    const pt = { locale: "pt-BR", names: { "card.heal.name": "Curar" } }
    const de = { locale: "de", names: { "card.heal.name": "Heilen" } }
    expect(pickLocale([de, en, pt], ["pt-BR", "en"])).toBe(pt)
    expect(pickLocale([de, en, pt], ["pt-PT"])).toBe(pt)
    expect(pickLocale([de, en, pt], ["fr-FR", "de-AT"])).toBe(de)
    expect(pickLocale([de, en, pt], ["ja"])).toBe(en)
    expect(pickLocale([pt, de], ["ja"])).toBe(pt)
    expect(pickLocale([], ["en"])).toBeUndefined()
    expect(namesOfRuntime({ locales: [de, pt] }, ["pt"]).card("heal")).toBe("Curar")
    // Before the runtime is read, and for content that ships no names: the ID.
    expect(namesOfRuntime(null, ["en"]).card("heal", "card.heal.name")).toBe("heal")
    expect(makeNames(undefined).upgrade("core.ember.affinity")).toBe("core.ember.affinity")
    // A key is never read off the prototype.
    expect(makeNames(en).card("x", "constructor")).toBe("x")
    // The runtime's own display keys (nameKeys) name upgrades and statuses, whatever their key is called.
    const own = { locale: "en", names: { "ember.title": "Ember affinity", "burn.title": "Burning" } }
    const keys = {
      cards: {},
      statuses: { burning: "burn.title" },
      transformations: { "core.ember.affinity": "ember.title" }
    }
    const named = namesOfRuntime({ locales: [own], nameKeys: keys }, ["en"])
    expect(named.upgrade("core.ember.affinity")).toBe("Ember affinity")
    expect(named.status("burning")).toBe("Burning")
    expect(named.status("constructor")).toBe("constructor")
  })

  it("generates the rules text from the effective card, its numbers included", () => {
    expect(rulesText(base, names)).toBe("Deal 6 damage to the target.")
    expect(rulesText(both, names)).toBe(
      "Deal 9 damage to the target. After each impact: apply 1 Burning for 3 turns to the target if the target is alive."
    )
  })

  it("marks every changed number and component, and the fingerprint change", () => {
    const d = cardDiff(ember, both)
    expect(d.components).toEqual([
      { kind: "changed", componentId: "strike", fields: [{ field: "amount", before: "6", after: "9" }] }
    ])
    expect(d.fingerprint?.before).toBe(ember.fingerprint)
    expect(d.fingerprint?.after).toBe(both.fingerprint)
    const added = cardDiff(base, ember)
    expect(added.components).toEqual([{ kind: "added", componentId: "ember_e7403e04a6f5ca0e.burn" }])
    expect(added.card).toEqual([{ field: "tags", before: "attack, basic", after: "attack, basic, ember_affinity" }])
    expect(cardDiff(ember, ember)).toEqual({ card: [], components: [], fingerprint: null })
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

  it("labels an activation with the effect its ID names, and writes each step in `hhx explain`'s words", () => {
    const deck = realDeck()
    const cards = instanceCards(deck, null)
    const names = instanceNames(deck, null)
    const name = (i: string) => `${names.get(i) ?? i} (${i})`
    let s: GameState = start
    let rng = seedOf("log-words")
    const explained = new Map<string, string>()
    let casts = 0
    for (let step = 0; step < 400 && s.result === null; step++) {
      const legal = engine.legalActions(s)
      for (const a of legal.filter((x) => x.kind === "activate")) {
        expect(actionLabel(a, name)).toContain(` E${(a.effect ?? 0) + 1}`)
        expect(a.id).toContain(`:E${(a.effect ?? 0) + 1}`)
      }
      const p = pick(rng, legal.length)
      rng = p.state
      const a = legal[p.index]
      if (a === undefined) break
      const line = logLine(a.id, cards, name, s.decision?.player ?? null)
      expect(line).toMatch(/^Seat [01] /)
      const code = a.kind === "cast" && a.inst !== null ? (cards.get(a.inst)?.code ?? "") : ""
      // The first three cards cast (one CLI run each): their words carry the generated text `cardfx hhx explain`
      // prints for the card's on-enter / on-resolve effects.
      if (a.inst !== null && code !== "" && (explained.has(code) || explained.size < 3)) {
        const out = explained.get(code) ?? cli("hhx", "explain", code).out
        explained.set(code, out)
        const generated = [...out.matchAll(/^HHX-\S+ \[(on-enter|on-resolve)\]\n.*\n {2}generated: (.*)$/gm)].map((m) =>
          m[2]
        )
        for (const g of generated) expect(line).toContain(g)
        expect(line.startsWith(`Seat ${a.player} casts ${name(a.inst)}`)).toBe(true)
        casts++
      }
      s = Either.getOrThrow(engine.apply(s, a.id))
    }
    expect(casts).toBeGreaterThan(0)
  })
})

describe("the balance view's card table, flags and comparison (model/Balance.ts)", () => {
  /** A report of three cards each played in 100 seat-games: won 80, 20 and 50 times (the deck's average 50 %). */
  const report = (won: readonly [number, number, number], hash: string) =>
    balanceReport({
      seed: "1",
      games: 200,
      deckHash: hash,
      turns: { min: 5, max: 9, sum: 1400 },
      counts: {
        winsBySeat: { "0": 100, "1": 100 },
        [BALANCE_RECORDS.inDeck]: { A: 200, B: 200, C: 200 },
        [BALANCE_RECORDS.drawn]: { A: 150, B: 120, C: 110 },
        [BALANCE_RECORDS.played]: { A: 100, B: 100, C: 100 },
        [BALANCE_RECORDS.won]: { A: 100, B: 100, C: 100 },
        [BALANCE_RECORDS.playedWon]: { A: won[0], B: won[1], C: won[2] }
      }
    }, (code) => `Card ${code}`)

  it("flags the cards whose won-when-played interval lies clear of the deck's pooled average", () => {
    const r = report([80, 20, 50], "h1")
    expect(deckAverage(r)).toBe(0.5)
    expect(cardRows(r).map((c) => [c.name, c.flag])).toEqual([["Card A", "over"], ["Card B", "under"], [
      "Card C",
      null
    ]])
  })

  it("sorts by each column, both ways (ties by name)", () => {
    const rows = cardRows(report([80, 20, 50], "h1"))
    expect(sortRows(rows, "won", true).map((c) => c.code)).toEqual(["A", "C", "B"])
    expect(sortRows(rows, "won", false).map((c) => c.code)).toEqual(["B", "C", "A"])
    expect(sortRows(rows, "drawn", true).map((c) => c.code)).toEqual(["A", "B", "C"])
    expect(sortRows(rows, "card", true).map((c) => c.code)).toEqual(["C", "B", "A"])
    expect(sortRows(rows, "plays", false).map((c) => c.code)).toEqual(["A", "B", "C"])
  })

  it("compares two runs: the change per figure, apart where the intervals do not overlap", () => {
    const diff = compareRuns(report([80, 20, 50], "h1"), report([30, 25, 50], "h2"))
    const a = diff.find((x) => x.label === "Card A: won when played")
    expect(a?.apart).toBe(true)
    expect(a?.delta).toBeCloseTo(-0.5)
    expect(diff.find((x) => x.label === "Card B: won when played")?.apart).toBe(false)
    expect(diff.find((x) => x.label === "Card C: won when played")?.delta).toBe(0)
  })
})

describe("the table in the designer's words (model/Hhx.ts)", () => {
  it("names instances by card and position, never by instance ID; the log by card and seat", () => {
    const engine = Either.getOrThrow(makeEngine(realDeck()))
    const view = observe(Either.getOrThrow(engine.newGame({ seed: "words" })), 0)
    const names = instanceNames(realDeck(), null)
    const name = placedNames(view, names)
    const first = view.seats[0].hand?.[0] ?? ""
    expect(name(first)).toBe(`${names.get(first) ?? ""} (seat 0, hand 1)`)
    expect(name(first)).not.toMatch(/p[01]-\d\d/)
    expect(placedNames(null, names)(first)).toBe(`${names.get(first) ?? ""} (seat 0)`)
  })

  it("a decision dialog says which card and effect asks and what each answer does", () => {
    const cards = instanceCards(realDeck(), null)
    const [inst = ""] = [...cards.keys()]
    const prompt = decisionPrompt(
      { d: "optional", player: 0, f: { src: inst, card: 0, eff: 0, ctrl: 0, tg: null, pend: null, each: null } },
      [
        { id: "optional:no", kind: "optional", player: 0, inst: null, effect: null, choice: 0, targets: null },
        { id: "optional:yes", kind: "optional", player: 0, inst: null, effect: null, choice: 1, targets: null }
      ],
      cards,
      (i) => `${i === inst ? "the card" : "?"}`
    )
    expect(prompt.title).toBe("Seat 0: the card, effect E1 may do something: yes or no?")
    expect(prompt.answers.get("optional:yes")).toBe("Yes: the effect happens.")
    expect(prompt.answers.get("optional:no")).toBe("No: the effect is skipped.")
  })

  it("the glossary explains composure, fandom, trend and every ending", () => {
    const terms = GLOSSARY.map(([t]) => t)
    expect(terms).toEqual(expect.arrayContaining(["Composure", "Fandom", "Trend"]))
    for (const reason of ["composure", "trend-cap", "simultaneous", "turn-limit"]) {
      expect(terms).toContain(`Ending: ${reason}`)
    }
  })
})
