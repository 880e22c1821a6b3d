/**
 * Games between agents: `playGame` plays one game through the public
 * `Engine`, asking the seat to act's agent at every decision with only that
 * seat's knowledge (`chooseFor`: the cheater excepted). Decision `k` of a game
 * seeded `s` gives the agent the seed `<s>/<k>` (its own stream, never the
 * game's), so a game is a function of its seed and the two agents.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import type { Engine } from "../engine/Engine.js"
import type { GameResult, GameState } from "../engine/State.js"
import { type AgentSpec, chooseFor } from "./Agent.js"

/** A game between two agents. */
export interface AgentGame {
  readonly result: GameResult | null
  readonly turns: number
  readonly final: GameState
  /** The action IDs applied, in order (with the seed and deck lists: a replayable log). */
  readonly actions: ReadonlyArray<string>
  /** Card indices each seat cast, in cast order. */
  readonly playedBySeat: readonly [ReadonlyArray<number>, ReadonlyArray<number>]
}

export interface PlayOptions {
  readonly decks?: readonly [string, string]
  /** A safety bound on actions (the turn limit ends every game long before). */
  readonly maxActions?: number
  /** Counts each operation executed (by name), as `Engine.apply` does. */
  readonly operations?: Record<string, number>
}

/** One game: seat 0 played by `agents[0]`, seat 1 by `agents[1]`, game seed `seed`. */
export const playGame = (
  engine: Engine,
  agents: readonly [AgentSpec, AgentSpec],
  seed: string | number,
  o: PlayOptions = {}
): Either.Either<AgentGame, Diagnostic> => {
  const start = engine.newGame(o.decks === undefined ? { seed } : { seed, decks: o.decks })
  if (Either.isLeft(start)) return Either.left(start.left)
  let s = start.right
  const actions: Array<string> = []
  const played: [Array<number>, Array<number>] = [[], []]
  const max = o.maxActions ?? 100_000
  while (s.result === null && s.decision !== null && actions.length < max) {
    const seat = s.decision.player
    const a = chooseFor(engine, agents[seat], s, actions, `${String(seed)}/${actions.length}`)
    if (Either.isLeft(a)) return Either.left(a.left)
    const next = o.operations === undefined ? engine.apply(s, a.right) : engine.apply(s, a.right, o.operations)
    if (Either.isLeft(next)) return Either.left(next.left)
    if (a.right.kind === "cast" && a.right.inst !== null) played[a.right.player].push(s.cardOf[a.right.inst] ?? 0)
    actions.push(a.right.id)
    s = next.right
  }
  return Either.right({ result: s.result, turns: s.turn, final: s, actions, playedBySeat: played })
}
