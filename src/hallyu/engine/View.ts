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

/**
 * The public parts of a state that `observe` leaves out, with what one seat
 * may deduce of the hidden ones (what an agent needs to rebuild every world
 * consistent with its view). Everything here is public — the rules say so or
 * a player who remembers the public actions can work it out — except
 * `pinned`, which holds only what the viewer itself was shown (`look-at-top`)
 * and then followed through public moves: where each card it saw now is, when
 * that is still a hidden zone.
 *
 * A pure projection, derived from the state (never stored in it); the hidden
 * parts of the state (the opponent's hand, both decks' order, the RNG, the
 * seed, the opponent's own looks) are not in it.
 */
export interface PublicTable {
  readonly deckHash: string
  /** Every instance's card index (the deck lists are public). */
  readonly cardOf: GameState["cardOf"]
  readonly first: Seat
  readonly ply: number
  readonly toneChanges: GameState["toneChanges"]
  readonly costChanges: GameState["costChanges"]
  readonly damage: GameState["damage"]
  readonly castTargets: GameState["castTargets"]
  readonly cast: GameState["cast"]
  readonly events: GameState["events"]
  readonly uses: GameState["uses"]
  readonly work: GameState["work"]
  readonly queue: GameState["queue"]
  /** The decision pending, whoever it is addressed to (its options are public). */
  readonly decision: GameState["decision"]
  /** The viewer's looks, unchanged (the state keeps them; `observe` shows them as `seen`). */
  readonly looks: GameState["looks"]
  /** Cards the viewer knows the place of in a hidden zone: deck positions per seat, and the opponent's hand. */
  readonly pinned: {
    readonly deck: readonly [ReadonlyArray<readonly [number, string]>, ReadonlyArray<readonly [number, string]>]
    readonly hand: ReadonlyArray<string>
  }
}

/** The public table of `s` for seat `viewer` (see {@link PublicTable}). */
export const publicTable = (s: GameState, viewer: Seat): PublicTable => {
  const looks = s.looks.filter((l) => l.player === viewer)
  const deck: [Array<readonly [number, string]>, Array<readonly [number, string]>] = [[], []]
  const hand: Array<string> = []
  for (const l of looks) {
    const owner = s.players[l.owner]
    for (const inst of l.cards) {
      // The viewer followed the card from the top of the deck through public moves (draws from the
      // top, moves to the bottom, returns to the end): its place in the deck, or — drawn by the
      // opponent — the opponent's hand.
      const at = owner.deck.indexOf(inst)
      if (at >= 0) {
        if (!deck[l.owner].some((p) => p[1] === inst)) deck[l.owner].push([at, inst])
      } else if (l.owner !== viewer && owner.hand.includes(inst) && !hand.includes(inst)) hand.push(inst)
    }
  }
  for (const d of deck) d.sort((a, b) => a[0] - b[0])
  return {
    deckHash: s.deckHash,
    cardOf: s.cardOf,
    first: s.first,
    ply: s.ply,
    toneChanges: s.toneChanges,
    costChanges: s.costChanges,
    damage: s.damage,
    castTargets: s.castTargets,
    cast: s.cast,
    events: s.events,
    uses: s.uses,
    work: s.work,
    queue: s.queue,
    decision: s.decision,
    looks,
    pinned: { deck, hand }
  }
}
