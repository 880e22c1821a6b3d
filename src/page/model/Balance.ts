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
