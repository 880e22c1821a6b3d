/**
 * Statuses: stacking, duration, ticks, intensity formulas and payload
 * parameters, all as data.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { Modifier } from "./Modifier.js"
import { AuthoredId, Metadata, PositiveInt } from "./Symbols.js"

/** How a new application combines with the stacks already there. */
export const StackingRule = Schema.Literal("add", "replace", "max").annotations({
  description: "How a new application combines with the stacks already there: add, replace or keep the max."
})
/** How a new application combines with the remaining duration. */
export const DurationRule = Schema.Literal("refresh", "add", "max", "keep").annotations({
  description: "How a new application combines with the remaining duration: refresh, add, max or keep."
})

/**
 * A payload parameter bound when the status is applied. `stages` are the
 * multipliers of the bound value per tick: with `profile: "constant"` the first
 * stage applies every tick, with `"staged"` tick n uses stage n (the last stage
 * repeats). `unit` says what the value counts.
 */
export const PayloadParameter = Schema.Struct({
  parameterId: described(AuthoredId, "The parameter's ID (payload bindings and intensity formulas name it)."),
  unit: described(Schema.Literal("hp", "percent"), "What the bound value counts: hp, or percent."),
  profile: described(
    Schema.Literal("constant", "staged"),
    "constant: the first stage applies every tick; staged: tick n uses stage n (the last stage repeats)."
  ),
  stages: described(
    Schema.NonEmptyArray(Schema.Number.pipe(Schema.between(0, 1000))),
    "The multipliers of the bound value per tick (each in 0..1000)."
  )
}).annotations({ description: "A payload parameter bound when the status is applied." })
export type PayloadParameter = typeof PayloadParameter.Type

/**
 * The intensity of a tick:
 * - `constant`: `value`;
 * - `perStack`: `base + perStack × stacks`;
 * - `parameter`: the bound payload parameter × its stage for this tick (× stacks when `perStack`).
 * The result is floored and clamped at 0.
 */
export const IntensityFormula = Schema.Union(
  Schema.Struct({
    kind: described(Schema.Literal("constant"), "constant: the intensity is value."),
    value: described(Schema.Int.pipe(Schema.between(0, 1_000_000)), "The intensity of every tick (0..1000000).")
  }),
  Schema.Struct({
    kind: described(Schema.Literal("perStack"), "perStack: the intensity is base + perStack × stacks."),
    base: described(Schema.Int.pipe(Schema.between(0, 1_000_000)), "The intensity with no stacks (0..1000000)."),
    perStack: described(Schema.Int.pipe(Schema.between(0, 1_000_000)), "What each stack adds (0..1000000).")
  }),
  Schema.Struct({
    kind: described(
      Schema.Literal("parameter"),
      "parameter: the bound payload parameter × its stage for this tick."
    ),
    parameterId: described(AuthoredId, "The payload parameter read."),
    perStack: optionalDescribed(Schema.Boolean, "Also multiply by the stacks.")
  })
).annotations({ description: "The intensity of a tick, floored and clamped at 0." })
export type IntensityFormula = typeof IntensityFormula.Type

export const TickTiming = Schema.Literal("TurnStart", "TurnEnd").annotations({
  description: "A turn boundary of the holder: TurnStart or TurnEnd."
})
export type TickTiming = typeof TickTiming.Type

export const StatusTick = Schema.Struct({
  timing: described(TickTiming, "When the status ticks: at the holder's TurnStart or TurnEnd."),
  effect: described(Schema.Literal("DAMAGE", "HEAL"), "What a tick does to the holder: DAMAGE or HEAL."),
  intensity: described(IntensityFormula, "How much each tick deals or heals.")
}).annotations({ description: "What the status does at each tick." })
export type StatusTick = typeof StatusTick.Type

export const Status = Schema.Struct({
  statusId: described(AuthoredId, "The status's ID, unique across the loaded packages (APPLY_STATUS names it)."),
  metadata: optionalDescribed(Metadata, "Display keys of the status."),
  stacking: StackingRule,
  maxStacks: optionalDescribed(PositiveInt, "The most stacks a character can hold (absent: no cap)."),
  durationRule: DurationRule,
  /** Default duration in turns when an application does not give one; absent: permanent. */
  defaultDuration: optionalDescribed(
    PositiveInt,
    "Default duration in turns when an application does not give one; absent: permanent."
  ),
  /** Duration counts down at this turn boundary of the holder (default TurnEnd). */
  expiresAt: optionalDescribed(
    TickTiming,
    "Duration counts down at this turn boundary of the holder (default TurnEnd)."
  ),
  tick: optionalDescribed(StatusTick, "What the status does at each tick (absent: nothing)."),
  /** Bucket-pipeline contributions while the status is held. */
  modifiers: optionalDescribed(Schema.Array(Modifier), "Bucket-pipeline contributions while the status is held."),
  payloadParameters: optionalDescribed(
    Schema.Array(PayloadParameter),
    "Parameters bound when the status is applied (from the card's payloadBindings)."
  )
}).annotations({
  identifier: "Status",
  description: "A status: stacking, duration, ticks and modifiers, all as data."
})
export type Status = typeof Status.Type
