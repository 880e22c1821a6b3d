/**
 * The cluster entity that plays one game shard: games [from, to) of a seeded
 * simulation. Each shard is its own entity (`<run id>/<shard index>`), so
 * `@effect/cluster` hashes shards onto runners; the message is persisted in
 * PostgreSQL, so a shard whose runner dies is delivered again to the runner
 * that takes over its partition.
 *
 * @since 0.1.0
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import { Diagnostic } from "../kernel/Diagnostic.js"
import { SimulationPartialSchema } from "../services/Simulation.js"

/** A shard's answer: its partial and the runner that recorded it in the ledger. */
export const ShardResult = Schema.Struct({ partial: SimulationPartialSchema, runner: Schema.String })
export type ShardResult = typeof ShardResult.Type

/** The request of one shard: everything the pure core needs, so any runner can answer it. */
export const PlayShardPayload = Schema.Struct({
  runId: Schema.String,
  index: Schema.Int,
  /** The deck file's text (validated again by the runner) and its name. */
  deckJson: Schema.String,
  deckFile: Schema.String,
  seed: Schema.String,
  from: Schema.Int,
  to: Schema.Int,
  /** The two agents of a match (`a,b`, the agents' canonical text); absent: random play. */
  agents: Schema.optional(Schema.String)
})
export type PlayShardPayload = typeof PlayShardPayload.Type

export const PlayShard = Rpc.make("PlayShard", {
  payload: PlayShardPayload,
  success: ShardResult,
  error: Diagnostic
}).annotate(ClusterSchema.Persisted, true)

/** The entity type; its id is `<run id>/<shard index>`. */
export const SimulationShard = Entity.make("CardfxSimulationShard", [PlayShard])

export const shardEntityId = (runId: string, index: number): string => `${runId}/${index}`
