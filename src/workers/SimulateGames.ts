/**
 * The simulation request a worker thread answers, and its handler: games
 * [from, to) of a seeded simulation → a partial (and the games' logs when
 * asked), played by the `Simulation` service's range player. Apart from the
 * fuzzing and validation requests, so the simulation-only worker
 * (`simulation-worker.ts`) loads the engine and nothing else.
 *
 * @since 0.1.0
 */
import { Effect, Either, Schema } from "effect"
import { Diagnostic } from "../kernel/Diagnostic.js"
import { memo, RangeAnswer, rangePlayer } from "../services/Simulation.js"

export { memo }

/** Games [from, to) of the simulation seeded `seed`, on the deck given as its JSON text. */
export class SimulateGames extends Schema.TaggedRequest<SimulateGames>()("SimulateGames", {
  failure: Diagnostic,
  success: RangeAnswer,
  payload: {
    /** The deck file's text (validated again by the worker; engines are cached by it). */
    deckJson: Schema.String,
    deckFile: Schema.String,
    seed: Schema.String,
    from: Schema.Int,
    to: Schema.Int,
    /** Also return every game's log (with fingerprints). */
    logs: Schema.Boolean,
    /** The two agents of a match (`a,b`); absent: random play. */
    agents: Schema.optional(Schema.String)
  }
}) {}

/** The worker-side handler of {@link SimulateGames}, keeping the engines it built by their deck's text. */
export const simulateGamesHandler = () => {
  const play = rangePlayer()
  return (
    r: {
      deckJson: string
      deckFile: string
      seed: string
      from: number
      to: number
      logs: boolean
      agents?: string | undefined
    }
  ) =>
    Effect.suspend(() =>
      Either.match(
        play({
          deck: { json: r.deckJson, file: r.deckFile },
          seed: r.seed,
          from: r.from,
          to: r.to,
          logs: r.logs,
          ...(r.agents !== undefined ? { agents: r.agents } : {})
        }),
        { onLeft: Effect.fail, onRight: Effect.succeed }
      )
    )
}
