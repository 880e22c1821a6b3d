/**
 * Cards and their effect components: the authoring shape designers write,
 * which is also the shape of an effective card's final components.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withCode, withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { optional } from "../../kernel/SchemaExt.js"
import { AuthoredId, Metadata, NonNegativeInt, Order, PositiveInt, Symbol, SymbolList } from "./Symbols.js"

export const EffectType = Schema.Literal("DAMAGE", "HEAL", "APPLY_STATUS")
export type EffectType = typeof EffectType.Type

export const TargetKind = Schema.Literal("TARGET", "SELF", "ALL_ENEMIES", "RANDOM_ENEMY", "ALL_ALLIES")
export type TargetKind = typeof TargetKind.Type

export const ChildTiming = Schema.Literal("AfterParentImpact", "BeforeParentImpact")
export type ChildTiming = typeof ChildTiming.Type

export const ExecutionScope = Schema.Literal("PerImpact", "OncePerParentProc")
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
).annotations({ ...withCode("unknown_fact") })
export type ConditionFact = typeof ConditionFact.Type

export const Condition = Schema.Struct({
  fact: ConditionFact,
  statusId: optional(AuthoredId),
  value: optional(NonNegativeInt),
  /** Negates the fact. */
  not: optional(Schema.Boolean)
})
export type Condition = typeof Condition.Type

/** Binds a status payload parameter to a numeric component of the effective card. */
export const PayloadBinding = Schema.Struct({
  parameterId: AuthoredId,
  /** A structural component ID, or `$name` for a template parameter. */
  cardEffectComponentId: Schema.String.pipe(
    Schema.maxLength(Limits.symbolLength, withLimit("symbol_limit", { measure: "length", max: Limits.symbolLength }))
  )
})
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
  chance: optional(Chance),
  /** Impacts per target (default 1). */
  repeat: optional(Repeat),
  conditions: optional(Schema.Array(Condition)),
  tags: optional(SymbolList)
}

/** A numeric effect: its `amount` makes the component numeric. */
export const DamageEffect = Schema.Struct({
  type: Schema.Literal("DAMAGE"),
  amount: NonNegativeInt,
  ...commonEffectFields
})
export const HealEffect = Schema.Struct({ type: Schema.Literal("HEAL"), amount: NonNegativeInt, ...commonEffectFields })
export const ApplyStatusEffect = Schema.Struct({
  type: Schema.Literal("APPLY_STATUS"),
  statusId: AuthoredId,
  stacks: optional(PositiveInt),
  duration: optional(PositiveInt),
  payloadBindings: optional(Schema.Array(PayloadBinding)),
  ...commonEffectFields
})

export const Effect = Schema.Union(DamageEffect, HealEffect, ApplyStatusEffect).annotations({ identifier: "Effect" })
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
  type: Schema.Literal("effect"),
  componentId: Symbol,
  order: Order,
  capabilityIds: optional(SymbolList),
  /** For children: before or after the parent's numeric resolution (default after). */
  childTiming: optional(ChildTiming),
  /** For children: every impact, or once per parent proc (default every impact). */
  executionScope: optional(ExecutionScope),
  effect: Effect,
  children: optional(Schema.Array(Schema.suspend((): Schema.Schema<EffectComponent> => EffectComponent)))
}).annotations({ identifier: "EffectComponent" })

export const Card = Schema.Struct({
  cardId: AuthoredId,
  cost: NonNegativeInt,
  tags: optional(SymbolList),
  metadata: Metadata,
  components: Schema.Array(EffectComponent)
}).annotations({ identifier: "Card" })
export type Card = typeof Card.Type
