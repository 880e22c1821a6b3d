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
  type BalanceReportDoc,
  type BalanceShareDoc,
  type CardColumn,
  cardRows,
  compareRuns,
  deckAverage,
  describeShare,
  type Figure,
  figuresOf,
  METRICS,
  percent,
  sortRows,
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

const COLUMNS: ReadonlyArray<readonly [CardColumn, string]> = [
  ["card", "Card"],
  ["plays", "Plays"],
  ["drawn", "Drawn"],
  ["played", "Played"],
  ["won", "Won when played"],
  ["winner", "In winner's plays"]
]

/** A rate with its interval, as a table cell: `51.2 %` and `48.1–54.3` below it. */
const ShareCell = ({ share }: { readonly share: BalanceShareDoc }) => {
  const p = share.proportion
  return (
    <td title={describeShare(share)} data-rate={p?.rate ?? ""}>
      {p === null ? "–" : (
        <>
          {percent(p.rate)}
          <span class="interval">
            {percent(p.low)}–{percent(p.high)}
          </span>
        </>
      )}
    </td>
  )
}

/**
 * One sortable table of the run's cards: plays, drawn, played, won when played and in the winner's plays, each rate
 * with its 95 % interval; a card whose won-when-played interval lies clear of the deck's average is flagged.
 */
