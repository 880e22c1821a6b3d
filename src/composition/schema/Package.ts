/**
 * A content package: `manifest.json` plus content files. Each content file
 * holds any of the sections below; a package is every `*.json` file under its
 * folder (sorted by path, ordinal), and references resolve across the
 * packages loaded together.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withCode, withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { Bundle } from "./Bundle.js"
import { Card } from "./Card.js"
import { Attribute, Buff, Relic } from "./Modifier.js"
import { Status } from "./Status.js"
import { atMostChars, AuthoredId, Metadata, PositiveInt, Symbol, SymbolList } from "./Symbols.js"
import { Transformation } from "./Transformation.js"

/** The engine version this build implements (the seed's "engine version 17"). */
export const ENGINE_VERSION = 17 as const

export const Manifest = Schema.Struct({
  $schema: optionalDescribed(
    Schema.String,
    "The JSON Schema this file is written against (for editors; ignored by cardfx)."
  ),
  packageId: described(AuthoredId, "The package's ID (other packages name it in their dependencies)."),
  version: described(
    Schema.String.pipe(Schema.pattern(/^\d+\.\d+\.\d+$/, { message: () => "version is MAJOR.MINOR.PATCH" })),
    "The package's version, MAJOR.MINOR.PATCH."
  ),
  engineVersion: described(
    Schema.Literal(ENGINE_VERSION).annotations({
      ...withCode("unsupported_version"),
      message: () => `engineVersion must be ${ENGINE_VERSION}`
    }),
    `The engine version the package is written for: ${ENGINE_VERSION}.`
  ),
  /** Packages this one builds on (their IDs); they must be loaded with it. */
  dependencies: optionalDescribed(SymbolList, "Packages this one builds on (their IDs); they must be loaded with it."),
  metadata: optionalDescribed(
    Schema.Struct({
      nameKey: optionalDescribed(AuthoredId, "The translation key of the package's display name."),
      description: optionalDescribed(Schema.String, "A note on the package, for people reading it.")
    }),
    "Display information about the package."
  )
}).annotations({
  identifier: "Manifest",
  description: "A content package's manifest.json: its ID, version, engine version and dependencies."
})
export type Manifest = typeof Manifest.Type

export const Slot = Schema.Struct({
  slotId: described(AuthoredId, "The slot's ID (a transformation's slotId names it)."),
  capacity: described(PositiveInt, "How many transformations of this slot one card may hold."),
  metadata: optionalDescribed(Metadata, "Display keys of the slot.")
}).annotations({ identifier: "Slot", description: "An upgrade slot and its capacity per card." })
export type Slot = typeof Slot.Type

/** A mode/activity and which transformations it authorizes (by ID, category or slot). */
export const Activity = Schema.Struct({
  activityId: described(AuthoredId, "The activity's ID (the planner and ledger apply name it)."),
  authorizes: described(
    Schema.Struct({
      upgradeIds: optionalDescribed(SymbolList, "Transformations authorized by ID."),
      categories: optionalDescribed(SymbolList, "Transformations authorized by category."),
      slotIds: optionalDescribed(SymbolList, "Transformations authorized by slot.")
    }),
    "Which transformations the activity may apply (any of the lists matches)."
  ),
  metadata: optionalDescribed(Metadata, "Display keys of the activity.")
}).annotations({
  identifier: "Activity",
  description: "A mode or activity (a shop, a rest site) and which transformations it authorizes."
})
export type Activity = typeof Activity.Type

