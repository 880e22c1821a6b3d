/**
 * Combat state: immutable, serializable data the common executor runs over.
 * Characters (side, HP, statuses with stacks/duration/payload, attributes,
 * relics and buffs held), the turn counter and the active side. Every ID
 * refers to the published runtime catalog; the executor reads the catalog's
 * definitions (status modifiers, relic/buff/attribute modifiers) contextually,
 * at impact time, from the live state.
 *
 * Invariants beyond the shape (checked by the Schema's filters): `hp` within
 * `[0, maxHp]`, character IDs unique, one entry per status ID on a character.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { hashCanonical } from "../../kernel/Canonical.js"
import { optional } from "../../kernel/SchemaExt.js"
import { AuthoredId, NonNegativeInt, PositiveInt } from "../schema/Symbols.js"

/** Which side a character fights on. */
export const Side = Schema.Literal("ally", "enemy")
export type Side = typeof Side.Type

/**
 * A status held by a character. `remaining` is the remaining duration in turns
 * of the holder; absent means permanent. `payload` holds the parameter values
 * bound at application (already resolved numbers: the effective card's base).
 * `ticks` counts the ticks it has done (a staged payload profile reads it).
 */
export const StatusInstance = Schema.Struct({
  statusId: AuthoredId,
  stacks: PositiveInt,
  remaining: optional(PositiveInt),
  payload: Schema.optionalWith(Schema.Record({ key: AuthoredId, value: Schema.Finite }), {
    exact: true,
    default: () => ({})
  }),
  ticks: Schema.optionalWith(NonNegativeInt, { exact: true, default: () => 0 })
}).annotations({ identifier: "StatusInstance" })
export type StatusInstance = typeof StatusInstance.Type

/** One combatant. `attributes` maps an attribute ID to its points. */
export const Character = Schema.Struct({
  characterId: AuthoredId,
  side: Side,
  hp: NonNegativeInt,
  maxHp: PositiveInt,
  statuses: Schema.optionalWith(Schema.Array(StatusInstance), { exact: true, default: () => [] }),
  attributes: Schema.optionalWith(
    Schema.Record({ key: AuthoredId, value: Schema.Number.pipe(Schema.between(-1_000_000, 1_000_000)) }),
    { exact: true, default: () => ({}) }
  ),
  /** Relic IDs this character holds (catalog `relics`). */
  relics: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] }),
  /** Buff IDs active on this character (catalog `buffs`). */
  buffs: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] })
})
  .pipe(
    Schema.filter((c) => (c.hp <= c.maxHp ? undefined : `hp ${c.hp} is above maxHp ${c.maxHp}`)),
    Schema.filter((c) => {
      const seen = new Set<string>()
      for (const s of c.statuses) {
        if (seen.has(s.statusId)) return `status "${s.statusId}" is held twice`
        seen.add(s.statusId)
      }
      return undefined
    })
  )
  .annotations({ identifier: "Character" })
export type Character = typeof Character.Type

/** The whole combat: characters in position order, turn counter, active side. */
export const CombatState = Schema.Struct({
  /** Number of turns started so far (every `startTurn` counts one). */
  turn: NonNegativeInt,
  activeSide: Side,
  characters: Schema.Array(Character)
})
  .pipe(
    Schema.filter((s) => {
      const seen = new Set<string>()
      for (const c of s.characters) {
        if (seen.has(c.characterId)) return `character "${c.characterId}" is declared twice`
        seen.add(c.characterId)
      }
      return undefined
    })
  )
  .annotations({ identifier: "CombatState" })
export type CombatState = typeof CombatState.Type

/** The state fingerprint: sha256 of the state's canonical JSON. */
export const stateFingerprint = (state: CombatState): string => hashCanonical(state)

/** The character with `characterId`, or undefined. */
export const findCharacter = (state: CombatState, characterId: string): Character | undefined => {
  const cs = state.characters
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as Character
    if (c.characterId === characterId) return c
  }
  return undefined
}
