/**
 * `hhx explain` renders grammatical English (issue 13 point 12): over every
 * effect of the starter deck, and over every operation with every player
 * selector as its subject.
 */
import { describe, expect, it } from "vitest"
import { explainAction, explainCard, explainEffect } from "../../src/hallyu/Explain.js"
import type { Action, EffectRecord, PlayerSelector } from "../../src/hallyu/Schema.js"
import { realDeck } from "./fixtures.js"

const THIRD_PERSON = ["your opponent", "each player", "the pending card's controller", "its controller"]
const VERBS = ["draw", "gain", "lose", "choose", "look", "control", "cast", "cost", "have", "pay", "become"]
const THIRD = (v: string): string => (v === "have" ? "has" : /(s|sh|ch|x|z)$/.test(v) ? `${v}es` : `${v}s`)

/** Every grammar problem found in one generated sentence (empty when there is none). */
const problems = (text: string): Array<string> => {
  const out: Array<string> = []
  const words = text.toLowerCase().match(/[a-z0-9'-]+/g) ?? []
  words.forEach((w, i) => {
    if (i > 0 && words[i - 1] === w) out.push(`doubled word "${w} ${w}"`)
  })
  if (text.includes("(s)")) out.push("a (s) plural")
  if (/undefined|\?/.test(text)) out.push("an unfilled slot")
  for (const s of THIRD_PERSON) {
    for (const v of VERBS) if (new RegExp(`\\b${s} ${v}\\b`).test(text)) out.push(`"${s} ${v}"`)
  }
  for (const v of VERBS) if (new RegExp(`\\byou ${THIRD(v)}\\b`).test(text)) out.push(`"you ${THIRD(v)}"`)
  // A group subject ("each dreamy Moment in your hand") takes a singular verb.
  if (/\beach [^,;:]*?\b(cost|become|have)\b/.test(text)) out.push("a plural verb after `each`")
  // One of a thing is singular, more than one plural.
  if (/\b1 (?:[A-Za-z]+ )?(cards|counters|times|Stars|Moments|Venues)\b/.test(text)) out.push("1 with a plural noun")
  if (/\b(?:[2-9]|\d\d+) (?:[A-Za-z]+ )?(card|counter|time|Star|Moment|Venue)\b(?!s)/.test(text)) {
    out.push("a plural number with a singular noun")
  }
  // Resource and counter names are proper nouns, as printed; a mass noun takes no plural.
  if (/\b(composure|fandom|trend)\b/.test(text)) out.push("a lower-case resource name")
  if (/\b(Composures|Fandoms|Trends)\b/.test(text)) out.push("a plural resource")
  if (/\b(a|an) \d/.test(text)) out.push("an article before a number")
  if (/\ba [aeiouAEIOU]/.test(text)) out.push("\"a\" before a vowel")
  if (
    /-(cast|end|start|dealt|pending|turn|active)\b(?! window)/.test(
      text.replace(/damage-pending-to-controller|card-pending-to-opponent/g, "")
    )
  ) {
    out.push("a vocabulary word left hyphenated")
  }
  return out
}

describe("hhx explain renders grammatical English", () => {
  const deck = realDeck()
  const all = deck.cards.flatMap((c) => explainCard(c).effects.map((e) => ({ id: e.id, text: e.generated })))

  it("has no grammar problem in any effect of the starter deck", () => {
    expect(all.length).toBe(31)
    const found = all.flatMap(({ id, text }) => problems(text).map((p) => `${id}: ${p} in «${text}»`))
    expect(found).toEqual([])
  })

  it("the checker itself finds each kind of mistake", () => {
    expect(problems("your opponent lose 2 Composure")).toContain("\"your opponent lose\"")
    expect(problems("you loses 1 Composure")).toContain("\"you loses\"")
    expect(problems("your opponent loses 1 Composures")).toContain("a plural resource")
    expect(problems("draw 1 cards")).toContain("1 with a plural noun")
    expect(problems("draw 2 card")).toContain("a plural number with a singular noun")
    expect(problems("the the card")).toContain("doubled word \"the the\"")
    expect(problems("gain 1 trend")).toContain("a lower-case resource name")
    expect(problems("each dreamy Moment in your hand cost 1 less")).toContain("a plural verb after `each`")
    expect(problems("draw 1 card(s)")).toContain("a (s) plural")
    expect(problems("when card-cast happens")).toContain("a vocabulary word left hyphenated")
    expect(problems("your opponent loses 2 Composure")).toEqual([])
  })

  it.each([
    ["HHX-PROTO-001-E1", "you draw 1 card"],
    ["HHX-PROTO-005-E1", "your opponent loses 1 Composure"],
    ["HHX-PROTO-017-E1", "your opponent loses 2 Composure instead"],
    ["HHX-PROTO-018-E1", "unless the pending card's controller chooses to lose 2 Fandom"],
    ["HHX-PROTO-009-E3", "remove 3 Teaser counters from this card"],
    ["HHX-PROTO-009-E1", "put 1 Teaser counter on this card"],
    ["HHX-PROTO-006-E1", "each dreamy Moment in your hand costs 1 less"],
    ["HHX-PROTO-007-E1", "you look at the top 2 cards of your deck"],
    ["HHX-PROTO-010-E1", "at most twice per turn"],
    ["HHX-PROTO-002-E1", "at most once per turn"],
    ["HHX-PROTO-020-E1", "becomes bright instead of dark until end of turn"],
    ["HHX-PROTO-021-E1", "you gain 1 Trend for each bright card you cast this turn"],
    ["HHX-PROTO-003-E1", "Whenever you cast a fierce card"]
  ])("%s says «%s»", (id, phrase) => {
    expect(all.find((e) => e.id === id)?.text).toContain(phrase)
  })

  const effect: EffectRecord = {
    id: "X-E1",
    kind: "response",
    text: "",
    window: "card-pending-to-opponent",
    actions: []
  }
  const players: ReadonlyArray<PlayerSelector> = ["self", "opponent", "each", "pending-controller"]
  const byPlayer = (p: PlayerSelector): ReadonlyArray<Action> => [
    { op: "draw", player: p, amount: 1 },
    { op: "draw", player: p, amount: 3 },
    { op: "gain-resource", player: p, resource: "fandom", amount: 2 },
    { op: "lose-resource", player: p, resource: "composure", amount: 1 },
    { op: "deal-damage", player: p, amount: 1 },
    { op: "prevent-damage", player: p, amount: "all" },
    { op: "move-top-to-bottom", player: p },
    { op: "look-at-top", players: [p], amount: 1, deck: p },
    {
      op: "choose-one",
      player: p,
      options: [{ label: "a", actions: [{ op: "draw", player: p, amount: 1 }] }, {
        label: "b",
        actions: [{ op: "gain-resource", player: "self", resource: "trend", amount: 1 }]
      }]
    },
    {
      op: "counter-card",
      card: "pending-card",
      unless: {
        optional_payment: { player: p, actions: [{ op: "lose-resource", player: p, resource: "fandom", amount: 1 }] }
      }
    },
    {
      op: "gain-resource",
      player: p,
      resource: "trend",
      amount: { count: "cards-cast", player: p, period: "this-turn" }
    },
    {
      op: "draw",
      player: "self",
      amount: 1,
      condition: { fact: "resource@1", player: p, resource: "fandom", compare: "gte", value: 2 }
    },
    {
      op: "draw",
      player: "self",
      amount: 1,
      condition: { fact: "controls@1", player: p, filter: { type: "star" }, at_least: 2 }
    }
  ]
  it.each(players)("every operation with %s as its player agrees in number", (p) => {
    const found = byPlayer(p).flatMap((a) =>
      problems(explainAction(a, effect)).map((x) => `${x} in «${explainAction(a, effect)}»`)
    )
    expect(found).toEqual([])
  })

  it("every effect kind has a grammatical head", () => {
    const kinds: ReadonlyArray<EffectRecord> = [
      {
        ...effect,
        kind: "triggered",
        window: undefined,
        trigger: { event: "turn-start", player: "opponent" },
        actions: [{ op: "draw", player: "self", amount: 1 }]
      },
      {
        ...effect,
        kind: "triggered",
        window: undefined,
        trigger: { event: "damage-dealt", player: "any" },
        limit: { count: 3, per: "turn" },
        actions: [{ op: "draw", player: "self", amount: 1 }]
      },
      {
        ...effect,
        kind: "replacement",
        window: undefined,
        trigger: { event: "damage-pending", player: "self" },
        actions: [{ op: "prevent-damage", player: "self", amount: 1 }]
      }
    ].map(({ window: _w, ...e }) => e as EffectRecord)
    const found = kinds.flatMap((e) => problems(explainEffect(e)).map((x) => `${x} in «${explainEffect(e)}»`))
    expect(found).toEqual([])
  })
})
