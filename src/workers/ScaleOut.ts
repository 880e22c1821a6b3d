/**
 * The worker pools behind the `ScaleOut` port (src/services/ScaleOut.ts):
 * simulation, fuzzing and batch validation across the cores of a machine,
 * with the same results as one process (`workers: 1`). `layer` is the
 * service; `simulationLayer` and `pooledSimulationLayer` provide the
 * `Simulation` service on threads.
 *
 * ```ts
 * const summary = yield* ScaleOut.ScaleOut.pipe(Effect.flatMap((s) => s.simulate({ deck: "deck.json", games: 100_000, seed: "9", workers: 8 })))
 * ```
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Layer } from "effect"
import { type CardfxError, errorFromDiagnostic } from "../kernel/Errors.js"
import { readDeckText } from "../kernel/JsonFile.js"
import { ScaleOut, type ScaleOutService } from "../services/ScaleOut.js"
import { Simulation } from "../services/Simulation.js"
import { CardfxWorkerPool, defaultWorkers, layer as poolLayer, workerEntry } from "./Pool.js"
import { pooledSimulationService, runFuzzJob, simulationService, validateWithWorkers } from "./Runs.js"
import { REQUESTS_PER_THREAD } from "./Split.js"

export const make = (fs: FileSystem.FileSystem): ScaleOutService => {
  const readText = (file: string) => Effect.provideService(readDeckText(file), FileSystem.FileSystem, fs)
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
      }),
    simulation: simulationLayer
  }
}

export { ScaleOut, type ScaleOutService }

/** The scale-out service over the platform file system (workers read files from the disk). */
export const layer: Layer.Layer<ScaleOut, never, FileSystem.FileSystem> = Layer.effect(
  ScaleOut,
  Effect.map(FileSystem.FileSystem, make)
)

/**
 * The `Simulation` service on worker threads: this thread and `workers` − 1
 * worker threads per run (default: one per 5,000 games, at most the
 * machine's available parallelism, see `simulationWorkers`); the summary
 * is the same for any number.
 */
export function simulationLayer(workers?: number): Layer.Layer<Simulation> {
  return Layer.sync(Simulation, () => simulationService({ workers, parallelism: defaultWorkers() }))
}

/**
 * The `Simulation` service on a pool of `threads` worker threads started
 * with the layer and kept warm until it closes; they play every game, this
 * thread none (a cluster runner's thread serves the cluster). A thread that
 * cannot start fails the layer with `worker_failed`.
 */
export const pooledSimulationLayer = (threads: number): Layer.Layer<Simulation, CardfxError> =>
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
