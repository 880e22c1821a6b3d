/**
 * The Hallyu Hex engine: legal-action enumeration and resolution that read
 * the effect records directly (never `rules_text`), following
 * `data/hallyu-hex/RULES.md` (rules 0.2.0; section numbers are cited as §).
 *
 * Pure TypeScript over immutable states. `apply` works on a copy-on-write
 * draft (`Draft.ts`): only the parts of the state an action touches are
 * copied, the rest is shared with the previous state. No exceptions, no
 * clock: the RNG state lives in the game state. The modules, in the rules'
 * terms: `Setup` (§4), `Draft`, `Reading` (cards, selectors, conditions,
 * costs), `Targets` (§7.2), `LegalActions` (legal actions and `explain`),
 * `Resolution` (the loop, turn steps, windows), `Events` (§9, §3),
 * `Zones` (moves, resources, draws), `Damage` (§6), `Operations` and
 * `ops/*` (§10, by family). Memo tables belong to the engine value
 * (`Runtime.ts`).
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import type { StarterDeck } from "../Schema.js"
import { isValidated } from "../Validated.js"
import { type CompiledDeck, compileDeck } from "./Compiled.js"
import { enumerate, explainIllegal, type Explanation } from "./LegalActions.js"
import { makeMutablePlayout, type MutablePlayout, newMutablePlayout } from "./Playout.js"
import { costOf, type StaticSource } from "./Reading.js"
import { applyLegal } from "./Resolution.js"
import { makeRuntime } from "./Runtime.js"
import { type GameOptions, newGame } from "./Setup.js"
import type { GameAction, GameState } from "./State.js"
import { addTally, makeTally, type OperationTally, type TalliedApply } from "./Tally.js"

export { RESOLUTION_BUDGET } from "./Draft.js"
export type { Explanation, IllegalReason } from "./LegalActions.js"
export type { GameOptions } from "./Setup.js"

export interface Engine {
  readonly deck: StarterDeck
  readonly compiled: CompiledDeck
  /** A new game, set up per §4. */
  readonly newGame: (options: GameOptions) => Either.Either<GameState, Diagnostic>
  /** Every legal action for the player to act, in ordinal order of their IDs. */
  readonly legalActions: (state: GameState) => ReadonlyArray<GameAction>
  /** Whether an action is legal, and if not, why. */
  readonly explain: (state: GameState, action: GameAction | string) => Explanation
  /**
   * Applies a legal action (or its ID) and resolves until the next decision or
   * the end of the game. `operations`, when given, counts each operation executed.
   */
  readonly apply: (
    state: GameState,
    action: GameAction | string,
    operations?: Record<string, number>
  ) => Either.Either<GameState, Diagnostic>
}

export const makeEngine = (deck: StarterDeck): Either.Either<Engine, Diagnostic> => {
  if (!isValidated(deck)) {
    return Either.left(
      diagnostic("illegal_action", "the engine accepts only a deck returned by validateDeck", { subject: "deck" })
    )
  }
  const compiled = compileDeck(deck)
  // The compiled deck with this engine's own memo tables (no module-level state).
  const c = makeRuntime(compiled)
  // A one-entry memo: callers ask for the legal actions of a state and then apply one of them.
  // (A WeakMap over every state would make the garbage collector process an ephemeron per action.)
  let lastState: GameState | null = null
  let lastActions: ReadonlyArray<GameAction> = []
  const legal = (s: GameState): ReadonlyArray<GameAction> => {
    if (s !== lastState) {
      lastActions = enumerate(c, s)
      lastState = s
    }
    return lastActions
  }
  const find = (s: GameState, a: GameAction | string): GameAction | undefined => {
    const id = typeof a === "string" ? a : a.id
    const xs = legal(s)
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as GameAction
      if (x.id === id) return typeof a === "string" || a.player === x.player ? x : undefined
    }
    return undefined
  }
  const apply = (
    s: GameState,
    a: GameAction | string,
    ops: OperationTally | null
  ): Either.Either<GameState, Diagnostic> => {
    if (s.deckHash !== c.hash) {
      return Either.left(diagnostic("illegal_action", "this state belongs to another deck", { subject: "deckHash" }))
    }
    if (s.result !== null) {
      return Either.left(
        diagnostic("game_over", "the game is over; no action is legal", { subject: typeof a === "string" ? a : a.id })
      )
    }
    const found = find(s, a)
    if (found === undefined) {
      const why = explainIllegal(c, s, a)
      return Either.left(
        diagnostic("illegal_action", why.legal ? "not legal" : why.message, {
          subject: typeof a === "string" ? a : a.id,
          details: { reason: why.legal ? "unknown-action" : why.reason }
        })
      )
    }
    return applyLegal(c, s, found, ops)
  }
  // `applyTallied` and `mutablePlayout` are internal (not in the `Engine` interface): playouts count
  // operations by index with the first, and play a game in place with the second (`Playout.ts`).
  const engine: Engine & {
    readonly applyTallied: TalliedApply
    readonly mutablePlayout: (start: GameState) => MutablePlayout
    readonly mutableGame: (o: GameOptions) => Either.Either<MutablePlayout, Diagnostic>
  } = {
    deck,
    compiled,
    newGame: (o) => newGame(c, o),
    legalActions: legal,
    explain: (s, a) => (find(s, a) !== undefined ? { legal: true } : explainIllegal(c, s, a)),
    apply: (s, a, ops) => {
      if (ops === undefined) return apply(s, a, null)
      const tally = makeTally()
      const r = apply(s, a, tally)
      addTally(tally, ops)
      return r
    },
    applyTallied: apply,
    mutablePlayout: (start) => makeMutablePlayout(c, start),
    mutableGame: (o) => newMutablePlayout(c, o)
  }
  return Either.right(engine)
}

/** A card's current cost (§8.5): printed, then each static and temporary cost change, floored at 0 after each. */
export const currentCost = (
  c: CompiledDeck,
  s: GameState,
  inst: string,
  statics?: ReadonlyArray<StaticSource>
): number => {
  const rt = makeRuntime(c) // fresh memo tables: this entry point is for tests and tools, not the hot path
  return statics === undefined ? costOf(rt, s, inst) : costOf(rt, s, inst, statics)
}
