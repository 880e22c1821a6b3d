/**
 * Cards and their effect components: the authoring shape designers write,
 * which is also the shape of an effective card's final components.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withCode, withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { described, optional, optionalDescribed } from "../../kernel/SchemaExt.js"
import { AuthoredId, Metadata, NonNegativeInt, Order, PositiveInt, Symbol, SymbolList } from "./Symbols.js"

export const EffectType = Schema.Literal("DAMAGE", "HEAL", "APPLY_STATUS").annotations({
  description: "An effect type: DAMAGE, HEAL or APPLY_STATUS."
})
export type EffectType = typeof EffectType.Type

export const TargetKind = Schema.Literal("TARGET", "SELF", "ALL_ENEMIES", "RANDOM_ENEMY", "ALL_ALLIES").annotations({
  description:
    "Who the effect hits: the chosen TARGET, the actor (SELF), ALL_ENEMIES, one RANDOM_ENEMY (a seeded draw) or ALL_ALLIES."
})
export type TargetKind = typeof TargetKind.Type

export const ChildTiming = Schema.Literal("AfterParentImpact", "BeforeParentImpact").annotations({
  description: "For children: before or after the parent's numeric resolution (default AfterParentImpact)."
})
export type ChildTiming = typeof ChildTiming.Type

export const ExecutionScope = Schema.Literal("PerImpact", "OncePerParentProc").annotations({
  description: "For children: run on every impact of the parent, or once per parent proc (default PerImpact)."
})
export type ExecutionScope = typeof ExecutionScope.Type

/**
 * Condition facts. A condition is a data record headed by a known fact;
 * an unknown fact is rejected with `unknown_fact`, never guessed.
 * - `target.alive` / `actor.alive`: the character has HP > 0 (live state).
 * - `target.hasStatus` / `actor.hasStatus`: has `statusId` with at least `value` stacks (default 1).
 * - `target.hpAtMost` / `target.hpAtLeast`: current HP compared with `value`.
 */
export const ConditionFact = Schema.Literal(
  "target.alive",
  "actor.alive",
  "target.hasStatus",
  "actor.hasStatus",
  "target.hpAtMost",
  "target.hpAtLeast"
).annotations({
  ...withCode("unknown_fact"),
  description:
    "The fact a condition tests: target.alive, actor.alive, target.hasStatus, actor.hasStatus (statusId, at least value stacks), target.hpAtMost, target.hpAtLeast (value)."
})
export type ConditionFact = typeof ConditionFact.Type

export const Condition = Schema.Struct({
  fact: ConditionFact,
  statusId: optionalDescribed(AuthoredId, "The status a hasStatus fact looks for."),
  value: optionalDescribed(
    NonNegativeInt,
    "The stacks a hasStatus fact needs (default 1), or the HP an hpAtMost/hpAtLeast fact compares with."
  ),
  not: optionalDescribed(Schema.Boolean, "Negates the fact.")
}).annotations({ description: "A condition: the effect runs on a target only when the fact holds." })
export type Condition = typeof Condition.Type

/** Binds a status payload parameter to a numeric component of the effective card. */
export const PayloadBinding = Schema.Struct({
  parameterId: described(AuthoredId, "The status's payload parameter that receives the value."),
  /** A structural component ID, or `$name` for a template parameter. */
  cardEffectComponentId: described(
    Schema.String.pipe(
      Schema.maxLength(Limits.symbolLength, withLimit("symbol_limit", { measure: "length", max: Limits.symbolLength }))
    ),
    "The numeric component whose resolved base amount is bound: a structural component ID, or $name for a template parameter."
  )
}).annotations({ description: "Binds a status payload parameter to a numeric component of the effective card." })
export type PayloadBinding = typeof PayloadBinding.Type

const Chance = Schema.Number.pipe(Schema.between(0, 1, { message: () => "chance must be a number in 0..1" }))
const Repeat = Schema.Int.pipe(
  Schema.between(1, Limits.maxRepeat, {
    message: () => `repeat must be an integer in 1..${Limits.maxRepeat}`,
    ...withLimit("repeat_limit", { measure: "value", min: 1, max: Limits.maxRepeat })
  })
)

