/**
 * One `Schema.TaggedError` class per diagnostic code, one-to-one with
 * {@link DiagnosticCodeTable}: the class's `_tag` is the table's tag and its
 * `code` field is the code. Callers match on `_tag` (or `code`), never on
 * message text. `errorFromDiagnostic` and `diagnosticFromError` are total.
 *
 * @since 0.1.0
 */
import { Array as Arr, Schema } from "effect"
import {
  type Diagnostic,
  Diagnostic as DiagnosticSchema,
  diagnostic,
  type DiagnosticContext,
  DiagnosticContextFields
} from "./Diagnostic.js"
import { type DiagnosticCode, DiagnosticCodeTable } from "./DiagnosticCode.js"

const fields = {
  message: Schema.String,
  ...DiagnosticContextFields,
  /**
   * Every diagnostic of the failure, the one the error stands for first
   * (a failure keeps all of them, so no face has to go around a service to
   * get the rest).
   */
  diagnostics: Schema.NonEmptyArray(DiagnosticSchema)
}

/**
 * What an error is built from: its message and context, and optionally every
 * diagnostic of the failure (without them, the error's own diagnostic is the
 * only one).
 */
export interface ErrorProps extends DiagnosticContext {
  readonly message: string
  readonly diagnostics?: Arr.NonEmptyReadonlyArray<Diagnostic> | undefined
}

const contextKeys = Object.keys(DiagnosticContextFields) as ReadonlyArray<keyof DiagnosticContext>

const complete = (code: DiagnosticCode, props: ErrorProps) => {
  if (props.diagnostics !== undefined) return { ...props, diagnostics: props.diagnostics }
  const context: Record<string, unknown> = {}
  for (const k of contextKeys) if (props[k] !== undefined) context[k] = props[k]
  return { ...props, diagnostics: [diagnostic(code, props.message, context)] as const }
}

