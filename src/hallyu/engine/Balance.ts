/**
 * Balance statistics of a simulation: what designers tune cards from. Every
 * game adds integer counts to its range's partial (count records named
 * `balance.*`, folded by {@link addBalanceCounts}); partials merge by adding
 * counts, so the statistics do not depend on how the games were split
 * (threads, cluster shards) or in which order the partials are added. Rates
 * and their 95 % Wilson intervals are computed from the merged counts at the
 * end ({@link balanceReport}), rounded to {@link BALANCE_DIGITS} decimals, so the JSON
 * and CSV ({@link balanceCsv}) are the same bytes wherever the games ran.
 *
 * The unit of the per-card figures is a *seat-game*: one seat in one game
 * whose deck list holds the card. A card is *drawn* in a seat-game when a copy
 * reached the seat's hand (opening hand included: cards only ever leave the
 * deck by being drawn), *played* when the seat cast a copy, and *in the
 * winner's plays* when the seat that played it won.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { GameResult, GameState, Seat } from "./State.js"

// ------------------------------------------------------------------ counting (the pure fold)

/** Count records of a partial: name → key → count (the shape of `SimulationPartial.counts`). */
type CountRecords = Record<string, Record<string, number>>

/** The count records a balance report reads (besides `winsBySeat`, `reasons` and `plays`). */
export const BALANCE_RECORDS = {
  /** Games by how many turns they lasted (key: the turn count). */
  turns: "balance.turns",
  /** Games by the result of the seat that went first (`first`, `second`, `draw`, `unfinished`). */
  order: "balance.order",
  /** Seat-games whose deck list holds the card (key: card code). */
  inDeck: "balance.inDeck",
  drawn: "balance.drawn",
  played: "balance.played",
  /** Seat-games with the card in the deck that the seat won. */
  won: "balance.won",
  /** Seat-games in which the seat played the card and won. */
  playedWon: "balance.playedWon"
} as const

const bump = (r: Record<string, number>, k: string): void => {
  r[k] = (r[k] ?? 0) + 1
}

const recordOf = (counts: CountRecords, name: string): Record<string, number> => {
  const known = counts[name]
  if (known !== undefined) return known
  const made: Record<string, number> = {}
  counts[name] = made
  return made
}

/** Card codes of each seat's deck list, by the lineup's instance table (shared by every game of a lineup). */
const lineupCodes = new WeakMap<object, readonly [ReadonlyArray<string>, ReadonlyArray<string>]>()
const codesBySeat = (
  cardOf: Readonly<Record<string, number>>,
  codeOf: (card: number) => string
): readonly [ReadonlyArray<string>, ReadonlyArray<string>] => {
  const known = lineupCodes.get(cardOf)
  if (known !== undefined) return known
  const seats: [Set<string>, Set<string>] = [new Set(), new Set()]
  for (const inst of Object.keys(cardOf)) seats[inst.charCodeAt(1) === 48 ? 0 : 1].add(codeOf(cardOf[inst] ?? 0))
  const made = [[...seats[0]].sort(compareOrdinal), [...seats[1]].sort(compareOrdinal)] as const
  lineupCodes.set(cardOf, made)
  return made
}

/** One finished (or unfinished) game, as the fold needs it. */
export interface BalanceGame {
  readonly result: GameResult | null
  readonly turns: number
  readonly final: Pick<GameState, "cardOf" | "first" | "players">
  /** Card indices each seat cast (any order, repeats allowed). */
  readonly playedBySeat: readonly [ReadonlyArray<number>, ReadonlyArray<number>]
}

/** Adds one game to the balance count records (creating the records it needs). */
export const addBalanceCounts = (counts: CountRecords, g: BalanceGame, codeOf: (card: number) => string): void => {
  bump(recordOf(counts, BALANCE_RECORDS.turns), String(g.turns))
  const winner: Seat | null | undefined = g.result === null ? undefined : g.result.winner
  bump(
    recordOf(counts, BALANCE_RECORDS.order),
    winner === undefined ? "unfinished" : winner === null ? "draw" : winner === g.final.first ? "first" : "second"
  )
  const inDeck = recordOf(counts, BALANCE_RECORDS.inDeck)
  const drawn = recordOf(counts, BALANCE_RECORDS.drawn)
  const played = recordOf(counts, BALANCE_RECORDS.played)
  const won = recordOf(counts, BALANCE_RECORDS.won)
  const playedWon = recordOf(counts, BALANCE_RECORDS.playedWon)
  const codes = codesBySeat(g.final.cardOf, codeOf)
  for (const seat of [0, 1] as const) {
    const inHand = new Set<string>()
    const stillInDeck = new Set(g.final.players[seat].deck)
    for (const inst of Object.keys(g.final.cardOf)) {
      if ((inst.charCodeAt(1) === 48 ? 0 : 1) === seat && !stillInDeck.has(inst)) {
        inHand.add(codeOf(g.final.cardOf[inst] ?? 0))
      }
    }
    const cast = new Set(g.playedBySeat[seat].map(codeOf))
    const seatWon = winner === seat
    for (const code of codes[seat]) {
      bump(inDeck, code)
      if (inHand.has(code)) bump(drawn, code)
      if (cast.has(code)) bump(played, code)
      if (seatWon) bump(won, code)
      if (seatWon && cast.has(code)) bump(playedWon, code)
    }
  }
}

