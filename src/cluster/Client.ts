/**
 * `simulate --cluster URL`: a client-only member of the cluster that sends a
 * run's game shards as persisted entity messages, waits for every answer and
 * merges them. Each message is stored in PostgreSQL before it is delivered,
 * so a shard whose runner dies is delivered again to the runner that takes
 * over its partition, and the client's wait simply lasts longer.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Either, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { errorFromDiagnostic } from "../kernel/Errors.js"
import { fromRangePlayer, Simulation } from "../services/Simulation.js"
import type { SimulationPartial, SimulationSummary } from "../services/Simulation.js"
import { clusterLayer, displayUrl, pgLayer } from "./ClusterLayer.js"
import { clusterTimings } from "./Config.js"
import { shardEntityId, SimulationShard } from "./ShardEntity.js"
import { layer as ledgerLayer, ShardLedger } from "./ShardLedger.js"
import { DEFAULT_SHARD_GAMES, mergeShardRange, mergeShards, shardsOfRange } from "./Shards.js"

/** A simulation to run on a cluster. */
export interface ClusterSimulationJob {
  /** The cluster's PostgreSQL URL. */
  readonly url: string
  readonly deck: { readonly json: string; readonly file: string }
  readonly games: number
  readonly seed: string
  /** The two agents of a match (`a,b`); absent: random play. */
  readonly agents?: string | undefined
  /** Games per shard (default {@link DEFAULT_SHARD_GAMES}). */
  readonly shardGames?: number
  /** How long to wait for a first live runner (default 10 s). */
  readonly waitForRunners?: Duration.DurationInput
  readonly onProgress?: (done: number, total: number) => void
}

/** What a cluster run returns: the summary, the run's id in the ledger, and who played each shard. */
export interface ClusterSimulationRun {
  readonly summary: SimulationSummary
  readonly runId: string
  readonly shards: ReadonlyArray<
    { readonly index: number; readonly from: number; readonly to: number; readonly runner: string }
  >
}

/** Runners whose heartbeat is recent (the runner storage's own rule for a live runner). */
const liveRunners = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const seconds = Duration.toSeconds(clusterTimings.shardLockExpiration)
  const rows = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM cluster_runners
    WHERE last_heartbeat > now() - make_interval(secs => ${seconds})`.pipe(
    // No table yet: no runner has ever joined this database.
    Effect.orElseSucceed(() => [{ n: 0 }])
  )
  return rows[0]?.n ?? 0
})

const waitForRunners = (url: string, within: Duration.DurationInput) =>
  liveRunners.pipe(
    Effect.filterOrFail((n) => n > 0, () => "none" as const),
    Effect.retry(Schedule.spaced(Duration.millis(250)).pipe(Schedule.upTo(within))),
    Effect.mapError(() =>
      diagnostic(
        "cluster_no_runners",
        `no cluster runner is alive on ${displayUrl(url)} (start one with 'cardfx cluster runner --pg URL')`,
        { subject: displayUrl(url) }
      )
    )
  )

/**
 * Fails once no runner has been alive for `within`: persisted messages wait
 * for a runner to take them, so without this a run whose every runner died
 * would wait forever. Never succeeds.
 */
const noRunnersFor = (url: string, within: Duration.Duration) =>
  Effect.gen(function*() {
    let emptyChecks = 0
    const limit = Math.ceil(Duration.toMillis(within) / 1000)
    while (true) {
      yield* Effect.sleep(Duration.seconds(1))
      emptyChecks = (yield* liveRunners) > 0 ? 0 : emptyChecks + 1
      if (emptyChecks > limit) {
        return yield* Effect.fail(
          diagnostic(
            "cluster_no_runners",
            `every cluster runner on ${displayUrl(url)} is gone; the run's remaining shards wait for one`,
            { subject: displayUrl(url) }
          )
        )
      }
    }
  })

const asDiagnostic = (e: unknown): Diagnostic =>
  typeof e === "object" && e !== null && "code" in e && "severity" in e && "message" in e
    ? (e as Diagnostic)
    : diagnostic(
      "worker_failed",
      `a cluster shard failed: ${typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : String(e)}`,
      { subject: "cluster" }
    )

/** Plays a simulation's games on the cluster's runners; the summary is a local run's. */
export const simulateOnCluster = (job: ClusterSimulationJob): Effect.Effect<ClusterSimulationRun, Diagnostic> =>
  Effect.flatMap(
    playOnCluster({ ...job, from: 0, to: job.games }),
    (run) =>
      Either.match(mergeShards(job.seed, job.games, [run.partial]), {
        onLeft: Effect.fail,
        onRight: (summary) => Effect.succeed({ summary, runId: run.runId, shards: run.shards })
      })
  )

