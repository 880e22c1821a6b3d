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

const addTo = (counts: CountRecords, name: string, key: string, n: number): void => {
  const r = counts[name] ?? (counts[name] = {})
  r[key] = (r[key] ?? 0) + n
}

/** One finished (or unfinished) game, as the fold needs it. */
export interface BalanceGame {
  readonly result: GameResult | null
  readonly turns: number
  readonly final: Pick<GameState, "cardOf" | "first" | "players">
  /** Card indices each seat cast (any order, repeats allowed). */
  readonly playedBySeat: readonly [ReadonlyArray<number>, ReadonlyArray<number>]
}

/** What a lineup (the instance table every game of the same deck lists shares) holds, by code index. */
interface Lineup {
  /** Distinct code indices of each seat's deck. */
  readonly codes: readonly [Int32Array, Int32Array]
  /** Copies of each code index in each seat's deck. */
  readonly copies: readonly [Int32Array, Int32Array]
}

/** A range's balance counts, kept as numbers per code index while the games play. */
export interface BalanceFold {
  /** Adds one game. */
  readonly add: (g: BalanceGame) => void
  /** Adds what was counted to a partial's count records (named {@link BALANCE_RECORDS}). */
  readonly flush: (counts: CountRecords) => void
}

const inc = (a: Int32Array, i: number): void => {
  a[i] = (a[i] ?? 0) + 1
}

/**
 * The balance fold of a range, for an engine whose card `i` has code `codes[i]`: per game a few
 * array increments (about 2 % of a game's play), turned into count records once per range.
 */
export const makeBalanceFold = (codes: ReadonlyArray<string>): BalanceFold => {
  // Cards that share a code count as one (a code is what a designer tunes).
  const names = [...new Set(codes)]
  const codeIndex = Int32Array.from(codes, (c) => names.indexOf(c))
  const n = names.length
  const inDeck = new Int32Array(n)
  const drawn = new Int32Array(n)
  const played = new Int32Array(n)
  const won = new Int32Array(n)
  const playedWon = new Int32Array(n)
  const left = new Int32Array(n)
  const cast = new Uint8Array(n)
  const lengths = new Map<number, number>()
  const order = { first: 0, second: 0, draw: 0, unfinished: 0 }
  const lineups = new WeakMap<object, Lineup>()
  const lineupOf = (cardOf: Readonly<Record<string, number>>): Lineup => {
    const known = lineups.get(cardOf)
    if (known !== undefined) return known
    const copies = [new Int32Array(n), new Int32Array(n)] as const
    for (const inst of Object.keys(cardOf)) {
      inc(copies[inst.charCodeAt(1) === 48 ? 0 : 1], codeIndex[cardOf[inst] ?? 0] ?? 0)
    }
    const present = (c: Int32Array) => Int32Array.from(c.keys()).filter((k) => (c[k] ?? 0) > 0)
    const made: Lineup = { codes: [present(copies[0]), present(copies[1])], copies }
    lineups.set(cardOf, made)
    return made
  }
  return {
    add: (g) => {
      lengths.set(g.turns, (lengths.get(g.turns) ?? 0) + 1)
      const winner: Seat | null | undefined = g.result === null ? undefined : g.result.winner
      if (winner === undefined) order.unfinished++
      else if (winner === null) order.draw++
      else if (winner === g.final.first) order.first++
      else order.second++
      const cardOf = g.final.cardOf
      const lineup = lineupOf(cardOf)
      for (const seat of [0, 1] as const) {
        // Cards only leave a deck by being drawn: a copy not in the deck at the end was drawn.
        left.fill(0)
        for (const inst of g.final.players[seat].deck) inc(left, codeIndex[cardOf[inst] ?? 0] ?? 0)
        cast.fill(0)
        for (const card of g.playedBySeat[seat]) cast[codeIndex[card] ?? 0] = 1
        const copies = lineup.copies[seat]
        const seatWon = winner === seat
        for (const c of lineup.codes[seat]) {
          inc(inDeck, c)
          if ((left[c] ?? 0) < (copies[c] ?? 0)) inc(drawn, c)
          if (cast[c] === 1) {
            inc(played, c)
            if (seatWon) inc(playedWon, c)
          }
          if (seatWon) inc(won, c)
        }
      }
    },
    flush: (counts) => {
      for (const t of [...lengths.keys()].sort((a, b) => a - b)) {
        addTo(counts, BALANCE_RECORDS.turns, String(t), lengths.get(t) ?? 0)
      }
      for (const [k, v] of Object.entries(order)) addTo(counts, BALANCE_RECORDS.order, k, v)
      for (let c = 0; c < n; c++) {
        if ((inDeck[c] ?? 0) === 0) continue
        const code = names[c] ?? "?"
        addTo(counts, BALANCE_RECORDS.inDeck, code, inDeck[c] ?? 0)
        addTo(counts, BALANCE_RECORDS.drawn, code, drawn[c] ?? 0)
        addTo(counts, BALANCE_RECORDS.played, code, played[c] ?? 0)
        addTo(counts, BALANCE_RECORDS.won, code, won[c] ?? 0)
        addTo(counts, BALANCE_RECORDS.playedWon, code, playedWon[c] ?? 0)
      }
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