// ------------------------------------------------------------------ the report

/** Decimals of every rate and interval bound (and the mean game length). */
export const BALANCE_DIGITS = 4

const round = (x: number): number => Math.round(x * 10 ** BALANCE_DIGITS) / 10 ** BALANCE_DIGITS

/** The normal quantile of a two-sided 95 % interval. */
const Z95 = 1.959963984540054

/** A proportion `count / of` with its 95 % Wilson score interval; null when `of` is 0. */
export const wilson = (count: number, of: number): BalanceProportion | null => {
  if (of <= 0) return null
  const p = count / of
  const z2 = Z95 * Z95
  const denom = 1 + z2 / of
  const centre = (p + z2 / (2 * of)) / denom
  const half = (Z95 * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of))) / denom
  return { rate: round(p), low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) }
}

const Count = Schema.Int.pipe(Schema.nonNegative())

export const BalanceProportion = Schema.Struct({
  rate: Schema.Number.annotations({ description: `count / of, rounded to ${BALANCE_DIGITS} decimals` }),
  low: Schema.Number.annotations({ description: "Lower bound of the 95 % Wilson score interval" }),
  high: Schema.Number.annotations({ description: "Upper bound of the 95 % Wilson score interval" })
}).annotations({
  identifier: "BalanceProportion",
  description: "A rate with its 95 % Wilson score interval, rounded to 4 decimals."
})
export type BalanceProportion = typeof BalanceProportion.Type

/** A count out of a total, with its rate (null when the total is 0). */
export const BalanceShare = Schema.Struct({
  count: Count,
  of: Count,
  proportion: Schema.NullOr(BalanceProportion)
}).annotations({ identifier: "BalanceShare", description: "count out of of, with the rate and its 95 % interval." })
export type BalanceShare = typeof BalanceShare.Type

const share = (count: number, of: number): BalanceShare => ({ count, of, proportion: wilson(count, of) })

export const BALANCE_REASONS = ["composure", "trend-cap", "simultaneous", "turn-limit", "unfinished"] as const

export const BalanceCard = Schema.Struct({
  code: Schema.String.annotations({ description: "The card's code (HHX-PROTO-014)." }),
  name: Schema.String.annotations({ description: "The card's name in the deck file." }),
  plays: Count.annotations({ description: "Casts of the card over every game and seat." }),
  drawn: BalanceShare.annotations({
    description: "Seat-games in which the card was drawn, of those whose deck holds it."
  }),
  played: BalanceShare.annotations({
    description: "Seat-games in which the card was played, of those whose deck holds it."
  }),
  winWhenPlayed: BalanceShare.annotations({
    description: "Seat-games the seat won, of those in which it played the card (win rate when played)."
  }),
  inWinnerPlays: BalanceShare.annotations({
    description: "Seat-games in which the winner played the card, of those the seat holding it won."
  })
}).annotations({ identifier: "BalanceCard", description: "One card's balance figures (unit: a seat-game)." })
export type BalanceCard = typeof BalanceCard.Type

export const BalanceReport = Schema.Struct({
  format: Schema.Literal("cardfx-balance/1"),
  deckHash: Schema.String.annotations({ description: "sha256 of the deck file's canonical JSON." }),
  seed: Schema.String,
  games: Count,
  seats: Schema.Tuple(BalanceShare, BalanceShare).annotations({
    description: "Wins of seat 0 and seat 1, of every game."
  }),
  draws: BalanceShare.annotations({ description: "Drawn games, of every game." }),
  firstSeat: BalanceShare.annotations({ description: "Wins of the seat that went first, of every game." }),
  reasons: Schema.Array(
    Schema.Struct({
      reason: Schema.Literal(...BALANCE_REASONS),
      games: BalanceShare
    }).annotations({ identifier: "BalanceReason", description: "Games that ended for one reason." })
  ).annotations({ description: "Games by ending reason, in the rules' order (unfinished: cut by the action bound)." }),
  turns: Schema.Struct({
    min: Count,
    mean: Schema.Number.annotations({ description: `Mean turns per game, rounded to ${BALANCE_DIGITS} decimals.` }),
    max: Count,
    histogram: Schema.Array(
      Schema.Struct({ turns: Count, games: Count }).annotations({
        identifier: "BalanceTurnsBin",
        description: "How many games lasted this many turns."
      })
    ).annotations({ description: "Games by length, shortest first (lengths no game had are left out)." })
  }).annotations({ identifier: "BalanceTurns", description: "Game length in turns." }),
  cards: Schema.Array(BalanceCard).annotations({ description: "Every card of the deck lists played, by code." })
}).annotations({
  identifier: "BalanceReport",
  description:
    "`cardfx simulate --stats --format json`: balance statistics of seeded random games, the same bytes for any split of the games."
})
export type BalanceReport = typeof BalanceReport.Type

