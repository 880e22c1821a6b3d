/**
 * Balance (`#balance`): N seeded Hallyu Hex games played by the server
 * (`POST /v1/hhx/balance`), their progress as they play (cancellable), and
 * the statistics drawn as SVG by the page — win rate by seat with its 95 %
 * interval, game length and ending reasons, and per card how often it is
 * drawn, played, won with and in the winner's plays. The last two runs stand
 * side by side: edit a card in the served deck file, run again, compare. The
 * numbers table under each run lists every figure as
 * `cardfx simulate --stats --format csv` does.
 *
 * @since 0.1.0
 */
import { useRef, useState } from "preact/hooks"
import { runBalance } from "../BalanceClient.js"
import { readToken } from "../model/Auth.js"
import {
  type BalanceCardDoc,
  type BalanceReportDoc,
  type BalanceShareDoc,
  cardLabel,
  describeShare,
  type Figure,
  figuresOf,
  percent,
  ticks
} from "../model/Balance.js"
import "./balance.css"
import { ErrorBox, type Failure, toFailure } from "./Common.js"

/** Every plot's coordinate width: it scales to its column (one on a phone, two side by side on a desktop). */
const W = 360
const LABEL = 92
const BAR_END = 300
const scaleX = (x: number): number => LABEL + x * (BAR_END - LABEL)

/** A proportion as a bar with its interval's whisker (a hover title says it in words). */
const ShareBar = (
  { y, h, share, label, tone }: {
    readonly y: number
    readonly h: number
    readonly share: BalanceShareDoc
    readonly label: string
    readonly tone: string
  }
) => {
  const p = share.proportion
  const mid = y + h / 2
  return (
    <g class={`share tone-${tone}`}>
      <title>{`${label}: ${describeShare(share)}`}</title>
      <text x={LABEL - 4} y={mid} class="label" text-anchor="end" dominant-baseline="middle">{label}</text>
      {p === null ? <text x={LABEL + 2} y={mid} dominant-baseline="middle" class="muted-text">no games</text> : (
        <>
          <rect x={LABEL} y={y + 1} width={Math.max(0.5, scaleX(p.rate) - LABEL)} height={h - 2} class="bar" />
          <line x1={scaleX(p.low)} x2={scaleX(p.high)} y1={mid} y2={mid} class="whisker" />
          <line x1={scaleX(p.low)} x2={scaleX(p.low)} y1={y + 2} y2={y + h - 2} class="whisker" />
          <line x1={scaleX(p.high)} x2={scaleX(p.high)} y1={y + 2} y2={y + h - 2} class="whisker" />
          <text x={BAR_END + 4} y={mid} dominant-baseline="middle" class="value">{percent(p.rate)}</text>
        </>
      )}
    </g>
  )
}

/** The 0–100 % axis under proportion bars, with a dashed 50 % line. */
const PercentAxis = ({ top, bottom }: { readonly top: number; readonly bottom: number }) => (
  <g class="axis">
    <line x1={scaleX(0.5)} x2={scaleX(0.5)} y1={top} y2={bottom} class="reference" />
    {[0, 0.25, 0.5, 0.75, 1].map((t) => (
      <g key={t}>
        <line x1={scaleX(t)} x2={scaleX(t)} y1={bottom} y2={bottom + 3} />
        <text x={scaleX(t)} y={bottom + 12} text-anchor="middle">{`${t * 100}%`}</text>
      </g>
    ))}
  </g>
)

const Plot = (
  { id, title, height, children }: {
    readonly id: string
    readonly title: string
    readonly height: number
    readonly children: preact.ComponentChildren
  }
) => (
  <figure class="plot" data-plot={id}>
    <figcaption id={`${id}-caption`}>{title}</figcaption>
    <svg
      viewBox={`0 0 ${W} ${height}`}
      role="img"
      aria-labelledby={`${id}-caption`}
      preserveAspectRatio="xMinYMin meet"
    >
      {children}
    </svg>
  </figure>
)

