/**
 * Schemas for a Hallyu Hex deck file (`starter-deck.v0.json`): the one source
 * of truth for its shape. Types come from `typeof X.Type`; the JSON Schema
 * (`deckJsonSchema`) and the fast-check arbitraries (`deckArbitrary`) are
 * derived from the same values.
 *
 * Vocabulary words (events, zones, tones, counters, windows, ...) are plain
 * strings here: the validator checks them against the file's declared
 * vocabulary and this engine's, with their own diagnostic codes, so a typo is
 * `unknown_event` rather than a generic `schema_invalid`.
 *
 * @since 0.1.0
 */
import type { FastCheck } from "effect"
import { Arbitrary, JSONSchema, Schema } from "effect"

const opt = <S extends Schema.Schema.All>(s: S) => Schema.optionalWith(s, { exact: true })

// ---------------------------------------------------------------- selectors

/** A player relative to the effect's controller. */
export const PlayerSelector = Schema.Literal("self", "opponent", "each", "pending-controller")
export type PlayerSelector = typeof PlayerSelector.Type

/** Whose cards a group, target or for_each looks at. */
export const ControllerSelector = Schema.Literal("self", "opponent", "any")
export type ControllerSelector = typeof ControllerSelector.Type

const filterFields = {
  type: opt(Schema.String),
  tone: opt(Schema.String),
  tag: opt(Schema.String),
  card: opt(Schema.String)
}

/** Card properties a card must all have (card type, a tone, a tag, a card ID). */
export const CardFilter = Schema.Struct(filterFields)
export type CardFilter = typeof CardFilter.Type

/** A set of cards: those of `controller` in `zone` that match the filter fields. */
export const CardGroup = Schema.Struct({ controller: ControllerSelector, zone: Schema.String, ...filterFields })
export type CardGroup = typeof CardGroup.Type

/** A target declared by an effect; chosen before Fandom costs are paid. */
export const TargetSpec = Schema.Struct({ id: Schema.String, ...CardGroup.fields })
export type TargetSpec = typeof TargetSpec.Type

/**
 * A card selector: `self` (the source card), `pending-card` (the card a
 * response answers), `each` (the current `for_each` card), a declared target
 * `{ target }`, or a group `{ group }`.
 */
export const CardSelector = Schema.Union(
  Schema.Literal("self", "pending-card", "each"),
  Schema.Struct({ target: Schema.String }),
  Schema.Struct({ group: CardGroup })
)
export type CardSelector = typeof CardSelector.Type

export const Compare = Schema.Literal("gte", "lte", "eq")
export type Compare = typeof Compare.Type

export const Duration = Schema.Literal("end-of-turn", "until-your-next-turn", "while-source-active")
export type Duration = typeof Duration.Type

// ---------------------------------------------------------------- amounts

/** The v0.1 count expression: cards cast by a player this turn, filtered by card properties. */
export const CountExpression = Schema.Struct({
  count: Schema.String,
  player: PlayerSelector,
  period: Schema.String,
  filter: opt(CardFilter)
})
export type CountExpression = typeof CountExpression.Type

/** An integer literal, the count expression, or `all` (damage prevention only). */
export const Amount = Schema.Union(Schema.Int, CountExpression, Schema.Literal("all"))
export type Amount = typeof Amount.Type

// ---------------------------------------------------------------- conditions

export const Condition = Schema.Union(
  Schema.Struct({
    fact: Schema.Literal("controls@1"),
    player: PlayerSelector,
    filter: CardFilter,
    at_least: Schema.Int
  }),
  Schema.Struct({
    fact: Schema.Literal("events-this-turn@1"),
    event: Schema.String,
    player: PlayerSelector,
    compare: Compare,
    value: Schema.Int
  }),
  Schema.Struct({ fact: Schema.Literal("damage-pending@1"), player: PlayerSelector }),
  Schema.Struct({
    fact: Schema.Literal("resource@1"),
    player: PlayerSelector,
    resource: Schema.String,
    compare: Compare,
    value: Schema.Int
  }),
  Schema.Struct({ fact: Schema.Literal("pending-has-target@1") }),
  Schema.Struct({
    fact: Schema.Literal("counters@1"),
    card: CardSelector,
    counter: Schema.String,
    compare: Compare,
    value: Schema.Int
  })
).annotations({ identifier: "Condition" })
export type Condition = typeof Condition.Type

// ---------------------------------------------------------------- actions

