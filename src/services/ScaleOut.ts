/**
 * `ScaleOut`: simulation, fuzzing and batch validation across the cores of
 * a machine, with the same results as one process (`workers: 1`); failures
 * arrive as the tagged error of their diagnostic code (`WorkerFailed` when a
 * thread dies). This module is the port: the service's interface, its Tag
 * and how many threads a run gets. The worker pool (src/workers,
 * `ScaleOut.layer` of the `cardfx` root) implements it; the `cardfx` bin's
 * composition root (src/bin) provides that implementation to the CLI, which
 * knows only this port.
 *
 * ```ts
 * const summary = yield* ScaleOut.pipe(Effect.flatMap((s) => s.simulate({ deck: "deck.json", games: 100_000, seed: "9", workers: 8 })))
 * ```
 *
 * @since 0.1.0
 */
import { Context, type Effect, type Layer } from "effect"
import { availableParallelism } from "node:os"
import type { CardfxError } from "../kernel/Errors.js"
import type { FuzzOptions, FuzzReport } from "./Fuzz.js"
import type { OnProgress, Simulation, SimulationRun } from "./Simulation.js"
import type { ValidationReport } from "./Validation.js"

/** The number of threads when none is given: the machine's available parallelism. */
export const defaultWorkers = (): number => availableParallelism()

/**
 * Games per worker thread below which an extra thread does not pay for
 * itself. This thread plays from the first moment (see `runSplit`), so a
 * thread only adds: it costs ~0.25 s of CPU to start (the simulation-only
 * bundle) and then plays its first few thousand games slowly while V8
 * compiles the engine for it (threads share no compiled code) — about a
 * second of CPU more than warm play, against ~0.3 ms of CPU per warm game.
 * Below ~5,000 games per thread that CPU buys little or nothing, and on a
 * loaded machine it is taken from someone else (measured in docs/scale.md,
 * "Scale-out: across cores").
 */
export const MIN_GAMES_PER_WORKER = 5000

/**
 * The default number of workers for a simulation of `games` games: this
 * thread, plus one more per {@link MIN_GAMES_PER_WORKER} games, at most
 * `parallelism` in all.
 */
export const simulationWorkers = (games: number, parallelism: number): number =>
  Math.max(1, Math.min(parallelism, Math.floor(games / MIN_GAMES_PER_WORKER)))

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
  /**
   * The `Simulation` service on worker threads: this thread and `workers` − 1
   * worker threads per run (default: {@link simulationWorkers} of the run's
   * games); the summary is the same for any number.
   */
  readonly simulation: (workers?: number) => Layer.Layer<Simulation>
}

/** The scale-out service: simulation, validation and fuzzing on worker threads (implemented by src/workers). */
export class ScaleOut extends Context.Tag("cardfx/ScaleOut")<ScaleOut, ScaleOutService>() {}
