/**
 * Which deck values came out of `validateDeck` with no error. The engine
 * accepts only those, so unknown facts or operations can never reach it.
 * A validated deck is immutable: `validateDeck` returns its own deep copy,
 * deeply frozen, so neither a later change to the document it was decoded
 * from nor an assignment to the deck itself can reach an engine.
 *
 * @since 0.1.0
 */
import type { StarterDeck } from "./Schema.js"

/** Returns its argument from `new`, so a subclass's fields are stamped onto that object (not a new one). */
class Stamped {
  constructor(deck: StarterDeck) {
    // The return-override: `new` evaluates to `deck`, and subclass fields are added to it.
    return deck as unknown as Stamped
  }
}

/**
 * The mark: a private field stamped onto the deck object itself. The deck
 * carries its mark, so no module holds a table of decks; the mark is
 * invisible to reflection, copies and serialization (the prototype stays
 * `Object.prototype`), and no other code can add it.
 */
class ValidatedMark extends Stamped {
  readonly #validated = true
  static has(deck: StarterDeck): boolean {
    return #validated in deck
  }
}

const deepFreeze = <A>(value: A): A => {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** @internal Called by `validateDeck` on the deck it returns: returns a deeply frozen copy, marked validated. */
export const markValidated = (deck: StarterDeck): StarterDeck => {
  const own = structuredClone(deck)
  new ValidatedMark(own)
  return deepFreeze(own)
}

/** Whether `validateDeck` returned this deck value. */
export const isValidated = (deck: StarterDeck): boolean => ValidatedMark.has(deck)