const commonEffectFields = {
  target: TargetKind,
  /** Probability 0..1 (default 1; exactly 1 draws no random number). */
  chance: optionalDescribed(
    Chance,
    "Probability 0..1 that the effect happens (default 1; exactly 1 draws no random number)."
  ),
  /** Impacts per target (default 1). */
  repeat: optionalDescribed(Repeat, "Impacts per target (default 1)."),
  conditions: optionalDescribed(Schema.Array(Condition), "Conditions that must all hold for each target."),
  tags: optionalDescribed(SymbolList, "The effect's tags (a selector's requiredEffectTags match them).")
}

/** A numeric effect: its `amount` makes the component numeric. */
export const DamageEffect = Schema.Struct({
  type: described(Schema.Literal("DAMAGE"), "DAMAGE: deals amount (through the bucket pipeline) to each target."),
  amount: described(NonNegativeInt, "The base amount, before modifiers."),
  ...commonEffectFields
})
export const HealEffect = Schema.Struct({
  type: described(Schema.Literal("HEAL"), "HEAL: restores amount HP (through the bucket pipeline), up to maxHp."),
  amount: described(NonNegativeInt, "The base amount, before modifiers."),
  ...commonEffectFields
})
export const ApplyStatusEffect = Schema.Struct({
  type: described(Schema.Literal("APPLY_STATUS"), "APPLY_STATUS: applies statusId to each target."),
  statusId: described(AuthoredId, "The status applied (a status ID published by the loaded packages)."),
  stacks: optionalDescribed(PositiveInt, "Stacks applied (default 1)."),
  duration: optionalDescribed(PositiveInt, "Duration in turns (default: the status's defaultDuration)."),
  payloadBindings: optionalDescribed(
    Schema.Array(PayloadBinding),
    "Values bound into the status's payload parameters when it is applied."
  ),
  ...commonEffectFields
})

export const Effect = Schema.Union(DamageEffect, HealEffect, ApplyStatusEffect).annotations({
  identifier: "Effect",
  description: "What a component does: DAMAGE, HEAL or APPLY_STATUS, on its targets."
})
export type Effect = typeof Effect.Type

/** An effect component, with its (recursive) children. */
export interface EffectComponent {
  readonly type: "effect"
  readonly componentId: string
  readonly order: number
  readonly capabilityIds?: ReadonlyArray<string>
  readonly childTiming?: ChildTiming
  readonly executionScope?: ExecutionScope
  readonly effect: Effect
  readonly children?: ReadonlyArray<EffectComponent>
}

export const EffectComponent: Schema.Schema<EffectComponent> = Schema.Struct({
  type: described(Schema.Literal("effect"), "The component kind (always effect)."),
  componentId: described(Symbol, "The component's structural ID, unique in the card (patches and bindings name it)."),
  order: described(Order, "Position among its siblings (ascending)."),
  capabilityIds: optionalDescribed(SymbolList, "Capabilities the component offers (requirements may ask for them)."),
  /** For children: before or after the parent's numeric resolution (default after). */
  childTiming: optional(ChildTiming),
  /** For children: every impact, or once per parent proc (default every impact). */
  executionScope: optional(ExecutionScope),
  effect: described(Effect, "What the component does."),
  children: optionalDescribed(
    Schema.Array(Schema.suspend((): Schema.Schema<EffectComponent> => EffectComponent)),
    "Child components, run around each impact of this one."
  )
}).annotations({ identifier: "EffectComponent", description: "An effect component, with its (recursive) children." })

export const Card = Schema.Struct({
  cardId: described(AuthoredId, "The card's ID, unique across the loaded packages."),
  cost: described(NonNegativeInt, "The card's energy cost."),
  tags: optionalDescribed(SymbolList, "The card's tags (requirements and eligibility match them)."),
  metadata: described(Metadata, "Display keys of the card."),
  components: described(Schema.Array(EffectComponent), "The card's root effect components, run in order.")
}).annotations({ identifier: "Card", description: "A card: its cost, tags and effect components." })
export type Card = typeof Card.Type
