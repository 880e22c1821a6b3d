/**
 * Statuses: stacking, duration, ticks, intensity formulas and payload
 * parameters, all as data.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { optional } from "../../kernel/SchemaExt.js"
import { Modifier } from "./Modifier.js"
import { AuthoredId, Metadata, PositiveInt } from "./Symbols.js"

/** How a new application combines with the stacks already there. */
export const StackingRule = Schema.Literal("add", "replace", "max")
/** How a new application combines with the remaining duration. */
export const DurationRule = Schema.Literal("refresh", "add", "max", "keep")

/**
 * A payload parameter bound when the status is applied. `stages` are the
 * multipliers of the bound value per tick: with `profile: "constant"` the first
 * stage applies every tick, with `"staged"` tick n uses stage n (the last stage
 * repeats). `unit` says what the value counts.
 */
export const PayloadParameter = Schema.Struct({
  parameterId: AuthoredId,
  unit: Schema.Literal("hp", "percent"),
  profile: Schema.Literal("constant", "staged"),
  stages: Schema.NonEmptyArray(Schema.Number.pipe(Schema.between(0, 1000)))
})
export type PayloadParameter = typeof PayloadParameter.Type

/**
 * The intensity of a tick:
 * - `constant`: `value`;
 * - `perStack`: `base + perStack × stacks`;
 * - `parameter`: the bound payload parameter × its stage for this tick (× stacks when `perStack`).
 * The result is floored and clamped at 0.
 */
export const IntensityFormula = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("constant"), value: Schema.Int.pipe(Schema.between(0, 1_000_000)) }),
  Schema.Struct({
    kind: Schema.Literal("perStack"),
    base: Schema.Int.pipe(Schema.between(0, 1_000_000)),
    perStack: Schema.Int.pipe(Schema.between(0, 1_000_000))
  }),
  Schema.Struct({ kind: Schema.Literal("parameter"), parameterId: AuthoredId, perStack: optional(Schema.Boolean) })
)
export type IntensityFormula = typeof IntensityFormula.Type

export const TickTiming = Schema.Literal("TurnStart", "TurnEnd")
export type TickTiming = typeof TickTiming.Type

export const StatusTick = Schema.Struct({
  timing: TickTiming,
  effect: Schema.Literal("DAMAGE", "HEAL"),
  intensity: IntensityFormula
})
export type StatusTick = typeof StatusTick.Type

export const Status = Schema.Struct({
  statusId: AuthoredId,
  metadata: optional(Metadata),
  stacking: StackingRule,
  maxStacks: optional(PositiveInt),
  durationRule: DurationRule,
  /** Default duration in turns when an application does not give one; absent: permanent. */
  defaultDuration: optional(PositiveInt),
  /** Duration counts down at this turn boundary of the holder (default TurnEnd). */
  expiresAt: optional(TickTiming),
  tick: optional(StatusTick),
  /** Bucket-pipeline contributions while the status is held. */
  modifiers: optional(Schema.Array(Modifier)),
  payloadParameters: optional(Schema.Array(PayloadParameter))
}).annotations({ identifier: "Status" })
export type Status = typeof Status.Type
