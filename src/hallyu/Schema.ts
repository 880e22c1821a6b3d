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
/** A required field with its description (the JSON Schema's, the LSP's hover). */
const req = <S extends Schema.Schema.All>(s: S, description: string) =>
  Schema.propertySignature(s).annotations({ description })
/** An optional field with its description. */
const optd = <S extends Schema.Schema.All>(s: S, description: string) => opt(s).annotations({ description })
/** An action's `op`, with what the operation does. */
const op = <L extends string>(literal: L, description: string) =>
  req(Schema.Literal(literal), `${literal}: ${description}`)

// ---------------------------------------------------------------- selectors

/** A player relative to the effect's controller. */
export const PlayerSelector = Schema.Literal("self", "opponent", "each", "pending-controller").annotations({
  description:
    "A player relative to the effect's controller: self, opponent, each (both, in turn order) or pending-controller (the controller of the pending card)."
})
export type PlayerSelector = typeof PlayerSelector.Type

/** Whose cards a group, target or for_each looks at. */
export const ControllerSelector = Schema.Literal("self", "opponent", "any").annotations({
  description: "Whose cards: self, opponent or any."
})
export type ControllerSelector = typeof ControllerSelector.Type

const filterFields = {
  type: optd(Schema.String, "A card type the card must have (effect_schema.card_types)."),
  tone: optd(Schema.String, "A tone the card must currently have (effect_schema.tones)."),
  tag: optd(Schema.String, "A tag the card must have (the deck's tags)."),
  card: optd(Schema.String, "The card ID the card must have.")
}

/** Card properties a card must all have (card type, a tone, a tag, a card ID). */
export const CardFilter = Schema.Struct(filterFields).annotations({
  description: "Card properties a card must all have (card type, a tone, a tag, a card ID)."
})
export type CardFilter = typeof CardFilter.Type

/** A set of cards: those of `controller` in `zone` that match the filter fields. */
const groupFields = {
  controller: req(ControllerSelector, "Whose cards the group looks at: self, opponent or any."),
  zone: req(Schema.String, "The zone the group looks at (effect_schema.zones: deck, hand, stage, archive, pending)."),
  ...filterFields
}
export const CardGroup = Schema.Struct(groupFields).annotations({
  description: "A set of cards: those of controller in zone that match the filter fields."
})
export type CardGroup = typeof CardGroup.Type

/** A target declared by an effect; chosen before Fandom costs are paid. */
export const TargetSpec = Schema.Struct({
  id: req(Schema.String, "The target's name, unique in the effect (a { target } selector names it)."),
  ...groupFields
}).annotations({ description: "A target declared by an effect; chosen before Fandom costs are paid." })
export type TargetSpec = typeof TargetSpec.Type

/**
 * A card selector: `self` (the source card), `pending-card` (the card a
 * response answers), `each` (the current `for_each` card), a declared target
 * `{ target }`, or a group `{ group }`.
 */
export const CardSelector = Schema.Union(
  Schema.Literal("self", "pending-card", "each"),
  Schema.Struct({ target: req(Schema.String, "The ID of a target the effect declares.") }),
  Schema.Struct({ group: req(CardGroup, "Every card of a group.") })
).annotations({
  description:
    "A card selector: self (the source card), pending-card (the card a response answers), each (the current for_each card), a declared target { target } or a group { group }."
})
export type CardSelector = typeof CardSelector.Type

export const Compare = Schema.Literal("gte", "lte", "eq").annotations({
  description: "How the fact compares with value: gte (at least), lte (at most) or eq."
})
export type Compare = typeof Compare.Type

export const Duration = Schema.Literal("end-of-turn", "until-your-next-turn", "while-source-active").annotations({
  description: "How long the change lasts: end-of-turn, until-your-next-turn or while-source-active."
})
export type Duration = typeof Duration.Type

// ---------------------------------------------------------------- amounts

