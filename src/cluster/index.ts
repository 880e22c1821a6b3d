/**
 * Across machines: simulation shards on an `@effect/cluster` cluster over
 * PostgreSQL. `runnerLayer` is `cardfx cluster runner`; `simulateOnCluster`
 * is `cardfx simulate --cluster`; the shard ledger records every shard once.
 *
 * @since 0.1.0
 */
export { type ClusterSimulationJob, type ClusterSimulationRun, simulateOnCluster } from "./Client.js"
export { DEFAULT_RUNNER_PORT } from "./Config.js"
export { runnerLayer, runnerName, type RunnerOptions } from "./Runner.js"
export { LEDGER_TABLE, type LedgerRow } from "./ShardLedger.js"
export { DEFAULT_SHARD_GAMES, mergeShards, type Shard, shardsOf } from "./Shards.js"
export { layer as logLayer } from "./Log.js"
