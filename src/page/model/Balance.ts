/**
 * The balance view's pure parts: the server-sent events of
 * `POST /v1/hhx/balance` parsed as they arrive, the report's figures as the
 * rows the view lists (the sections of `cardfx simulate --stats --format
 * csv`, so a designer can hold the two side by side), and the scales the
 * plots are drawn with.
 *
 * @since 0.1.0
 */
import type { BalanceReport } from "../../api/Balance.js"

export type BalanceReportDoc = typeof BalanceReport.Type
export type BalanceShareDoc = BalanceReportDoc["draws"]
export type BalanceCardDoc = BalanceReportDoc["cards"][number]

/** One server-sent event. */
export interface SseEvent {
  readonly event: string
  readonly data: string
}

/**
 * Splits a growing text into the complete events it holds and the rest (an
 * event ends at a blank line); comment lines (`:`) are skipped.
 */
export const takeEvents = (buffer: string): { readonly events: ReadonlyArray<SseEvent>; readonly rest: string } => {
  const events: Array<SseEvent> = []
  let rest = buffer
  for (let end = rest.indexOf("\n\n"); end >= 0; end = rest.indexOf("\n\n")) {
    const block = rest.slice(0, end)
    rest = rest.slice(end + 2)
    let event = "message"
    const data: Array<string> = []
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim()
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""))
    }
    if (data.length > 0) events.push({ event, data: data.join("\n") })
  }
  return { events, rest }
}

/** One figure of a report: a row of the numbers table (the CSV's columns). */
export interface Figure {
  readonly section: string
  readonly key: string
  readonly count: number | null
  readonly of: number | null
  readonly rate: number | null
  readonly low: number | null
  readonly high: number | null
}

const shareRow = (section: string, key: string | number, s: BalanceShareDoc): Figure => ({
  section,
  key: String(key),
  count: s.count,
  of: s.of,
  rate: s.proportion?.rate ?? null,
  low: s.proportion?.low ?? null,
  high: s.proportion?.high ?? null
})

const valueRow = (section: string, count: number | null, rate: number | null = null): Figure => ({
  section,
  key: "",
  count,
  of: null,
  rate,
  low: null,
  high: null
})

/** Every figure of a report, in the order of the CSV's rows (its `games` row aside). */
export const figuresOf = (r: BalanceReportDoc): ReadonlyArray<Figure> => [
  ...r.seats.map((s, seat) => shareRow("seat", seat, s)),
  shareRow("draws", "", r.draws),
  shareRow("first-seat", "", r.firstSeat),
  ...r.reasons.map((x) => shareRow("reason", x.reason, x.games)),
  ...r.turns.histogram.map((b) => shareRow("turns", b.turns, { count: b.games, of: r.games, proportion: null })),
  valueRow("turns-min", r.turns.min),
  valueRow("turns-mean", null, r.turns.mean),
  valueRow("turns-max", r.turns.max),
  ...r.cards.map((c) => ({ ...valueRow("card-plays", c.plays), key: c.code })),
  ...r.cards.map((c) => shareRow("card-drawn", c.code, c.drawn)),
  ...r.cards.map((c) => shareRow("card-played", c.code, c.played)),
  ...r.cards.map((c) => shareRow("card-win-when-played", c.code, c.winWhenPlayed)),
  ...r.cards.map((c) => shareRow("card-in-winner-plays", c.code, c.inWinnerPlays))
]

/** A proportion as a percentage with one decimal (`51.2%`). */
export const percent = (x: number): string => `${(x * 100).toFixed(1)}%`

/** A share as the plots' tooltips say it: `51.2% (95% CI 48.1–54.3%), 1024 of 2000`. */
export const describeShare = (s: BalanceShareDoc): string =>
  s.proportion === null
    ? `${s.count} of ${s.of}`
    : `${percent(s.proportion.rate)} (95% CI ${percent(s.proportion.low)}–${
      percent(s.proportion.high)
    }), ${s.count} of ${s.of}`

/** Round "nice" ticks from 0 to at least `max` (at most about 5). */
export const ticks = (max: number): ReadonlyArray<number> => {
  if (max <= 0) return [0]
  const raw = max / 4
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw
  const out: Array<number> = []
  for (let t = 0; t < max + step; t += step) out.push(t)
  return out
}

/** A card's label in the plots: its name, else its code. */
export const cardLabel = (c: BalanceCardDoc): string => (c.name === "" ? c.code : c.name)

/** The card table's columns (each sortable). */
export type CardColumn = "card" | "plays" | "drawn" | "played" | "won" | "winner"

/** One card of a run as the card table shows it. */
export interface CardRow {
  readonly code: string
  readonly name: string
  readonly plays: number
  readonly drawn: BalanceShareDoc
  readonly played: BalanceShareDoc
  readonly won: BalanceShareDoc
  readonly winner: BalanceShareDoc
  /** Won-when-played against the deck's average: its whole interval above (`over`), below (`under`), or neither. */
  readonly flag: "over" | "under" | null
}

