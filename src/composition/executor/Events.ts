/**
 * What the common executor reports: the ordered event log of a sequence or a
 * turn operation, the recorded random inputs and the result envelope. Shapes
 * are Schemas (one source of truth); the executor builds them as plain
 * objects on its hot path.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { RngState } from "../../kernel/Rng.js"
import { optional } from "../../kernel/SchemaExt.js"
import { Bucket } from "../schema/Modifier.js"
import { TickTiming } from "../schema/Status.js"
import { CombatState, Side } from "./CombatState.js"

/** Where a bucket contribution comes from (also the breakdown's second sort key, in this order). */
export const SourceKind = Schema.Literal("status", "relic", "buff", "attribute")
export type SourceKind = typeof SourceKind.Type

/**
 * One contribution to an impact's amount. `value` is what was applied after
 * scaling: flat points, percent points, or a multiplication factor.
 * `holderId` is the character whose state carried the source (the actor for
 * outgoing modifiers, the target for incoming ones).
 */
export const Contribution = Schema.Struct({
  bucket: Bucket,
  source: SourceKind,
  sourceId: Schema.String,
  holderId: Schema.String,
  direction: Schema.Literal("outgoing", "incoming"),
  value: Schema.Finite
})
export type Contribution = typeof Contribution.Type

/** A recorded random draw: a chance roll's float in [0, 1) or a pick's index. */
export const RandomInput = Schema.Struct({
  nodeId: Schema.String,
  purpose: Schema.Literal("chance", "pick"),
  value: Schema.Finite
})
export type RandomInput = typeof RandomInput.Type

/** A DAMAGE/HEAL impact with its bucket breakdown (`base` is the effective card's number, shown as is). */
export const ImpactEvent = Schema.Struct({
  type: Schema.Literal("impact"),
  nodeId: Schema.String,
  targetId: Schema.String,
  effect: Schema.Literal("DAMAGE", "HEAL"),
  base: Schema.Finite,
  amount: Schema.Finite,
  hpBefore: Schema.Finite,
  hpAfter: Schema.Finite,
  contributions: Schema.Array(Contribution)
})
export type ImpactEvent = typeof ImpactEvent.Type

/** An APPLY_STATUS impact: the status entry before and after (stacks 0 = not held before). */
export const StatusAppliedEvent = Schema.Struct({
  type: Schema.Literal("statusApplied"),
  nodeId: Schema.String,
  targetId: Schema.String,
  statusId: Schema.String,
  stacksBefore: Schema.Finite,
  stacks: Schema.Finite,
  /** Remaining turns before / after; absent: permanent (or not held before). */
  remainingBefore: optional(Schema.Finite),
  remaining: optional(Schema.Finite),
  payload: Schema.Record({ key: Schema.String, value: Schema.Finite })
})
export type StatusAppliedEvent = typeof StatusAppliedEvent.Type

/**
 * A node attempt that did not become an impact. Reasons: `condition` (the
 * failed `fact` is given), `chance` (the roll failed or chance is 0),
 * `no_target` (the target kind found no living character).
 */
export const SkipEvent = Schema.Struct({
  type: Schema.Literal("skip"),
  nodeId: Schema.String,
  targetId: optional(Schema.String),
  reason: Schema.Literal("condition", "chance", "no_target"),
  fact: optional(Schema.String)
})
export type SkipEvent = typeof SkipEvent.Type

/** A random draw, in the log where it happened (also collected in `randomInputs`). */
export const DrawEvent = Schema.Struct({
  type: Schema.Literal("draw"),
  nodeId: Schema.String,
  purpose: Schema.Literal("chance", "pick"),
  value: Schema.Finite
})
export type DrawEvent = typeof DrawEvent.Type

/** A character's HP reached 0. */
export const DefeatedEvent = Schema.Struct({
  type: Schema.Literal("defeated"),
  characterId: Schema.String
})

/** A status tick at a turn boundary of its holder. */
export const TickEvent = Schema.Struct({
  type: Schema.Literal("tick"),
  characterId: Schema.String,
  statusId: Schema.String,
  timing: TickTiming,
  effect: Schema.Literal("DAMAGE", "HEAL"),
  intensity: Schema.Finite,
  hpBefore: Schema.Finite,
  hpAfter: Schema.Finite
})
export type TickEvent = typeof TickEvent.Type

/** A status's duration counted down; `remaining` 0 means it expired and was removed. */
export const DurationEvent = Schema.Struct({
  type: Schema.Literal("duration"),
  characterId: Schema.String,
  statusId: Schema.String,
  remaining: Schema.Finite
})

/** A status ran out and was removed. */
export const ExpiredEvent = Schema.Struct({
  type: Schema.Literal("statusExpired"),
  characterId: Schema.String,
  statusId: Schema.String
})

/** A turn boundary. */
export const TurnEvent = Schema.Struct({
  type: Schema.Literal("turnStarted", "turnEnded"),
  side: Side,
  turn: Schema.Finite
})

/** Any event of the executor's ordered log. */
export const ExecutorEvent = Schema.Union(
  ImpactEvent,
  StatusAppliedEvent,
  SkipEvent,
  DrawEvent,
  DefeatedEvent,
  TickEvent,
  DurationEvent,
  ExpiredEvent,
  TurnEvent
).annotations({ identifier: "ExecutorEvent" })
export type ExecutorEvent = typeof ExecutorEvent.Type

/**
 * The result of one sequence (one play). `rng` is the stream state after the
 * sequence (absent in replay mode); `fingerprint` is the new state's
 * fingerprint (absent when the request opted out of it, e.g. in benchmarks).
 */
export const SequenceResult = Schema.Struct({
  state: CombatState,
  events: Schema.Array(ExecutorEvent),
  randomInputs: Schema.Array(RandomInput),
  budgetUsed: Schema.Finite,
  rng: optional(RngState),
  fingerprint: optional(Schema.String)
})
export type SequenceResult = typeof SequenceResult.Type

/** The result of a `startTurn`/`endTurn` operation. */
export const TurnResult = Schema.Struct({
  state: CombatState,
  events: Schema.Array(ExecutorEvent),
  fingerprint: Schema.String
})
export type TurnResult = typeof TurnResult.Type
