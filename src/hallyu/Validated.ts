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

const validated = new WeakSet<StarterDeck>()

const deepFreeze = <A>(value: A): A => {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** @internal Called by `validateDeck` on the deck it returns: returns a deeply frozen copy, marked validated. */
export const markValidated = (deck: StarterDeck): StarterDeck => {
  const own = deepFreeze(structuredClone(deck))
  validated.add(own)
  return own
}

/** Whether `validateDeck` returned this deck value. */
export const isValidated = (deck: StarterDeck): boolean => validated.has(deck)