/**
 * The deck's average won-when-played rate: every card's wins over every card's plays pooled (the rate a card
 * would have if no card mattered), null when nothing was played.
 */
export const deckAverage = (r: BalanceReportDoc): number | null => {
  let count = 0
  let of = 0
  for (const c of r.cards) {
    count += c.winWhenPlayed.count
    of += c.winWhenPlayed.of
  }
  return of === 0 ? null : count / of
}

/** The rows of a run's card table, with each card flagged when its interval lies clear of the deck's average. */
export const cardRows = (r: BalanceReportDoc): ReadonlyArray<CardRow> => {
  const avg = deckAverage(r)
  return r.cards.map((c) => {
    const p = c.winWhenPlayed.proportion
    const flag = avg === null || p === null ? null : p.low > avg ? "over" : p.high < avg ? "under" : null
    return {
      code: c.code,
      name: cardLabel(c),
      plays: c.plays,
      drawn: c.drawn,
      played: c.played,
      won: c.winWhenPlayed,
      winner: c.inWinnerPlays,
      flag
    }
  })
}

const rateOf = (s: BalanceShareDoc): number => s.proportion?.rate ?? -1

/** The rows sorted by a column (ties by name, then code): numbers by rate or count, the card by name. */
export const sortRows = (
  rows: ReadonlyArray<CardRow>,
  column: CardColumn,
  descending: boolean
): ReadonlyArray<CardRow> => {
  const key = (x: CardRow): number => column === "plays" ? x.plays : column === "card" ? 0 : rateOf(x[column])
  const byName = (a: CardRow, b: CardRow) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0
  const sorted = [...rows].sort((a, b) => (column === "card" ? byName(a, b) : key(a) - key(b) || byName(a, b)))
  return descending ? sorted.reverse() : sorted
}

/** One figure of two runs side by side: both values, the difference, and whether their intervals are apart. */
export interface Compared {
  readonly label: string
  readonly a: BalanceShareDoc | null
  readonly b: BalanceShareDoc | null
  /** b − a in rate (null when either has none). */
  readonly delta: number | null
  /** The two 95 % intervals do not overlap: a difference unlikely to be chance. */
  readonly apart: boolean
}

const compared = (label: string, a: BalanceShareDoc | null, b: BalanceShareDoc | null): Compared => {
  const pa = a?.proportion ?? null
  const pb = b?.proportion ?? null
  return {
    label,
    a,
    b,
    delta: pa === null || pb === null ? null : pb.rate - pa.rate,
    apart: pa !== null && pb !== null && (pb.low > pa.high || pb.high < pa.low)
  }
}

/** Two runs compared: the seats' win rates, draws, and each card's won-when-played and played rates. */
export const compareRuns = (a: BalanceReportDoc, b: BalanceReportDoc): ReadonlyArray<Compared> => {
  const codes = [...new Set([...a.cards.map((c) => c.code), ...b.cards.map((c) => c.code)])]
  const card = (r: BalanceReportDoc, code: string) => r.cards.find((c) => c.code === code)
  return [
    compared("seat 0 wins", a.seats[0], b.seats[0]),
    compared("seat 1 wins", a.seats[1], b.seats[1]),
    compared("draws", a.draws, b.draws),
    ...codes.flatMap((code) => {
      const ca = card(a, code)
      const cb = card(b, code)
      const known = cb ?? ca
      const name = known === undefined ? code : cardLabel(known)
      return [
        compared(`${name}: won when played`, ca?.winWhenPlayed ?? null, cb?.winWhenPlayed ?? null),
        compared(`${name}: played`, ca?.played ?? null, cb?.played ?? null)
      ]
    })
  ]
}

/** What each metric means and what it is counted over (shown on the page). */
export const METRICS: ReadonlyArray<readonly [term: string, meaning: string]> = [
  ["Seat-game", "One seat in one game. A card's rates count the seat-games whose deck list holds the card."],
  ["Plays", "Casts of the card over every game and seat."],
  ["Drawn", "Of the seat-games holding the card, the share where it reached the hand (opening hand included)."],
  ["Played", "Of the seat-games holding the card, the share where it was cast at least once."],
  [
    "Won when played",
    "Of the seat-games where the card was cast, the share that seat won. The deck's average pools every card's wins and plays."
  ],
  [
    "In winner's plays",
    "Of the seat-games holding the card that the seat won, the share where the winner cast it."
  ],
  [
    "95 % interval",
    "The Wilson score interval around each rate. A card is flagged when its whole won-when-played interval lies above or below the deck's average: a difference unlikely to be chance. Two runs differ clearly where their intervals do not overlap."
  ]
]