/** What a report is made from: a partial's counts over games [0, games). */
export interface BalanceInput {
  readonly seed: string
  readonly games: number
  readonly deckHash: string
  readonly turns: { readonly min: number; readonly max: number; readonly sum: number }
  readonly counts: Readonly<Record<string, Readonly<Record<string, number>>>>
}

/** The report of a merged partial; `nameOf` names a card code (the deck file's `name`). */
export const balanceReport = (p: BalanceInput, nameOf: (code: string) => string): BalanceReport => {
  const n = p.games
  const rec = (name: string): Readonly<Record<string, number>> => p.counts[name] ?? {}
  const wins = rec("winsBySeat")
  const reasons = rec("reasons")
  const order = rec(BALANCE_RECORDS.order)
  const inDeck = rec(BALANCE_RECORDS.inDeck)
  const drawn = rec(BALANCE_RECORDS.drawn)
  const played = rec(BALANCE_RECORDS.played)
  const won = rec(BALANCE_RECORDS.won)
  const playedWon = rec(BALANCE_RECORDS.playedWon)
  const plays = rec("plays")
  const hist = rec(BALANCE_RECORDS.turns)
  return {
    format: "cardfx-balance/1",
    deckHash: p.deckHash,
    seed: p.seed,
    games: n,
    seats: [share(wins["0"] ?? 0, n), share(wins["1"] ?? 0, n)],
    draws: share(wins["draw"] ?? 0, n),
    firstSeat: share(order["first"] ?? 0, n),
    reasons: BALANCE_REASONS.map((reason) => ({ reason, games: share(reasons[reason] ?? 0, n) })),
    turns: {
      min: n === 0 ? 0 : p.turns.min,
      mean: n === 0 ? 0 : round(p.turns.sum / n),
      max: p.turns.max,
      histogram: Object.keys(hist)
        .map(Number)
        .sort((a, b) => a - b)
        .map((t) => ({ turns: t, games: hist[String(t)] ?? 0 }))
    },
    cards: Object.keys(inDeck).sort(compareOrdinal).map((code) => ({
      code,
      name: nameOf(code),
      plays: plays[code] ?? 0,
      drawn: share(drawn[code] ?? 0, inDeck[code] ?? 0),
      played: share(played[code] ?? 0, inDeck[code] ?? 0),
      winWhenPlayed: share(playedWon[code] ?? 0, played[code] ?? 0),
      inWinnerPlays: share(playedWon[code] ?? 0, won[code] ?? 0)
    }))
  }
}

// ------------------------------------------------------------------ CSV

const CSV_HEADER = ["section", "key", "name", "count", "of", "rate", "low", "high"] as const

const csvCell = (v: string | number): string => {
  const s = String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}

/**
 * The report as one tidy CSV table: a row per figure (`section,key,name,count,of,rate,low,high`),
 * sections `games`, `seat`, `draws`, `first-seat`, `reason`, `turns`, `turns-min`, `turns-mean`,
 * `turns-max`, `card-plays`, `card-drawn`, `card-played`, `card-win-when-played`,
 * `card-in-winner-plays`. Every number of the JSON is in it.
 */
export const balanceCsv = (r: BalanceReport): string => {
  const rows: Array<ReadonlyArray<string | number>> = [CSV_HEADER]
  const row = (section: string, key: string | number, name: string, s: BalanceShare): void => {
    const p = s.proportion
    rows.push([section, key, name, s.count, s.of, p?.rate ?? "", p?.low ?? "", p?.high ?? ""])
  }
  rows.push(["games", r.seed, r.deckHash, r.games, "", "", "", ""])
  r.seats.forEach((s, seat) => row("seat", seat, "", s))
  row("draws", "", "", r.draws)
  row("first-seat", "", "", r.firstSeat)
  for (const x of r.reasons) row("reason", x.reason, "", x.games)
  for (const b of r.turns.histogram) rows.push(["turns", b.turns, "", b.games, r.games, "", "", ""])
  rows.push(["turns-min", "", "", r.turns.min, "", "", "", ""])
  rows.push(["turns-mean", "", "", "", "", r.turns.mean, "", ""])
  rows.push(["turns-max", "", "", r.turns.max, "", "", "", ""])
  for (const c of r.cards) rows.push(["card-plays", c.code, c.name, c.plays, "", "", "", ""])
  for (const c of r.cards) row("card-drawn", c.code, c.name, c.drawn)
  for (const c of r.cards) row("card-played", c.code, c.name, c.played)
  for (const c of r.cards) row("card-win-when-played", c.code, c.name, c.winWhenPlayed)
  for (const c of r.cards) row("card-in-winner-plays", c.code, c.name, c.inWinnerPlays)
  return rows.map((cells) => cells.map(csvCell).join(",")).join("\n") + "\n"
}
