/**
 * `cardfx cluster runner --pg URL [--host H] [--port N] [--workers N] [--retain DURATION]`: a
 * cluster runner, one per machine. It joins the `@effect/cluster` cluster
 * whose storage is the PostgreSQL database at `--pg`, listens for its peers
 * at `--host:--port`, and plays the game shards of `simulate --cluster` on
 * `--workers` threads. It prints one JSON line
 * `{"event":"runner","runner":"HOST:PORT","workers":N}` once it has joined,
 * then runs until SIGINT/SIGTERM: it leaves the cluster (its unfinished
 * shards move to the other runners), stops its threads and exits 130.
 * Finished runs' ledger and message rows older than `--retain` (default 24h)
 * are removed by the runners.
 *
 * Also the `--cluster URL` and `--shard-games N` options of `simulate`.
 *
 * @since 0.1.0
 */
import { Console, Effect, LogLevel } from "effect"
import { Clustering } from "../services/index.js"
import * as Command from "./Command.js"
import { usageError } from "./Exit.js"
import * as Options from "./Options.js"
import { resolveWorkers } from "./Scale.js"

/** `simulate --cluster URL`. */
export const clusterOption = Options.text("cluster").pipe(
  Options.withPseudoName("URL"),
  Options.optional,
  Options.withDescription(
    "Play the games on the cluster runners whose PostgreSQL is at URL (postgres://...), in shards; the summary is a local run's."
  )
)

/** `simulate --shard-games N`. */
export const shardGamesOption = Options.integer("shard-games").pipe(
  Options.withDefault(Clustering.DEFAULT_SHARD_GAMES),
  Options.withDescription("With --cluster: games per shard (one cluster message and one ledger row each).")
)

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `--retain`: a whole number of seconds, minutes, hours or days, in seconds (undefined when malformed). */
export const retainOf = (text: string): number | undefined => {
  const m = /^(\d{1,6})([smhd])$/.exec(text.trim())
  return m === null ? undefined : Number(m[1]) * (UNIT_SECONDS[m[2] ?? "s"] ?? 1)
}

const runnerCommand = Command.make(
  "runner",
  {
    pg: Options.text("pg").pipe(
      Options.withPseudoName("URL"),
      Options.withDescription(
        "The cluster's PostgreSQL (postgres://...): its message, runner and shard-ledger storage."
      )
    ),
    host: Options.text("host").pipe(
      Options.withDefault("127.0.0.1"),
      Options.withDescription("The address other cluster members reach this runner at, and it listens on.")
    ),
    port: Options.integer("port").pipe(
      Options.withDefault(Clustering.DEFAULT_RUNNER_PORT),
      Options.withDescription("The TCP port this runner listens on for its peers.")
    ),
    workers: Options.integer("workers").pipe(
      Options.optional,
      Options.withDescription(
        "Worker threads playing shards, kept warm across shards (default: the machine's available parallelism); the runner's own thread serves the cluster."
      )
    ),
    retain: Options.text("retain").pipe(
      Options.withPseudoName("DURATION"),
      Options.withDefault("24h"),
      Options.withDescription(
        "How long finished runs' shard-ledger and message rows are kept (e.g. 90s, 30m, 24h, 7d); older runs are removed."
      )
    )
  },
  (o) =>
    Effect.gen(function*() {
      const cluster = yield* Clustering.Clustering
      const workers = yield* resolveWorkers(o.workers)
      const retainSeconds = retainOf(o.retain)
      if (retainSeconds === undefined) {
        return yield* Effect.fail(usageError(`--retain must be a duration like 90s, 30m, 24h or 7d (got ${o.retain})`))
      }
      if (o.port < 1 || o.port > 65535) return yield* Effect.fail(usageError(`--port must be 1..65535 (got ${o.port})`))
      if (!/^postgres(ql)?:\/\//.test(o.pg)) {
        return yield* Effect.fail(usageError(`--pg must be a postgres:// URL (got ${o.pg})`))
      }
      yield* Effect.scoped(
        Effect.gen(function*() {
          const runner = yield* cluster.runner({ pg: o.pg, host: o.host, port: o.port, workers, retainSeconds })
          yield* Console.log(JSON.stringify({ event: "runner", runner, workers }))
          return yield* Effect.never
        })
      ).pipe(
        // JSON lines on stderr, warnings and errors only; stdout holds the runner's one event line.
        Effect.provide(cluster.logAt(LogLevel.Warning))
      )
    })
).pipe(Command.withDescription("Run a cluster runner: plays simulate --cluster shards on this machine's cores."))

/** `cardfx cluster`: scale-out across machines. */
export const clusterCommand = Command.make("cluster").pipe(
  Command.withDescription("Scale-out across machines on @effect/cluster over PostgreSQL."),
  Command.withSubcommands([runnerCommand])
)
