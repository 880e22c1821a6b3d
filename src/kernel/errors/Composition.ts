/**
 * The errors of the composition core: limits, compilation, transformations,
 * composition, the planner's policy and the ledger store.
 * One `Schema.TaggedError` class per diagnostic code, made by `CodedError`
 * from its tag alone: the code, its meaning, status and exit class are the
 * code table's row (src/kernel/DiagnosticCode.ts), the only place a code is
 * listed.
 *
 * @since 0.1.0
 */
import { CodedError } from "./Base.js"

/** @category composition errors */
export class SymbolLimit extends CodedError<SymbolLimit>()("SymbolLimit") {}
/** @category composition errors */
export class ListLimit extends CodedError<ListLimit>()("ListLimit") {}
/** @category composition errors */
export class RuleLimit extends CodedError<RuleLimit>()("RuleLimit") {}
/** @category composition errors */
export class MemberLimit extends CodedError<MemberLimit>()("MemberLimit") {}
/** @category composition errors */
export class NameLimit extends CodedError<NameLimit>()("NameLimit") {}
/** @category composition errors */
export class TextLimit extends CodedError<TextLimit>()("TextLimit") {}
/** @category composition errors */
export class MissingDisplayName extends CodedError<MissingDisplayName>()("MissingDisplayName") {}
/** @category composition errors */
export class NestingLimit extends CodedError<NestingLimit>()("NestingLimit") {}
/** @category composition errors */
export class RepeatLimit extends CodedError<RepeatLimit>()("RepeatLimit") {}
/** @category composition errors */
export class NodeBudget extends CodedError<NodeBudget>()("NodeBudget") {}
/** @category composition errors */
export class OrderOverflow extends CodedError<OrderOverflow>()("OrderOverflow") {}
/** @category composition errors */
export class Contradiction extends CodedError<Contradiction>()("Contradiction") {}
/** @category composition errors */
export class EmptyScope extends CodedError<EmptyScope>()("EmptyScope") {}
/** @category composition errors */
export class InvalidBinding extends CodedError<InvalidBinding>()("InvalidBinding") {}
/** @category composition errors */
export class ParameterMismatch extends CodedError<ParameterMismatch>()("ParameterMismatch") {}
/** @category composition errors */
export class TemplateUnbound extends CodedError<TemplateUnbound>()("TemplateUnbound") {}
/** @category composition errors */
export class TransformationInvalid extends CodedError<TransformationInvalid>()("TransformationInvalid") {}
/** @category composition errors */
export class MissingTag extends CodedError<MissingTag>()("MissingTag") {}
/** @category composition errors */
export class ExcludedTag extends CodedError<ExcludedTag>()("ExcludedTag") {}
/** @category composition errors */
export class MissingCapability extends CodedError<MissingCapability>()("MissingCapability") {}
/** @category composition errors */
export class ExcludedCapability extends CodedError<ExcludedCapability>()("ExcludedCapability") {}
/** @category composition errors */
export class NoMatchingRule extends CodedError<NoMatchingRule>()("NoMatchingRule") {}
/** @category composition errors */
export class AmbiguousAnchor extends CodedError<AmbiguousAnchor>()("AmbiguousAnchor") {}
/** @category composition errors */
export class ComponentCollision extends CodedError<ComponentCollision>()("ComponentCollision") {}
/** @category composition errors */
export class InvalidComposition extends CodedError<InvalidComposition>()("InvalidComposition") {}
/** @category composition errors */
export class MatchLimit extends CodedError<MatchLimit>()("MatchLimit") {}
/** @category composition errors */
export class ExpansionLimit extends CodedError<ExpansionLimit>()("ExpansionLimit") {}
/** @category composition errors */
export class UnsealedDefinition extends CodedError<UnsealedDefinition>()("UnsealedDefinition") {}
/** @category composition errors */
export class UnknownCard extends CodedError<UnknownCard>()("UnknownCard") {}
/** @category composition errors */
export class UnknownTransformation extends CodedError<UnknownTransformation>()("UnknownTransformation") {}
/** @category composition errors */
export class EntryNotFound extends CodedError<EntryNotFound>()("EntryNotFound") {}
/** @category composition errors */
export class NotEligible extends CodedError<NotEligible>()("NotEligible") {}
/** @category composition errors */
export class SlotFull extends CodedError<SlotFull>()("SlotFull") {}
/** @category composition errors */
export class MaxPerCard extends CodedError<MaxPerCard>()("MaxPerCard") {}
/** @category composition errors */
export class ExcludedTransformation extends CodedError<ExcludedTransformation>()("ExcludedTransformation") {}
/** @category composition errors */
export class DependencyViolation extends CodedError<DependencyViolation>()("DependencyViolation") {}
/** @category composition errors */
export class NotAuthorized extends CodedError<NotAuthorized>()("NotAuthorized") {}
/** @category composition errors */
export class UnknownActivity extends CodedError<UnknownActivity>()("UnknownActivity") {}
/** @category composition errors */
export class RevisionConflict extends CodedError<RevisionConflict>()("RevisionConflict") {}
/** @category composition errors */
export class CommandConflict extends CodedError<CommandConflict>()("CommandConflict") {}
/** @category composition errors */
export class BranchNotFound extends CodedError<BranchNotFound>()("BranchNotFound") {}
/** @category composition errors */
export class StoreFailure extends CodedError<StoreFailure>()("StoreFailure") {}
/** @category composition errors */
export class ReplayMismatch extends CodedError<ReplayMismatch>()("ReplayMismatch") {}
/** @category composition errors */
export class StoreNotFound extends CodedError<StoreNotFound>()("StoreNotFound") {}
/** @category composition errors */
export class StoreUnavailable extends CodedError<StoreUnavailable>()("StoreUnavailable") {}
/** @category composition errors */
export class StoreCorrupt extends CodedError<StoreCorrupt>()("StoreCorrupt") {}
/** @category composition errors */
export class ForkOutOfRange extends CodedError<ForkOutOfRange>()("ForkOutOfRange") {}
