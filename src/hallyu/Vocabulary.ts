/**
 * What this engine understands of Hallyu Hex effect schema 0.1.0: the effect
 * kinds, the 16 operations with their required fields, the events, facts,
 * windows, zones, resources and selector words. A deck file declares its own
 * vocabulary; the validator checks the file against these tables, and the
 * cards against the file, so nothing the engine does not know can reach it.
 *
 * @since 0.1.0
 */

/** Versions this engine supports. */
export const SUPPORTED = {
  manifestVersion: "0.2.0",
  rulesVersion: "0.2.0",
  effectSchemaVersion: "0.1.0"
} as const

/** The seven effect kinds and the effect fields each one requires. */
export const EFFECT_KINDS = {
  activated: ["activation_cost"],
  "on-enter": [],
  "on-resolve": [],
  replacement: ["trigger"],
  response: ["window"],
  static: [],
  triggered: ["trigger"]
} as const satisfies Record<string, ReadonlyArray<string>>
export type EffectKindName = keyof typeof EFFECT_KINDS

/** The 16 operations of v0.1 and their required fields (beyond `op`). */
export const OPERATIONS = {
  "add-counter": ["card", "counter", "amount"],
  "change-tone": ["card", "from", "to", "duration"],
  "choose-one": ["player", "options"],
  "counter-card": ["card"],
  "deal-damage": ["player", "amount"],
  draw: ["player", "amount"],
  "gain-resource": ["player", "resource", "amount"],
  "look-at-top": ["players", "amount"],
  "lose-resource": ["player", "resource", "amount"],
  "modify-cost": ["card", "amount", "duration"],
  "move-counter": ["counter", "from", "to", "amount"],
  "move-top-to-bottom": ["player"],
  "prevent-damage": ["player", "amount"],
  "redirect-target": ["source", "destination"],
  "remove-counter": ["card", "counter", "amount"],
  "return-card": ["card", "from_zone", "to_zone"]
} as const satisfies Record<string, ReadonlyArray<string>>
export type OperationName = keyof typeof OPERATIONS

/** Events the engine emits; triggers, windows and event-count conditions may name only these. */
export const EVENTS = [
  "turn-start",
  "turn-end",
  "card-cast",
  "card-resolved",
  "card-entered",
  "card-countered",
  "card-archived",
  "card-drawn",
  "draw-failed",
  "damage-pending",
  "damage-dealt",
  "damage-prevented",
  "counter-added",
  "counter-removed",
  "resource-gained",
  "resource-lost"
] as const
export type EventName = (typeof EVENTS)[number]

/** Condition facts (versioned) and the fields each requires beyond `fact`. */
export const FACTS = {
  "controls@1": ["player", "filter", "at_least"],
  "events-this-turn@1": ["event", "player", "compare", "value"],
  "damage-pending@1": ["player"],
  "resource@1": ["player", "resource", "compare", "value"],
  "pending-has-target@1": [],
  "counters@1": ["card", "counter", "compare", "value"]
} as const satisfies Record<string, ReadonlyArray<string>>
export type FactName = keyof typeof FACTS

/** Windows: `main` plus the two response windows, each opened by an event. */
export const WINDOWS = {
  main: { opens_on: "turn-start", responder: "active-player" },
  "card-pending-to-opponent": { opens_on: "card-cast", responder: "opponent-of-pending-controller" },
  "damage-pending-to-controller": { opens_on: "damage-pending", responder: "damaged-player" }
} as const
export type WindowName = keyof typeof WINDOWS

/** The windows an `on-resolve` card may be played in: `main` and the one additional v0.1 play window. */
export const PLAY_WINDOWS: ReadonlyArray<WindowName> = ["main", "damage-pending-to-controller"]

/** Response windows in which a card is pending (so `pending-card` selects something). */
export const PENDING_CARD_WINDOWS: ReadonlyArray<WindowName> = ["card-pending-to-opponent"]

/** Effect kinds that run only from a persistent zone (the stage): never on a Moment. */
export const PERSISTENT_KINDS: ReadonlyArray<EffectKindName> = ["on-enter", "activated"]

export const ZONES = ["deck", "hand", "stage", "archive", "pending"] as const
export type ZoneName = (typeof ZONES)[number]

export const RESOURCES = ["composure", "fandom", "trend"] as const
export type ResourceName = (typeof RESOURCES)[number]

export const CARD_TYPES = ["star", "venue", "moment"] as const
export type CardTypeName = (typeof CARD_TYPES)[number]

/** Persistent card types: they enter the stage instead of the archive. */
export const PERSISTENT_TYPES: ReadonlySet<string> = new Set(["star", "venue"])

/** The counter whose starting value is a Star's printed starting Scandal. */
export const SCANDAL = "scandal"

/** The count expressions of v0.1 (one). */
export const COUNT_EXPRESSIONS = ["cards-cast"] as const
export const COUNT_PERIODS = ["this-turn"] as const

/** Lowercase counter identifiers. */
export const COUNTER_ID = /^[a-z][a-z0-9-]*$/

export const isOperation = (s: string): s is OperationName => Object.prototype.hasOwnProperty.call(OPERATIONS, s)
export const isFact = (s: string): s is FactName => Object.prototype.hasOwnProperty.call(FACTS, s)
export const isWindow = (s: string): s is WindowName => Object.prototype.hasOwnProperty.call(WINDOWS, s)
export const isEffectKind = (s: string): s is EffectKindName => Object.prototype.hasOwnProperty.call(EFFECT_KINDS, s)
const eventSet: ReadonlySet<string> = new Set(EVENTS)
export const isEvent = (s: string): s is EventName => eventSet.has(s)

/** Durations of temporary changes; `while-source-active` belongs to static effects. */
export const DURATIONS_ENGINE = ["end-of-turn", "until-your-next-turn", "while-source-active"] as const
