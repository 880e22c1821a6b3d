/**
 * Contextual sources of the bucket pipeline: modifiers carried by statuses,
 * relics, buffs and character attributes. They never take part in
 * composition; the executor reads them from the live combat state.
 *
 * Pipeline: base → flat additions → additive percent → multipliers → clamp ≥ 0 → floor.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { optional } from "../../kernel/SchemaExt.js"
import { AuthoredId, Metadata } from "./Symbols.js"

export const Bucket = Schema.Literal("flat", "percent", "multiplier")
export type Bucket = typeof Bucket.Type

/** `outgoing`: the holder is the actor; `incoming`: the holder is the target. */
export const ModifierDirection = Schema.Literal("outgoing", "incoming")
export type ModifierDirection = typeof ModifierDirection.Type

/** Which numeric effects a modifier scales. */
export const ModifiedEffectType = Schema.Literal("DAMAGE", "HEAL")
export type ModifiedEffectType = typeof ModifiedEffectType.Type

/**
 * One contribution. `value` is per unit of `scaling`: a flat +1 per stack, a
 * percent +25 (meaning +25 %), a multiplier 1.5. For `multiplier`, stacks do
 * not compound: a status multiplier applies once whatever its stacks, unless
 * `scaling` is `perStack`, where it is raised to the power of the stacks.
 */
export const Modifier = Schema.Struct({
  bucket: Bucket,
  direction: ModifierDirection,
  effectTypes: Schema.Array(ModifiedEffectType),
  value: Schema.Number.pipe(Schema.between(-1_000_000, 1_000_000)),
  /** `once` (default), `perStack` (statuses) or `perPoint` (attributes). */
  scaling: optional(Schema.Literal("once", "perStack", "perPoint"))
})
export type Modifier = typeof Modifier.Type

/** What every contextual source declares besides its ID. */
const sourceFields = {
  metadata: optional(Metadata),
  modifiers: Schema.Array(Modifier)
}

export const Relic = Schema.Struct({ relicId: AuthoredId, ...sourceFields }).annotations({ identifier: "Relic" })
export type Relic = typeof Relic.Type

export const Buff = Schema.Struct({ buffId: AuthoredId, ...sourceFields }).annotations({ identifier: "Buff" })
export type Buff = typeof Buff.Type

/** A character attribute (e.g. `strength`) and what each point of it contributes. */
export const Attribute = Schema.Struct({ attributeId: AuthoredId, ...sourceFields }).annotations({
  identifier: "Attribute"
})
export type Attribute = typeof Attribute.Type
