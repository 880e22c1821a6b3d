/**
 * The decision request a computer seat's worker thread answers: one fair
 * agent's choice from one seat's knowledge (never the game's state), on the
 * served deck given as its text. The handler is the `ComputerSeats`
 * service's decision core, so a thread decides as the in-process decider does.
 *
 * @since 0.1.0
 */
import { Effect, Either, Schema } from "effect"
import { Diagnostic } from "../kernel/Diagnostic.js"
import * as ComputerSeats from "../services/AgentDecisions.js"
import { SimulateGames } from "./SimulateGames.js"

/** A computer seat's decision. */
export class DecideAction extends Schema.TaggedRequest<DecideAction>()("DecideAction", {
  failure: Diagnostic,
  success: ComputerSeats.DecisionAnswer,
  payload: ComputerSeats.DecisionRequest.fields
}) {}

/** The worker-side handler of {@link DecideAction}, keeping the engines it built by their deck's text. */
export const decideActionHandler = () => {
  const decide = ComputerSeats.decisionMaker()
  return (r: ComputerSeats.DecisionRequest) =>
    Effect.suspend(() => Either.match(decide(r), { onLeft: Effect.fail, onRight: Effect.succeed }))
}

/** Every request the computer seats' worker thread answers. */
export const AgentRequest = Schema.Union(DecideAction, SimulateGames)
export type AgentRequest = typeof AgentRequest.Type
