/**
 * Simulation, fuzzing and batch validation split into chunks and run on a
 * worker pool (or in this process with `workers: 1`), merged in order. The
 * same inputs give the same result for any number of workers.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { errorFromDiagnostic } from "../kernel/Errors.js"
import { documentKinds } from "../services/DocumentKinds.js"
import {
  type FuzzOptions,
  type FuzzPartial,
  type FuzzReport,
  mergeFuzzPartials,
  runFuzzRange,
  selectedProperties
} from "../services/Fuzz.js"
import { MIN_GAMES_PER_WORKER, simulationWorkers } from "../services/ScaleOut.js"
import {
  type DeckSource,
  engineOf,
  fromRangePlayer,
  GAMES_PER_CHUNK,
  memo,
  mergeAnswers,
  type OnProgress,
  playRange,
  type RangeAnswer,
  type SimulationEngine,
  type SimulationRun,
  type SimulationService,
  summarizeRun
} from "../services/Simulation.js"
import { type FileValidation, validateFile, validatePaths, type ValidationReport } from "../services/Validation.js"
import { type CardfxWorkerPoolService, chunks, inProcess, workerEntry } from "./Pool.js"
import { FuzzRuns, SimulateGames, ValidateFiles } from "./Requests.js"
import { runSplit } from "./Split.js"

export { GAMES_PER_CHUNK, MIN_GAMES_PER_WORKER, type OnProgress, type SimulationRun, simulationWorkers }

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
  readonly engine: SimulationEngine
  readonly deck: DeckSource
  readonly games: number
  readonly seed: string
  readonly workers: number
  /** Also collect every game's log (with fingerprints), in game order. */
  readonly logs?: boolean
  readonly onProgress?: OnProgress
  /** Another worker entry (default: the package's own). */
  readonly workerEntry?: URL
}

/** Where a split run plays its ranges. */
interface Placement {
  /** Worker threads besides this one (0: this thread only). */
  readonly threads: number
  /** Whether this thread plays too (a cluster runner keeps its own thread for the cluster's I/O). */
  readonly here: boolean
  readonly entry: URL
  /** A pool kept warm across runs (a runner's); without it a pool is started per run. */
  readonly pool?: CardfxWorkerPoolService | undefined
}

/** Games [from, to) split between this thread and worker threads, merged in game order. */
const playSplit = (
  engine: () => Either.Either<SimulationEngine, Diagnostic>,
  deck: DeckSource,
  r: {
    readonly seed: string
    readonly from: number
    readonly to: number
    readonly logs: boolean
    readonly agents?: string | undefined
  },
  where: Placement,
  onProgress: OnProgress | undefined
): Effect.Effect<RangeAnswer, Diagnostic> => {
  const progress = counter(onProgress, r.to - r.from)
  const answers = runSplit<RangeAnswer>({
    total: r.to - r.from,
    threads: where.threads,
    here: where.here,
    entry: where.entry,
    ...(where.pool !== undefined ? { pool: where.pool } : {}),
    // A match's game is a search per decision (milliseconds to seconds): one game per claim.
    localChunk: r.agents !== undefined ? 1 : GAMES_PER_CHUNK,
    remoteChunk: r.agents !== undefined ? 1 : GAMES_PER_REQUEST,
    onDone: (from, to) => progress(to - from),
    local: (from, to) =>
      inProcess(() =>
        Either.flatMap(
          engine(),
          (e) => playRange(e, { seed: r.seed, from: r.from + from, to: r.from + to, logs: r.logs, agents: r.agents })
        )
      ),
    remote: (pool, from, to) =>
      pool.simulateGames(
        new SimulateGames({
          deckJson: deck.json,
          deckFile: deck.file,
          seed: r.seed,
          from: r.from + from,
          to: r.from + to,
          logs: r.logs,
          ...(r.agents !== undefined ? { agents: r.agents } : {})
        })
      )
  })
  return Effect.flatMap(answers, (answers) => {
    const whole = mergeAnswers(r.seed, r.from, answers)
    return Either.isLeft(whole) ? Effect.fail(whole.left) : Effect.succeed(whole.right)
  })
}

export const runSimulation = (job: SimulationJob): Effect.Effect<SimulationRun, Diagnostic> =>
  Effect.flatMap(
    playSplit(
      () => Either.right(job.engine),
      job.deck,
      { seed: job.seed, from: 0, to: job.games, logs: job.logs === true },
      {
        threads: threadsFor(job.workers, job.games, GAMES_PER_CHUNK),
        here: true,
        entry: job.workerEntry ?? workerEntry("simulation")
      },
      job.onProgress
    ),
    (whole) => Either.match(summarizeRun(job.games, whole), { onLeft: Effect.fail, onRight: Effect.succeed })
  )

/**
 * The `Simulation` service on worker threads: this thread and `workers` − 1
 * worker threads per run (default: {@link simulationWorkers} of the run's
 * games over the machine's parallelism), a pool started for each run.
 */
export const simulationService = (o: {
  readonly workers?: number | undefined
  readonly parallelism: number
  readonly workerEntry?: URL | undefined
}): SimulationService => {
  const engines = rangePlayerEngines()
  return fromRangePlayer((r) =>
    playSplit(() => engines(r.deck), r.deck, r, {
      threads: threadsFor(
        o.workers ?? (r.agents !== undefined ? o.parallelism : simulationWorkers(r.to - r.from, o.parallelism)),
        r.to - r.from,
        r.agents !== undefined ? 1 : GAMES_PER_CHUNK
      ),
      here: true,
      entry: o.workerEntry ?? workerEntry("simulation")
    }, r.onProgress).pipe(Effect.mapError(errorFromDiagnostic))
  )
}

/**
 * The `Simulation` service on a running pool of `threads` worker threads that
 * play every game (this thread plays none: a cluster runner's thread serves
 * the cluster). The pool outlives runs, so its threads stay warm.
 */
export const pooledSimulationService = (pool: CardfxWorkerPoolService, threads: number): SimulationService => {
  const engines = rangePlayerEngines()
  return fromRangePlayer((r) =>
    playSplit(() => engines(r.deck), r.deck, r, {
      threads,
      here: false,
      entry: workerEntry("simulation"),
      pool
    }, r.onProgress).pipe(Effect.mapError(errorFromDiagnostic))
  )
}

/** The engines a service built, by their deck's text (each deck validated once). */
const rangePlayerEngines = () => {
  const engines = memo<Either.Either<SimulationEngine, Diagnostic>>()
  return (deck: DeckSource) => engines(deck.json, () => engineOf(deck))
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