/** A locale tag: BCP 47's shape (`en`, `pt-BR`, `zh-Hant-TW`), at most 35 characters. */
export const LocaleTag = Schema.String.pipe(
  Schema.pattern(/^[a-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, {
    message: () =>
      "a locale tag is a BCP 47 tag such as en or pt-BR: a lower-case language subtag, then subtags of letters and digits, joined by -",
    ...withCode("invalid_id")
  }),
  atMostChars("a locale tag", Limits.localeTagLength, "invalid_id")
).annotations({
  identifier: "LocaleTag",
  description:
    "A BCP 47 locale tag such as en or pt-BR: a lower-case language subtag, then subtags of letters and digits joined by -, at most 35 characters."
})

/** The text shown for a display key: not empty, at most 200 characters. */
export const DisplayText = Schema.String.pipe(
  Schema.minLength(1, { message: () => "a display text is not empty" }),
  atMostChars("a display text", Limits.displayTextLength, "text_limit")
).annotations({
  identifier: "DisplayText",
  description: "The text shown for a display key: 1 to 200 characters."
})

const keyCount = (u: unknown): number => (typeof u === "object" && u !== null ? Object.keys(u).length : 0)

/** One locale's display names: display key → text, at most 4,096 of them. */
export const LocaleNames = Schema.Record({ key: Symbol, value: DisplayText }).pipe(
  Schema.filter((names) => keyCount(names) <= Limits.namesPerLocale, {
    message: (issue) => `a locale table holds at most ${Limits.namesPerLocale} names (got ${keyCount(issue.actual)})`,
    ...withLimit("name_limit", { measure: "keys", max: Limits.namesPerLocale }),
    jsonSchema: { maxProperties: Limits.namesPerLocale }
  })
).annotations({
  description:
    "Display text by display key (a nameKey or descriptionKey of the content, in the symbol syntax), at most 4096 names."
})

/**
 * A locale table: the display names of the content in one locale. Names are
 * content: they ship in the package beside what they name, publication
 * gathers the tables of every package, and clients (the workbench) resolve
 * a `nameKey` through them, falling back to the ID.
 */
export const LocaleTable = Schema.Struct({
  locale: described(LocaleTag, "The locale the names are written in: a BCP 47 tag such as en or pt-BR."),
  names: described(
    LocaleNames,
    "Display text by key: a nameKey or descriptionKey of the content (card.<id>.name, status.<id>.name, upgrade.<id>.name, ...) → the text shown for it."
  )
}).annotations({
  identifier: "LocaleTable",
  description: "The display names of the content in one locale (names are content: clients resolve nameKeys here)."
})
export type LocaleTable = typeof LocaleTable.Type

export const ContentFile = Schema.Struct({
  $schema: optionalDescribed(
    Schema.String,
    "The JSON Schema this file is written against (for editors; ignored by cardfx)."
  ),
  cards: optionalDescribed(Schema.Array(Card), "Cards declared by this file."),
  statuses: optionalDescribed(Schema.Array(Status), "Statuses declared by this file."),
  relics: optionalDescribed(Schema.Array(Relic), "Relics (contextual modifier sources) declared by this file."),
  buffs: optionalDescribed(Schema.Array(Buff), "Buffs (contextual modifier sources) declared by this file."),
  attributes: optionalDescribed(Schema.Array(Attribute), "Character attributes declared by this file."),
  bundles: optionalDescribed(
    Schema.Array(Bundle),
    "Bundles (groups of components a rule expands) declared by this file."
  ),
  transformations: optionalDescribed(
    Schema.Array(Transformation),
    "Transformations (permanent upgrades) declared by this file."
  ),
  slots: optionalDescribed(Schema.Array(Slot), "Upgrade slots declared by this file."),
  activities: optionalDescribed(Schema.Array(Activity), "Activities declared by this file."),
  locales: optionalDescribed(
    Schema.Array(LocaleTable),
    "Display names declared by this file, one table per locale: the text a nameKey stands for (a key missing from every table falls back to the ID)."
  )
}).annotations({
  identifier: "ContentFile",
  description: "A content file of a package: any of the sections (cards, statuses, transformations, locales, ...)."
})
export type ContentFile = typeof ContentFile.Type

/** The section keys of a content file, in the order they are checked. */
export const contentSections = [
  "cards",
  "statuses",
  "relics",
  "buffs",
  "attributes",
  "bundles",
  "transformations",
  "slots",
  "activities",
  "locales"
] as const
