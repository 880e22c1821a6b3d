/**
 * What a runner does with a game shard: plays games [from, to) on its cores
 * and returns their partial. The shard is split as a local run splits its
 * games (`runSplit`: this thread and the runner's worker threads), and the
 * answers are merged in game order by the same pure merge, so a shard's
 * partial does not depend on the runner's cores.
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
import {
  CardfxWorkerPool,
  type CardfxWorkerPoolService,
  inProcess,
  layer as poolLayer,
  workerEntry
} from "../workers/Pool.js"
import { SimulateGames } from "../workers/Requests.js"
import { GAMES_PER_CHUNK, GAMES_PER_REQUEST } from "../workers/Runs.js"
import { REQUESTS_PER_THREAD, runSplit } from "../workers/Split.js"
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

/**
 * Plays shards on this thread and, when the runner has more than one worker,
 * on a pool of worker threads beside it (`runSplit`, as a local simulate does):
 * the runner's own thread plays from the first moment, threads take growing
 * ranges once warm. The engine of the last deck seen is kept (runs send the
 * same deck to every shard).
 */
const player = (workers: number, pool: CardfxWorkerPoolService | undefined): Effect.Effect<ShardPlayerService> =>
  Effect.sync(() => {
    let cached: { readonly json: string; readonly engine: Engine } | undefined
    const engineOf = (shard: PlayShardPayload): Either.Either<Engine, Diagnostic> => {
      if (cached !== undefined && cached.json === shard.deckJson) return Either.right(cached.engine)
      const engine = Either.flatMap(deckFromJson(shard.deckJson, shard.deckFile), makeEngine)
      if (Either.isRight(engine)) cached = { json: shard.deckJson, engine: engine.right }
      return engine
    }
    return {
      workers,
      play: (shard) =>
        Either.match(engineOf(shard), {
          onLeft: Effect.fail,
          onRight: (engine) =>
            Effect.flatMap(
              runSplit({
                total: shard.to - shard.from,
                threads: pool === undefined ? 0 : workers - 1,
                entry: workerEntry("simulation"),
                ...(pool === undefined ? {} : { pool }),
                localChunk: GAMES_PER_CHUNK,
                remoteChunk: GAMES_PER_REQUEST,
                local: (a, b) =>
                  inProcess(() => simulateRange(engine, shard.from + a, shard.from + b, { seed: shard.seed })),
                remote: (p, a, b) =>
                  Effect.map(
                    p.simulateGames(
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
                  )
              }),
              (parts) => merged(shard, parts)
            )
        })
    }
  })

/**
 * The player of a runner with `workers` threads: its own and `workers − 1`
 * worker threads, started once and kept warm across shards (1: this thread only).
 */
export const layer = (workers: number): Layer.Layer<ShardPlayer, Diagnostic> =>
  workers <= 1
    ? Layer.effect(ShardPlayer, player(1, undefined))
    : Layer.effect(ShardPlayer, Effect.flatMap(CardfxWorkerPool, (pool) => player(workers, pool))).pipe(
      Layer.provide(poolLayer(workers - 1, workerEntry("simulation"), { concurrency: REQUESTS_PER_THREAD }))
    )
