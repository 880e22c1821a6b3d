/**
 * Deck and zone operations (RULES.md §10): `look-at-top`, `move-top-to-bottom`, `return-card`.
 *
 * @since 0.1.0
 */
import type { PlayerSelector } from "../../Schema.js"
import type { ZoneName } from "../../Vocabulary.js"
import type { Draft } from "../Draft.js"
import type { Op } from "../Operations.js"
import { amountOf, cardsOf, playerSeats } from "../Reading.js"
import type { Frame, GameState, Look, Seat } from "../State.js"
import { move } from "../Zones.js"

/** `look-at-top`. */
export const lookAtTopOp = (d: Draft, a: Op<"look-at-top">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const owner = playerSeats(s, f, a.deck ?? "self")[0]
  if (owner === undefined) return
  const cards = s.players[owner].deck.slice(0, amountOf(s, a.amount, f, c))
  // The lookers as a mask of seats (bit `seat`), read in seat order: no set, lists or closures.
  let lookers = 0
  for (let k = 0; k < a.players.length; k++) {
    const seats = playerSeats(s, f, a.players[k] as PlayerSelector)
    for (let j = 0; j < seats.length; j++) lookers |= 1 << (seats[j] as Seat)
  }
  // Earlier looks of the lookers are replaced; a new look per looker, in seat order.
  const looks: Array<Look> = []
  for (const l of d.s.looks) if ((lookers & (1 << l.player)) === 0) looks.push(l)
  for (let seat = 0; seat <= 1; seat++) {
    if ((lookers & (1 << seat)) !== 0) looks.push({ player: seat as Seat, owner, cards })
  }
  d.s.looks = looks
}

/** `move-top-to-bottom`. */
export const moveTopToBottomOp = (d: Draft, a: Op<"move-top-to-bottom">, f: Frame): void => {
  const s = d.s as GameState
  for (const seat of playerSeats(s, f, a.player)) {
    if (d.players[seat].deck.length < 2) continue
    const deck = d.zone(seat, "deck")
    deck.push(deck.shift() as string) // length checked above
  }
}

/** `return-card`. */
export const returnCardOp = (d: Draft, a: Op<"return-card">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  for (const inst of cardsOf(c, s, f, a.card)) move(d, inst, a.from_zone as ZoneName, a.to_zone as ZoneName)
}