/** Games [from, to) played on the cluster's runners: their partial, the run's id, who played each shard. */
export interface ClusterRangeRun {
  readonly partial: SimulationPartial
  readonly runId: string
  readonly shards: ClusterSimulationRun["shards"]
}

/** Plays games [from, to) of a simulation on the cluster's runners, in shards of `shardGames` from `from`. */
export const playOnCluster = (
  job: Omit<ClusterSimulationJob, "games"> & { readonly from: number; readonly to: number }
): Effect.Effect<ClusterRangeRun, Diagnostic> => {
  const games = job.to - job.from
  const shards = shardsOfRange(job.from, job.to, job.shardGames ?? DEFAULT_SHARD_GAMES)
  // The run id names the run's ledger rows and entities; it never reaches a result.
  const runId = randomUUID()
  const program = Effect.gen(function*() {
    const runners = yield* waitForRunners(job.url, job.waitForRunners ?? Duration.seconds(10))
    const client = yield* SimulationShard.client
    let done = 0
    const answers = yield* Effect.forEach(
      shards,
      (shard) =>
        client(shardEntityId(runId, shard.index))
          .PlayShard({
            runId,
            index: shard.index,
            deckJson: job.deck.json,
            deckFile: job.deck.file,
            seed: job.seed,
            from: shard.from,
            to: shard.to,
            ...(job.agents !== undefined ? { agents: job.agents } : {})
          })
          .pipe(
            Effect.mapError(asDiagnostic),
            Effect.tap(() =>
              Effect.sync(() => {
                done += shard.to - shard.from
                job.onProgress?.(done, games)
              })
            )
          ),
      // Each shard in flight holds a stored message and a reply poll: enough to keep every runner busy, not all at once.
      { concurrency: Math.max(32, 4 * runners) }
    ).pipe(Effect.raceFirst(noRunnersFor(job.url, Duration.decode(job.waitForRunners ?? Duration.seconds(10)))))
    // The ledger is what counts: one row per shard (its primary key), whoever played it and however often.
    const rows = yield* Effect.flatMap(ShardLedger, (l) => l.rows(runId))
    const agree = rows.length === shards.length &&
      rows.every((r, k) => r.index === k && r.runner === answers[k]?.runner)
    if (!agree) {
      return yield* Effect.fail(
        diagnostic("simulation_split", `run ${runId}: the ledger holds ${rows.length} of ${shards.length} shards`, {
          subject: runId
        })
      )
    }
    const partial = mergeShardRange(job.seed, job.from, job.to, rows.map((r) => r.partial))
    if (Either.isLeft(partial)) return yield* Effect.fail(partial.left)
    return {
      partial: partial.right,
      runId,
      shards: rows.map((r) => ({ index: r.index, from: r.from, to: r.to, runner: r.runner }))
    }
  })
  const sql = pgLayer(job.url)
  return Effect.scoped(
    Effect.provide(
      program,
      Layer.mergeAll(clusterLayer(undefined), ledgerLayer, sql).pipe(Layer.provide(sql))
    )
  )
}

/** Where a cluster simulation runs: the cluster's PostgreSQL, and how it is cut. */
export interface ClusterSimulationOptions {
  /** The cluster's PostgreSQL URL. */
  readonly url: string
  /** Games per shard (default {@link DEFAULT_SHARD_GAMES}). */
  readonly shardGames?: number
  /** How long to wait for a first live runner (default 10 s). */
  readonly waitForRunners?: Duration.DurationInput
}

/**
 * The `Simulation` service on a cluster's runners (`simulate --cluster`):
 * each range is cut into shards sent as persisted entity messages, and their
 * partials merged in shard order, so the summary is a local run's byte for
 * byte. Game logs are not collected on a cluster (`usage_error`).
 */
export const simulationLayer = (o: ClusterSimulationOptions): Layer.Layer<Simulation> =>
  Layer.succeed(
    Simulation,
    fromRangePlayer((r) =>
      r.logs
        ? Effect.fail(
          errorFromDiagnostic(
            diagnostic("usage_error", "game logs are not collected on a cluster (no --log with --cluster)")
          )
        )
        : playOnCluster({
          url: o.url,
          deck: r.deck,
          seed: r.seed,
          from: r.from,
          to: r.to,
          ...(r.agents !== undefined ? { agents: r.agents } : {}),
          ...(o.shardGames !== undefined ? { shardGames: o.shardGames } : {}),
          ...(o.waitForRunners !== undefined ? { waitForRunners: o.waitForRunners } : {}),
          ...(r.onProgress !== undefined ? { onProgress: r.onProgress } : {})
        }).pipe(
          Effect.map((run) => ({ partial: run.partial, logs: [] })),
          Effect.mapError(errorFromDiagnostic)
        )
    )
  )