/** `file_unreadable`: The file or folder could not be read. */
export class FileUnreadable
  extends Schema.TaggedError<FileUnreadable>()("FileUnreadable", { code: Schema.tag("file_unreadable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_unreadable", props), options)
  }
}
/** `file_too_large`: The file is larger than the input size cap. */
export class FileTooLarge
  extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", { code: Schema.tag("file_too_large"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_too_large", props), options)
  }
}
/** `empty_file`: The file is empty or holds only white space. */
export class EmptyFile
  extends Schema.TaggedError<EmptyFile>()("EmptyFile", { code: Schema.tag("empty_file"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("empty_file", props), options)
  }
}
/** `invalid_utf8`: The file is not valid UTF-8. */
export class InvalidUtf8
  extends Schema.TaggedError<InvalidUtf8>()("InvalidUtf8", { code: Schema.tag("invalid_utf8"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_utf8", props), options)
  }
}
/** `json_syntax`: The file is not well-formed JSON. */
export class JsonSyntax
  extends Schema.TaggedError<JsonSyntax>()("JsonSyntax", { code: Schema.tag("json_syntax"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("json_syntax", props), options)
  }
}
/** `depth_limit`: JSON nesting is deeper than the input depth cap. */
export class DepthLimit
  extends Schema.TaggedError<DepthLimit>()("DepthLimit", { code: Schema.tag("depth_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("depth_limit", props), options)
  }
}
/** `forbidden_key`: An object key is __proto__, constructor or prototype. */
export class ForbiddenKey
  extends Schema.TaggedError<ForbiddenKey>()("ForbiddenKey", { code: Schema.tag("forbidden_key"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("forbidden_key", props), options)
  }
}
/** `duplicate_key`: An object repeats a key; JSON.parse would silently keep the last one. */
export class DuplicateKey
  extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", { code: Schema.tag("duplicate_key"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("duplicate_key", props), options)
  }
}
/** `unsafe_number`: A number is non-finite or outside the safe-integer range. */
export class UnsafeNumber
  extends Schema.TaggedError<UnsafeNumber>()("UnsafeNumber", { code: Schema.tag("unsafe_number"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsafe_number", props), options)
  }
}
/** `schema_invalid`: A value does not have the shape its Schema requires. */
export class SchemaInvalid
  extends Schema.TaggedError<SchemaInvalid>()("SchemaInvalid", { code: Schema.tag("schema_invalid"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("schema_invalid", props), options)
  }
}
/** `unknown_field`: An object has a key its Schema does not declare. */
export class UnknownField
  extends Schema.TaggedError<UnknownField>()("UnknownField", { code: Schema.tag("unknown_field"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_field", props), options)
  }
}
/** `unclassified_file`: cardfx cannot tell what kind of content a file holds. */
export class UnclassifiedFile extends Schema.TaggedError<UnclassifiedFile>()("UnclassifiedFile", {
  code: Schema.tag("unclassified_file"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unclassified_file", props), options)
  }
}
/** `unsupported_version`: A version field names a version this engine does not support. */
export class UnsupportedVersion extends Schema.TaggedError<UnsupportedVersion>()("UnsupportedVersion", {
  code: Schema.tag("unsupported_version"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsupported_version", props), options)
  }
}
/** `duplicate_id`: An ID is declared more than once in its scope. */
export class DuplicateId
  extends Schema.TaggedError<DuplicateId>()("DuplicateId", { code: Schema.tag("duplicate_id"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("duplicate_id", props), options)
  }
}
/** `invalid_id`: An ID is not ASCII of the allowed characters or is longer than its limit. */
export class InvalidId
  extends Schema.TaggedError<InvalidId>()("InvalidId", { code: Schema.tag("invalid_id"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_id", props), options)
  }
}
/** `unknown_reference`: A reference names something that is not declared. */
export class UnknownReference extends Schema.TaggedError<UnknownReference>()("UnknownReference", {
  code: Schema.tag("unknown_reference"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_reference", props), options)
  }
}
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
/** `store_corrupt`: The ledger store's pages fail the integrity check; it is refused for writes. */
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
/** `budget_exceeded`: A sequence used more node attempts than its budget. */
export class BudgetExceeded
  extends Schema.TaggedError<BudgetExceeded>()("BudgetExceeded", { code: Schema.tag("budget_exceeded"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("budget_exceeded", props), options)
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
/** `usage_error`: The command line is not valid for this command. */
export class UsageError
  extends Schema.TaggedError<UsageError>()("UsageError", { code: Schema.tag("usage_error"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("usage_error", props), options)
  }
}
/** `file_unwritable`: An output file or folder (--out, --log) cannot be written. */
export class FileUnwritable
  extends Schema.TaggedError<FileUnwritable>()("FileUnwritable", { code: Schema.tag("file_unwritable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_unwritable", props), options)
  }
}
/** `simulation_split`: Partial simulation results do not cover adjacent game ranges of one seed. */
export class SimulationSplit
  extends Schema.TaggedError<SimulationSplit>()("SimulationSplit", { code: Schema.tag("simulation_split"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("simulation_split", props), options)
  }
}
/** `worker_failed`: A worker thread or cluster runner failed or died before answering. */
export class WorkerFailed
  extends Schema.TaggedError<WorkerFailed>()("WorkerFailed", { code: Schema.tag("worker_failed"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("worker_failed", props), options)
  }
}
/** `cluster_unreachable`: The cluster's PostgreSQL (--pg, --cluster) cannot be reached or its storage fails. */
export class ClusterUnreachable extends Schema.TaggedError<ClusterUnreachable>()("ClusterUnreachable", {
  code: Schema.tag("cluster_unreachable"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_unreachable", props), options)
  }
}
/** `cluster_no_runners`: No cluster runner is alive to play the shards of a --cluster simulation. */
export class ClusterNoRunners extends Schema.TaggedError<ClusterNoRunners>()("ClusterNoRunners", {
  code: Schema.tag("cluster_no_runners"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_no_runners", props), options)
  }
}
/** `cluster_port_in_use`: A cluster runner cannot listen on its --host/--port. */
export class ClusterPortInUse extends Schema.TaggedError<ClusterPortInUse>()("ClusterPortInUse", {
  code: Schema.tag("cluster_port_in_use"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_port_in_use", props), options)
  }
}
/** `unauthorized`: A mutating request has no Authorization: Bearer token. */
export class Unauthorized
  extends Schema.TaggedError<Unauthorized>()("Unauthorized", { code: Schema.tag("unauthorized"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unauthorized", props), options)
  }
}
/** `forbidden`: The request's bearer token is not the server's token. */
export class Forbidden
  extends Schema.TaggedError<Forbidden>()("Forbidden", { code: Schema.tag("forbidden"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("forbidden", props), options)
  }
}
/** `unknown_route`: No endpoint has this method and path. */
export class UnknownRoute
  extends Schema.TaggedError<UnknownRoute>()("UnknownRoute", { code: Schema.tag("unknown_route"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_route", props), options)
  }
}
/** `unknown_instance`: No stored card instance has this ID on the branch. */
export class UnknownInstance
  extends Schema.TaggedError<UnknownInstance>()("UnknownInstance", { code: Schema.tag("unknown_instance"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_instance", props), options)
  }
}
/** `unknown_game`: No Hallyu Hex game has this ID. */
export class UnknownGame
  extends Schema.TaggedError<UnknownGame>()("UnknownGame", { code: Schema.tag("unknown_game"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_game", props), options)
  }
}
/** `body_too_large`: The request body is larger than the server's body cap. */
export class BodyTooLarge
  extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", { code: Schema.tag("body_too_large"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("body_too_large", props), options)
  }
}
/** `request_timeout`: The request body or its handling took longer than the server's timeout. */
export class RequestTimeout
  extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", { code: Schema.tag("request_timeout"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("request_timeout", props), options)
  }
}
/** `step_conflict`: An action's expectedStep is not the game's current step. */
export class StepConflict
  extends Schema.TaggedError<StepConflict>()("StepConflict", { code: Schema.tag("step_conflict"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("step_conflict", props), options)
  }
}
/** `reload_rejected`: New content would break stored instances; the old runtime is kept. */
export class ReloadRejected
  extends Schema.TaggedError<ReloadRejected>()("ReloadRejected", { code: Schema.tag("reload_rejected"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("reload_rejected", props), options)
  }
}
/** `start_rejected`: A server start refuses content that would break stored instances (each one listed); --allow-broken serves it anyway. */
export class StartRejected
  extends Schema.TaggedError<StartRejected>()("StartRejected", { code: Schema.tag("start_rejected"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("start_rejected", props), options)
  }
}
/** `unavailable`: The server is shutting down and takes no new request. */
export class Unavailable
  extends Schema.TaggedError<Unavailable>()("Unavailable", { code: Schema.tag("unavailable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unavailable", props), options)
  }
}
/** `starting`: The server is still starting (its handler is not in place yet); retry in a moment. */
export class Starting extends Schema.TaggedError<Starting>()("Starting", {
  code: Schema.tag("starting"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("starting", props), options)
  }
}
/** `port_in_use`: cardfx serve cannot listen on its --host/--port (another process holds the port). */
export class PortInUse extends Schema.TaggedError<PortInUse>()("PortInUse", {
  code: Schema.tag("port_in_use"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("port_in_use", props), options)
  }
}
/** `method_not_allowed`: The path exists but does not take this method; the Allow header lists the ones it takes. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  code: Schema.tag("method_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("method_not_allowed", props), options)
  }
}
/** `unsupported_media_type`: A request body that is not Content-Type: application/json. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: Schema.tag("unsupported_media_type"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsupported_media_type", props), options)
  }
}
/** `host_not_allowed`: The Host header is neither a loopback name nor one given with --allowed-host (DNS rebinding). */
export class HostNotAllowed extends Schema.TaggedError<HostNotAllowed>()("HostNotAllowed", {
  code: Schema.tag("host_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("host_not_allowed", props), options)
  }
}
/** `origin_not_allowed`: A mutation sent by a browser page of another origin not given with --cors-origin. */
export class OriginNotAllowed extends Schema.TaggedError<OriginNotAllowed>()("OriginNotAllowed", {
  code: Schema.tag("origin_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("origin_not_allowed", props), options)
  }
}
/** `internal_error`: A defect in cardfx itself (exit 70, HTTP 500), reported without its stack trace; please report it. */
export class InternalError
  extends Schema.TaggedError<InternalError>()("InternalError", { code: Schema.tag("internal_error"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("internal_error", props), options)
  }
}

/** The error class of every code. */
export const errorClassByCode = {
  file_unreadable: FileUnreadable,
  file_too_large: FileTooLarge,
  empty_file: EmptyFile,
  invalid_utf8: InvalidUtf8,
  json_syntax: JsonSyntax,
  depth_limit: DepthLimit,
  forbidden_key: ForbiddenKey,
  duplicate_key: DuplicateKey,
  unsafe_number: UnsafeNumber,
  schema_invalid: SchemaInvalid,
  unknown_field: UnknownField,
  unclassified_file: UnclassifiedFile,
  unsupported_version: UnsupportedVersion,
  duplicate_id: DuplicateId,
  invalid_id: InvalidId,
  unknown_reference: UnknownReference,
  symbol_limit: SymbolLimit,
  list_limit: ListLimit,
  rule_limit: RuleLimit,
  member_limit: MemberLimit,
  nesting_limit: NestingLimit,
  repeat_limit: RepeatLimit,
  node_budget: NodeBudget,
  order_overflow: OrderOverflow,
  contradiction: Contradiction,
  empty_scope: EmptyScope,
  invalid_binding: InvalidBinding,
  parameter_mismatch: ParameterMismatch,
  template_unbound: TemplateUnbound,
  transformation_invalid: TransformationInvalid,
  missing_tag: MissingTag,
  excluded_tag: ExcludedTag,
  missing_capability: MissingCapability,
  excluded_capability: ExcludedCapability,
  no_matching_rule: NoMatchingRule,
  ambiguous_anchor: AmbiguousAnchor,
  component_collision: ComponentCollision,
  invalid_composition: InvalidComposition,
  match_limit: MatchLimit,
  expansion_limit: ExpansionLimit,
  unsealed_definition: UnsealedDefinition,
  unknown_card: UnknownCard,
  unknown_transformation: UnknownTransformation,
  entry_not_found: EntryNotFound,
  not_eligible: NotEligible,
  slot_full: SlotFull,
  max_per_card: MaxPerCard,
  excluded_transformation: ExcludedTransformation,
  dependency_violation: DependencyViolation,
  not_authorized: NotAuthorized,
  unknown_activity: UnknownActivity,
  revision_conflict: RevisionConflict,
  command_conflict: CommandConflict,
  branch_not_found: BranchNotFound,
  store_failure: StoreFailure,
  replay_mismatch: ReplayMismatch,
  store_not_found: StoreNotFound,
  store_unavailable: StoreUnavailable,
  store_corrupt: StoreCorrupt,
  fork_out_of_range: ForkOutOfRange,
  budget_exceeded: BudgetExceeded,
  invalid_target: InvalidTarget,
  actor_defeated: ActorDefeated,
  unknown_character: UnknownCharacter,
  nondeterminism: Nondeterminism,
  rng_mismatch: RngMismatch,
  text_link_mismatch: TextLinkMismatch,
  unknown_operation: UnknownOperation,
  missing_field: MissingField,
  unknown_event: UnknownEvent,
  unknown_fact: UnknownFact,
  unknown_window: UnknownWindow,
  invalid_amount: InvalidAmount,
  effect_id_mismatch: EffectIdMismatch,
  unreachable_effect: UnreachableEffect,
  no_deck_list: NoDeckList,
  illegal_action: IllegalAction,
  game_over: GameOver,
  replay_incomplete: ReplayIncomplete,
  usage_error: UsageError,
  file_unwritable: FileUnwritable,
  simulation_split: SimulationSplit,
  worker_failed: WorkerFailed,
  cluster_unreachable: ClusterUnreachable,
  cluster_no_runners: ClusterNoRunners,
  cluster_port_in_use: ClusterPortInUse,
  unauthorized: Unauthorized,
  forbidden: Forbidden,
  unknown_route: UnknownRoute,
  unknown_instance: UnknownInstance,
  unknown_game: UnknownGame,
  body_too_large: BodyTooLarge,
  request_timeout: RequestTimeout,
  step_conflict: StepConflict,
  reload_rejected: ReloadRejected,
  start_rejected: StartRejected,
  unavailable: Unavailable,
  starting: Starting,
  port_in_use: PortInUse,
  method_not_allowed: MethodNotAllowed,
  unsupported_media_type: UnsupportedMediaType,
  host_not_allowed: HostNotAllowed,
  origin_not_allowed: OriginNotAllowed,
  internal_error: InternalError
} as const satisfies { readonly [C in DiagnosticCode]: unknown }

/** The union of every cardfx error. */
export type CardfxError = InstanceType<(typeof errorClassByCode)[DiagnosticCode]>

/** The error class carrying code `C`. */
export type ErrorOf<C extends DiagnosticCode> = InstanceType<(typeof errorClassByCode)[C]>

/** What every error class is built from: a message, the context fields and every diagnostic. */
export type ErrorInit = ErrorProps

/** One constructor per code, typed by its code (so building an error never needs a cast). */
const makers: { readonly [C in DiagnosticCode]: (init: ErrorInit) => ErrorOf<C> } = {
  file_unreadable: (i) => new FileUnreadable(i),
  file_too_large: (i) => new FileTooLarge(i),
  empty_file: (i) => new EmptyFile(i),
  invalid_utf8: (i) => new InvalidUtf8(i),
  json_syntax: (i) => new JsonSyntax(i),
  depth_limit: (i) => new DepthLimit(i),
  forbidden_key: (i) => new ForbiddenKey(i),
  duplicate_key: (i) => new DuplicateKey(i),
  unsafe_number: (i) => new UnsafeNumber(i),
  schema_invalid: (i) => new SchemaInvalid(i),
  unknown_field: (i) => new UnknownField(i),
  unclassified_file: (i) => new UnclassifiedFile(i),
  unsupported_version: (i) => new UnsupportedVersion(i),
  duplicate_id: (i) => new DuplicateId(i),
  invalid_id: (i) => new InvalidId(i),
  unknown_reference: (i) => new UnknownReference(i),
  symbol_limit: (i) => new SymbolLimit(i),
  list_limit: (i) => new ListLimit(i),
  rule_limit: (i) => new RuleLimit(i),
  member_limit: (i) => new MemberLimit(i),
  nesting_limit: (i) => new NestingLimit(i),
  repeat_limit: (i) => new RepeatLimit(i),
  node_budget: (i) => new NodeBudget(i),
  order_overflow: (i) => new OrderOverflow(i),
  contradiction: (i) => new Contradiction(i),
  empty_scope: (i) => new EmptyScope(i),
  invalid_binding: (i) => new InvalidBinding(i),
  parameter_mismatch: (i) => new ParameterMismatch(i),
  template_unbound: (i) => new TemplateUnbound(i),
  transformation_invalid: (i) => new TransformationInvalid(i),
  missing_tag: (i) => new MissingTag(i),
  excluded_tag: (i) => new ExcludedTag(i),
  missing_capability: (i) => new MissingCapability(i),
  excluded_capability: (i) => new ExcludedCapability(i),
  no_matching_rule: (i) => new NoMatchingRule(i),
  ambiguous_anchor: (i) => new AmbiguousAnchor(i),
  component_collision: (i) => new ComponentCollision(i),
  invalid_composition: (i) => new InvalidComposition(i),
  match_limit: (i) => new MatchLimit(i),
  expansion_limit: (i) => new ExpansionLimit(i),
  unsealed_definition: (i) => new UnsealedDefinition(i),
  unknown_card: (i) => new UnknownCard(i),
  unknown_transformation: (i) => new UnknownTransformation(i),
  entry_not_found: (i) => new EntryNotFound(i),
  not_eligible: (i) => new NotEligible(i),
  slot_full: (i) => new SlotFull(i),
  max_per_card: (i) => new MaxPerCard(i),
  excluded_transformation: (i) => new ExcludedTransformation(i),
  dependency_violation: (i) => new DependencyViolation(i),
  not_authorized: (i) => new NotAuthorized(i),
  unknown_activity: (i) => new UnknownActivity(i),
  revision_conflict: (i) => new RevisionConflict(i),
  command_conflict: (i) => new CommandConflict(i),
  branch_not_found: (i) => new BranchNotFound(i),
  store_failure: (i) => new StoreFailure(i),
  replay_mismatch: (i) => new ReplayMismatch(i),
  store_not_found: (i) => new StoreNotFound(i),
  store_unavailable: (i) => new StoreUnavailable(i),
  store_corrupt: (i) => new StoreCorrupt(i),
  fork_out_of_range: (i) => new ForkOutOfRange(i),
  budget_exceeded: (i) => new BudgetExceeded(i),
  invalid_target: (i) => new InvalidTarget(i),
  actor_defeated: (i) => new ActorDefeated(i),
  unknown_character: (i) => new UnknownCharacter(i),
  nondeterminism: (i) => new Nondeterminism(i),
  rng_mismatch: (i) => new RngMismatch(i),
  text_link_mismatch: (i) => new TextLinkMismatch(i),
  unknown_operation: (i) => new UnknownOperation(i),
  missing_field: (i) => new MissingField(i),
  unknown_event: (i) => new UnknownEvent(i),
  unknown_fact: (i) => new UnknownFact(i),
  unknown_window: (i) => new UnknownWindow(i),
  invalid_amount: (i) => new InvalidAmount(i),
  effect_id_mismatch: (i) => new EffectIdMismatch(i),
  unreachable_effect: (i) => new UnreachableEffect(i),
  no_deck_list: (i) => new NoDeckList(i),
  illegal_action: (i) => new IllegalAction(i),
  game_over: (i) => new GameOver(i),
  replay_incomplete: (i) => new ReplayIncomplete(i),
  usage_error: (i) => new UsageError(i),
  file_unwritable: (i) => new FileUnwritable(i),
  simulation_split: (i) => new SimulationSplit(i),
  worker_failed: (i) => new WorkerFailed(i),
  cluster_unreachable: (i) => new ClusterUnreachable(i),
  cluster_no_runners: (i) => new ClusterNoRunners(i),
  cluster_port_in_use: (i) => new ClusterPortInUse(i),
  unauthorized: (i) => new Unauthorized(i),
  forbidden: (i) => new Forbidden(i),
  unknown_route: (i) => new UnknownRoute(i),
  unknown_instance: (i) => new UnknownInstance(i),
  unknown_game: (i) => new UnknownGame(i),
  body_too_large: (i) => new BodyTooLarge(i),
  request_timeout: (i) => new RequestTimeout(i),
  step_conflict: (i) => new StepConflict(i),
  reload_rejected: (i) => new ReloadRejected(i),
  start_rejected: (i) => new StartRejected(i),
  unavailable: (i) => new Unavailable(i),
  starting: (i) => new Starting(i),
  port_in_use: (i) => new PortInUse(i),
  method_not_allowed: (i) => new MethodNotAllowed(i),
  unsupported_media_type: (i) => new UnsupportedMediaType(i),
  host_not_allowed: (i) => new HostNotAllowed(i),
  origin_not_allowed: (i) => new OriginNotAllowed(i),
  internal_error: (i) => new InternalError(i)
}

/** The diagnostic a failure stands for: its first error (or its first diagnostic). */
const headOf = <D extends Diagnostic>(ds: Arr.NonEmptyReadonlyArray<D>): D =>
  ds.find((d) => d.severity === "error") ?? ds[0]

/** The tagged error of `head`'s code carrying `all` (head first among them, by convention). */
export const errorWith = <C extends DiagnosticCode>(
  head: Diagnostic & { readonly code: C },
  all: Arr.NonEmptyReadonlyArray<Diagnostic>
): ErrorOf<C> => {
  const { code: _code, severity: _severity, ...init } = head
  return makers[head.code]({ ...init, diagnostics: all })
}

/** Builds the tagged error for one diagnostic (total over codes); its `diagnostics` are `[d]`. */
export const errorFromDiagnostic = <C extends DiagnosticCode>(d: Diagnostic & { readonly code: C }): ErrorOf<C> =>
  errorWith(d, [d])

/**
 * The one way a failure becomes a tagged error: the first error diagnostic
 * (else the first diagnostic) decides the class, and the error carries all of
 * them. With no diagnostic at all, `fallback` stands for the failure.
 */
export const errorFromDiagnostics = <C extends DiagnosticCode = DiagnosticCode>(
  ds: ReadonlyArray<Diagnostic & { readonly code: C }>,
  fallback: Diagnostic & { readonly code: C }
): ErrorOf<C> => {
  const all: Arr.NonEmptyReadonlyArray<Diagnostic & { readonly code: C }> = Arr.isNonEmptyReadonlyArray(ds)
    ? ds
    : [fallback]
  return errorWith(headOf(all), all)
}

/** The tagged error of one code, built from a message and context; `also` are the failure's further diagnostics. */
export const errorOf = <C extends DiagnosticCode>(
  code: C,
  message: string,
  context: DiagnosticContext = {},
  also: ReadonlyArray<Diagnostic> = []
): ErrorOf<C> => {
  const head: Diagnostic & { readonly code: C } = { ...diagnostic(code, message, context), code }
  return errorWith(head, [head, ...also])
}

/** The diagnostic an error stands for (its head). */
export const diagnosticFromError = (e: CardfxError): Diagnostic => {
  const { _tag, code, diagnostics: _all, message, ...context } = e
  return diagnostic(code, message, context)
}

/** Every diagnostic of an error, the one it stands for first. */
export const diagnosticsOf = (e: CardfxError): Arr.NonEmptyReadonlyArray<Diagnostic> => e.diagnostics

const tags: ReadonlySet<string> = new Set(Object.values(DiagnosticCodeTable).map((entry) => entry.tag))

/** True for any cardfx tagged error. */
export const isCardfxError = (u: unknown): u is CardfxError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && tags.has(u._tag) && "code" in u
