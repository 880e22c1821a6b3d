/**
 * Simulation, fuzzing and batch validation split into chunks and run on a
 * worker pool (or in this process with `workers: 1`), merged in order. The
 * same inputs give the same result for any number of workers.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import { documentKinds } from "../DocumentKinds.js"
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
import {
  type FuzzOptions,
  type FuzzPartial,
  type FuzzReport,
  mergeFuzzPartials,
  runFuzzRange,
  selectedProperties
} from "../testing/fuzz.js"
import { type FileValidation, validateFile, validatePaths, type ValidationReport } from "../Validation.js"
import { CardfxWorkerPool, chunks, inProcess, layer } from "./Pool.js"
import { FuzzRuns, SimulateGames, ValidateFiles } from "./Requests.js"

/** Games per chunk: about a tenth of a second of play, so an interrupt lands quickly and progress moves. */
export const GAMES_PER_CHUNK = 32
/** Fuzz runs per chunk. */
export const RUNS_PER_CHUNK = 8
/** Standalone files per validation chunk. */
export const FILES_PER_CHUNK = 16

/**
 * Games per worker thread below which an extra thread does not pay for itself.
 * A new thread costs about 2.5 s of CPU more than the games it plays: compiling
 * and loading the worker bundle (~1 s, mostly Schema classes built at module
 * load) and warming V8's JIT on the engine (its first few hundred games run
 * several times slower; threads share no compiled code). A warm game costs
 * ~0.25 ms of CPU, so on 2 cores two threads win only past ~20,000 games
 * (measured in the README's scale-out section).
 */
export const MIN_GAMES_PER_WORKER = 16000

/**
 * The default number of workers for a simulation of `games` games: one more
 * thread per {@link MIN_GAMES_PER_WORKER} games, at most `parallelism`, so
 * the default never makes a run slower than one process.
 */
export const simulationWorkers = (games: number, parallelism: number): number =>
  Math.max(1, Math.min(parallelism, Math.floor(games / MIN_GAMES_PER_WORKER)))

/** How many units are done out of how many (for progress), called as chunks complete. */
export type OnProgress = (done: number, total: number) => void

const counter = (onProgress: OnProgress | undefined, total: number) => {
  let done = 0
  return (n: number) =>
    Effect.sync(() => {
      done += n
      onProgress?.(done, total)
    })
}

/** Runs `work` on a pool of `min(workers, chunks)` threads, or in this process when that is 1. */
const withWorkers = <A>(
  workers: number,
  nChunks: number,
  local: Effect.Effect<A, Diagnostic, never>,
  pooled: Effect.Effect<A, Diagnostic, CardfxWorkerPool>,
  entry?: URL
): Effect.Effect<A, Diagnostic> => {
  const size = Math.max(1, Math.min(workers, nChunks))
  return size <= 1 || workers <= 1 ? local : Effect.scoped(Effect.provide(pooled, layer(size, entry)))
}

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
  const ranges = chunks(job.games, GAMES_PER_CHUNK)
  const progress = counter(job.onProgress, job.games)
  const logs = job.logs === true
  const local = Effect.forEach(ranges, ([from, to]) =>
    inProcess(() => {
      const gameLogs: Array<GameLog> = []
      const partial = simulateRange(job.engine, from, to, {
        seed: job.seed,
        fingerprints: logs,
        ...(logs
          ? { onGame: (_k, g) => void gameLogs.push(g.log) }
          : {})
      })
      return Either.map(partial, (p) => ({ partial: p, logs: gameLogs }))
    }).pipe(Effect.tap(() => progress(to - from))))
  const pooled = Effect.flatMap(CardfxWorkerPool, (pool) =>
    Effect.forEach(
      ranges,
      ([from, to]) =>
        pool
          .simulateGames(
            new SimulateGames({ deckJson: job.deck.json, deckFile: job.deck.file, seed: job.seed, from, to, logs })
          )
          .pipe(Effect.tap(() => progress(to - from))),
      { concurrency: job.workers }
    ))
  return Effect.flatMap(withWorkers(job.workers, ranges.length, local, pooled, job.workerEntry), (answers) => {
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
  const local = Effect.forEach(
    units,
    ([name, from, to]) =>
      inProcess(() => Either.right<FuzzPartial>(runFuzzRange(o, name, from, to))).pipe(
        Effect.tap(() => progress(to - from))
      )
  )
  const pooled = Effect.flatMap(CardfxWorkerPool, (pool) =>
    Effect.forEach(
      units,
      ([name, from, to]) =>
        pool
          .fuzzRuns(
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
          .pipe(Effect.tap(() => progress(to - from))),
      { concurrency: job.workers }
    ))
  return Effect.map(
    withWorkers(job.workers, units.length, local, pooled),
    (parts) => mergeFuzzPartials(o, names, parts)
  )
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
      const local = Effect.forEach(
        ranges,
        ([from, to]) =>
          Effect.forEach(files.slice(from, to), (f) => validateFile(f, documentKinds)).pipe(
            Effect.provide(context),
            Effect.zipLeft(progress(to - from))
          )
      )
      const pooled = Effect.flatMap(CardfxWorkerPool, (pool) =>
        Effect.forEach(
          ranges,
          ([from, to]) =>
            pool.validateFiles(new ValidateFiles({ files: files.slice(from, to) })).pipe(
              Effect.tap(() => progress(to - from))
            ),
          { concurrency: o.workers }
        ))
      return Effect.map(withWorkers(o.workers, ranges.length, local, pooled), (answers) => answers.flat())
    }
    return validatePaths(paths, documentKinds, { validateFiles, includeHidden: o.includeHidden ?? false })
  })
