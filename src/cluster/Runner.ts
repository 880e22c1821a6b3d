/**
 * A cardfx cluster runner (`cardfx cluster runner --pg URL`): one process per
 * machine, a member of the `@effect/cluster` cluster on PostgreSQL that hosts
 * the game-shard entity and plays shards through the `Simulation` service on
 * the machine's cores (`ScaleOut.pooledSimulationLayer`: a pool of worker
 * threads kept warm across shards). A shard is answered from the ledger when
 * it is already recorded (a message delivered again), otherwise played,
 * recorded, and answered with the row that stands in the ledger, so it is
 * counted once whoever played it.
 *
 * Shards run one at a time per runner, each spread over every worker thread:
 * a runner that dies holds at most one shard in progress, and its queued
 * shards move to the runners that take over its partitions. The runner's own
 * thread plays no games: it serves the cluster (lock refreshes, heartbeats,
 * messages), which must answer within the lock deadline even on a loaded
 * machine.
 *
 * @since 0.1.0
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { diagnosticFromError } from "../kernel/Errors.js"
import { Simulation } from "../services/Simulation.js"
import * as ScaleOut from "../workers/ScaleOut.js"
import { clusterLayer, pgLayer, type RunnerAddressOptions } from "./ClusterLayer.js"
import { SimulationShard } from "./ShardEntity.js"
import { layer as ledgerLayer, ShardLedger } from "./ShardLedger.js"

export interface RunnerOptions extends RunnerAddressOptions {
  /** The cluster's PostgreSQL URL. */
  readonly pg: string
  /** Worker threads playing shards (at least 1; the runner's own thread serves the cluster). */
  readonly workers: number
  /**
   * How long a finished run's ledger and message rows are kept, in seconds
   * (default {@link DEFAULT_RETAIN_SECONDS}): the runner removes older runs
   * every {@link sweepInterval} (every runner does; the removal is idempotent).
   */
  readonly retainSeconds?: number
}

/** A finished run's rows are kept a day by default: long enough to look at, short enough not to pile up. */
export const DEFAULT_RETAIN_SECONDS = 24 * 60 * 60

/** How often a runner removes expired runs: half the retention, between 1 s and a minute. */
export const sweepInterval = (retainSeconds: number): Duration.Duration =>
  Duration.seconds(Math.min(60, Math.max(1, retainSeconds / 2)))

/** Removes expired runs now and every {@link sweepInterval}; a failed sweep is logged and tried again later. */
const sweeper = (retainSeconds: number) =>
  Effect.flatMap(ShardLedger, (ledger) =>
    ledger.sweep(retainSeconds).pipe(
      Effect.tap((n) => n > 0 ? Effect.logDebug(`removed ${n} finished runs`) : Effect.void),
      Effect.catchAll((d) => Effect.logWarning(`removing finished runs failed: ${d.message}`)),
      Effect.repeat(Schedule.spaced(sweepInterval(retainSeconds))),
      Effect.asVoid
    ))

/** The runner's name in the ledger: its cluster address. */
export const runnerName = (o: RunnerAddressOptions): string => `${o.host}:${o.port}`

const handlers = (name: string) =>
  Effect.gen(function*() {
    const ledger = yield* ShardLedger
    const simulation = yield* Simulation
    const oneAtATime = yield* Effect.makeSemaphore(1)
    return SimulationShard.of({
      PlayShard: ({ payload: shard }) =>
        Effect.flatMap(ledger.find(shard.runId, shard.index), (found) =>
          found._tag === "Some"
            ? Effect.succeed({ partial: found.value.partial, runner: found.value.runner })
            : oneAtATime.withPermits(1)(
              simulation.playRange({
                deck: { json: shard.deckJson, file: shard.deckFile },
                seed: shard.seed,
                from: shard.from,
                to: shard.to,
                logs: false,
                ...(shard.agents !== undefined ? { agents: shard.agents } : {})
              })
            ).pipe(
              Effect.mapError(diagnosticFromError),
              Effect.flatMap((answer) =>
                ledger.record({
                  runId: shard.runId,
                  index: shard.index,
                  from: shard.from,
                  to: shard.to,
                  runner: name,
                  partial: answer.partial
                })
              ),
              Effect.map((row) => ({ partial: row.partial, runner: row.runner }))
            ))
    })
  })

/**
 * The runner as a layer: building it joins the cluster and starts serving
 * shards; closing its scope (SIGINT/SIGTERM) leaves the cluster, stops the
 * worker threads and closes the connections.
 */
export const runnerLayer = (o: RunnerOptions): Layer.Layer<never, Diagnostic> => {
  const sql = pgLayer(o.pg)
  const entity = SimulationShard.toLayer(handlers(runnerName(o)), { concurrency: 1 })
  const sweeping = Layer.scopedDiscard(Effect.forkScoped(sweeper(o.retainSeconds ?? DEFAULT_RETAIN_SECONDS)))
  return Layer.merge(entity, sweeping).pipe(
    Layer.provide(clusterLayer({ host: o.host, port: o.port })),
    Layer.provide(Layer.mergeAll(
      ledgerLayer,
      ScaleOut.pooledSimulationLayer(o.workers).pipe(Layer.mapError(diagnosticFromError))
    )),
    Layer.provide(sql)
  )
}
