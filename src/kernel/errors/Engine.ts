/**
 * The errors of the engines at play: budgets, targets, the Hallyu Hex
 * engine's operations, events, decks, actions and replays.
 * One `Schema.TaggedError` class per diagnostic code; its `_tag` is the code
 * table's tag and its `code` field the code.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { complete, type ErrorProps, fields } from "./Base.js"

/** `budget_exceeded`: A sequence used more node attempts than its budget. */
export class BudgetExceeded
  extends Schema.TaggedError<BudgetExceeded>()("BudgetExceeded", { code: Schema.tag("budget_exceeded"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("budget_exceeded", props), options)
  }
}
/** `turn_limit`: A turn would start past the turn counter's maximum (1,000,000). */
export class TurnLimit
  extends Schema.TaggedError<TurnLimit>()("TurnLimit", { code: Schema.tag("turn_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("turn_limit", props), options)
  }
}
/** `invalid_target`: A chosen target is missing, defeated or not allowed by the effect. */
export class InvalidTarget
  extends Schema.TaggedError<InvalidTarget>()("InvalidTarget", { code: Schema.tag("invalid_target"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_target", props), options)
  }
}
/** `actor_defeated`: The acting character is defeated or missing. */
export class ActorDefeated
  extends Schema.TaggedError<ActorDefeated>()("ActorDefeated", { code: Schema.tag("actor_defeated"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("actor_defeated", props), options)
  }
}
/** `unknown_character`: A character ID is not in the combat state. */
export class UnknownCharacter extends Schema.TaggedError<UnknownCharacter>()("UnknownCharacter", {
  code: Schema.tag("unknown_character"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_character", props), options)
  }
}
/** `nondeterminism`: Repeated runs of the same input produced different bytes. */
export class Nondeterminism
  extends Schema.TaggedError<Nondeterminism>()("Nondeterminism", { code: Schema.tag("nondeterminism"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("nondeterminism", props), options)
  }
}
/** `rng_mismatch`: A replay did not consume the recorded random inputs. */
export class RngMismatch
  extends Schema.TaggedError<RngMismatch>()("RngMismatch", { code: Schema.tag("rng_mismatch"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("rng_mismatch", props), options)
  }
}
/** `text_link_mismatch`: A card's effect texts joined with one space differ from its rules_text. */
export class TextLinkMismatch extends Schema.TaggedError<TextLinkMismatch>()("TextLinkMismatch", {
  code: Schema.tag("text_link_mismatch"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("text_link_mismatch", props), options)
  }
}
/** `unknown_operation`: An action names an operation outside the v0.1 vocabulary. */
export class UnknownOperation extends Schema.TaggedError<UnknownOperation>()("UnknownOperation", {
  code: Schema.tag("unknown_operation"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_operation", props), options)
  }
}
/** `missing_field`: An action or effect lacks a field its operation or kind requires. */
export class MissingField
  extends Schema.TaggedError<MissingField>()("MissingField", { code: Schema.tag("missing_field"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("missing_field", props), options)
  }
}
/** `unknown_event`: A trigger or event-count condition names an undeclared event. */
export class UnknownEvent
  extends Schema.TaggedError<UnknownEvent>()("UnknownEvent", { code: Schema.tag("unknown_event"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_event", props), options)
  }
}
/** `unknown_fact`: A condition is headed by a fact the engine does not know. */
export class UnknownFact
  extends Schema.TaggedError<UnknownFact>()("UnknownFact", { code: Schema.tag("unknown_fact"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_fact", props), options)
  }
}
/** `unknown_window`: A window or play window is not in the declared vocabulary. */
export class UnknownWindow
  extends Schema.TaggedError<UnknownWindow>()("UnknownWindow", { code: Schema.tag("unknown_window"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_window", props), options)
  }
}
/** `invalid_amount`: An amount is not allowed here (e.g. `all` outside damage prevention). */
export class InvalidAmount
  extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", { code: Schema.tag("invalid_amount"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_amount", props), options)
  }
}
/** `effect_id_mismatch`: An effect ID is not `<card code>-E<n>` in array order. */
export class EffectIdMismatch extends Schema.TaggedError<EffectIdMismatch>()("EffectIdMismatch", {
  code: Schema.tag("effect_id_mismatch"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("effect_id_mismatch", props), options)
  }
}
/** `unreachable_effect`: An effect can never run (an on-enter or activated effect on a card with no persistent zone). */
export class UnreachableEffect extends Schema.TaggedError<UnreachableEffect>()("UnreachableEffect", {
  code: Schema.tag("unreachable_effect"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unreachable_effect", props), options)
  }
}
/** `no_deck_list`: A deck file declares no deck list, so no game can be set up from it. */
export class NoDeckList
  extends Schema.TaggedError<NoDeckList>()("NoDeckList", { code: Schema.tag("no_deck_list"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("no_deck_list", props), options)
  }
}
/** `illegal_action`: The action is not legal in the current game state. */
export class IllegalAction
  extends Schema.TaggedError<IllegalAction>()("IllegalAction", { code: Schema.tag("illegal_action"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("illegal_action", props), options)
  }
}
/** `game_over`: The game has ended; no further action is legal. */
export class GameOver extends Schema.TaggedError<GameOver>()("GameOver", { code: Schema.tag("game_over"), ...fields }) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("game_over", props), options)
  }
}
/** `replay_incomplete`: A game log's actions end before the game does, and the log does not say it is partial. */
export class ReplayIncomplete extends Schema.TaggedError<ReplayIncomplete>()("ReplayIncomplete", {
  code: Schema.tag("replay_incomplete"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("replay_incomplete", props), options)
  }
}
/** `unknown_agent`: An agent name that is not offered here, or an agent for a seat that does not exist. */
export class UnknownAgent
  extends Schema.TaggedError<UnknownAgent>()("UnknownAgent", { code: Schema.tag("unknown_agent"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_agent", props), options)
  }
}
/** `invalid_iterations`: An agent's iteration budget that is not an integer in 1 to the maximum allowed. */
export class InvalidIterations extends Schema.TaggedError<InvalidIterations>()("InvalidIterations", {
  code: Schema.tag("invalid_iterations"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_iterations", props), options)
  }
}
