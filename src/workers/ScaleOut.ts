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
import { Context, Effect, Either, Layer } from "effect"
import { makeEngine } from "../hallyu/engine/Engine.js"
import { diagnostic } from "../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic } from "../kernel/Errors.js"
import type { ValidationReport } from "../services/Validation.js"
import type { FuzzOptions, FuzzReport } from "../testing/fuzz.js"
import { deckFromJson } from "./Deck.js"
import { defaultWorkers } from "./Pool.js"
import {
  type OnProgress,
  runFuzzJob,
  runSimulation,
  type SimulationRun,
  simulationWorkers,
  validateWithWorkers
} from "./Runs.js"

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
      Effect.gen(function*() {
        const json = yield* readText(o.deck)
        const engine = Either.flatMap(deckFromJson(json, o.deck), makeEngine)
        if (Either.isLeft(engine)) return yield* Effect.fail(errorFromDiagnostic(engine.left))
        return yield* runSimulation({
          engine: engine.right,
          deck: { json, file: o.deck },
          games: o.games,
          seed: String(o.seed),
          workers: o.workers ?? simulationWorkers(o.games, defaultWorkers()),
          ...(o.logs !== undefined ? { logs: o.logs } : {}),
          ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {})
        }).pipe(Effect.mapError(errorFromDiagnostic))
      }),
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
}