const SeatsPlot = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const rows: ReadonlyArray<readonly [string, BalanceShareDoc, string]> = [
    ["seat 0 wins", r.seats[0], "seat0"],
    ["seat 1 wins", r.seats[1], "seat1"],
    ["draws", r.draws, "draw"],
    ["first seat wins", r.firstSeat, "first"]
  ]
  const h = 20
  return (
    <Plot id={id} title="Win rate by seat, with 95 % intervals" height={rows.length * h + 22}>
      {rows.map(([label, share, tone], i) => (
        <ShareBar key={label} y={i * h} h={h} share={share} label={label} tone={tone} />
      ))}
      <PercentAxis top={0} bottom={rows.length * h + 2} />
    </Plot>
  )
}

const LengthPlot = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const bins = r.turns.histogram
  const top = 8
  const bottom = 110
  const left = 34
  const right = W - 8
  const lo = r.turns.min
  const hi = Math.max(lo, r.turns.max)
  const most = Math.max(1, ...bins.map((b) => b.games))
  const yTicks = ticks(most)
  const yMax = yTicks[yTicks.length - 1] ?? most
  const step = (right - left) / (hi - lo + 1)
  const x = (t: number): number => left + (t - lo) * step
  const y = (n: number): number => bottom - (n / yMax) * (bottom - top)
  const xTicks = ticks(hi - lo).map((t) => t + lo).filter((t) => t <= hi)
  return (
    <Plot
      id={id}
      title={`Game length: turns (min ${r.turns.min}, mean ${r.turns.mean}, max ${r.turns.max})`}
      height={bottom + 24}
    >
      <g class="axis">
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={left - 3} x2={right} y1={y(t)} y2={y(t)} class="grid" />
            <text x={left - 5} y={y(t)} text-anchor="end" dominant-baseline="middle">{t}</text>
          </g>
        ))}
        {xTicks.map((t) => <text key={t} x={x(t) + step / 2} y={bottom + 12} text-anchor="middle">{t}</text>)}
        <text x={right} y={bottom + 22} text-anchor="end">turns</text>
      </g>
      {bins.map((b) => (
        <rect
          key={b.turns}
          x={x(b.turns) + 0.5}
          y={y(b.games)}
          width={Math.max(0.5, step - 1)}
          height={bottom - y(b.games)}
          class="bar"
        >
          <title>{`${b.turns} turns: ${b.games} of ${r.games} games`}</title>
        </rect>
      ))}
      <line x1={x(r.turns.mean) + step / 2} x2={x(r.turns.mean) + step / 2} y1={top} y2={bottom} class="mean">
        <title>{`mean ${r.turns.mean} turns`}</title>
      </line>
    </Plot>
  )
}

const ReasonsPlot = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const h = 18
  return (
    <Plot id={id} title="Ending reasons" height={r.reasons.length * h + 22}>
      {r.reasons.map((x, i) => (
        <ShareBar key={x.reason} y={i * h} h={h} share={x.games} label={x.reason} tone="reason" />
      ))}
      <PercentAxis top={0} bottom={r.reasons.length * h + 2} />
    </Plot>
  )
}

const CARD_METRICS: ReadonlyArray<readonly [string, (c: BalanceCardDoc) => BalanceShareDoc, string]> = [
  ["drawn", (c) => c.drawn, "drawn"],
  ["played", (c) => c.played, "played"],
  ["won when played", (c) => c.winWhenPlayed, "won"],
  ["in winner's plays", (c) => c.inWinnerPlays, "winner"]
]

const CardsPlot = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const row = 12
  const head = 15
  const block = head + CARD_METRICS.length * row + 6
  return (
    <Plot
      id={id}
      title="Per card (of the seat-games whose deck holds it), with 95 % intervals"
      height={r.cards.length * block + 22}
    >
      {r.cards.map((c, k) => (
        <g key={c.code} data-card={c.code} transform={`translate(0 ${k * block})`}>
          <text x={0} y={11} class="plot-card">{`${cardLabel(c)} · ${c.code} · ${c.plays} plays`}</text>
          {CARD_METRICS.map(([label, pick, tone], i) => (
            <ShareBar key={label} y={head + i * row} h={row} share={pick(c)} label={label} tone={tone} />
          ))}
        </g>
      ))}
      <PercentAxis top={0} bottom={r.cards.length * block + 2} />
    </Plot>
  )
}

const cell = (v: number | null): string => (v === null ? "" : String(v))