/** The v0.1 count expression: cards cast by a player this turn, filtered by card properties. */
export const CountExpression = Schema.Struct({
  count: req(Schema.String, "What is counted (the v0.1 expression counts cards-cast)."),
  player: req(PlayerSelector, "Whose casts are counted."),
  period: req(Schema.String, "Over which period (this-turn)."),
  filter: optd(CardFilter, "Card properties the counted cards must have.")
}).annotations({
  description: "The v0.1 count expression: cards cast by a player this turn, filtered by card properties."
})
export type CountExpression = typeof CountExpression.Type

/** An integer literal, the count expression, or `all` (damage prevention only). */
export const Amount = Schema.Union(Schema.Int, CountExpression, Schema.Literal("all")).annotations({
  description: "An integer, the count expression, or all (damage prevention only)."
})
export type Amount = typeof Amount.Type

// ---------------------------------------------------------------- conditions

const fact = <L extends string>(literal: L, description: string) =>
  req(Schema.Literal(literal), `${literal}: ${description}`)
const compareValue = req(Schema.Int, "The number the fact is compared with.")
const counterField = req(Schema.String, "A counter (effect_schema.counters).")
const resourceField = req(Schema.String, "A resource (effect_schema.resources: composure, fandom, trend).")
export const Condition = Schema.Union(
  Schema.Struct({
    fact: fact("controls@1", "the player controls at least at_least stage cards matching filter."),
    player: req(PlayerSelector, "Whose stage is looked at."),
    filter: req(CardFilter, "Card properties the counted cards must have."),
    at_least: req(Schema.Int, "How many matching cards are needed.")
  }),
  Schema.Struct({
    fact: fact("events-this-turn@1", "how many times event happened to the player this turn, compared with value."),
    event: req(Schema.String, "The event counted (effect_schema.events)."),
    player: req(PlayerSelector, "Whose events are counted."),
    compare: Compare,
    value: compareValue
  }),
  Schema.Struct({
    fact: fact("damage-pending@1", "damage to the player is pending (the damage window is open)."),
    player: req(PlayerSelector, "The player the pending damage is dealt to.")
  }),
  Schema.Struct({
    fact: fact("resource@1", "the player's resource compared with value."),
    player: req(PlayerSelector, "Whose resource is compared."),
    resource: resourceField,
    compare: Compare,
    value: compareValue
  }),
  Schema.Struct({ fact: fact("pending-has-target@1", "the pending card declared a target.") }),
  Schema.Struct({
    fact: fact("counters@1", "the counters of a kind on a card, compared with value."),
    card: req(CardSelector, "The card whose counters are compared."),
    counter: counterField,
    compare: Compare,
    value: compareValue
  })
).annotations({
  identifier: "Condition",
  description: "A condition: a versioned fact (effect_schema.facts) that must hold."
})
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
const base = { condition: optd(Condition, "The action happens only when this condition holds.") }
const amountField = req(Amount, "How many (an integer or the count expression).")
const actionsField = (what: string) => req(actions, `The actions ${what}, in order.`)

