/**
 * The `@effect/cluster` settings every cardfx runner and client shares. They
 * must agree across a cluster: the number of cluster shards decides which
 * runner owns an entity, and the lock expiration decides when a silent runner
 * is considered gone and its work moves elsewhere.
 *
 * The library's defaults suit long-lived services (a dead runner's shards
 * move after 35 s, unprocessed messages are polled every 10 s); a simulation
 * shard is a few seconds of work, so cardfx notices a dead runner within
 * about 5 s and picks up its messages within a second after that.
 *
 * @since 0.1.0
 */
import { Duration } from "effect"
import { DEFAULT_RUNNER_PORT } from "../services/Clustering.js"

/** Sharding settings shared by runners and clients (see `ShardingConfig` in `@effect/cluster`). */
export const clusterTimings = {
  /**
   * Entity partitions ("cluster shards"), hashed onto runners; not cardfx's
   * game shards. Each is an advisory lock, and a runner that joins or leaves
   * moves partitions: every one released is two queries on the lock
   * connection the heartbeat refresh waits behind. With 300, a second runner
   * joining queued ~300 queries there and missed the refresh deadline on a
   * loaded machine; 60 keep that storm small and still spread a run's shards
   * over a few dozen runners (raise it, on every member, for more).
   */
  shardsPerGroup: 60,
  /**
   * A runner refreshes its locks and heartbeat this often, and every lock
   * operation must finish within it (`@effect/cluster` takes
   * min(refresh interval, expiration / 3) as the deadline of each one, and a
   * refresh that misses it marks the runner's lock storage unhealthy: every
   * partition is force-released, the shard in progress is interrupted and
   * played again after the partitions are taken back). All of a runner's lock
   * operations share one reserved connection, so a refresh waits behind the
   * acquire and release queries queued there; on a loaded machine a 1 s
   * deadline was missed every few seconds (see docs/scale.md).
   */
  shardLockRefreshInterval: Duration.seconds(4),
  /** ...and is dropped, its partitions reassigned, when it has not for this long (three missed refreshes). */
  shardLockExpiration: Duration.seconds(12),
  /** How often runners re-read the runner table (a new or dead runner moves partitions). */
  refreshAssignmentsInterval: Duration.seconds(1),
  /** How often a runner reads unprocessed messages (those of a dead runner among them) from storage. */
  entityMessagePollInterval: Duration.seconds(1),
  /** How often a client reads replies from storage. */
  entityReplyPollInterval: Duration.millis(100),
  sendRetryInterval: Duration.millis(100),
  runnerHealthCheckInterval: Duration.seconds(5),
  /** A game shard runs for seconds; an entity is not kept once its message is answered. */
  entityMaxIdleTime: Duration.seconds(10),
  entityTerminationTimeout: Duration.seconds(5)
} as const

export { DEFAULT_RUNNER_PORT }
