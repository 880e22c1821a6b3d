/**
 * Rule paths that seeded random games on the starter deck do not reach
 * (issue 12, points 8–10): an immutable validated deck, the zero floor after
 * each cost change, and scenarios built for the purpose.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { makeEngine } from "../../src/hallyu/engine/Engine.js"
import { playRandom } from "../../src/hallyu/engine/Simulate.js"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
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
