/**
 * A content package: `manifest.json` plus content files. Each content file
 * holds any of the sections below; a package is every `*.json` file under its
 * folder (sorted by path, ordinal), and references resolve across the
 * packages loaded together.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withCode } from "../../kernel/Decode.js"
import { optional } from "../../kernel/SchemaExt.js"
import { Bundle } from "./Bundle.js"
import { Card } from "./Card.js"
import { Attribute, Buff, Relic } from "./Modifier.js"
import { Status } from "./Status.js"
import { AuthoredId, Metadata, PositiveInt, SymbolList } from "./Symbols.js"
import { Transformation } from "./Transformation.js"

/** The engine version this build implements (the seed's "engine version 17"). */
export const ENGINE_VERSION = 17 as const

export const Manifest = Schema.Struct({
  $schema: optional(Schema.String),
  packageId: AuthoredId,
  version: Schema.String.pipe(Schema.pattern(/^\d+\.\d+\.\d+$/, { message: () => "version is MAJOR.MINOR.PATCH" })),
  engineVersion: Schema.Literal(ENGINE_VERSION).annotations({
    ...withCode("unsupported_version"),
    message: () => `engineVersion must be ${ENGINE_VERSION}`
  }),
  /** Packages this one builds on (their IDs); they must be loaded with it. */
  dependencies: optional(SymbolList),
  metadata: optional(Schema.Struct({ nameKey: optional(AuthoredId), description: optional(Schema.String) }))
}).annotations({ identifier: "Manifest" })
export type Manifest = typeof Manifest.Type

export const Slot = Schema.Struct({
  slotId: AuthoredId,
  capacity: PositiveInt,
  metadata: optional(Metadata)
}).annotations({ identifier: "Slot" })
export type Slot = typeof Slot.Type

/** A mode/activity and which transformations it authorizes (by ID, category or slot). */
export const Activity = Schema.Struct({
  activityId: AuthoredId,
  authorizes: Schema.Struct({
    upgradeIds: optional(SymbolList),
    categories: optional(SymbolList),
    slotIds: optional(SymbolList)
  }),
  metadata: optional(Metadata)
}).annotations({ identifier: "Activity" })
export type Activity = typeof Activity.Type

export const ContentFile = Schema.Struct({
  $schema: optional(Schema.String),
  cards: optional(Schema.Array(Card)),
  statuses: optional(Schema.Array(Status)),
  relics: optional(Schema.Array(Relic)),
  buffs: optional(Schema.Array(Buff)),
  attributes: optional(Schema.Array(Attribute)),
  bundles: optional(Schema.Array(Bundle)),
  transformations: optional(Schema.Array(Transformation)),
  slots: optional(Schema.Array(Slot)),
  activities: optional(Schema.Array(Activity))
}).annotations({ identifier: "ContentFile" })
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
  "activities"
] as const