interface Base {
  readonly condition?: Condition
}
export interface AddCounter extends Base {
  readonly op: "add-counter"
  readonly card: CardSelector
  readonly counter: string
  readonly amount: Amount
}
export interface ChangeTone extends Base {
  readonly op: "change-tone"
  readonly card: CardSelector
  readonly from: string
  readonly to: string
  readonly duration: Duration
}
export interface ChooseOption {
  readonly label: string
  readonly condition?: Condition
  readonly actions: ReadonlyArray<Action>
}
export interface ChooseOne extends Base {
  readonly op: "choose-one"
  readonly player: PlayerSelector
  readonly options: ReadonlyArray<ChooseOption>
}
export interface OptionalPayment {
  readonly player: PlayerSelector
  readonly actions: ReadonlyArray<Action>
}
export interface CounterCard extends Base {
  readonly op: "counter-card"
  readonly card: CardSelector
  readonly unless?: { readonly optional_payment: OptionalPayment }
}
export interface OnPrevented {
  readonly replace: boolean
  readonly actions: ReadonlyArray<Action>
}
export interface DealDamage extends Base {
  readonly op: "deal-damage"
  readonly player: PlayerSelector
  readonly amount: Amount
  readonly on_prevented?: OnPrevented
}
export interface Draw extends Base {
  readonly op: "draw"
  readonly player: PlayerSelector
  readonly amount: Amount
}
export interface GainResource extends Base {
  readonly op: "gain-resource"
  readonly player: PlayerSelector
  readonly resource: string
  readonly amount: Amount
}
export interface LookAtTop extends Base {
  readonly op: "look-at-top"
  readonly players: ReadonlyArray<PlayerSelector>
  readonly amount: Amount
  readonly deck?: PlayerSelector
}
export interface LoseResource extends Base {
  readonly op: "lose-resource"
  readonly player: PlayerSelector
  readonly resource: string
  readonly amount: Amount
}
export interface ModifyCost extends Base {
  readonly op: "modify-cost"
  readonly card: CardSelector
  readonly amount: Amount
  readonly duration: Duration
}
export interface MoveCounter extends Base {
  readonly op: "move-counter"
  readonly counter: string
  readonly from: CardSelector
  readonly to: CardSelector
  readonly amount: Amount
}
export interface MoveTopToBottom extends Base {
  readonly op: "move-top-to-bottom"
  readonly player: PlayerSelector
}
export interface PreventDamage extends Base {
  readonly op: "prevent-damage"
  readonly player: PlayerSelector
  readonly amount: Amount
  readonly source?: CardFilter
}
export interface RedirectTarget extends Base {
  readonly op: "redirect-target"
  readonly source: CardSelector
  readonly destination: "other-legal-target"
}
export interface RemoveCounter extends Base {
  readonly op: "remove-counter"
  readonly card: CardSelector
  readonly counter: string
  readonly amount: Amount
}
export interface ReturnCard extends Base {
  readonly op: "return-card"
  readonly card: CardSelector
  readonly from_zone: string
  readonly to_zone: string
}

/** One action record; `op` is one of the 16 operations of v0.1. */
export type Action =
  | AddCounter
  | ChangeTone
  | ChooseOne
  | CounterCard
  | DealDamage
  | Draw
  | GainResource
  | LookAtTop
  | LoseResource
  | ModifyCost
  | MoveCounter
  | MoveTopToBottom
  | PreventDamage
  | RedirectTarget
  | RemoveCounter
  | ReturnCard

const actions = Schema.Array(Schema.suspend((): Schema.Schema<Action> => Action))
const base = { condition: opt(Condition) }

export const Action: Schema.Schema<Action> = Schema.Union(
  Schema.Struct({
    op: Schema.Literal("add-counter"),
    card: CardSelector,
    counter: Schema.String,
    amount: Amount,
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("change-tone"),
    card: CardSelector,
    from: Schema.String,
    to: Schema.String,
    duration: Duration,
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("choose-one"),
    player: PlayerSelector,
    options: Schema.Array(Schema.Struct({ label: Schema.String, condition: opt(Condition), actions })),
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("counter-card"),
    card: CardSelector,
    unless: opt(Schema.Struct({ optional_payment: Schema.Struct({ player: PlayerSelector, actions }) })),
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("deal-damage"),
    player: PlayerSelector,
    amount: Amount,
    on_prevented: opt(Schema.Struct({ replace: Schema.Boolean, actions })),
    ...base
  }),
  Schema.Struct({ op: Schema.Literal("draw"), player: PlayerSelector, amount: Amount, ...base }),
  Schema.Struct({
    op: Schema.Literal("gain-resource"),
    player: PlayerSelector,
    resource: Schema.String,
    amount: Amount,
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("look-at-top"),
    players: Schema.Array(PlayerSelector),
    amount: Amount,
    deck: opt(PlayerSelector),
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("lose-resource"),
    player: PlayerSelector,
    resource: Schema.String,
    amount: Amount,
    ...base
  }),
  Schema.Struct({ op: Schema.Literal("modify-cost"), card: CardSelector, amount: Amount, duration: Duration, ...base }),
  Schema.Struct({
    op: Schema.Literal("move-counter"),
    counter: Schema.String,
    from: CardSelector,
    to: CardSelector,
    amount: Amount,
    ...base
  }),
  Schema.Struct({ op: Schema.Literal("move-top-to-bottom"), player: PlayerSelector, ...base }),
  Schema.Struct({
    op: Schema.Literal("prevent-damage"),
    player: PlayerSelector,
    amount: Amount,
    source: opt(CardFilter),
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("redirect-target"),
    source: CardSelector,
    destination: Schema.Literal("other-legal-target"),
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("remove-counter"),
    card: CardSelector,
    counter: Schema.String,
    amount: Amount,
    ...base
  }),
  Schema.Struct({
    op: Schema.Literal("return-card"),
    card: CardSelector,
    from_zone: Schema.String,
    to_zone: Schema.String,
    ...base
  })
).annotations({ identifier: "Action" })

