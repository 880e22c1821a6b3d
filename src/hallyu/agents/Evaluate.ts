/**
 * The agents' evaluation of a position, for one seat: how far ahead that
 * seat is, in "Trend points". Documented in docs/hallyu-hex.md (Agents).
 *
 * Per seat, `side(seat)` adds up:
 *
 * | term | weight | why |
 * | --- | --- | --- |
 * | Trend | 4 per point | the race: `trend_cap` wins |
 * | stage Stars' spotlight | 3 per point of `buzz − scandal` (when positive) | Trend every turn to come |
 * | Stars on stage | 0.5 each | bodies for effects and targets |
 * | Venues on stage | 1 each | lasting effects |
 * | Composure | 2 per point | the other race: 20 points of Composure weigh as much as 10 of Trend |
 * | Fandom | 0.3 per point | tempo: what the next turns can cast |
 * | cards in hand | 0.6 each | options |
 *
 * The score is `side(seat) − side(other)`; a finished game scores ±100 (0 a
 * draw). `winChance` squashes it into (0, 1) for the search's back-up.
 *
 * @since 0.1.0
 */
import type { CompiledDeck } from "../engine/Compiled.js"
import type { GameState, Seat } from "../engine/State.js"

interface CardTable {
  /** Spotlight of a Star (its buzz); −1 for a Venue; 0 for a Moment. */
  readonly buzz: Int8Array
}

const tables = new WeakMap<CompiledDeck, CardTable>()

const tableOf = (c: CompiledDeck): CardTable => {
  const hit = tables.get(c)
  if (hit !== undefined) return hit
  const buzz = new Int8Array(c.cards.length)
  c.cards.forEach((card, i) => {
    buzz[i] = card.def.type === "star" ? (card.def.buzz ?? 0) : card.def.type === "venue" ? -1 : 0
  })
  const t = { buzz }
  tables.set(c, t)
  return t
}

export const WIN_SCORE = 100

/** The evaluation's weights (the module's table). */
export const WEIGHTS = {
  trend: 4,
  spotlight: 3,
  star: 0.5,
  venue: 1,
  composure: 2,
  lowComposure: 0,
  fandom: 0.3,
  hand: 0.6
}

const side = (c: CompiledDeck, t: CardTable, s: GameState, seat: Seat): number => {
  const p = s.players[seat]
  const W = WEIGHTS
  let v = W.trend * p.trend + W.fandom * p.fandom + W.hand * p.hand.length
  v += W.composure * p.composure - (p.composure < 6 ? W.lowComposure * (6 - p.composure) : 0)
  for (let k = 0; k < p.stage.length; k++) {
    const inst = p.stage[k] as string
    const b = t.buzz[s.cardOf[inst] ?? 0] ?? 0
    if (b < 0) v += W.venue
    else {
      const scandal = s.counters[inst]?.["scandal"] ?? 0
      v += W.star + (b > scandal ? W.spotlight * (b - scandal) : 0)
    }
  }
  void c
  return v
}

/** How far `seat` is ahead in `s` (see the module's table); ±{@link WIN_SCORE} for a finished game. */
export const evaluate = (c: CompiledDeck, s: GameState, seat: Seat): number => {
  if (s.result !== null) {
    return s.result.winner === null ? 0 : s.result.winner === seat ? WIN_SCORE : -WIN_SCORE
  }
  const t = tableOf(c)
  return side(c, t, s, seat) - side(c, t, s, seat === 0 ? 1 : 0)
}

/** A score squashed into (0, 1): the search's reward for a position it stopped at. */
export const winChance = (score: number): number => 1 / (1 + Math.exp(-score / 6))
