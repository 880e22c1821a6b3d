/**
 * `Clustering`: scale-out across machines — the `Simulation` service on the
 * runners of an `@effect/cluster` cluster over PostgreSQL (`simulate
 * --cluster`), and a runner joining it (`cardfx cluster runner`). This
 * module is the port: the interface, its Tag and the defaults the command
 * line shows. src/cluster implements it (`cardfx/cluster`); the `cardfx`
 * bin's composition root (src/bin) provides that implementation to the CLI,
 * which knows only this port, so importing the services never loads
 * `@effect/cluster`.
 *
 * @since 0.1.0
 */
import { Context, type Effect, type Layer, type LogLevel, type Scope } from "effect"
import type { CardfxError } from "../kernel/Errors.js"
import type { Simulation } from "./Simulation.js"

/** The runner port when `--port` is not given. */
export const DEFAULT_RUNNER_PORT = 34431

/**
 * Games per shard by default: ~0.8 s of one warm core's play (a game costs
 * ~0.2 ms). A shard costs ~20 ms of CPU on the runner's own thread and
 * ~5 ms on the client (a persisted message, its reply, ledger rows): with
 * 1,024-game shards the cluster's CPU per game was 1.5-1.7× a local run's,
 * with 4,096 about 1.1× (`npm run bench -- cluster`, docs/scale.md).
 */
export const DEFAULT_SHARD_GAMES = 4096

/** A cluster runner: where the cluster's storage is, where its peers reach it, and its threads. */
export interface ClusterRunnerOptions {
  /** The cluster's PostgreSQL URL. */
  readonly pg: string
  /** The address other cluster members reach this runner at, and it listens on. */
  readonly host: string
  readonly port: number
  /** Worker threads playing shards (at least 1; the runner's own thread serves the cluster). */
  readonly workers: number
  /** How long a finished run's ledger and message rows are kept, in seconds. */
  readonly retainSeconds?: number
}

export interface ClusteringService {
  /**
   * The `Simulation` service on the runners of the cluster whose PostgreSQL
   * is at `url`: each range cut into shards of `shardGames` games (default
   * {@link DEFAULT_SHARD_GAMES}); the summary is a local run's byte for byte.
   */
  readonly simulation: (o: { readonly url: string; readonly shardGames?: number }) => Layer.Layer<Simulation>
  /** Joins the cluster as a runner until the scope closes (its shards then move to the others); its name, `HOST:PORT`. */
  readonly runner: (o: ClusterRunnerOptions) => Effect.Effect<string, CardfxError, Scope.Scope>
  /** How cluster members log from `level` up: JSON lines on standard error (standard output stays the command's). */
  readonly logAt: (level: LogLevel.LogLevel) => Layer.Layer<never>
}

/** The cluster service (implemented by src/cluster, `cardfx/cluster`). */
export class Clustering extends Context.Tag("cardfx/Clustering")<Clustering, ClusteringService>() {}
