/**
 * The errors of the composition core: limits, compilation, transformations,
 * composition, the planner's policy and the ledger store.
 * One `Schema.TaggedError` class per diagnostic code; its `_tag` is the code
 * table's tag and its `code` field the code.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { complete, type ErrorProps, fields } from "./Base.js"

/** `symbol_limit`: A symbol is longer than 128 characters. */
export class SymbolLimit
  extends Schema.TaggedError<SymbolLimit>()("SymbolLimit", { code: Schema.tag("symbol_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("symbol_limit", props), options)
  }
}
/** `list_limit`: A list holds more than 64 symbols. */
export class ListLimit
  extends Schema.TaggedError<ListLimit>()("ListLimit", { code: Schema.tag("list_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("list_limit", props), options)
  }
}
/** `rule_limit`: A transformation has more than 32 composition rules. */
export class RuleLimit
  extends Schema.TaggedError<RuleLimit>()("RuleLimit", { code: Schema.tag("rule_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("rule_limit", props), options)
  }
}
/** `member_limit`: A rule's bundle has more than 64 members. */
export class MemberLimit
  extends Schema.TaggedError<MemberLimit>()("MemberLimit", { code: Schema.tag("member_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("member_limit", props), options)
  }
}
/** `name_limit`: A locale table holds more than 4,096 display names. */
export class NameLimit
  extends Schema.TaggedError<NameLimit>()("NameLimit", { code: Schema.tag("name_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("name_limit", props), options)
  }
}
/** `text_limit`: A display text is longer than 200 characters. */
export class TextLimit
  extends Schema.TaggedError<TextLimit>()("TextLimit", { code: Schema.tag("text_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("text_limit", props), options)
  }
}
/** `missing_display_name`: A card, status or transformation has no display text in any locale table its content ships. */
export class MissingDisplayName extends Schema.TaggedError<MissingDisplayName>()("MissingDisplayName", {
  code: Schema.tag("missing_display_name"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("missing_display_name", props), options)
  }
}
/** `nesting_limit`: Effect children nest deeper than the effects validator allows. */
export class NestingLimit
  extends Schema.TaggedError<NestingLimit>()("NestingLimit", { code: Schema.tag("nesting_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("nesting_limit", props), options)
  }
}
/** `repeat_limit`: An effect's repeat is outside 1..the effects validator's limit. */
export class RepeatLimit
  extends Schema.TaggedError<RepeatLimit>()("RepeatLimit", { code: Schema.tag("repeat_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("repeat_limit", props), options)
  }
}
/** `node_budget`: A container generates more than 4,096 effect nodes, children included. */
export class NodeBudget
  extends Schema.TaggedError<NodeBudget>()("NodeBudget", { code: Schema.tag("node_budget"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("node_budget", props), options)
  }
}
/** `order_overflow`: An order value is outside the allowed order range. */
export class OrderOverflow
  extends Schema.TaggedError<OrderOverflow>()("OrderOverflow", { code: Schema.tag("order_overflow"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("order_overflow", props), options)
  }
}
/** `contradiction`: A declaration contradicts itself (e.g. a tag both required and excluded). */
export class Contradiction
  extends Schema.TaggedError<Contradiction>()("Contradiction", { code: Schema.tag("contradiction"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("contradiction", props), options)
  }
}
/** `empty_scope`: A rule or bundle would expand to nothing executable. */
export class EmptyScope
  extends Schema.TaggedError<EmptyScope>()("EmptyScope", { code: Schema.tag("empty_scope"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("empty_scope", props), options)
  }
}
/** `invalid_binding`: A payload binding does not point at a numeric component or a declared parameter. */
export class InvalidBinding
  extends Schema.TaggedError<InvalidBinding>()("InvalidBinding", { code: Schema.tag("invalid_binding"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_binding", props), options)
  }
}
/** `parameter_mismatch`: Supplied bundle parameters do not match the template's declared ones exactly. */
export class ParameterMismatch extends Schema.TaggedError<ParameterMismatch>()("ParameterMismatch", {
  code: Schema.tag("parameter_mismatch"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("parameter_mismatch", props), options)
  }
}
/** `template_unbound`: A parameterized template is used as an ordinary bundle, without bindings. */
export class TemplateUnbound
  extends Schema.TaggedError<TemplateUnbound>()("TemplateUnbound", { code: Schema.tag("template_unbound"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("template_unbound", props), options)
  }
}
/** `transformation_invalid`: A policy or structure failure that has no specialized code yet. */
export class TransformationInvalid extends Schema.TaggedError<TransformationInvalid>()("TransformationInvalid", {
  code: Schema.tag("transformation_invalid"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("transformation_invalid", props), options)
  }
}
/** `missing_tag`: A required tag is absent from the final structural composition. */
export class MissingTag
  extends Schema.TaggedError<MissingTag>()("MissingTag", { code: Schema.tag("missing_tag"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("missing_tag", props), options)
  }
}
/** `excluded_tag`: An excluded tag is present on the final structural composition. */
export class ExcludedTag
  extends Schema.TaggedError<ExcludedTag>()("ExcludedTag", { code: Schema.tag("excluded_tag"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("excluded_tag", props), options)
  }
}
/** `missing_capability`: A required capability is absent from the final structural composition. */
export class MissingCapability extends Schema.TaggedError<MissingCapability>()("MissingCapability", {
  code: Schema.tag("missing_capability"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("missing_capability", props), options)
  }
}
/** `excluded_capability`: An excluded capability is present on the final structural composition. */
export class ExcludedCapability extends Schema.TaggedError<ExcludedCapability>()("ExcludedCapability", {
  code: Schema.tag("excluded_capability"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("excluded_capability", props), options)
  }
}
/** `no_matching_rule`: A transformation has rules but none applies to the card. */
export class NoMatchingRule
  extends Schema.TaggedError<NoMatchingRule>()("NoMatchingRule", { code: Schema.tag("no_matching_rule"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("no_matching_rule", props), options)
  }
}
/** `ambiguous_anchor`: A sequence-scope binding by $anchor matches several root effects. */
export class AmbiguousAnchor
  extends Schema.TaggedError<AmbiguousAnchor>()("AmbiguousAnchor", { code: Schema.tag("ambiguous_anchor"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("ambiguous_anchor", props), options)
  }
}
/** `component_collision`: Two components of the effective card share an ID. */
export class ComponentCollision extends Schema.TaggedError<ComponentCollision>()("ComponentCollision", {
  code: Schema.tag("component_collision"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("component_collision", props), options)
  }
}
/** `invalid_composition`: The composed container fails the common compiler. */
export class InvalidComposition extends Schema.TaggedError<InvalidComposition>()("InvalidComposition", {
  code: Schema.tag("invalid_composition"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_composition", props), options)
  }
}
/** `match_limit`: A rule's selector matches more anchors than the per-rule match limit. */
export class MatchLimit
  extends Schema.TaggedError<MatchLimit>()("MatchLimit", { code: Schema.tag("match_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("match_limit", props), options)
  }
}
/** `expansion_limit`: A card has more than 256 expansions. */
export class ExpansionLimit
  extends Schema.TaggedError<ExpansionLimit>()("ExpansionLimit", { code: Schema.tag("expansion_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("expansion_limit", props), options)
  }
}
/** `unsealed_definition`: An authoring definition that is not closed cannot enter the ledger. */
export class UnsealedDefinition extends Schema.TaggedError<UnsealedDefinition>()("UnsealedDefinition", {
  code: Schema.tag("unsealed_definition"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsealed_definition", props), options)
  }
}
/** `unknown_card`: No card with this ID is published in the runtime. */
export class UnknownCard
  extends Schema.TaggedError<UnknownCard>()("UnknownCard", { code: Schema.tag("unknown_card"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_card", props), options)
  }
}
/** `unknown_transformation`: No transformation with this ID is published in the runtime. */
export class UnknownTransformation extends Schema.TaggedError<UnknownTransformation>()("UnknownTransformation", {
  code: Schema.tag("unknown_transformation"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_transformation", props), options)
  }
}
/** `entry_not_found`: No active ledger entry has this ID. */
export class EntryNotFound
  extends Schema.TaggedError<EntryNotFound>()("EntryNotFound", { code: Schema.tag("entry_not_found"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("entry_not_found", props), options)
  }
}
/** `not_eligible`: The card is not eligible for the transformation. */
export class NotEligible
  extends Schema.TaggedError<NotEligible>()("NotEligible", { code: Schema.tag("not_eligible"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("not_eligible", props), options)
  }
}
/** `slot_full`: The transformation's slot is at capacity on this card. */
export class SlotFull extends Schema.TaggedError<SlotFull>()("SlotFull", { code: Schema.tag("slot_full"), ...fields }) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("slot_full", props), options)
  }
}
/** `max_per_card`: The transformation is already applied maxPerCard times. */
export class MaxPerCard
  extends Schema.TaggedError<MaxPerCard>()("MaxPerCard", { code: Schema.tag("max_per_card"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("max_per_card", props), options)
  }
}
/** `excluded_transformation`: An active entry excludes this transformation, or it excludes one. */
export class ExcludedTransformation extends Schema.TaggedError<ExcludedTransformation>()("ExcludedTransformation", {
  code: Schema.tag("excluded_transformation"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("excluded_transformation", props), options)
  }
}
/** `dependency_violation`: Removing the entry would break another entry's requirements. */
export class DependencyViolation extends Schema.TaggedError<DependencyViolation>()("DependencyViolation", {
  code: Schema.tag("dependency_violation"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("dependency_violation", props), options)
  }
}
/** `not_authorized`: The activity does not authorize the transformation. */
export class NotAuthorized
  extends Schema.TaggedError<NotAuthorized>()("NotAuthorized", { code: Schema.tag("not_authorized"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("not_authorized", props), options)
  }
}
/** `unknown_activity`: No activity with this ID is published in the runtime (a query names a mode that does not exist). */
export class UnknownActivity
  extends Schema.TaggedError<UnknownActivity>()("UnknownActivity", { code: Schema.tag("unknown_activity"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_activity", props), options)
  }
}
/** `revision_conflict`: The command's expectedRevision is not the card's current revision. */
export class RevisionConflict extends Schema.TaggedError<RevisionConflict>()("RevisionConflict", {
  code: Schema.tag("revision_conflict"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("revision_conflict", props), options)
  }
}
/** `command_conflict`: A command ID was reused with a different payload. */
export class CommandConflict
  extends Schema.TaggedError<CommandConflict>()("CommandConflict", { code: Schema.tag("command_conflict"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("command_conflict", props), options)
  }
}
/** `branch_not_found`: No branch has this name. */
export class BranchNotFound
  extends Schema.TaggedError<BranchNotFound>()("BranchNotFound", { code: Schema.tag("branch_not_found"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("branch_not_found", props), options)
  }
}
/** `store_failure`: The ledger store could not complete the operation. */
export class StoreFailure
  extends Schema.TaggedError<StoreFailure>()("StoreFailure", { code: Schema.tag("store_failure"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("store_failure", props), options)
  }
}
/** `replay_mismatch`: A replay produced a fingerprint different from the recorded one. */
export class ReplayMismatch
  extends Schema.TaggedError<ReplayMismatch>()("ReplayMismatch", { code: Schema.tag("replay_mismatch"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("replay_mismatch", props), options)
  }
}
/** `store_not_found`: A read names a ledger store that does not exist (only writes create a store). */
export class StoreNotFound
  extends Schema.TaggedError<StoreNotFound>()("StoreNotFound", { code: Schema.tag("store_not_found"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("store_not_found", props), options)
  }
}
/** `store_unavailable`: The ledger store at this path or URL could not be opened or created. */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  code: Schema.tag("store_unavailable"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("store_unavailable", props), options)
  }
}
/** `store_corrupt`: The ledger store's pages fail the integrity check; it is refused for writes (run `cardfx ledger verify`). */
export class StoreCorrupt
  extends Schema.TaggedError<StoreCorrupt>()("StoreCorrupt", { code: Schema.tag("store_corrupt"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("store_corrupt", props), options)
  }
}
/** `fork_out_of_range`: A branch would fork at a sequence past the end of the history. */
export class ForkOutOfRange
  extends Schema.TaggedError<ForkOutOfRange>()("ForkOutOfRange", { code: Schema.tag("fork_out_of_range"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("fork_out_of_range", props), options)
  }
}
