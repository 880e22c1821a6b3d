/**
 * The mutable playout: one draft that lives for a whole random playout, so
 * an action mutates what earlier actions of the game already copied instead
 * of copying the players, zones, counters and event counts again. Every
 * action still copies on write what the game's start state shares (so that
 * state, and the engine's memo tables, are never mutated), and resolves
 * through the same `applyOn` and `run` as `Engine.apply`: the actions, the
 * states and the operation counts are the ones the immutable path gives.
 *
 * Internal to the engine: `playRandom` uses it when no caller sees the
 * intermediate states (no `onStep`, no fingerprints); the public `Engine`
 * interface and the immutable states it returns are unchanged.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import { Draft } from "./Draft.js"
import { enumerate } from "./LegalActions.js"
import { applyOn } from "./Resolution.js"
import type { Runtime } from "./Runtime.js"
import { type GameOptions, setupDraft } from "./Setup.js"
import type { GameAction, GameResult, GameState } from "./State.js"
import type { OperationTally } from "./Tally.js"

/** A game played in place: enumerate, apply one of the actions, repeat. */
export interface MutablePlayout {
  /** The live state: valid between steps, changed in place by `step` (the last one is the final state). */
  readonly state: () => GameState
  /** The live state's result (without writing out its work stack, as `state` does). */
  readonly result: () => GameResult | null
  /**
   * The live state without writing out its work stack (its `work` and `queue` are stale): for reading
   * resources, zones, counters and the decision between steps (an agent's evaluation). Never stored.
   */
  readonly peek: () => GameState
  /** The game's card index of every instance (never changes during a game). */
  readonly cardOf: Readonly<Record<string, number>>
  /** The legal actions of the live state (as `Engine.legalActions` gives them), valid until the next call. */
  readonly legal: () => ReadonlyArray<GameAction>
  /** Applies an action returned by `legal` (and counts its operations); the diagnostic when it fails. */
  readonly step: (action: GameAction, tally: OperationTally | null) => Diagnostic | null
}

/** A mutable playout from `start` (not mutated). */
export const makeMutablePlayout = (c: Runtime, start: GameState): MutablePlayout => playoutOn(c, new Draft(c, start))

/**
 * A mutable playout of a new game: the setup's own draft goes on (what it copied from the fresh
 * start state is the game's alone), so the start state is neither written out nor copied again.
 */
export const newMutablePlayout = (c: Runtime, o: GameOptions): Either.Either<MutablePlayout, Diagnostic> => {
  const d = setupDraft(c, o)
  return Either.isLeft(d) ? Either.left(d.left) : Either.right(playoutOn(c, d.right))
}

/** The playout on draft `d`, whose state is the live state. */
const playoutOn = (c: Runtime, d: Draft): MutablePlayout => {
  // The offers of the last `legal` call: one array for the game, emptied by the next call.
  const offers: Array<GameAction> = []
  return {
    // The draft's work stack is written into the state only when the state is read.
    state: () => d.finish(),
    result: () => d.s.result,
    peek: () => d.s,
    cardOf: d.s.cardOf,
    // The draft's own memo of the static sources: the engine's keys them by the identity of the
    // stage arrays, which this draft changes in place.
    legal: () => {
      // Popped empty: measured faster than setting the length to 0 (a runtime call).
      while (offers.length > 0) offers.pop()
      return enumerate(c, d.s, d.staticsOf, offers)
    },
    step: (a, tally) => {
      d.begin(tally)
      return applyOn(d, a)
    }
  }
}

/** The mutable playouts of new games of an engine built by `makeEngine` (an engine built otherwise has none). */
export const mutableGameOf = (
  engine: object
): ((o: GameOptions) => Either.Either<MutablePlayout, Diagnostic>) | undefined =>
  "mutableGame" in engine && typeof engine.mutableGame === "function"
    ? (engine.mutableGame as (o: GameOptions) => Either.Either<MutablePlayout, Diagnostic>)
    : undefined

/** The mutable playouts from a given state of an engine built by `makeEngine` (an engine built otherwise has none). */
export const mutablePlayoutOf = (engine: object): ((start: GameState) => MutablePlayout) | undefined =>
  "mutablePlayout" in engine && typeof engine.mutablePlayout === "function"
    ? (engine.mutablePlayout as (start: GameState) => MutablePlayout)
    : undefined