/** Every figure, as the CSV lists it (the browser test compares them with `cardfx simulate --stats`). */
const NumbersTable = ({ figures }: { readonly figures: ReadonlyArray<Figure> }) => (
  <details class="numbers">
    <summary>Every number</summary>
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            {["section", "key", "count", "of", "rate", "low", "high"].map((h) => <th key={h} scope="col">{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {figures.map((f) => (
            <tr key={`${f.section}/${f.key}`} data-section={f.section} data-key={f.key}>
              <td>{f.section}</td>
              <td>{f.key}</td>
              <td>{cell(f.count)}</td>
              <td>{cell(f.of)}</td>
              <td>{cell(f.rate)}</td>
              <td>{cell(f.low)}</td>
              <td>{cell(f.high)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </details>
)

interface Run {
  readonly n: number
  readonly report: BalanceReportDoc
}

const RunColumn = ({ run }: { readonly run: Run }) => {
  const r = run.report
  const id = `run${run.n}`
  return (
    <article class="balance-run" data-run={run.n} data-deck={r.deckHash}>
      <h3>
        Run {run.n} <span class="muted">· {r.games} games · seed {r.seed} · deck {r.deckHash.slice(0, 12)}</span>
      </h3>
      <SeatsPlot id={`${id}-seats`} r={r} />
      <LengthPlot id={`${id}-length`} r={r} />
      <ReasonsPlot id={`${id}-reasons`} r={r} />
      <CardsPlot id={`${id}-cards`} r={r} />
      <NumbersTable figures={figuresOf(r)} />
    </article>
  )
}

export const BalanceView = () => {
  const [games, setGames] = useState(2000)
  const [seed, setSeed] = useState(1)
  const [progress, setProgress] = useState<{ readonly done: number; readonly total: number } | null>(null)
  const [failure, setFailure] = useState<Failure | null>(null)
  const [note, setNote] = useState("")
  const [runs, setRuns] = useState<ReadonlyArray<Run>>([])
  const abort = useRef<AbortController | null>(null)
  const start = async () => {
    const controller = new AbortController()
    abort.current = controller
    setFailure(null)
    setNote("")
    setProgress({ done: 0, total: games })
    let reached = 0
    try {
      const report = await runBalance(
        location.origin,
        readToken(sessionStorage),
        { games, seed },
        (done, total) => {
          reached = done
          setProgress({ done, total })
        },
        controller.signal
      )
      // The last two runs side by side: the one before the change and the one after.
      setRuns((rs) => [...rs.slice(-1), { n: (rs[rs.length - 1]?.n ?? 0) + 1, report }])
    } catch (e) {
      const f = toFailure(e)
      if (f.code === "cancelled") setNote(`Cancelled after ${reached} of ${games} games.`)
      else setFailure(f)
    } finally {
      abort.current = null
      setProgress(null)
    }
  }
  return (
    <section class="view balance" aria-labelledby="balance-title">
      <h2 id="balance-title">Balance</h2>
      <p class="muted">
        Seeded random games of the served Hallyu Hex deck, played on the server. Edit a card in the deck file and run
        again: the last two runs stand side by side.
      </p>
      <form
        class="balance-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (abort.current === null) void start()
        }}
      >
        <label>
          Games{" "}
          <input
            type="number"
            name="games"
            min={1}
            max={20000}
            value={games}
            onInput={(e) => setGames(Math.trunc(Number(e.currentTarget.value)))}
          />
        </label>
        <label>
          Seed{" "}
          <input
            type="number"
            name="seed"
            value={seed}
            onInput={(e) => setSeed(Math.trunc(Number(e.currentTarget.value)))}
          />
        </label>
        <button type="submit" disabled={progress !== null}>Run</button>
        <button type="button" disabled={progress === null} onClick={() => abort.current?.abort()}>Cancel</button>
      </form>
      <div class="balance-progress" aria-live="polite">
        {progress !== null && (
          <>
            <progress max={progress.total} value={progress.done} aria-label="Games played" />{" "}
            <span data-progress={progress.done}>{progress.done} of {progress.total} games</span>
          </>
        )}
        {progress === null && note !== "" && <span class="muted" data-note="cancelled">{note}</span>}
      </div>
      <ErrorBox failure={failure} />
      <div class="balance-runs" data-runs={runs.length}>
        {runs.map((run) => <RunColumn key={run.n} run={run} />)}
      </div>
    </section>
  )
}
