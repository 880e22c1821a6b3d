/**
 * The errors of the engines at play: budgets, targets, the Hallyu Hex
 * engine's operations, events, decks, actions and replays.
 * One `Schema.TaggedError` class per diagnostic code, made by `CodedError`
 * from its tag alone: the code, its meaning, status and exit class are the
 * code table's row (src/kernel/DiagnosticCode.ts), the only place a code is
 * listed.
 *
 * @since 0.1.0
 */
import { CodedError } from "./Base.js"

/** @category engine errors */
export class BudgetExceeded extends CodedError<BudgetExceeded>()("BudgetExceeded") {}
/** @category engine errors */
export class TurnLimit extends CodedError<TurnLimit>()("TurnLimit") {}
/** @category engine errors */
export class InvalidTarget extends CodedError<InvalidTarget>()("InvalidTarget") {}
/** @category engine errors */
export class ActorDefeated extends CodedError<ActorDefeated>()("ActorDefeated") {}
/** @category engine errors */
export class UnknownCharacter extends CodedError<UnknownCharacter>()("UnknownCharacter") {}
/** @category engine errors */
export class Nondeterminism extends CodedError<Nondeterminism>()("Nondeterminism") {}
/** @category engine errors */
export class RngMismatch extends CodedError<RngMismatch>()("RngMismatch") {}
/** @category engine errors */
export class TextLinkMismatch extends CodedError<TextLinkMismatch>()("TextLinkMismatch") {}
/** @category engine errors */
export class UnknownOperation extends CodedError<UnknownOperation>()("UnknownOperation") {}
/** @category engine errors */
export class MissingField extends CodedError<MissingField>()("MissingField") {}
/** @category engine errors */
export class UnknownEvent extends CodedError<UnknownEvent>()("UnknownEvent") {}
/** @category engine errors */
export class UnknownFact extends CodedError<UnknownFact>()("UnknownFact") {}
/** @category engine errors */
export class UnknownWindow extends CodedError<UnknownWindow>()("UnknownWindow") {}
/** @category engine errors */
export class InvalidAmount extends CodedError<InvalidAmount>()("InvalidAmount") {}
/** @category engine errors */
export class EffectIdMismatch extends CodedError<EffectIdMismatch>()("EffectIdMismatch") {}
/** @category engine errors */
export class UnreachableEffect extends CodedError<UnreachableEffect>()("UnreachableEffect") {}
/** @category engine errors */
export class NoDeckList extends CodedError<NoDeckList>()("NoDeckList") {}
/** @category engine errors */
export class IllegalAction extends CodedError<IllegalAction>()("IllegalAction") {}
/** @category engine errors */
export class GameOver extends CodedError<GameOver>()("GameOver") {}
/** @category engine errors */
export class ReplayIncomplete extends CodedError<ReplayIncomplete>()("ReplayIncomplete") {}
/** @category engine errors */
export class UnknownAgent extends CodedError<UnknownAgent>()("UnknownAgent") {}
/** @category engine errors */
export class InvalidIterations extends CodedError<InvalidIterations>()("InvalidIterations") {}
