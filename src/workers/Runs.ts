/**
 * Simulation, fuzzing and batch validation split into chunks and run on a
 * worker pool (or in this process with `workers: 1`), merged in order. The
 * same inputs give the same result for any number of workers.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import type { Engine } from "../hallyu/engine/Engine.js"
import {
  type GameLog,
  mergeAllPartials,
  simulateRange,
  type SimulationPartial,
  type SimulationSummary,
  summarize
} from "../hallyu/engine/Simulate.js"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { documentKinds } from "../services/DocumentKinds.js"
import { type FileValidation, validateFile, validatePaths, type ValidationReport } from "../services/Validation.js"
import {
  type FuzzOptions,
  type FuzzPartial,
  type FuzzReport,
  mergeFuzzPartials,
  runFuzzRange,
  selectedProperties
} from "../testing/fuzz.js"
import { chunks, inProcess, workerEntry } from "./Pool.js"
import { FuzzRuns, SimulateGames, ValidateFiles } from "./Requests.js"
import { runSplit } from "./Split.js"

/**
 * Games per chunk played in this thread: a few milliseconds of play once warm,
 * so the event loop (worker messages, signals, progress) is served between
 * chunks; also the first request to a worker thread.
 */
export const GAMES_PER_CHUNK = 32
/**
 * Games per request to a warm worker thread: ~0.1 s of play, against a message
 * round trip of ~1 ms of CPU (encoding, posting and decoding the request and its
 * partial), so messages cost about 1%.
 */
export const GAMES_PER_REQUEST = 512
/** Fuzz runs per chunk. */
export const RUNS_PER_CHUNK = 8
/** Standalone files per validation chunk. */
export const FILES_PER_CHUNK = 16

/**
 * Games per worker thread below which an extra thread does not pay for
 * itself. This thread plays from the first moment (see `runSplit`), so a
 * thread only adds: it costs ~0.25 s of CPU to start (the simulation-only
 * bundle) and then plays its first few thousand games slowly while V8
 * compiles the engine for it (threads share no compiled code) — about a
 * second of CPU more than warm play, against ~0.3 ms of CPU per warm game.
 * Below ~5,000 games per thread that CPU buys little or nothing, and on a
 * loaded machine it is taken from someone else (measured in the README's
 * scale-out section).
 */
export const MIN_GAMES_PER_WORKER = 5000

/**
 * The default number of workers for a simulation of `games` games: this
 * thread, plus one more per {@link MIN_GAMES_PER_WORKER} games, at most
 * `parallelism` in all.
 */
export const simulationWorkers = (games: number, parallelism: number): number =>
  Math.max(1, Math.min(parallelism, Math.floor(games / MIN_GAMES_PER_WORKER)))

/** How many units are done out of how many (for progress), called as chunks complete. */
export type OnProgress = (done: number, total: number) => void

const counter = (onProgress: OnProgress | undefined, total: number) => {
  let done = 0
  return (n: number): void => {
    done += n
    onProgress?.(done, total)
  }
}

/** Worker threads besides this one for `workers` over `units` units of `chunk`: none when one chunk holds them all. */
const threadsFor = (workers: number, units: number, chunk: number): number =>
  Math.max(0, Math.min(workers - 1, Math.ceil(units / chunk) - 1))

// ------------------------------------------------------------------ simulation

/** A simulation to run: the engine (in process) and the deck's text (for workers). */
export interface SimulationJob {
  readonly engine: Engine
  readonly deck: { readonly json: string; readonly file: string }
  readonly games: number
  readonly seed: string
  readonly workers: number
  /** Also collect every game's log (with fingerprints), in game order. */
  readonly logs?: boolean
  readonly onProgress?: OnProgress
  /** Another worker entry (default: the package's own). */
  readonly workerEntry?: URL
}

export interface SimulationRun {
  readonly summary: SimulationSummary
  readonly logs: ReadonlyArray<GameLog>
}

export const runSimulation = (job: SimulationJob): Effect.Effect<SimulationRun, Diagnostic> => {
  const logs = job.logs === true
  const progress = counter(job.onProgress, job.games)
  const answers = runSplit({
    total: job.games,
    threads: threadsFor(job.workers, job.games, GAMES_PER_CHUNK),
    entry: job.workerEntry ?? workerEntry("simulation"),
    localChunk: GAMES_PER_CHUNK,
    remoteChunk: GAMES_PER_REQUEST,
    onDone: (from, to) => progress(to - from),
    local: (from, to) =>
      inProcess(() => {
        const gameLogs: Array<GameLog> = []
        const partial = simulateRange(job.engine, from, to, {
          seed: job.seed,
          fingerprints: logs,
          ...(logs ? { onGame: (_k, g) => void gameLogs.push(g.log) } : {})
        })
        return Either.map(partial, (p) => ({ partial: p, logs: gameLogs }))
      }),
    remote: (pool, from, to) =>
      pool.simulateGames(
        new SimulateGames({ deckJson: job.deck.json, deckFile: job.deck.file, seed: job.seed, from, to, logs })
      )
  })
  return Effect.flatMap(answers, (answers) => {
    const merged = mergeAllPartials(job.seed, 0, answers.map((a): SimulationPartial => a.partial))
    return Either.isLeft(merged)
      ? Effect.fail(merged.left)
      : Effect.succeed({ summary: summarize(merged.right), logs: answers.flatMap((a) => a.logs) })
  })
}

