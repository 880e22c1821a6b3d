/**
 * A cluster run cut into game shards, and their answers merged: pure
 * functions. Shards are fixed-size game ranges (never derived from the number
 * of runners), merged in shard order by the same pure merge a local run uses,
 * so a cluster run prints the summary of a local run byte for byte.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { DEFAULT_SHARD_GAMES } from "../services/Clustering.js"
import { mergeAllPartials, type SimulationPartial, type SimulationSummary, summarize } from "../services/Simulation.js"
import { chunks } from "../workers/Pool.js"

export { DEFAULT_SHARD_GAMES }

/** One shard of a run: its index and games [from, to). */
export interface Shard {
  readonly index: number
  readonly from: number
  readonly to: number
}

/** The shards of `games` games, `shardGames` each (the last may be shorter). */
export const shardsOf = (games: number, shardGames: number): ReadonlyArray<Shard> => shardsOfRange(0, games, shardGames)

/** The shards of games [from, to), `shardGames` each from `from` (the last may be shorter). */
export const shardsOfRange = (from: number, to: number, shardGames: number): ReadonlyArray<Shard> =>
  chunks(Math.max(0, to - from), Math.max(1, shardGames)).map(([a, b], index) => ({
    index,
    from: from + a,
    to: from + b
  }))

/** The partial of games [from, to) from its shards' partials, in shard order; a missing or extra shard is a diagnostic. */
export const mergeShardRange = (
  seed: string,
  from: number,
  to: number,
  parts: ReadonlyArray<SimulationPartial>
): Either.Either<SimulationPartial, Diagnostic> =>
  Either.flatMap(mergeAllPartials(seed, from, parts), (whole) =>
    whole.to === to
      ? Either.right(whole)
      : Either.left(
        diagnostic("simulation_split", `the shards cover games [${from}, ${whole.to}) of [${from}, ${to})`, {
          subject: seed
        })
      ))

/** The summary of a run from its shards' partials, given in shard order; a missing or extra shard is a diagnostic. */
export const mergeShards = (
  seed: string,
  games: number,
  parts: ReadonlyArray<SimulationPartial>
): Either.Either<SimulationSummary, Diagnostic> =>
  Either.flatMap(mergeAllPartials(seed, 0, parts), (whole) =>
    whole.to === games
      ? Either.right(summarize(whole))
      : Either.left(
        diagnostic("simulation_split", `the shards cover games [0, ${whole.to}) of ${games}`, { subject: seed })
      ))
