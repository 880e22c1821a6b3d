/**
 * Operation counts for playouts, kept as numbers by operation index instead
 * of a record keyed by name: a record store per executed operation was a
 * measurable part of a random playout. The order in which operations were
 * first counted is kept, so the record built from a tally has the same key
 * order as one counted name by name. Internal to the engine (not exported
 * from the package index).
 *
 * @since 0.1.0
 */
import type { Either } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import { OPERATIONS } from "../Vocabulary.js"
import type { GameAction, GameState } from "./State.js"

/** Operation names; a tally counts by index into this list. */
export const OP_NAMES: ReadonlyArray<string> = Object.keys(OPERATIONS)

const OP_INDEX: ReadonlyMap<string, number> = new Map(OP_NAMES.map((n, i) => [n, i]))

/**
 * An empty record in V8's dictionary mode, for the playout statistics. A
 * plain object literal gets a new hidden class for every key added in an
 * order not seen before; the per-game records keyed by card code and by
 * operation fill a dozen or two keys in a different order in every game, so
 * each key allocated a hidden class (a map transition in the runtime, several
 * microseconds per record). A dictionary-mode object adds keys to its own
 * hash table; it keeps insertion order for `Object.keys` and `JSON.stringify`
 * like any object, and has the ordinary prototype. (Creating one costs two
 * runtime deletes: not worth it for the small records of a game state, whose
 * copies stay spreads.)
 */
export const emptyRecord = <A>(): Record<string, A> => {
  const r: Record<string, unknown> = { a: 0, b: 0 }
  delete r["a"] // deleting a property other than the last one switches the object to dictionary mode
  delete r["b"]
  return r as Record<string, A>
}

/** Counts per operation index, and the indexes in the order they were first counted. */
export interface OperationTally {
  readonly counts: Array<number>
  readonly order: Array<number>
}

export const makeTally = (): OperationTally => ({ counts: new Array<number>(OP_NAMES.length).fill(0), order: [] })

/** Counts one execution of `op`. */
export const countOp = (t: OperationTally, op: string): void => {
  const k = OP_INDEX.get(op) ?? 0 // only validated operations reach the engine
  const n = t.counts[k] ?? 0
  if (n === 0) t.order.push(k)
  t.counts[k] = n + 1
}

/** Adds a tally to a record keyed by operation name, in first-counted order. */
export const addTally = (t: OperationTally, into: Record<string, number>): void => {
  for (const k of t.order) {
    const name = OP_NAMES[k] as string // indexes come from OP_INDEX
    into[name] = (into[name] ?? 0) + (t.counts[k] ?? 0)
  }
}

/** `apply` counting into a tally; the engines `makeEngine` builds carry one as `applyTallied`. */
export type TalliedApply = (
  state: GameState,
  action: GameAction,
  tally: OperationTally
) => Either.Either<GameState, Diagnostic>

/** The tallied `apply` of an engine built by `makeEngine` (an engine built otherwise has none). */
export const talliedApplyOf = (engine: object): TalliedApply | undefined =>
  "applyTallied" in engine && typeof engine.applyTallied === "function"
    ? (engine.applyTallied as TalliedApply)
    : undefined
