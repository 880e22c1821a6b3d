/**
 * Across machines: simulation shards on an `@effect/cluster` cluster over
 * PostgreSQL. `runnerLayer` is `cardfx cluster runner`; `simulateOnCluster`
 * is `cardfx simulate --cluster`; the shard ledger records every shard once;
 * `clusteringLayer` is the `Clustering` service of src/services over them.
 *
 * @since 0.1.0
 */
export {
  type ClusterRangeRun,
  type ClusterSimulationJob,
  type ClusterSimulationOptions,
  type ClusterSimulationRun,
  playOnCluster,
  simulateOnCluster,
  simulationLayer
} from "./Client.js"
export { layer as clusteringLayer } from "./Clustering.js"
export { DEFAULT_RUNNER_PORT } from "./Config.js"
export { layer as logLayer, layerAt as logLayerAt } from "./Log.js"
export { DEFAULT_RETAIN_SECONDS, runnerLayer, runnerName, type RunnerOptions, sweepInterval } from "./Runner.js"
export { LEDGER_TABLE, type LedgerRow } from "./ShardLedger.js"
export { DEFAULT_SHARD_GAMES, mergeShardRange, mergeShards, type Shard, shardsOf, shardsOfRange } from "./Shards.js"
