/**
 * Computer seats' decisions, apart from the games (src/services/ComputerSeats.ts
 * plays them): what a decision is given — one seat's knowledge, never the
 * state — and what it answers, the decision core a worker thread runs, the
 * agent's seed, and the `AgentDecider` port decisions run on. Imports the
 * engine and the agents only, so the worker thread that runs it
 * (src/workers/simulation-worker.ts) loads no more.
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import { decide, FairAgentName, type SeatKnowledge } from "../hallyu/agents/Agent.js"
import type * as Hallyu from "../hallyu/index.js"
import { sha256Hex } from "../kernel/Canonical.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { DeckSource, engineOf, memo } from "./Simulation.js"

/**
 * The seed a computer seat's agent is given for its decision at `step`: a
 * sha256 of the game's seed, the seat and the step (hex, 32 characters).
 * A function of the log, so a replay derives it again; one-way, so it says
 * nothing of the deal the game's seed makes.
 */
export const agentSeed = (gameSeed: string, seat: Hallyu.Seat, step: number): string =>
  sha256Hex(`cardfx/hhx-agent/1\n${gameSeed}\n${seat}\n${step}`).slice(0, 32)

/**
 * `SeatKnowledge` as a worker message carries it (structured-cloned, never
 * encoded): checked for its shape when it arrives.
 */
export const SeatKnowledgeSchema = Schema.declare(
  (u: unknown): u is SeatKnowledge =>
    typeof u === "object" && u !== null && "seat" in u && (u.seat === 0 || u.seat === 1) &&
    "view" in u && typeof u.view === "object" && u.view !== null &&
    "history" in u && Array.isArray(u.history) && u.history.every((h) => typeof h === "string") &&
    "legal" in u && Array.isArray(u.legal) &&
    u.legal.every((a) => typeof a === "object" && a !== null && "id" in a && typeof a.id === "string"),
  { identifier: "SeatKnowledge" }
)

/** What a decision is given: the served deck, a fair agent and its budget, its seed, and one seat's knowledge. */
export const DecisionRequest = Schema.Struct({
  /** The deck's JSON text (the engine is built from it once per thread). */
  deck: DeckSource,
  agent: FairAgentName,
  iterations: Schema.Int,
  seed: Schema.String,
  knowledge: SeatKnowledgeSchema
})
export type DecisionRequest = typeof DecisionRequest.Type

/** A decision: the chosen action's ID and the iterations it was given. */
export const DecisionAnswer = Schema.Struct({ actionId: Schema.String, iterations: Schema.Int })
export type DecisionAnswer = typeof DecisionAnswer.Type

/**
 * The decision core (pure, keeping the engines it built by their deck's
 * text): what a worker thread runs, and the in-process decider. The agent
 * sees the request's knowledge only.
 */
export const decisionMaker = (): (r: DecisionRequest) => Either.Either<DecisionAnswer, Diagnostic> => {
  const engines = memo<Either.Either<Hallyu.Engine, Diagnostic>>()
  return (r) =>
    Either.flatMap(engines(r.deck.json, () => engineOf(r.deck)), (engine) =>
      Either.flatMap(
        decide(engine, { agent: r.agent, iterations: r.iterations }, r.knowledge, r.seed),
        (action) =>
          r.knowledge.legal.some((a) => a.id === action.id)
            ? Either.right({ actionId: action.id, iterations: r.iterations })
            : Either.left(diagnostic("illegal_action", `the agent chose ${action.id}, not a legal action`))
      ))
}

/** The port a computer seat's decisions run on. */
export interface AgentDeciderService {
  readonly decide: (request: DecisionRequest) => Effect.Effect<DecisionAnswer, Diagnostic>
}

/**
 * Where decisions run: worker threads in the `cardfx` bin (src/workers/AgentPool.ts
 * implements it; the bin's composition root provides it), or in this process
 * ({@link AgentDecider.inProcess}, between two turns of the event loop).
 */
export class AgentDecider extends Context.Tag("cardfx/AgentDecider")<AgentDecider, AgentDeciderService>() {
  static readonly inProcess: Layer.Layer<AgentDecider> = Layer.sync(AgentDecider, () => {
    const make = decisionMaker()
    return {
      decide: (r) =>
        Effect.zipRight(
          Effect.yieldNow(),
          Effect.suspend(() => Either.match(make(r), { onLeft: Effect.fail, onRight: Effect.succeed }))
        )
    }
  })
}
