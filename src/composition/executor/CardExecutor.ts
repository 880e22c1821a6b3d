/**
 * `CardExecutor`: the common executor as an Effect service. Each call runs
 * the pure core (`executeSequence`, `startTurn`, `endTurn`) synchronously
 * inside one `Effect.suspend`; a diagnostic becomes the kernel's tagged error
 * only on failure, so the happy path builds no error and no fiber per node.
 * `playBatch` runs many sequences in one Effect (the form benchmarks and
 * simulations use).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer } from "effect"
import { type ChannelError, errorChannel } from "../../kernel/ErrorChannel.js"
import { traced } from "../../kernel/Tracing.js"
import type { CompiledContainer } from "../Compiled.js"
import type { ExecutorLookups } from "./Buckets.js"
import type { CombatState, Side } from "./CombatState.js"
import type { SequenceResult, TurnResult } from "./Events.js"
import { executeSequence, ExecutionPlans, type SequenceRequest } from "./Execute.js"
import { endTurn, startTurn } from "./Statuses.js"

/** Every code the executor can fail with: its error channel. */
export const executorErrors = errorChannel([
  "budget_exceeded",
  "turn_limit",
  "invalid_target",
  "actor_defeated",
  "unknown_character",
  "rng_mismatch",
  "unknown_reference"
])

/** Every error the executor can fail with (`BudgetExceeded | InvalidTarget | ActorDefeated | UnknownCharacter | RngMismatch | UnknownReference`). */
export type ExecutorError = ChannelError<typeof executorErrors>

/** What can be played: a compiled container, or anything carrying one (an effective card). */
export type Playable = CompiledContainer | { readonly compiled: CompiledContainer }

/** The compiled container of a playable. */
export const compiledOf = (card: Playable): CompiledContainer => ("compiled" in card ? card.compiled : card)

/** The operations of the common executor service. */
export interface CardExecutorService {
  /** Plays `card` for `request.actorId` at `request.targetIds` over `state`, as one transaction. */
  readonly play: (
    card: Playable,
    state: CombatState,
    request: SequenceRequest
  ) => Effect.Effect<SequenceResult, ExecutorError>
  /**
   * Plays every request independently against the same `state` in one
   * Effect (a batch); fails with the first failing request's error.
   */
  readonly playBatch: (
    card: Playable,
    state: CombatState,
    requests: ReadonlyArray<SequenceRequest>
  ) => Effect.Effect<ReadonlyArray<SequenceResult>, ExecutorError>
  /** Starts `side`'s turn (TurnStart ticks and countdown). */
  readonly startTurn: (state: CombatState, side: Side) => Effect.Effect<TurnResult, ExecutorError>
  /** Ends `side`'s turn (TurnEnd ticks and countdown). */
  readonly endTurn: (state: CombatState, side: Side) => Effect.Effect<TurnResult, ExecutorError>
}

/** Builds the service over a catalog (a published `Runtime` satisfies `ExecutorLookups`); the instance owns its execution plans. */
export const make = (lookups: ExecutorLookups, plans: ExecutionPlans = new ExecutionPlans()): CardExecutorService => ({
  play: (card, state, request) =>
    Effect.suspend(() => {
      const r = executeSequence(lookups, compiledOf(card), state, request, plans)
      return r.ok ? Effect.succeed(r.result) : executorErrors.fail([r.diagnostic])
    }),
  playBatch: (card, state, requests) =>
    Effect.suspend(() => {
      const compiled = compiledOf(card)
      const out: Array<SequenceResult> = new Array(requests.length)
      for (let i = 0; i < requests.length; i++) {
        const r = executeSequence(lookups, compiled, state, requests[i] as SequenceRequest, plans)
        if (!r.ok) return executorErrors.fail([r.diagnostic])
        out[i] = r.result
      }
      return Effect.succeed(out)
    }),
  startTurn: (state, side) =>
    Effect.suspend(() => {
      const r = startTurn(lookups, state, side)
      return r.ok ? Effect.succeed(r.result) : executorErrors.fail([r.diagnostic])
    }),
  endTurn: (state, side) =>
    Effect.suspend(() => {
      const r = endTurn(lookups, state, side)
      return r.ok ? Effect.succeed(r.result) : executorErrors.fail([r.diagnostic])
    })
})

/** The common executor service. */
export class CardExecutor extends Context.Tag("cardfx/CardExecutor")<CardExecutor, CardExecutorService>() {
  /** A layer over a fixed catalog. */
  static readonly layer = (lookups: ExecutorLookups): Layer.Layer<CardExecutor> =>
    Layer.succeed(CardExecutor, traced("CardExecutor", make(lookups)))
}