const CardTable = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const [sort, setSort] = useState<{ readonly column: CardColumn; readonly descending: boolean }>({
    column: "won",
    descending: true
  })
  const avg = deckAverage(r)
  const rows = sortRows(cardRows(r), sort.column, sort.descending)
  return (
    <div class="card-table">
      <h4 id={`${id}-title`}>
        Cards · deck average won when played {avg === null ? "–" : percent(avg)}
      </h4>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
        <table data-sort={sort.column} data-descending={sort.descending ? "true" : "false"}>
          <thead>
            <tr>
              {COLUMNS.map(([column, label]) => (
                <th
                  key={column}
                  scope="col"
                  aria-sort={sort.column === column ? (sort.descending ? "descending" : "ascending") : "none"}
                >
                  <button
                    type="button"
                    class="sort"
                    data-column={column}
                    onClick={() =>
                      setSort((s) => ({
                        column,
                        descending: s.column === column ? !s.descending : column !== "card"
                      }))}
                  >
                    {label}
                    <span aria-hidden="true">
                      {sort.column === column ? (sort.descending ? " ▼" : " ▲") : ""}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr
                key={c.code}
                data-card={c.code}
                data-flag={c.flag ?? ""}
                class={c.flag === null ? "" : `flag-${c.flag}`}
              >
                <th scope="row">
                  {c.name}
                  {c.flag === null ?
                    null :
                    <span class="flag">{c.flag === "over" ? " ▲ over-performs" : " ▼ under-performs"}</span>}
                  <span class="engine muted">{c.code}</span>
                </th>
                <td data-rate={c.plays}>{c.plays}</td>
                <ShareCell share={c.drawn} />
                <ShareCell share={c.played} />
                <ShareCell share={c.won} />
                <ShareCell share={c.winner} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/**
 * Won when played per card at a glance: each card a row (its name in the page's own type size, readable on a phone
 * and a desktop alike), the rate a dot, its interval a line, the deck's average a dashed line; best first.
 */
const WinForest = ({ id, r }: { readonly id: string; readonly r: BalanceReportDoc }) => {
  const avg = deckAverage(r)
  const rows = sortRows(cardRows(r), "won", true)
  return (
    <figure class="plot forest" data-plot={id}>
      <figcaption id={`${id}-caption`}>
        Won when played, per card, with 95 % intervals (dashed: the deck's average)
      </figcaption>
      <ul class="forest-rows" aria-labelledby={`${id}-caption`}>
        {rows.map((c) => {
          const p = c.won.proportion
          return (
            <li key={c.code} class={c.flag === null ? "" : `flag-${c.flag}`} data-card={c.code}>
              <span class="forest-label">{c.name}</span>
              <span class="forest-track" title={describeShare(c.won)}>
                {avg === null ? null : <span class="forest-avg" style={{ left: `${avg * 100}%` }} />}
                {p === null ? null : (
                  <>
                    <span
                      class="forest-interval"
                      style={{ left: `${p.low * 100}%`, width: `${Math.max(0.5, (p.high - p.low) * 100)}%` }}
                    />
                    <span class="forest-dot" style={{ left: `${p.rate * 100}%` }} />
                  </>
                )}
              </span>
              <span class="forest-value">{p === null ? "–" : percent(p.rate)}</span>
            </li>
          )
        })}
      </ul>
    </figure>
  )
}

const Metrics = () => (
  <details class="metrics">
    <summary>What the numbers mean</summary>
    <dl>
      {METRICS.map(([term, meaning]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{meaning}</dd>
        </div>
      ))}
    </dl>
  </details>
)

const signed = (x: number): string => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${(Math.abs(x) * 100).toFixed(1)} pts`

/** The last two runs compared: each figure of both, the difference, clear differences (intervals apart) marked. */
const Comparison = ({ a, b }: { readonly a: Run; readonly b: Run }) => {
  const rows = compareRuns(a.report, b.report)
  const clear = rows.filter((x) => x.apart)
  return (
    <div class="comparison">
      <h3 id="comparison-title">
        Run {a.n} → run {b.n}: {clear.length === 0 ? "no clear difference" : `${clear.length} clear difference(s)`}
      </h3>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="comparison-title">
        <table>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Run {a.n}</th>
              <th scope="col">Run {b.n}</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {[...clear, ...rows.filter((x) => !x.apart)].map((x) => (
              <tr key={x.label} class={x.apart ? "apart" : ""} data-apart={x.apart ? "true" : "false"}>
                <th scope="row">{x.label}</th>
                <td>{x.a?.proportion == null ? "–" : percent(x.a.proportion.rate)}</td>
                <td>{x.b?.proportion == null ? "–" : percent(x.b.proportion.rate)}</td>
                <td>
                  {x.delta === null ? "–" : signed(x.delta)}
                  {x.apart ? <strong class="clear-mark">clear</strong> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

const cell = (v: number | null): string => (v === null ? "" : String(v))

/** Every figure, as the CSV lists it (the browser test compares them with `cardfx simulate --stats`). */
const NumbersTable = ({ figures, run }: { readonly figures: ReadonlyArray<Figure>; readonly run: number }) => (
  <details class="numbers">
    <summary>Every number</summary>
    <div class="table-scroll" tabIndex={0} role="region" aria-label={`Every number, run ${run}`}>
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
  /** Who played the seats, in words (`random vs random`). */
  readonly agents: string
}

/** The agents a run's seats may be played by (`--agents` of `cardfx simulate`: `<agent>[:<iterations>]`). */
const AGENTS: ReadonlyArray<readonly [spec: string, label: string]> = [
  ["random", "random"],
  ["greedy:8", "computer (easy)"],
  ["ismcts:200", "computer (medium)"],
  ["ismcts:1000", "computer (hard)"]
]
const agentLabel = (spec: string): string => AGENTS.find(([s]) => s === spec)?.[1] ?? spec

const RunColumn = ({ run }: { readonly run: Run }) => {
  const r = run.report
  const id = `run${run.n}`
  return (
    <article class="balance-run" data-run={run.n} data-deck={r.deckHash}>
      <h3>
        Run {run.n}{" "}
        <span class="muted">
          · {r.games} games · seed {r.seed} · {run.agents}
          <span class="engine">· deck {r.deckHash.slice(0, 12)}</span>
        </span>
      </h3>
      <SeatsPlot id={`${id}-seats`} r={r} />
      <LengthPlot id={`${id}-length`} r={r} />
      <ReasonsPlot id={`${id}-reasons`} r={r} />
      <WinForest id={`${id}-won`} r={r} />
      <CardTable id={`${id}-cards`} r={r} />
      <NumbersTable figures={figuresOf(r)} run={run.n} />
    </article>
  )
}

export const BalanceView = () => {
  const [games, setGames] = useState(2000)
  const [seed, setSeed] = useState(1)
  const [agents, setAgents] = useState<readonly [string, string]>(["random", "random"])
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
        // The agents go as an optional field, only when not both random (a server without `agents` runs random).
        agents[0] === "random" && agents[1] === "random" ? { games, seed } : { games, seed, agents: [...agents] },
        (done, total) => {
          reached = done
          setProgress({ done, total })
        },
        controller.signal
      )
      // The last two runs side by side: the one before the change and the one after.
      const who = `${agentLabel(agents[0])} vs ${agentLabel(agents[1])}`
      setRuns((rs) => [...rs.slice(-1), { n: (rs[rs.length - 1]?.n ?? 0) + 1, report, agents: who }])
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
        {([0, 1] as const).map((seat) => (
          <label key={seat}>
            Seat {seat}{" "}
            <select
              name={`agent${seat}`}
              value={agents[seat]}
              onChange={(e) => {
                const v = e.currentTarget.value
                setAgents((a) => (seat === 0 ? [v, a[1]] : [a[0], v]))
              }}
            >
              {AGENTS.map(([spec, label]) => <option key={spec} value={spec}>{label}</option>)}
            </select>
          </label>
        ))}
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
      <Metrics />
      {runs.length === 2 && runs[0] !== undefined && runs[1] !== undefined
        ? <Comparison a={runs[0]} b={runs[1]} />
        : null}
      <div class="balance-runs" data-runs={runs.length}>
        {runs.map((run) => <RunColumn key={run.n} run={run} />)}
      </div>
    </section>
  )
}