// ------------------------------------------------------------------ fuzzing

/** A fuzz campaign: the pure options (for this process) and where workers find the same inputs. */
export interface FuzzJob {
  readonly options: FuzzOptions
  /** The deck's text and file (workers validate it again); required when `options.deck` is set. */
  readonly deck?: { readonly json: string; readonly file: string } | undefined
  /** The package folders `options.packages` were loaded from. */
  readonly packageDirs?: ReadonlyArray<string> | undefined
  readonly workers: number
  /** Runs done over every property. */
  readonly onProgress?: OnProgress
}

export const runFuzzJob = (job: FuzzJob): Effect.Effect<FuzzReport, Diagnostic> => {
  const o = job.options
  const names = selectedProperties(o)
  // A replay checks one case per property: one chunk each.
  const units = names.flatMap((
    name
  ) => (o.path !== undefined
    ? [[name, 0, 1] as const]
    : chunks(o.runs, RUNS_PER_CHUNK).map(([from, to]) => [name, from, to] as const))
  )
  const progress = counter(job.onProgress, units.reduce((n, [, from, to]) => n + to - from, 0))
  const unit = (i: number) => units[i] ?? (["", 0, 0] as const)
  const parts = runSplit({
    total: units.length,
    threads: threadsFor(job.workers, units.length, 1),
    entry: workerEntry(),
    localChunk: 1,
    remoteChunk: 1,
    onDone: (i) => {
      const [, from, to] = unit(i)
      progress(to - from)
    },
    local: (i) => {
      const [name, from, to] = unit(i)
      return inProcess(() => Either.right<FuzzPartial>(runFuzzRange(o, name, from, to)))
    },
    remote: (pool, i) => {
      const [name, from, to] = unit(i)
      return pool.fuzzRuns(
        new FuzzRuns({
          seed: o.seed,
          property: name,
          from,
          to,
          ...(o.path !== undefined ? { path: o.path } : {}),
          ...(o.deck !== undefined && job.deck !== undefined
            ? { deck: { json: job.deck.json, file: job.deck.file } }
            : {}),
          ...(o.packages !== undefined && job.packageDirs !== undefined ? { packages: job.packageDirs } : {})
        })
      )
    }
  })
  return Effect.map(parts, (parts) => mergeFuzzPartials(o, names, parts))
}

// ------------------------------------------------------------------ validation

/**
 * `validatePaths` with the standalone files validated on `workers` threads
 * (packages are loaded and published in this process meanwhile). The report
 * is the same as a single-process one: answers come back in file order and
 * the diagnostics are sorted as always.
 */
export const validateWithWorkers = (
  paths: ReadonlyArray<string>,
  o: { readonly workers: number; readonly includeHidden?: boolean; readonly onProgress?: OnProgress }
): Effect.Effect<ValidationReport, Diagnostic, FileSystem.FileSystem> =>
  Effect.flatMap(Effect.context<FileSystem.FileSystem>(), (context) => {
    const validateFiles = (files: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<FileValidation>, Diagnostic> => {
      const progress = counter(o.onProgress, files.length)
      const ranges = chunks(files.length, FILES_PER_CHUNK)
      const range = (i: number) => ranges[i] ?? ([0, 0] as const)
      const answers = runSplit({
        total: ranges.length,
        threads: threadsFor(o.workers, ranges.length, 1),
        entry: workerEntry(),
        localChunk: 1,
        remoteChunk: 1,
        onDone: (i) => {
          const [from, to] = range(i)
          progress(to - from)
        },
        local: (i) => {
          const [from, to] = range(i)
          return Effect.forEach(files.slice(from, to), (f) => validateFile(f, documentKinds)).pipe(
            Effect.provide(context)
          )
        },
        remote: (pool, i) => {
          const [from, to] = range(i)
          return pool.validateFiles(new ValidateFiles({ files: files.slice(from, to) }))
        }
      })
      return Effect.map(answers, (answers) => answers.flat())
    }
    return validatePaths(paths, documentKinds, { validateFiles, includeHidden: o.includeHidden ?? false })
  })
