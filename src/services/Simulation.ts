/**
 * `Simulation`: seeded random Hallyu Hex games, summarized — one interface
 * wherever the games are played. `Simulation.layer` plays them in this
 * process; the worker pool (`ScaleOut.simulationLayer`, src/workers) and the
 * cluster (`Cluster.simulationLayer`, src/cluster) provide the same service
 * over threads and machines. Every implementation plays ranges of the same
 * game sequence (game *k* seeded `<seed>/<k>`) with the pure core below and
 * merges their partials in game order, so the result is the same byte for
 * byte whatever the split.
 *
 * The pure core the scale-out faces share is here too: a deck from its text
 * ({@link deckFromJson}), the range player that worker threads and cluster
 * runners run ({@link rangePlayer}, engines kept by the deck's text), the
 * wire Schemas of a range's answer, and the merge ({@link mergeAnswers},
 * {@link summarizeRun}).
 *
 * ```ts
 * const run = yield* Effect.flatMap(Simulation, (s) => s.simulate({ deck, games: 10_000, seed: "9" }))
 * ```
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Context, Effect, Either, Layer, Schema } from "effect"
import {
  agentText,
  eloOf,
  matchRange,
  type MatchReport,
  matchReport,
  pairings,
  parseAgentList,
  parseMatch,
  type TournamentReport
} from "../hallyu/agents/Matches.js"
import { type BalanceReport, balanceReport } from "../hallyu/engine/Balance.js"
import { type Engine, makeEngine } from "../hallyu/engine/Engine.js"
import {
  type GameLog,
  GameLogSchema,
  mergeAllPartials,
  simulateRange,
  type SimulationPartial,
  SimulationPartialSchema,
  type SimulationSummary,
  summarize
} from "../hallyu/engine/Simulate.js"
import type { StarterDeck } from "../hallyu/Schema.js"
import { validateDeck } from "../hallyu/Validate.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic } from "../kernel/Errors.js"
import { parseJson } from "../kernel/Json.js"
import { readDeckText } from "../kernel/JsonFile.js"
import { traced } from "../kernel/Tracing.js"

export { GameLogSchema, mergeAllPartials, SimulationPartialSchema, summarize }
export type { BalanceReport, Engine as SimulationEngine, GameLog, SimulationPartial, SimulationSummary, StarterDeck }

// ------------------------------------------------------------------ the pure core

/** A deck as its file's text and name: what crosses threads and machines (each side validates it again). */
export const DeckSource = Schema.Struct({ json: Schema.String, file: Schema.String })
export type DeckSource = typeof DeckSource.Type

/** A validated deck from its text (the first error diagnostic otherwise). */
export const deckFromJson = (json: string, file: string): Either.Either<StarterDeck, Diagnostic> => {
  const doc = parseJson(json, { file })
  if (Either.isLeft(doc)) return Either.left(doc.left)
  const v = validateDeck(doc.right)
  return v.deck !== undefined
    ? Either.right(v.deck)
    : Either.left(
      v.diagnostics.find((d) => d.severity === "error") ??
        diagnostic("schema_invalid", `${file} is not a valid deck`, { file })
    )
}

/** The engine of a deck given as its text. */
export const engineOf = (deck: DeckSource): Either.Either<Engine, Diagnostic> =>
  Either.flatMap(deckFromJson(deck.json, deck.file), makeEngine)

/** Games [from, to) of the simulation seeded `seed`, on a deck given as its text. */
export interface RangeRequest {
  readonly deck: DeckSource
  readonly seed: string
  readonly from: number
  readonly to: number
  /** Also return every game's log (with fingerprints), in game order. */
  readonly logs: boolean
  /**
   * The two agents of a match (`a,b`, as `parseMatch` reads them): game k is played by them, seats
   * alternating (`Agents.matchRange`). Absent: uniformly random play (`simulateRange`).
   */
  readonly agents?: string | undefined
}

/** A range's answer: its partial (merged with its neighbours' by {@link mergeAnswers}) and its games' logs. */
export const RangeAnswer = Schema.Struct({ partial: SimulationPartialSchema, logs: Schema.Array(GameLogSchema) })
export type RangeAnswer = typeof RangeAnswer.Type

/** Plays games [from, to) on an engine: pure, the same range gives the same answer wherever it runs. */
export const playRange = (
  engine: Engine,
  r: {
    readonly seed: string
    readonly from: number
    readonly to: number
    readonly logs: boolean
    readonly agents?: string | undefined
  }
): Either.Either<RangeAnswer, Diagnostic> => {
  if (r.agents !== undefined) {
    return Either.flatMap(
      parseMatch(r.agents),
      (agents) =>
        Either.map(matchRange(engine, agents, r.from, r.to, { seed: r.seed }), (partial) => ({ partial, logs: [] }))
    )
  }
  const logs: Array<GameLog> = []
  const partial = simulateRange(engine, r.from, r.to, {
    seed: r.seed,
    fingerprints: r.logs,
    ...(r.logs ? { onGame: (_k: number, g: { readonly log: GameLog }) => void logs.push(g.log) } : {})
  })
  return Either.map(partial, (p) => ({ partial: p, logs }))
}

