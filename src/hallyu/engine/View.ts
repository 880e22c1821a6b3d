/**
 * What one player may see of a game (§1.3): public zones, resources and
 * counters; their own hand; only the sizes of the opponent's hand and of both
 * decks; and the deck cards a `look-at-top` showed to that player — to no
 * one else. A spectator (viewer `null`) sees the public part only: no hand,
 * no deck card shown, no decision. Pure; derived from the state, never
 * stored in it.
 *
 * @since 0.1.0
 */
import type { GameResult, GameState, Seat } from "./State.js"

export interface SeatView {
  readonly composure: number
  readonly fandom: number
  readonly trend: number
  readonly deckSize: number
  readonly handSize: number
  /** Only for the viewing player's own seat. */
  readonly hand: ReadonlyArray<string> | null
  readonly stage: ReadonlyArray<string>
  readonly archive: ReadonlyArray<string>
  readonly pending: ReadonlyArray<string>
}

export interface PlayerView {
  /** The seat whose view this is; null: a spectator's. */
  readonly viewer: Seat | null
  readonly turn: number
  readonly active: Seat
  readonly seats: readonly [SeatView, SeatView]
  readonly counters: GameState["counters"]
  /** Deck cards this viewer has been shown, top first, per deck owner. */
  readonly seen: ReadonlyArray<{ readonly owner: Seat; readonly cards: ReadonlyArray<string> }>
  /** The decision, if it is addressed to this viewer; otherwise only who is to act. */
  readonly toAct: Seat | null
  readonly decision: GameState["decision"]
  readonly result: GameResult | null
}

export const observe = (s: GameState, viewer: Seat | null): PlayerView => {
  const seat = (n: Seat): SeatView => {
    const p = s.players[n]
    return {
      composure: p.composure,
      fandom: p.fandom,
      trend: p.trend,
      deckSize: p.deck.length,
      handSize: p.hand.length,
      hand: n === viewer ? p.hand : null,
      stage: p.stage,
      archive: p.archive,
      pending: p.pending
    }
  }
  return {
    viewer,
    turn: s.turn,
    active: s.active,
    seats: [seat(0), seat(1)],
    counters: s.counters,
    seen: viewer === null
      ? []
      : s.looks.filter((l) => l.player === viewer).map((l) => ({ owner: l.owner, cards: l.cards })),
    toAct: s.decision?.player ?? null,
    decision: s.decision !== null && s.decision.player === viewer ? s.decision : null,
    result: s.result
  }
}