// ---------------------------------------------------------------- effects and cards

export const EffectKind = Schema.Literal(
  "activated",
  "on-enter",
  "on-resolve",
  "replacement",
  "response",
  "static",
  "triggered"
)
export type EffectKind = typeof EffectKind.Type

/** When a triggered or replacement effect fires: an event, whose it is, and a filter on its card. */
export const Trigger = Schema.Struct({ event: Schema.String, player: ControllerSelector, filter: opt(CardFilter) })
export type Trigger = typeof Trigger.Type

export const Limit = Schema.Struct({ count: Schema.Int, per: Schema.Literal("turn") })
export type Limit = typeof Limit.Type

export const EffectRecord = Schema.Struct({
  id: Schema.String,
  kind: EffectKind,
  text: Schema.String,
  window: opt(Schema.String),
  play_windows: opt(Schema.Array(Schema.String)),
  trigger: opt(Trigger),
  condition: opt(Condition),
  limit: opt(Limit),
  optional: opt(Schema.Boolean),
  activation_cost: opt(Action),
  for_each: opt(CardGroup),
  targets: opt(Schema.Array(TargetSpec)),
  actions: Schema.Array(Action)
}).annotations({ identifier: "HallyuHexEffect" })
export type EffectRecord = typeof EffectRecord.Type

export const Card = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  name: Schema.String,
  type: Schema.String,
  cost: Schema.Int,
  tones: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  starting_scandal: opt(Schema.Int),
  buzz: opt(Schema.Int),
  rules_text: Schema.String,
  effects: Schema.Array(EffectRecord)
}).annotations({ identifier: "Card" })
export type Card = typeof Card.Type

// ---------------------------------------------------------------- the file

export const RulesParameters = Schema.Struct({
  starting_composure: Schema.Int,
  fandom_cap: Schema.Int,
  fandom_per_turn: Schema.Int,
  trend_cap: Schema.Int,
  opening_hand: Schema.Int,
  empty_deck_composure_loss: Schema.Int,
  scandal_break: Schema.Int,
  turn_limit: Schema.Int
})
export type RulesParameters = typeof RulesParameters.Type

export const Rules = Schema.Struct({ version: Schema.String, document: Schema.String, parameters: RulesParameters })

const requiredFields = Schema.Struct({ required_fields: Schema.Array(Schema.String) })

export const EffectSchemaVocabulary = Schema.Struct({
  version: Schema.String,
  effect_kinds: Schema.Record({ key: Schema.String, value: requiredFields }),
  operations: Schema.Record({ key: Schema.String, value: requiredFields }),
  events: Schema.Array(Schema.String),
  facts: Schema.Record({ key: Schema.String, value: requiredFields }),
  windows: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ opens_on: Schema.String, responder: Schema.String })
  }),
  counters: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ version: Schema.Int, display_name: Schema.String, origin: Schema.String })
  }),
  zones: Schema.Array(Schema.String),
  resources: Schema.Array(Schema.String),
  card_types: Schema.Array(Schema.String),
  tones: Schema.Array(Schema.String),
  durations: Schema.Array(Schema.String)
})
export type EffectSchemaVocabulary = typeof EffectSchemaVocabulary.Type

export const Tag = Schema.Struct({ id: Schema.String, name: Schema.String })
export const DeckList = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  cards: Schema.Array(Schema.Struct({ card: Schema.String, count: Schema.Int }))
})
export type DeckList = typeof DeckList.Type

const deckFields = {
  $schema: opt(Schema.String),
  manifest_version: Schema.String,
  name: Schema.String,
  rules: Rules,
  effect_schema: EffectSchemaVocabulary,
  tag_namespace: Schema.String,
  tags: Schema.Array(Tag),
  decks: Schema.Array(DeckList)
}

/** The whole deck file. */
export const StarterDeck = Schema.Struct({ ...deckFields, cards: Schema.Array(Card) }).annotations({
  identifier: "HallyuHexDeck",
  title: "Hallyu Hex deck file (manifest 0.2.0, effect schema 0.1.0)"
})
export type StarterDeck = typeof StarterDeck.Type

/** The file with its cards left undecoded: cards are decoded one by one so one bad card hides no other. */
export const DeckShell = Schema.Struct({ ...deckFields, cards: Schema.Array(Schema.Unknown) })

/** The JSON Schema of a deck file (written by `cardfx schema` as `hallyu-hex-deck.schema.json`). */
export const deckJsonSchema = (): JSONSchema.JsonSchema7Root => JSONSchema.make(StarterDeck)

/** fast-check arbitraries derived from the Schemas. */
export const deckArbitrary = (): FastCheck.Arbitrary<StarterDeck> => Arbitrary.make(StarterDeck)
export const cardArbitrary = (): FastCheck.Arbitrary<Card> => Arbitrary.make(Card)
export const actionArbitrary = (): FastCheck.Arbitrary<Action> => Arbitrary.make(Action)
