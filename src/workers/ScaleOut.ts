/**
 * `ScaleOut`: the embedding face of the worker pools. Simulation, fuzzing
 * and batch validation across the cores of a machine, with the same results
 * as one process (`workers: 1`); failures arrive as the tagged error of their
 * diagnostic code (`WorkerFailed` when a thread dies).
 *
 * ```ts
 * const summary = yield* ScaleOut.pipe(Effect.flatMap((s) => s.simulate({ deck: "deck.json", games: 100_000, seed: "9", workers: 8 })))
 * ```
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { diagnostic } from "../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic } from "../kernel/Errors.js"
import type { FuzzOptions, FuzzReport } from "../services/Fuzz.js"
import { Simulation } from "../services/Simulation.js"
import type { ValidationReport } from "../services/Validation.js"
import { CardfxWorkerPool, defaultWorkers, layer as poolLayer, workerEntry } from "./Pool.js"
import {
  type OnProgress,
  pooledSimulationService,
  runFuzzJob,
  type SimulationRun,
  simulationService,
  validateWithWorkers
} from "./Runs.js"
import { REQUESTS_PER_THREAD } from "./Split.js"

export interface ScaleOutService {
  /** Plays games [0, games) of a deck file with seeds `<seed>/<k>`; the summary is the same for any `workers` (this thread and `workers` − 1 worker threads; default: one per 5,000 games, at most the available parallelism, see `simulationWorkers`). */
  readonly simulate: (o: {
    readonly deck: string
    readonly games: number
    readonly seed: string | number
    readonly workers?: number
    readonly logs?: boolean
    readonly onProgress?: OnProgress
  }) => Effect.Effect<SimulationRun, CardfxError>
  /** `validatePaths` with standalone files validated on `workers` threads; the same report for any number. */
  readonly validate: (
    paths: ReadonlyArray<string>,
    o?: { readonly workers?: number; readonly includeHidden?: boolean; readonly onProgress?: OnProgress }
  ) => Effect.Effect<ValidationReport, CardfxError>
  /**
   * A fuzz campaign; `deckFile` and `packageDirs` are where workers read the
   * same deck and packages `options` holds.
   */
  readonly fuzz: (o: {
    readonly options: FuzzOptions
    readonly deckFile?: string
    readonly packageDirs?: ReadonlyArray<string>
    readonly workers?: number
    readonly onProgress?: OnProgress
  }) => Effect.Effect<FuzzReport, CardfxError>
}

export const make = (fs: FileSystem.FileSystem): ScaleOutService => {
  const readText = (file: string) =>
    fs.readFileString(file).pipe(
      Effect.mapError((e) =>
        errorFromDiagnostic(diagnostic("file_unreadable", `cannot read ${file}: ${e.message}`, { file }))
      )
    )
  return {
    simulate: (o) =>
      Effect.flatMap(
        readText(o.deck),
        (json) =>
          simulationService({ workers: o.workers, parallelism: defaultWorkers() }).simulate({
            deck: { json, file: o.deck },
            games: o.games,
            seed: String(o.seed),
            ...(o.logs !== undefined ? { logs: o.logs } : {}),
            ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {})
          })
      ),
    validate: (paths, o) =>
      validateWithWorkers(paths, {
        workers: o?.workers ?? defaultWorkers(),
        includeHidden: o?.includeHidden ?? false,
        ...(o?.onProgress !== undefined ? { onProgress: o.onProgress } : {})
      }).pipe(
        Effect.mapError(errorFromDiagnostic),
        Effect.provideService(FileSystem.FileSystem, fs)
      ),
    fuzz: (o) =>
      Effect.gen(function*() {
        const deck = o.deckFile === undefined ? undefined : { json: yield* readText(o.deckFile), file: o.deckFile }
        return yield* runFuzzJob({
          options: o.options,
          deck,
          packageDirs: o.packageDirs,
          workers: o.workers ?? defaultWorkers(),
          ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {})
        }).pipe(Effect.mapError(errorFromDiagnostic))
      })
  }
}

/** The scale-out service: simulation, validation and fuzzing on worker threads. */
export class ScaleOut extends Context.Tag("cardfx/ScaleOut")<ScaleOut, ScaleOutService>() {
  /** The service over the platform file system (workers read files from the disk). */
  static readonly layer: Layer.Layer<ScaleOut, never, FileSystem.FileSystem> = Layer.effect(
    ScaleOut,
    Effect.map(FileSystem.FileSystem, make)
  )

  /**
   * The `Simulation` service on worker threads: this thread and `workers` − 1
   * worker threads per run (default: one per 5,000 games, at most the
   * machine's available parallelism, see `simulationWorkers`); the summary
   * is the same for any number.
   */
  static readonly simulationLayer = (workers?: number): Layer.Layer<Simulation> =>
    Layer.sync(Simulation, () => simulationService({ workers, parallelism: defaultWorkers() }))

  /**
   * The `Simulation` service on a pool of `threads` worker threads started
   * with the layer and kept warm until it closes; they play every game, this
   * thread none (a cluster runner's thread serves the cluster). A thread that
   * cannot start fails the layer with `worker_failed`.
   */
  static readonly pooledSimulationLayer = (threads: number): Layer.Layer<Simulation, CardfxError> =>
    Layer.effect(
      Simulation,
      Effect.map(CardfxWorkerPool, (pool) => pooledSimulationService(pool, Math.max(1, threads)))
    ).pipe(
      Layer.provide(
        poolLayer(Math.max(1, threads), workerEntry("simulation"), { concurrency: REQUESTS_PER_THREAD }).pipe(
          Layer.mapError(errorFromDiagnostic)
        )
      )
    )
}
