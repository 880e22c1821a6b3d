/**
 * Hallyu Hex agents: automated players that choose one legal action from what
 * one seat may know. The contract shared by every face (library, CLI,
 * workers, cluster, HTTP computer seats, page):
 *
 * - an agent sees a `SeatKnowledge` only: the seat's view (`observe`, the
 *   same projection the server sends that seat), the public history (the
 *   action IDs applied so far) and the seat's legal actions;
 * - it is given a seed (its own RNG stream, never the game's) and a budget in
 *   iterations, and answers one of the legal actions;
 * - same knowledge, seed and budget → the same action, on every face.
 *
 * `cheater` is the one exception: it searches the true state, for
 * measurement only (the ceiling of a fair agent), and is never offered to
 * players.
 *
 * The searches are in `Search.ts`, the worlds they sample in `World.ts`, the
 * evaluation in `Evaluate.ts`.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { RngStream } from "../../kernel/Rng.js"
import type { Engine } from "../engine/Engine.js"
import type { GameAction, GameState, Seat } from "../engine/State.js"
import { observe, type PlayerView, type PublicTable, publicTable } from "../engine/View.js"
import { greedy, ismcts, type SearchStats } from "./Search.js"
import { samplerOf } from "./World.js"

/** The agents' names; `cheater` is for measurement only. */
export const AgentName = Schema.Literal("random", "greedy", "ismcts", "cheater")
export type AgentName = typeof AgentName.Type

/** The agents a player may face (every agent but `cheater`). */
export const FairAgentName = Schema.Literal("random", "greedy", "ismcts")
export type FairAgentName = typeof FairAgentName.Type

/** The largest iteration budget one decision may be given. */
export const MAX_ITERATIONS = 100_000

/** The budget an agent gets when none is named (`greedy`: sampled worlds per action; `ismcts`: iterations). */
export const DEFAULT_ITERATIONS: Readonly<Record<AgentName, number>> = {
  random: 1,
  greedy: 16,
  ismcts: 1000,
  cheater: 1000
}

/** An agent and its budget in iterations. */
export interface AgentSpec {
  readonly agent: AgentName
  readonly iterations: number
}

/** Everything one seat may know when it is asked to act. */
export interface SeatKnowledge {
  readonly seat: Seat
  /** The seat's view: `observe(state, seat)`. */
  readonly view: PlayerView
  /** The public history: the IDs of the actions applied so far, in order. */
  readonly history: ReadonlyArray<string>
  /** The seat's legal actions, in the engine's order. */
  readonly legal: ReadonlyArray<GameAction>
  /**
   * The public parts of the state the view leaves out (work stack, this turn's records, pending
   * damage, ...) and the places of the cards the seat was shown: `publicTable(state, seat)`.
   */
  readonly table: PublicTable
}

/** The knowledge of `seat` in `state`, after the public `history`. */
export const knowledgeOf = (
  engine: Engine,
  state: GameState,
  seat: Seat,
  history: ReadonlyArray<string>
): SeatKnowledge => ({
  seat,
  view: observe(state, seat),
  table: publicTable(state, seat),
  history,
  legal: state.decision !== null && state.decision.player === seat ? engine.legalActions(state) : []
})

/** Parses `name` or `name:iterations` (the CLI's form). */
export const parseAgentSpec = (text: string): Either.Either<AgentSpec, Diagnostic> => {
  const [name, count, ...rest] = text.split(":")
  if (!Schema.is(AgentName)(name) || rest.length > 0) {
    return Either.left(
      diagnostic("unknown_agent", `unknown agent "${text.slice(0, 64)}" (random, greedy, ismcts, cheater)`, {
        subject: text.slice(0, 64)
      })
    )
  }
  if (count === undefined) return Either.right({ agent: name, iterations: DEFAULT_ITERATIONS[name] })
  const n = /^[0-9]{1,9}$/.test(count) ? Number(count) : Number.NaN
  return checkIterations({ agent: name, iterations: n }, text)
}

/** An iteration budget in 1..MAX_ITERATIONS. */
export const checkIterations = (spec: AgentSpec, subject: string): Either.Either<AgentSpec, Diagnostic> =>
  Number.isInteger(spec.iterations) && spec.iterations >= 1 && spec.iterations <= MAX_ITERATIONS
    ? Either.right(spec)
    : Either.left(
      diagnostic(
        "invalid_iterations",
        `an agent's iterations must be an integer in 1..${MAX_ITERATIONS}, got ${String(spec.iterations).slice(0, 32)}`,
        { subject: subject.slice(0, 64) }
      )
    )

/**
 * A fair agent's decision: a function of the seat's knowledge, the seed and the budget only.
 * `cheater` is refused here (it needs the true state: `decideCheating`).
 */
export const decide = (
  engine: Engine,
  spec: AgentSpec,
  knowledge: SeatKnowledge,
  seed: string
): Either.Either<GameAction, Diagnostic> => {
  if (spec.agent === "cheater") {
    return Either.left(diagnostic("unknown_agent", "cheater needs the true state", { subject: "cheater" }))
  }
  const checked = checkIterations(spec, spec.agent)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const legal = knowledge.legal
  if (spec.agent === "random" || legal.length <= 1) return pickRandom(legal, seed)
  const rng = RngStream.fromSeed(seed, "hhx.agent")
  const sample = samplerOf(knowledge)
  return Either.right(
    spec.agent === "greedy"
      ? greedy(engine, knowledge.seat, legal, sample, spec.iterations, rng)
      : ismcts(engine, legal, sample, spec.iterations, rng, searchStats)
  )
}

/** Iterations and actions stepped by every search of this process (the bench reads them). */
export const searchStats: SearchStats = { iterations: 0, steps: 0 }

/** The cheater's decision: the same search as ismcts, on the true state (measurement only). */
export const decideCheating = (
  engine: Engine,
  spec: AgentSpec,
  state: GameState,
  seed: string
): Either.Either<GameAction, Diagnostic> => {
  const checked = checkIterations(spec, spec.agent)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const legal = state.decision === null ? [] : engine.legalActions(state)
  if (legal.length <= 1) return pickRandom(legal, seed)
  const rng = RngStream.fromSeed(seed, "hhx.agent")
  return Either.right(ismcts(engine, legal, () => state, spec.iterations, rng, searchStats))
}

/** The seat to act's decision in `state`, for any agent: fair agents see only that seat's knowledge. */
export const chooseFor = (
  engine: Engine,
  spec: AgentSpec,
  state: GameState,
  history: ReadonlyArray<string>,
  seed: string
): Either.Either<GameAction, Diagnostic> => {
  const seat = state.decision?.player
  if (seat === undefined || state.result !== null) {
    return Either.left(diagnostic("game_over", "no seat is to act", { subject: String(state.ply) }))
  }
  return spec.agent === "cheater"
    ? decideCheating(engine, spec, state, seed)
    : decide(engine, spec, knowledgeOf(engine, state, seat, history), seed)
}

const pickRandom = (legal: ReadonlyArray<GameAction>, seed: string): Either.Either<GameAction, Diagnostic> => {
  const a = legal[RngStream.fromSeed(seed, "hhx.agent").int(Math.max(1, legal.length))]
  return a === undefined
    ? Either.left(diagnostic("illegal_action", "the seat has no legal action", { subject: "legal" }))
    : Either.right(a)
}
