/**
 * The validated mark is carried by the deck value (no module-level table):
 * only the deck `validateDeck` returned is accepted by an engine; its copies
 * are not, and the mark adds nothing a copy, `JSON.stringify` or reflection
 * could see.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { makeEngine } from "../../src/hallyu/engine/Engine.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { isValidated } from "../../src/hallyu/Validated.js"
import { deckText, parse } from "./fixtures.js"

describe("the validated mark", () => {
  it("marks the returned deck only; copies of it are refused by makeEngine", () => {
    const deck = validateDeck(parse(deckText)).deck
    if (deck === undefined) throw new Error("the starter deck does not validate")
    expect(isValidated(deck)).toBe(true)
    expect(Either.isRight(makeEngine(deck))).toBe(true)
    const copies = [{ ...deck }, structuredClone(deck), JSON.parse(JSON.stringify(deck)), Object.assign({}, deck)]
    for (const copy of copies) {
      expect(copy).toEqual(deck)
      expect(isValidated(copy)).toBe(false)
      const e = makeEngine(copy)
      expect(Either.isLeft(e) && e.left.code).toBe("illegal_action")
    }
    // Invisible: no own keys or symbols beyond the document's, the plain prototype, frozen.
    expect(Reflect.ownKeys(deck)).toEqual(Object.keys(structuredClone(deck)))
    expect(Object.getPrototypeOf(deck)).toBe(Object.prototype)
    expect(Object.isFrozen(deck)).toBe(true)
  })
})
