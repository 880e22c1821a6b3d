/**
 * Deck and zone operations (RULES.md §10): `look-at-top`, `move-top-to-bottom`, `return-card`.
 *
 * @since 0.1.0
 */
import type { ZoneName } from "../../Vocabulary.js"
import type { Draft } from "../Draft.js"
import type { Op } from "../Operations.js"
import { amountOf, cardsOf, playerSeats } from "../Reading.js"
import type { Frame, GameState } from "../State.js"
import { move } from "../Zones.js"

/** `look-at-top`. */
export const lookAtTopOp = (d: Draft, a: Op<"look-at-top">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const owner = playerSeats(s, f, a.deck ?? "self")[0]
  if (owner === undefined) return
  const cards = s.players[owner].deck.slice(0, amountOf(s, a.amount, f, c))
  const lookers = new Set(a.players.flatMap((p) => playerSeats(s, f, p)))
  d.s.looks = [
    ...d.s.looks.filter((l) => !lookers.has(l.player)),
    ...[...lookers].sort().map((player) => ({ player, owner, cards }))
  ]
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
