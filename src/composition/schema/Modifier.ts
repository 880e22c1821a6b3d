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
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { AuthoredId, Metadata } from "./Symbols.js"

export const Bucket = Schema.Literal("flat", "percent", "multiplier").annotations({
  description: "The pipeline bucket: flat additions, then additive percent, then multipliers."
})
export type Bucket = typeof Bucket.Type

/** `outgoing`: the holder is the actor; `incoming`: the holder is the target. */
export const ModifierDirection = Schema.Literal("outgoing", "incoming").annotations({
  description: "outgoing: the holder is the actor; incoming: the holder is the target."
})
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
  effectTypes: described(Schema.Array(ModifiedEffectType), "Which numeric effects it scales: DAMAGE, HEAL."),
  value: described(
    Schema.Number.pipe(Schema.between(-1_000_000, 1_000_000)),
    "The contribution per unit of scaling: a flat +1, a percent +25 (meaning +25 %), a multiplier 1.5."
  ),
  /** `once` (default), `perStack` (statuses) or `perPoint` (attributes). */
  scaling: optionalDescribed(
    Schema.Literal("once", "perStack", "perPoint"),
    "once (default), perStack (statuses: a multiplier is raised to the power of the stacks) or perPoint (attributes)."
  )
}).annotations({ description: "One contribution to the bucket pipeline." })
export type Modifier = typeof Modifier.Type

/** What every contextual source declares besides its ID. */
const sourceFields = {
  metadata: optionalDescribed(Metadata, "Display keys."),
  modifiers: described(Schema.Array(Modifier), "What the source contributes to the bucket pipeline.")
}

export const Relic = Schema.Struct({
  relicId: described(AuthoredId, "The relic's ID (a character's relics name it)."),
  ...sourceFields
}).annotations({ identifier: "Relic", description: "A relic: a contextual source of modifiers." })
export type Relic = typeof Relic.Type

export const Buff = Schema.Struct({
  buffId: described(AuthoredId, "The buff's ID (a character's buffs name it)."),
  ...sourceFields
}).annotations({ identifier: "Buff", description: "A buff: a contextual source of modifiers." })
export type Buff = typeof Buff.Type

/** A character attribute (e.g. `strength`) and what each point of it contributes. */
export const Attribute = Schema.Struct({
  attributeId: described(AuthoredId, "The attribute's ID (a character's attributes name it, e.g. strength)."),
  ...sourceFields
}).annotations({
  identifier: "Attribute",
  description: "A character attribute (e.g. strength) and what each point of it contributes."
})
export type Attribute = typeof Attribute.Type