export const Action: Schema.Schema<Action> = Schema.Union(
  Schema.Struct({
    op: op("add-counter", "puts amount counters on a stage card"),
    card: req(CardSelector, "The card acted on."),
    counter: counterField,
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("change-tone", "changes a card's tone from one to another for a duration"),
    card: req(CardSelector, "The card acted on."),
    from: req(Schema.String, "The tone changed (effect_schema.tones)."),
    to: req(Schema.String, "The tone it becomes (effect_schema.tones)."),
    duration: req(Duration, "How long the change lasts."),
    ...base
  }),
  Schema.Struct({
    op: op("choose-one", "the player chooses one of the options"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    options: req(
      Schema.Array(
        Schema.Struct({
          label: req(Schema.String, "The option's label, shown to the chooser."),
          condition: optd(Condition, "The option may be chosen only when this holds."),
          actions: actionsField("of the option")
        }).annotations({ description: "One option of a choice." })
      ),
      "The options; the player chooses one whose condition holds."
    ),
    ...base
  }),
  Schema.Struct({
    op: op("counter-card", "counters the pending card (it goes to the archive without resolving)"),
    card: req(CardSelector, "The card acted on."),
    unless: optd(
      Schema.Struct({
        optional_payment: req(
          Schema.Struct({
            player: req(PlayerSelector, "The player who may pay."),
            actions: actionsField("that make the payment")
          }),
          "A payment the player may make to stop the counter."
        )
      }),
      "The card is not countered if the payment is made."
    ),
    ...base
  }),
  Schema.Struct({
    op: op("deal-damage", "deals amount damage to the player (preventable, opens the damage window)"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    amount: amountField,
    on_prevented: optd(
      Schema.Struct({
        replace: req(Schema.Boolean, "The actions replace the damage instead of following it."),
        actions: actionsField("run when the damage is prevented")
      }),
      "What happens when the damage is prevented."
    ),
    ...base
  }),
  Schema.Struct({
    op: op("draw", "the player draws amount cards"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("gain-resource", "the player gains amount of a resource (up to its cap)"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    resource: resourceField,
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("look-at-top", "the players look at the top amount cards of a deck"),
    players: req(Schema.Array(PlayerSelector), "The players who look."),
    amount: amountField,
    deck: optd(PlayerSelector, "Whose deck (default: each looking player's own)."),
    ...base
  }),
  Schema.Struct({
    op: op("lose-resource", "the player loses amount of a resource (not damage: never prevented)"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    resource: resourceField,
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("modify-cost", "changes a card's cost by amount for a duration"),
    card: req(CardSelector, "The card acted on."),
    amount: amountField,
    duration: req(Duration, "How long the change lasts."),
    ...base
  }),
  Schema.Struct({
    op: op("move-counter", "moves amount counters from one card to another"),
    counter: counterField,
    from: req(CardSelector, "The card the counters leave."),
    to: req(CardSelector, "The card the counters move to."),
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("move-top-to-bottom", "moves the top card of the player's deck to the bottom"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    ...base
  }),
  Schema.Struct({
    op: op("prevent-damage", "prevents amount (or all) of the pending damage to the player"),
    player: req(PlayerSelector, "The player acted on, relative to the effect's controller."),
    amount: amountField,
    source: optd(CardFilter, "Prevent only damage from cards matching this filter."),
    ...base
  }),
  Schema.Struct({
    op: op("redirect-target", "moves the source card's target to another legal target"),
    source: req(CardSelector, "The card whose target is redirected."),
    destination: req(Schema.Literal("other-legal-target"), "Where the target goes: another legal target."),
    ...base
  }),
  Schema.Struct({
    op: op("remove-counter", "removes amount counters from a card"),
    card: req(CardSelector, "The card acted on."),
    counter: counterField,
    amount: amountField,
    ...base
  }),
  Schema.Struct({
    op: op("return-card", "moves a card from one zone to another"),
    card: req(CardSelector, "The card acted on."),
    from_zone: req(Schema.String, "The zone the card leaves (effect_schema.zones)."),
    to_zone: req(Schema.String, "The zone the card goes to (effect_schema.zones)."),
    ...base
  })
).annotations({ identifier: "Action", description: "One action record; op is one of the 16 operations of v0.1." })

// ---------------------------------------------------------------- effects and cards

export const EffectKind = Schema.Literal(
  "activated",
  "on-enter",
  "on-resolve",
  "replacement",
  "response",
  "static",
  "triggered"
).annotations({
  description:
    "The effect's kind: activated, on-enter, on-resolve, replacement, response, static or triggered (effect_schema.effect_kinds)."
})
export type EffectKind = typeof EffectKind.Type

/** When a triggered or replacement effect fires: an event, whose it is, and a filter on its card. */
export const Trigger = Schema.Struct({
  event: req(Schema.String, "The event that fires it (effect_schema.events)."),
  player: req(ControllerSelector, "Whose event it is: self, opponent or any."),
  filter: optd(CardFilter, "Card properties the event's card must have.")
}).annotations({
  description: "When a triggered or replacement effect fires: an event, whose it is, and a filter on its card."
})
export type Trigger = typeof Trigger.Type

export const Limit = Schema.Struct({
  count: req(Schema.Int, "How many times."),
  per: req(Schema.Literal("turn"), "Per turn.")
}).annotations({ description: "How often the effect may happen." })
export type Limit = typeof Limit.Type

export const EffectRecord = Schema.Struct({
  id: req(Schema.String, "The effect's ID, unique in the card."),
  kind: EffectKind,
  text: req(Schema.String, "The effect's rules text."),
  window: optd(
    Schema.String,
    "For a response: the window it answers in (effect_schema.windows: card-pending-to-opponent, damage-pending-to-controller)."
  ),
  play_windows: optd(
    Schema.Array(Schema.String),
    "For on-resolve: the windows the card may also be cast in (main, damage-pending-to-controller; default main only)."
  ),
  trigger: optd(Trigger, "For triggered and replacement effects: the event that fires it."),
  condition: optd(Condition, "The effect happens only when this condition holds."),
  limit: optd(Limit, "How often the effect may happen."),
  optional: optd(Schema.Boolean, "The controller may decline the effect."),
  activation_cost: optd(Action, "For activated effects: the cost paid to activate."),
  for_each: optd(CardGroup, "Run the actions once for each card of this group (the each selector)."),
  targets: optd(Schema.Array(TargetSpec), "Targets declared by the effect, chosen before Fandom costs are paid."),
  actions: req(Schema.Array(Action), "The actions, in order.")
}).annotations({
  identifier: "HallyuHexEffect",
  description: "One effect of a card: its kind, when it happens and its actions."
})
export type EffectRecord = typeof EffectRecord.Type

export const Card = Schema.Struct({
  id: req(Schema.String, "The card's ID, unique in the file (deck lists name it)."),
  code: req(Schema.String, "The card's printed code."),
  name: req(Schema.String, "The card's printed name."),
  type: req(Schema.String, "The card type: star, venue or moment (effect_schema.card_types)."),
  cost: req(Schema.Int, "The Fandom cost of casting it."),
  tones: req(Schema.Array(Schema.String), "The printed tones (effect_schema.tones)."),
  tags: req(Schema.Array(Schema.String), "The card's tags (the file's tags)."),
  starting_scandal: optd(Schema.Int, "Stars: the Scandal counters it enters with."),
  buzz: optd(Schema.Int, "Stars: its Buzz."),
  rules_text: req(Schema.String, "The printed rules text."),
  effects: req(Schema.Array(EffectRecord), "The card's effects.")
}).annotations({ identifier: "Card", description: "A Hallyu Hex card: printed properties and effects." })
export type Card = typeof Card.Type

// ---------------------------------------------------------------- the file

export const RulesParameters = Schema.Struct({
  starting_composure: req(Schema.Int, "Composure (life) each player starts with, also its cap."),
  fandom_cap: req(Schema.Int, "The most Fandom a player can hold."),
  fandom_per_turn: req(Schema.Int, "Fandom gained at the start of each turn."),
  trend_cap: req(Schema.Int, "The Trend a player wins by reaching."),
  opening_hand: req(Schema.Int, "Cards drawn at setup."),
  empty_deck_composure_loss: req(Schema.Int, "Composure lost when drawing from an empty deck."),
  scandal_break: req(Schema.Int, "Scandal counters that make a star leave the stage."),
  turn_limit: req(Schema.Int, "The turn after which the game ends (turns counted for both players).")
}).annotations({ description: "The numeric parameters of the rules." })
export type RulesParameters = typeof RulesParameters.Type

export const Rules = Schema.Struct({
  version: req(Schema.String, "The rules version."),
  document: req(Schema.String, "The rules document (RULES.md)."),
  parameters: req(RulesParameters, "The rules' numeric parameters.")
}).annotations({ description: "The rules the deck is played by." })

const requiredFields = Schema.Struct({
  required_fields: req(Schema.Array(Schema.String), "The fields a record of this kind must have.")
}).annotations({ description: "The fields a record of this kind must have." })

export const EffectSchemaVocabulary = Schema.Struct({
  version: req(Schema.String, "The effect schema version."),
  effect_kinds: req(Schema.Record({ key: Schema.String, value: requiredFields }), "Effect kinds and their fields."),
  operations: req(Schema.Record({ key: Schema.String, value: requiredFields }), "Action operations and their fields."),
  events: req(Schema.Array(Schema.String), "The events triggers and facts may name."),
  facts: req(Schema.Record({ key: Schema.String, value: requiredFields }), "Condition facts and their fields."),
  windows: req(
    Schema.Record({
      key: Schema.String,
      value: Schema.Struct({
        opens_on: req(Schema.String, "What opens the window."),
        responder: req(Schema.String, "Who may respond in it.")
      }).annotations({ description: "A response window." })
    }),
    "The response windows."
  ),
  counters: req(
    Schema.Record({
      key: Schema.String,
      value: Schema.Struct({
        version: req(Schema.Int, "The counter's version."),
        display_name: req(Schema.String, "The printed name."),
        origin: req(Schema.String, "Where the counter comes from.")
      }).annotations({ description: "A counter kind." })
    }),
    "The counter kinds (lowercase, versioned)."
  ),
  zones: req(Schema.Array(Schema.String), "The zones."),
  resources: req(Schema.Array(Schema.String), "The resources."),
  card_types: req(Schema.Array(Schema.String), "The card types."),
  tones: req(Schema.Array(Schema.String), "The tones."),
  durations: req(Schema.Array(Schema.String), "The durations.")
}).annotations({ description: "The file's declared vocabulary: every word its effects may use." })
export type EffectSchemaVocabulary = typeof EffectSchemaVocabulary.Type

export const Tag = Schema.Struct({
  id: req(Schema.String, "The tag's ID (cards' tags name it)."),
  name: req(Schema.String, "The tag's printed name.")
}).annotations({ description: "A tag of the file's namespace." })
export const DeckList = Schema.Struct({
  id: req(Schema.String, "The deck list's ID."),
  name: req(Schema.String, "The deck list's name."),
  cards: req(
    Schema.Array(
      Schema.Struct({
        card: req(Schema.String, "A card ID of the file."),
        count: req(Schema.Int, "How many copies.")
      }).annotations({ description: "One entry: a card and its copies." })
    ),
    "The entries, in deck-list order."
  )
}).annotations({ description: "A deck list: cards and counts." })
export type DeckList = typeof DeckList.Type

const deckFields = {
  $schema: optd(Schema.String, "The JSON Schema this file is written against (for editors; ignored by cardfx)."),
  manifest_version: req(Schema.String, "The deck file format version (0.2.0)."),
  name: req(Schema.String, "The deck file's name."),
  rules: req(Rules, "The rules the decks are played by."),
  effect_schema: req(EffectSchemaVocabulary, "The declared vocabulary."),
  tag_namespace: req(Schema.String, "The namespace of the file's tags."),
  tags: req(Schema.Array(Tag), "The file's tags."),
  decks: req(Schema.Array(DeckList), "The deck lists (the first is the default for both seats).")
}

/** The whole deck file. */
export const StarterDeck = Schema.Struct({
  ...deckFields,
  cards: req(Schema.Array(Card), "The cards.")
}).annotations({
  identifier: "HallyuHexDeck",
  description: "A Hallyu Hex deck file: rules, vocabulary, cards and deck lists.",
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
