/**
 * The computer seats' worker threads: the `AgentDecider` port of
 * src/services/ComputerSeats.ts over a pool of `size` threads running
 * `simulation-worker.ts` (which answers decisions as well as simulations), so an agent's search never runs on the thread that
 * answers HTTP. The threads start when the first decision is asked for (a
 * server whose games have no computer seat never starts one) and stop when
 * the layer's scope closes (a server's shutdown: a busy thread is
 * terminated, not awaited). Requests beyond the threads wait in the pool's
 * queue — the `ComputerSeats` service holds at most one per game and sends at
 * most `size` at once. A thread that dies fails its decision with
 * `worker_failed`.
 *
 * @since 0.1.0
 */
import * as NodeWorker from "@effect/platform-node/NodeWorker"
import * as Worker from "@effect/platform/Worker"
import { Effect, Layer, Logger, LogLevel, Scope } from "effect"
import * as WorkerThreads from "node:worker_threads"
import { ComputerSeats, type Diagnostic, diagnostic } from "../services/index.js"
import { type AgentRequest, DecideAction } from "./DecideAction.js"
import { workerEntry } from "./Pool.js"

/**
 * The worker entry: the simulation worker (`dist/cli/cardfx-simulation-worker.mjs`
 * beside the bundled bin, `dist/workers/simulation-worker.js` in the built
 * library), which answers decisions too: one thread kind for the server's
 * agents and simulations.
 */
export const agentWorkerEntry = (): URL => workerEntry("simulation")

const causeMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const isDiagnostic = (e: unknown): e is Diagnostic =>
  typeof e === "object" && e !== null && "code" in e && "severity" in e && "message" in e && !("_tag" in e)

/** The threads themselves, started in `scope`. */
const startPool = (size: number, entry: URL) =>
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
        if (!closing) deaths.push(`an agent thread exited with code ${code}`)
      })
      return t
    }
    const failed = (e: unknown): Diagnostic => {
      if (isDiagnostic(e)) return e
      const why = deaths.at(-1) ??
        (typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e))
      return diagnostic("worker_failed", `an agent thread failed: ${why}`, { subject: "agent-thread" })
    }
    const terminate = Effect.promise(() => {
      closing = true
      return Promise.all([...threads].map((t) => t.terminate()))
    })
    return Effect.gen(function*() {
      yield* Effect.addFinalizer(() => terminate)
      const pool = yield* Worker.makePoolSerialized<AgentRequest>({ size, concurrency: 1 })
      // Added after the pool, so it runs before the pool's own finalizers (which wait for idle threads).
      yield* Effect.addFinalizer(() => terminate)
      return (r: ComputerSeats.DecisionRequest): Effect.Effect<ComputerSeats.DecisionAnswer, Diagnostic> =>
        Effect.mapError(pool.executeEffect(new DecideAction(r)), failed)
    }).pipe(
      Effect.provide(NodeWorker.layer(spawn)),
      Effect.mapError(failed),
      Logger.withMinimumLogLevel(LogLevel.Error)
    )
  })

/** The `AgentDecider` on `size` worker threads (started on the first decision) running `entry`. */
export const layer = (
  size: number,
  entry: URL = agentWorkerEntry()
): Layer.Layer<ComputerSeats.AgentDecider> =>
  Layer.scoped(
    ComputerSeats.AgentDecider,
    Effect.gen(function*() {
      const scope = yield* Effect.scope
      const pool = yield* Effect.cached(Effect.provideService(startPool(Math.max(1, size), entry), Scope.Scope, scope))
      return { decide: (r) => Effect.flatMap(pool, (decide) => decide(r)) }
    })
  )
