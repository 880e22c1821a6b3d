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
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { AuthoredId, NonNegativeInt, PositiveInt } from "../schema/Symbols.js"

/** Which side a character fights on. */
export const Side = Schema.Literal("ally", "enemy").annotations({ description: "A side: ally or enemy." })
export type Side = typeof Side.Type

/**
 * A status held by a character. `remaining` is the remaining duration in turns
 * of the holder; absent means permanent. `payload` holds the parameter values
 * bound at application (already resolved numbers: the effective card's base).
 * `ticks` counts the ticks it has done (a staged payload profile reads it).
 */
export const StatusInstance = Schema.Struct({
  statusId: described(AuthoredId, "The status held (a status ID published by the loaded packages)."),
  stacks: described(PositiveInt, "Stacks held."),
  remaining: optionalDescribed(PositiveInt, "Remaining duration in turns of the holder; absent: permanent."),
  payload: Schema.optionalWith(Schema.Record({ key: AuthoredId, value: Schema.Finite }), {
    exact: true,
    default: () => ({})
  }).annotations({ description: "Payload parameter values bound at application (resolved numbers)." }),
  ticks: Schema.optionalWith(NonNegativeInt, { exact: true, default: () => 0 }).annotations({
    description: "Ticks done so far (a staged payload profile reads it)."
  })
}).annotations({ identifier: "StatusInstance", description: "A status held by a character." })
export type StatusInstance = typeof StatusInstance.Type

/** One combatant. `attributes` maps an attribute ID to its points. */
export const Character = Schema.Struct({
  characterId: described(AuthoredId, "The character's ID (steps and ledgers name it)."),
  side: described(Side, "The side the character fights on."),
  hp: described(NonNegativeInt, "Current HP (at most maxHp)."),
  maxHp: described(PositiveInt, "Maximum HP."),
  statuses: Schema.optionalWith(Schema.Array(StatusInstance), { exact: true, default: () => [] }).annotations({
    description: "Statuses held (each status at most once)."
  }),
  attributes: Schema.optionalWith(
    Schema.Record({ key: AuthoredId, value: Schema.Number.pipe(Schema.between(-1_000_000, 1_000_000)) }),
    { exact: true, default: () => ({}) }
  ).annotations({ description: "Attribute ID → points (e.g. strength: 2)." }),
  /** Relic IDs this character holds (catalog `relics`). */
  relics: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] }).annotations({
    description: "Relic IDs this character holds."
  }),
  /** Buff IDs active on this character (catalog `buffs`). */
  buffs: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] }).annotations({
    description: "Buff IDs active on this character."
  })
})
  .annotations({ description: "One combatant." })
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
  turn: described(NonNegativeInt, "Number of turns started so far (every startTurn counts one)."),
  activeSide: described(Side, "The side whose turn it is."),
  characters: described(Schema.Array(Character), "The characters, in position order.")
})
  .annotations({ description: "The whole combat: characters in position order, turn counter, active side." })
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
