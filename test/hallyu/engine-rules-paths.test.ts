/**
 * Rule paths that seeded random games on the starter deck do not reach
 * (issue 12, points 8–10): an immutable validated deck, the zero floor after
 * each cost change, and scenarios built for the purpose.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { currentCost, makeEngine } from "../../src/hallyu/engine/Engine.js"
import { playRandom } from "../../src/hallyu/engine/Simulate.js"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { craft, engine } from "./engine-fixtures.js"
import { deckText, parse } from "./fixtures.js"

const mustEngine = (deck: StarterDeck | undefined) => {
  if (deck === undefined) throw new Error("the deck does not validate")
  const e = makeEngine(deck)
  if (Either.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

const actionsOf = (e: ReturnType<typeof mustEngine>, seed: string): ReadonlyArray<string> => {
  const r = playRandom(e, { seed })
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right.actions
}

describe("a validated deck is immutable (issue 12.8)", () => {
  it("changing the validated deck, or the document it came from, after validation does not reach an engine", () => {
    const doc = parse(deckText)
    const v = validateDeck(doc)
    const deck = v.deck as StarterDeck
    const reference = mustEngine(validateDeck(parse(deckText)).deck)
    // The source document: its objects are not the deck's.
    const source = doc.value as { cards: Array<{ cost: number; effects: Array<{ actions: Array<{ op: string }> }> }> }
    ;(source.cards[0] as { cost: number }).cost = 9
    ;((source.cards[0]?.effects[0]?.actions[0]) as { op: string }).op = "launch-missiles"
    // The validated deck itself: every level is frozen, so assignments throw (ES modules are strict).
    const tamper = [
      () => {
        ;(deck.cards[0] as { cost: number }).cost = 0
      },
      () => {
        ;(deck.cards[1]?.effects[0]?.actions as Array<unknown>).push({ op: "launch-missiles" })
      },
      () => {
        ;(deck.rules.parameters as { trend_cap: number }).trend_cap = 1
      },
      () => {
        ;(deck.decks[0]?.cards[0] as { count: number }).count = 30
      }
    ]
    for (const t of tamper) expect(t).toThrow(TypeError)
    const e = mustEngine(deck)
    expect(e.deck.cards[0]?.cost).toBe(reference.deck.cards[0]?.cost)
    expect(e.compiled.hash).toBe(reference.compiled.hash)
    expect(e.deck.rules.parameters.trend_cap).toBe(10)
    for (const seed of ["imm/1", "imm/2", "imm/3"]) expect(actionsOf(e, seed)).toEqual(actionsOf(reference, seed))
  })
})

describe("the zero floor after each cost change (issue 12.10, RULES.md §8.5)", () => {
  // Concept Reveal (020, a dreamy Moment, cost 1) in seat 0's hand; two Actor-Idol Daeun (006, your
  // dreamy Moments cost 1 less) on seat 0's stage; Broadcast Tower (013, the opponent's cards cost 1
  // more) on seat 1's stage. Each change floored: 1 → 0 → 0 → 1. The total floored once would be 0.
  it("two reductions then an increase: 1, not 0", () => {
    const s = craft({ p0: { hand: ["020"], stage: ["006", "006"], fandom: 0 }, p1: { stage: ["013"] } })
    expect(currentCost(engine.compiled, s, "p0-h1")).toBe(1)
    expect(engine.legalActions(s).map((a) => a.id)).toEqual(["end-turn"]) // cannot pay 1 with 0 Fandom
    const withOne = craft({ p0: { hand: ["020"], stage: ["006", "006"], fandom: 1 }, p1: { stage: ["013"] } })
    expect(engine.legalActions(withOne).some((a) => a.id.startsWith("cast:p0-h1"))).toBe(true)
  })
  it("temporary changes are floored one by one too, after the static ones", () => {
    const s = craft({ p0: { hand: ["020"], stage: ["006"] } })
    expect(currentCost(engine.compiled, s, "p0-h1")).toBe(0)
    const temp = {
      ...s,
      costChanges: [
        { ctrl: 0 as const, group: null, inst: "p0-h1", amount: -2, until: "end-of-turn" as const },
        { ctrl: 0 as const, group: null, inst: "p0-h1", amount: 1, until: "end-of-turn" as const }
      ]
    }
    expect(currentCost(engine.compiled, temp, "p0-h1")).toBe(1) // 1 → 0 (static) → 0 → 1; once: 0
  })
})