/** Memoizes the last few values built from a key (a deck's text, a list of folders). */
export const memo = <A>() => {
  const cache = new Map<string, A>()
  return (key: string, make: () => A): A => {
    const hit = cache.get(key)
    if (hit !== undefined) return hit
    const made = make()
    if (cache.size >= 4) cache.clear()
    cache.set(key, made)
    return made
  }
}

/** A range player that keeps the engines it built, by their deck's text (a worker thread's, a runner's). */
export const rangePlayer = (): (r: RangeRequest) => Either.Either<RangeAnswer, Diagnostic> => {
  const engines = memo<Either.Either<Engine, Diagnostic>>()
  return (r) => Either.flatMap(engines(r.deck.json, () => engineOf(r.deck)), (engine) => playRange(engine, r))
}

/** Adjacent ranges' answers, in game order from `from`, as one answer; a gap or overlap is `simulation_split`. */
export const mergeAnswers = (
  seed: string,
  from: number,
  answers: ReadonlyArray<RangeAnswer>
): Either.Either<RangeAnswer, Diagnostic> =>
  Either.map(
    mergeAllPartials(seed, from, answers.map((a): SimulationPartial => a.partial)),
    (partial) => ({ partial, logs: answers.length === 1 ? (answers[0]?.logs ?? []) : answers.flatMap((a) => a.logs) })
  )

/** What a simulation returns: the summary and, when asked, every game's log in game order. */
export interface SimulationRun {
  readonly summary: SimulationSummary
  readonly logs: ReadonlyArray<GameLog>
  /** The merged counts of games [0, games) (what {@link balanceOfRun} reads). */
  readonly partial: SimulationPartial
}

/** The balance statistics of a run on the engine it was played with (the deck's hash and card names). */
export const balanceOfRun = (run: SimulationRun, engine: Engine): BalanceReport =>
  balanceReport(
    {
      seed: run.partial.seed,
      games: run.partial.to - run.partial.from,
      deckHash: engine.compiled.hash,
      turns: run.partial.turns,
      counts: run.partial.counts
    },
    (code) => engine.deck.cards.find((c) => c.code === code)?.name ?? ""
  )

/** The run of games [0, games) from the answer covering them; a shorter cover is `simulation_split`. */
export const summarizeRun = (games: number, whole: RangeAnswer): Either.Either<SimulationRun, Diagnostic> =>
  whole.partial.from === 0 && whole.partial.to === games
    ? Either.right({ summary: summarize(whole.partial), logs: whole.logs, partial: whole.partial })
    : Either.left(
      diagnostic(
        "simulation_split",
        `the answers cover games [${whole.partial.from}, ${whole.partial.to}) of ${games}`,
        { subject: whole.partial.seed }
      )
    )

// ------------------------------------------------------------------ the service

/** How many games are done out of how many (for progress), called as ranges complete. */
export type OnProgress = (done: number, total: number) => void

/** A simulation: games [0, games) of a deck with seeds `<seed>/<k>`. */
export interface SimulationRequest {
  readonly deck: DeckSource
  readonly games: number
  readonly seed: string
  /** Also collect every game's log (with fingerprints), in game order (not on a cluster). */
  readonly logs?: boolean
  /** The two agents (`a,b`): see {@link RangeRequest.agents}. */
  readonly agents?: string | undefined
  readonly onProgress?: OnProgress
}

/** A tournament: every pair of `agents` plays a match of `games` games (game k of every match seeded `<seed>/<k>`). */
export interface TournamentRequest {
  readonly deck: DeckSource
  /** Agents, `name[:iterations]` separated by commas (at least two). */
  readonly agents: string
  readonly games: number
  readonly seed: string
  /** Called as games complete, over all the matches. */
  readonly onProgress?: OnProgress
}

export interface SimulationService {
  /** Games [from, to): the range's partial (mergeable with its neighbours') and, when asked, its logs. */
  readonly playRange: (
    r: RangeRequest & { readonly onProgress?: OnProgress }
  ) => Effect.Effect<RangeAnswer, CardfxError>
  /** Games [0, games), summarized; the same summary wherever and however split they are played. */
  readonly simulate: (r: SimulationRequest) => Effect.Effect<SimulationRun, CardfxError>
  /** Games [0, games)' balance statistics; the same bytes wherever and however split they are played. */
  readonly balance: (r: Omit<SimulationRequest, "logs">) => Effect.Effect<BalanceReport, CardfxError>
  /** Every pair of agents' match, the win matrix and Elo ratings; the same bytes however split. */
  readonly tournament: (r: TournamentRequest) => Effect.Effect<TournamentReport, CardfxError>
}

