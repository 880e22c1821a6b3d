/**
 * Which deck values came out of `validateDeck` with no error. The engine
 * accepts only those, so unknown facts or operations can never reach it.
 *
 * @since 0.1.0
 */
import type { StarterDeck } from "./Schema.js"

const validated = new WeakSet<StarterDeck>()

/** @internal Called by `validateDeck` on the deck it returns. */
export const markValidated = (deck: StarterDeck): StarterDeck => {
  validated.add(deck)
  return deck
}

/** Whether `validateDeck` returned this deck value. */
export const isValidated = (deck: StarterDeck): boolean => validated.has(deck)
