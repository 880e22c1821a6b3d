/**
 * A pool of cardfx worker threads (`@effect/platform`'s serialized
 * `WorkerPool` over `@effect/platform-node`'s `NodeWorker`), and the
 * helpers the split/merge runs (`Runs.ts`, `Split.ts`) build on: simulation,
 * fuzzing and batch validation. Answers are merged in range order by the same
 * pure functions a single process uses, so the result does not depend on the
 * split.
 *
 * Shutting down (an interrupt: SIGINT, SIGTERM, a failed chunk) terminates
 * every thread at once, even one busy with a chunk, so a run ends within a
 * chunk's time; a thread that dies fails the run with `worker_failed`.
 *
 * @since 0.1.0
 */
import * as NodeWorker from "@effect/platform-node/NodeWorker"
import * as Worker from "@effect/platform/Worker"
import { Context, Effect, Either, Layer, Logger, LogLevel, type Schema } from "effect"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as WorkerThreads from "node:worker_threads"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { defaultWorkers } from "../services/ScaleOut.js"
import type { FuzzRuns, SimulateGames, ValidateFiles, WorkerRequest } from "./Requests.js"

export { defaultWorkers }

/**
 * The worker entry: beside the bundled bin (`dist/cli/cardfx-worker.mjs`),
 * beside this module in the built library (`dist/workers/worker.js`), or, when
 * this module runs from its TypeScript source (tests), the built package's.
 * `"simulation"`: the simulation-only worker (`cardfx-simulation-worker.mjs`,
 * `simulation-worker.js`), which starts faster and answers `SimulateGames` only.
 */
export const workerEntry = (kind: "all" | "simulation" = "all"): URL => {
  const [bundled, built] = kind === "simulation"
    ? ["cardfx-simulation-worker.mjs", "simulation-worker.js"]
    : ["cardfx-worker.mjs", "worker.js"]
  const candidates = [
    new URL(`./${bundled}`, import.meta.url),
    new URL(`./${built}`, import.meta.url),
    new URL(`../../dist/cli/${bundled}`, import.meta.url)
  ]
  return candidates.find((u) => u.protocol === "file:" && existsSync(fileURLToPath(u))) ?? (candidates[0] as URL)
}

/** The worker pool service: sends a request to a free thread; every failure is a diagnostic. */
export interface CardfxWorkerPoolService {
  readonly simulateGames: (
    request: SimulateGames
  ) => Effect.Effect<Schema.WithResult.Success<SimulateGames>, Diagnostic>
  readonly fuzzRuns: (request: FuzzRuns) => Effect.Effect<Schema.WithResult.Success<FuzzRuns>, Diagnostic>
  readonly validateFiles: (
    request: ValidateFiles
  ) => Effect.Effect<Schema.WithResult.Success<ValidateFiles>, Diagnostic>
}

export class CardfxWorkerPool
  extends Context.Tag("cardfx/CardfxWorkerPool")<CardfxWorkerPool, CardfxWorkerPoolService>()
{}

const causeMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** Whether a failure is a diagnostic (a request's own typed failure) rather than a worker-level failure. */
const isDiagnostic = (e: unknown): e is Diagnostic =>
  typeof e === "object" && e !== null && "code" in e && "severity" in e && "message" in e && !("_tag" in e)

/**
 * A pool of `size` threads running `entry` (default {@link workerEntry}),
 * each holding up to `options.concurrency` requests at once (default 1; more
 * queue in the thread, so it starts the next one without waiting for this
 * thread). Closing the layer's scope terminates every thread at once, also
 * while the pool is still starting. A thread that
 * dies fails the requests it held with `worker_failed`, naming how it died
 * (the serialized pool itself reports that only as a failure that does not
 * decode as the request's failure).
 */
export const layer = (
  size: number,
  entry: URL = workerEntry(),
  options?: { readonly concurrency?: number }
): Layer.Layer<CardfxWorkerPool, Diagnostic> =>
  Layer.scoped(
    CardfxWorkerPool,
    Effect.suspend(() => {
      const threads = new Set<WorkerThreads.Worker>()
      const deaths: Array<string> = []
      let closing = false
      const spawn = (_id: number) => {
        const t = new WorkerThreads.Worker(entry)
        threads.add(t)
        t.on("error", (e) => void deaths.push(`thread error: ${causeMessage(e)}`))
        t.once("exit", (code) => {
          threads.delete(t)
          if (!closing) deaths.push(`a worker thread exited with code ${code}`)
        })
        return t
      }
      const failed = (e: unknown): Diagnostic => {
        if (isDiagnostic(e)) return e
        const why = deaths[0] ?? (typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e))
        return diagnostic("worker_failed", `a worker failed: ${why}`, { subject: "worker" })
      }
      const terminate = Effect.promise(() => {
        closing = true
        return Promise.all([...threads].map((t) => t.terminate()))
      })
      return Effect.gen(function*() {
        // For a pool interrupted while starting (its threads are not the pool's yet).
        yield* Effect.addFinalizer(() => terminate)
        const pool = yield* Worker.makePoolSerialized<WorkerRequest>({ size, concurrency: options?.concurrency ?? 1 })
        // Added after the pool, so it runs before the pool's own finalizers (which wait for idle threads).
        yield* Effect.addFinalizer(() => terminate)
        const service: CardfxWorkerPoolService = {
          simulateGames: (r) => Effect.mapError(pool.executeEffect(r), failed),
          fuzzRuns: (r) => Effect.mapError(pool.executeEffect(r), failed),
          validateFiles: (r) => Effect.mapError(pool.executeEffect(r), failed)
        }
        return service
      }).pipe(
        Effect.provide(NodeWorker.layer(spawn)),
        Effect.mapError(failed),
        // The pool logs a dead thread as a warning before the failure reaches us as `worker_failed`.
        Logger.withMinimumLogLevel(LogLevel.Error)
      )
    })
  )

/** Half-open ranges [from, to) of at most `size` covering [0, total). */
export const chunks = (total: number, size: number): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  for (let from = 0; from < total; from += size) out.push([from, Math.min(total, from + size)])
  return out
}

/** Lets the event loop run (signal handlers, worker messages) between in-process chunks. */
export const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const t = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(t))
})

/** An in-process chunk: runs a pure function, then yields to the event loop so an interrupt lands between chunks. */
export const inProcess = <A, E>(f: () => Either.Either<A, E>): Effect.Effect<A, E> =>
  Effect.zipLeft(
    Effect.suspend(() => {
      const r = f()
      return Either.isLeft(r) ? Effect.fail(r.left) : Effect.succeed(r.right)
    }),
    yieldToEventLoop
  )