/** The service from its range player: `simulate` is the range [0, games), summarized. */
export const fromRangePlayer = (play: SimulationService["playRange"]): SimulationService => {
  const simulate: SimulationService["simulate"] = (r) =>
    Effect.flatMap(
      play({
        deck: r.deck,
        seed: r.seed,
        from: 0,
        to: r.games,
        logs: r.logs === true,
        ...(r.agents !== undefined ? { agents: r.agents } : {}),
        ...(r.onProgress !== undefined ? { onProgress: r.onProgress } : {})
      }),
      (whole) =>
        Either.match(summarizeRun(r.games, whole), {
          onLeft: (d) => Effect.fail(errorFromDiagnostic(d)),
          onRight: Effect.succeed
        })
    )
  const engines = memo<Either.Either<Engine, Diagnostic>>()
  return {
    playRange: play,
    simulate,
    balance: (r) =>
      Effect.gen(function*() {
        const engine = engines(r.deck.json, () => engineOf(r.deck))
        if (Either.isLeft(engine)) return yield* Effect.fail(errorFromDiagnostic(engine.left))
        return balanceOfRun(yield* simulate(r), engine.right)
      }),
    tournament: (r) =>
      Effect.gen(function*() {
        const engine = engines(r.deck.json, () => engineOf(r.deck))
        if (Either.isLeft(engine)) return yield* Effect.fail(errorFromDiagnostic(engine.left))
        const list = parseAgentList(r.agents)
        if (Either.isLeft(list)) return yield* Effect.fail(errorFromDiagnostic(list.left))
        const agents = list.right
        const pairs = pairings(agents.length)
        const matches: Array<MatchReport & { readonly i: number; readonly j: number }> = []
        let done = 0
        for (const [i, j] of pairs) {
          const a = agents[i] as (typeof agents)[number]
          const b = agents[j] as (typeof agents)[number]
          const text = `${agentText(a)},${agentText(b)}`
          const run = yield* simulate({
            deck: r.deck,
            games: r.games,
            seed: r.seed,
            agents: text,
            onProgress: (n) => r.onProgress?.(done + n, r.games * pairs.length)
          })
          done += r.games
          matches.push({ ...matchReport([a, b], run.partial), i, j })
        }
        const elo = eloOf(agents.length, matches)
        return {
          format: "hhx-tournament/1" as const,
          seed: r.seed,
          deckHash: engine.right.compiled.hash,
          games: r.games,
          agents: agents.map(agentText),
          matches: matches.map(({ i: _i, j: _j, ...m }) => m),
          elo: agents.map((a, k) => ({ agent: agentText(a), elo: elo[k] ?? 1000 }))
        }
      })
  }
}

/** Games per in-process chunk: a few milliseconds of play, so the event loop (signals, progress) runs between them. */
export const GAMES_PER_CHUNK = 32

/** Lets the event loop run (signal handlers, I/O) between in-process chunks. */
const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const t = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(t))
})

/** Plays ranges in this process, in chunks (an interrupt lands between two). */
const local = (): SimulationService => {
  const engines = memo<Either.Either<Engine, Diagnostic>>()
  return fromRangePlayer((r) =>
    Effect.gen(function*() {
      const engine = engines(r.deck.json, () => engineOf(r.deck))
      if (Either.isLeft(engine)) return yield* Effect.fail(errorFromDiagnostic(engine.left))
      const answers: Array<RangeAnswer> = []
      const chunk = r.agents !== undefined ? 1 : GAMES_PER_CHUNK
      for (let from = r.from; from < r.to; from += chunk) {
        const to = Math.min(r.to, from + chunk)
        const answer = playRange(engine.right, { seed: r.seed, from, to, logs: r.logs, agents: r.agents })
        if (Either.isLeft(answer)) return yield* Effect.fail(errorFromDiagnostic(answer.left))
        answers.push(answer.right)
        r.onProgress?.(to - r.from, r.to - r.from)
        yield* yieldToEventLoop
      }
      const whole = mergeAnswers(r.seed, r.from, answers)
      return Either.isLeft(whole) ? yield* Effect.fail(errorFromDiagnostic(whole.left)) : whole.right
    })
  )
}

/** The simulation service; `layer` plays in this process (src/workers and src/cluster provide the others). */
export class Simulation extends Context.Tag("cardfx/Simulation")<Simulation, SimulationService>() {
  /** In this process, in chunks of {@link GAMES_PER_CHUNK} games. */
  static readonly layer: Layer.Layer<Simulation> = Layer.sync(Simulation, () => traced("Simulation", local()))
}

/** A deck file's text, as the services read it (for {@link SimulationRequest.deck}). */
export const readDeck = (file: string): Effect.Effect<DeckSource, CardfxError, FileSystem.FileSystem> =>
  Effect.map(readDeckText(file), (json) => ({ json, file }))
