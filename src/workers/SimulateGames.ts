/**
 * The simulation request a worker thread answers, and its handler: games
 * [from, to) of a seeded simulation → a partial (and the games' logs when
 * asked). Apart from the fuzzing and validation requests, so the
 * simulation-only worker (`simulation-worker.ts`) loads the engine and
 * nothing else.
 *
 * @since 0.1.0
 */
import { Effect, Either, Schema } from "effect"
import { type Engine, makeEngine } from "../hallyu/engine/Engine.js"
import { type GameLog, GameLogSchema, simulateRange, SimulationPartialSchema } from "../hallyu/engine/Simulate.js"
import { Diagnostic } from "../kernel/Diagnostic.js"
import { deckFromJson } from "./Deck.js"

/** Games [from, to) of the simulation seeded `seed`, on the deck given as its JSON text. */
export class SimulateGames extends Schema.TaggedRequest<SimulateGames>()("SimulateGames", {
  failure: Diagnostic,
  success: Schema.Struct({ partial: SimulationPartialSchema, logs: Schema.Array(GameLogSchema) }),
  payload: {
    /** The deck file's text (validated again by the worker; engines are cached by it). */
    deckJson: Schema.String,
    deckFile: Schema.String,
    seed: Schema.String,
    from: Schema.Int,
    to: Schema.Int,
    /** Also return every game's log (with fingerprints). */
    logs: Schema.Boolean
  }
}) {}

/** Memoizes the last few values built from a key (a deck's text, a list of folders). */
export const memo = <A>() => {
  const cache = new Map<string, A>()
  return (key: string, make: () => A): A => {
    const hit = cache.get(key)
    if (hit !== undefined) return hit
    const made = make()
    if (cache.size >= 4) cache.clear()
    cache.set(key, made)
    return made
  }
}

/** The worker-side handler of {@link SimulateGames}, keeping the engines it built by their deck's text. */
export const simulateGamesHandler = () => {
  const engines = memo<Either.Either<Engine, Diagnostic>>()
  return (r: { deckJson: string; deckFile: string; seed: string; from: number; to: number; logs: boolean }) =>
    Effect.suspend(() => {
      const engine = engines(r.deckJson, () => Either.flatMap(deckFromJson(r.deckJson, r.deckFile), makeEngine))
      if (Either.isLeft(engine)) return Effect.fail(engine.left)
      const logs: Array<GameLog> = []
      const partial = simulateRange(engine.right, r.from, r.to, {
        seed: r.seed,
        fingerprints: r.logs,
        ...(r.logs ? { onGame: (_k: number, g: { readonly log: GameLog }) => void logs.push(g.log) } : {})
      })
      return Either.isLeft(partial) ? Effect.fail(partial.left) : Effect.succeed({ partial: partial.right, logs })
    })
}
