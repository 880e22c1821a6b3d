/**
 * What a runner does with a game shard: plays games [from, to) on its cores
 * and returns their partial. The shard is cut into the same fixed-size chunks
 * as a local run (`GAMES_PER_CHUNK`), played on the runner's worker pool (or
 * in its own process with one worker), and merged in game order by the same
 * pure merge, so a shard's partial does not depend on the runner's cores.
 *
 * The pool lives as long as the runner: threads stay warm across shards.
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer } from "effect"
import { type Engine, makeEngine } from "../hallyu/engine/Engine.js"
import { mergeAllPartials, simulateRange, type SimulationPartial } from "../hallyu/engine/Simulate.js"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { deckFromJson } from "../workers/Deck.js"
import { CardfxWorkerPool, chunks, inProcess, layer as poolLayer } from "../workers/Pool.js"
import { SimulateGames } from "../workers/Requests.js"
import { GAMES_PER_CHUNK } from "../workers/Runs.js"
import type { PlayShardPayload } from "./ShardEntity.js"

export interface ShardPlayerService {
  readonly workers: number
  readonly play: (shard: PlayShardPayload) => Effect.Effect<SimulationPartial, Diagnostic>
}

export class ShardPlayer extends Context.Tag("cardfx/ShardPlayer")<ShardPlayer, ShardPlayerService>() {}

const merged = (shard: PlayShardPayload, parts: ReadonlyArray<SimulationPartial>) => {
  const m = mergeAllPartials(shard.seed, shard.from, parts)
  return Either.isLeft(m) ? Effect.fail(m.left) : Effect.succeed(m.right)
}

/** Plays shards in this process, keeping the engine of the last deck seen (runs send the same deck to every shard). */
const inThisProcess: Effect.Effect<ShardPlayerService> = Effect.sync(() => {
  let cached: { readonly json: string; readonly engine: Engine } | undefined
  const engineOf = (shard: PlayShardPayload): Either.Either<Engine, Diagnostic> => {
    if (cached !== undefined && cached.json === shard.deckJson) return Either.right(cached.engine)
    const engine = Either.flatMap(deckFromJson(shard.deckJson, shard.deckFile), makeEngine)
    if (Either.isRight(engine)) cached = { json: shard.deckJson, engine: engine.right }
    return engine
  }
  return {
    workers: 1,
    play: (shard) =>
      Either.match(engineOf(shard), {
        onLeft: Effect.fail,
        onRight: (engine) =>
          Effect.flatMap(
            Effect.forEach(
              chunks(shard.to - shard.from, GAMES_PER_CHUNK),
              ([a, b]) => inProcess(() => simulateRange(engine, shard.from + a, shard.from + b, { seed: shard.seed }))
            ),
            (parts) => merged(shard, parts)
          )
      })
  }
})

/** Plays shards on a pool of `workers` threads (each chunk a `SimulateGames` request). */
const onPool = (workers: number): Effect.Effect<ShardPlayerService, never, CardfxWorkerPool> =>
  Effect.map(CardfxWorkerPool, (pool) => ({
    workers,
    play: (shard) =>
      Effect.flatMap(
        Effect.forEach(
          chunks(shard.to - shard.from, GAMES_PER_CHUNK),
          ([a, b]) =>
            Effect.map(
              pool.simulateGames(
                new SimulateGames({
                  deckJson: shard.deckJson,
                  deckFile: shard.deckFile,
                  seed: shard.seed,
                  from: shard.from + a,
                  to: shard.from + b,
                  logs: false
                })
              ),
              (answer) => answer.partial
            ),
          { concurrency: workers }
        ),
        (parts) => merged(shard, parts)
      )
  }))

/** The player of a runner with `workers` threads (1: in the runner's own process). */
export const layer = (workers: number): Layer.Layer<ShardPlayer, Diagnostic> =>
  workers <= 1
    ? Layer.effect(ShardPlayer, inThisProcess)
    : Layer.effect(ShardPlayer, onPool(workers)).pipe(Layer.provide(poolLayer(workers)))
