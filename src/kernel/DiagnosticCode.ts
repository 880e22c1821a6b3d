/**
 * The one table of diagnostic codes. Every code cardfx can report is defined
 * here and nowhere else: its error tag (the `_tag` of the `Schema.TaggedError`
 * class that carries it, one-to-one), the domain that raises it and a one-line
 * meaning. `test/kernel/diagnostic-table.test.ts` checks the table against the
 * error classes; after a whole-suite run, `test/support/codes-global.ts`
 * checks that every code was observed on a value some test produced.
 *
 * @since 0.1.0
 */
import type { Limits } from "./Limits.js"

interface CodeEntry {
  readonly tag: string
  readonly domain: "input" | "content" | "compiler" | "composition" | "planner" | "store" | "executor" | "hallyu" | "cli" | "scale"
  readonly meaning: string
  /**
   * A limit code names the `Limits` entry it enforces. It is reported only for
   * a well-typed value past that number, with `details.limit` and
   * `details.actual`; a value of the wrong type at the same place is
   * `schema_invalid` (test/composition/schema/limit-codes.test.ts has a row
   * per limit code).
   */
  readonly limit?: keyof typeof Limits
}

const table = {
  // ---- hardened input (any JSON file) ----
  file_unreadable: { tag: "FileUnreadable", domain: "input", meaning: "The file or folder could not be read." },
  file_too_large: { tag: "FileTooLarge", domain: "input", meaning: "The file is larger than the input size cap.", limit: "inputBytes" },
  empty_file: { tag: "EmptyFile", domain: "input", meaning: "The file is empty or holds only white space." },
  invalid_utf8: { tag: "InvalidUtf8", domain: "input", meaning: "The file is not valid UTF-8." },
  json_syntax: { tag: "JsonSyntax", domain: "input", meaning: "The file is not well-formed JSON." },
  depth_limit: { tag: "DepthLimit", domain: "input", meaning: "JSON nesting is deeper than the input depth cap.", limit: "inputDepth" },
  forbidden_key: { tag: "ForbiddenKey", domain: "input", meaning: "An object key is __proto__, constructor or prototype." },
  duplicate_key: { tag: "DuplicateKey", domain: "input", meaning: "An object repeats a key; JSON.parse would silently keep the last one." },
  unsafe_number: { tag: "UnsafeNumber", domain: "input", meaning: "A number is non-finite or outside the safe-integer range." },
  schema_invalid: { tag: "SchemaInvalid", domain: "input", meaning: "A value does not have the shape its Schema requires." },
  unknown_field: { tag: "UnknownField", domain: "input", meaning: "An object has a key its Schema does not declare." },
  unclassified_file: { tag: "UnclassifiedFile", domain: "input", meaning: "cardfx cannot tell what kind of content a file holds." },

  // ---- content packages and the common compiler ----
  unsupported_version: { tag: "UnsupportedVersion", domain: "content", meaning: "A version field names a version this engine does not support." },
  duplicate_id: { tag: "DuplicateId", domain: "content", meaning: "An ID is declared more than once in its scope." },
  invalid_id: { tag: "InvalidId", domain: "content", meaning: "An ID is not ASCII of the allowed characters or is longer than its limit." },
  unknown_reference: { tag: "UnknownReference", domain: "content", meaning: "A reference names something that is not declared." },
  symbol_limit: { tag: "SymbolLimit", domain: "content", meaning: "A symbol is longer than 128 characters.", limit: "symbolLength" },
  list_limit: { tag: "ListLimit", domain: "content", meaning: "A list holds more than 64 symbols.", limit: "listSymbols" },
  rule_limit: { tag: "RuleLimit", domain: "content", meaning: "A transformation has more than 32 composition rules.", limit: "rulesPerTransformation" },
  member_limit: { tag: "MemberLimit", domain: "content", meaning: "A rule's bundle has more than 64 members.", limit: "membersPerBundle" },
  nesting_limit: { tag: "NestingLimit", domain: "compiler", meaning: "Effect children nest deeper than the effects validator allows.", limit: "effectDepth" },
  repeat_limit: { tag: "RepeatLimit", domain: "compiler", meaning: "An effect's repeat is outside 1..the effects validator's limit.", limit: "maxRepeat" },
  node_budget: { tag: "NodeBudget", domain: "compiler", meaning: "A container generates more than 4,096 effect nodes, children included.", limit: "generatedNodes" },
  order_overflow: { tag: "OrderOverflow", domain: "compiler", meaning: "An order value is outside the allowed order range.", limit: "orderMax" },
  contradiction: { tag: "Contradiction", domain: "content", meaning: "A declaration contradicts itself (e.g. a tag both required and excluded)." },
  empty_scope: { tag: "EmptyScope", domain: "content", meaning: "A rule or bundle would expand to nothing executable." },
  invalid_binding: { tag: "InvalidBinding", domain: "compiler", meaning: "A payload binding does not point at a numeric component or a declared parameter." },
  parameter_mismatch: { tag: "ParameterMismatch", domain: "compiler", meaning: "Supplied bundle parameters do not match the template's declared ones exactly." },
  template_unbound: { tag: "TemplateUnbound", domain: "compiler", meaning: "A parameterized template is used as an ordinary bundle, without bindings." },

  // ---- composition (the seed's codes first) ----
  transformation_invalid: { tag: "TransformationInvalid", domain: "composition", meaning: "A policy or structure failure that has no specialized code yet." },
  missing_tag: { tag: "MissingTag", domain: "composition", meaning: "A required tag is absent from the final structural composition." },
  excluded_tag: { tag: "ExcludedTag", domain: "composition", meaning: "An excluded tag is present on the final structural composition." },
  missing_capability: { tag: "MissingCapability", domain: "composition", meaning: "A required capability is absent from the final structural composition." },
  excluded_capability: { tag: "ExcludedCapability", domain: "composition", meaning: "An excluded capability is present on the final structural composition." },
  no_matching_rule: { tag: "NoMatchingRule", domain: "composition", meaning: "A transformation has rules but none applies to the card." },
  ambiguous_anchor: { tag: "AmbiguousAnchor", domain: "composition", meaning: "A sequence-scope binding by $anchor matches several root effects." },
  component_collision: { tag: "ComponentCollision", domain: "composition", meaning: "Two components of the effective card share an ID." },
  invalid_composition: { tag: "InvalidComposition", domain: "composition", meaning: "The composed container fails the common compiler." },
  match_limit: { tag: "MatchLimit", domain: "composition", meaning: "A rule's selector matches more anchors than the per-rule match limit.", limit: "matchesPerRule" },
  expansion_limit: { tag: "ExpansionLimit", domain: "composition", meaning: "A card has more than 256 expansions.", limit: "expansionsPerCard" },
  unsealed_definition: { tag: "UnsealedDefinition", domain: "composition", meaning: "An authoring definition that is not closed cannot enter the ledger." },

  // ---- planner and ledger ----
  unknown_card: { tag: "UnknownCard", domain: "planner", meaning: "No card with this ID is published in the runtime." },
  unknown_transformation: { tag: "UnknownTransformation", domain: "planner", meaning: "No transformation with this ID is published in the runtime." },
  entry_not_found: { tag: "EntryNotFound", domain: "planner", meaning: "No active ledger entry has this ID." },
  not_eligible: { tag: "NotEligible", domain: "planner", meaning: "The card is not eligible for the transformation." },
  slot_full: { tag: "SlotFull", domain: "planner", meaning: "The transformation's slot is at capacity on this card." },
  max_per_card: { tag: "MaxPerCard", domain: "planner", meaning: "The transformation is already applied maxPerCard times." },
  excluded_transformation: { tag: "ExcludedTransformation", domain: "planner", meaning: "An active entry excludes this transformation, or it excludes one." },
  dependency_violation: { tag: "DependencyViolation", domain: "planner", meaning: "Removing the entry would break another entry's requirements." },
  not_authorized: { tag: "NotAuthorized", domain: "planner", meaning: "The activity does not authorize the transformation." },
  revision_conflict: { tag: "RevisionConflict", domain: "store", meaning: "The command's expectedRevision is not the card's current revision." },
  command_conflict: { tag: "CommandConflict", domain: "store", meaning: "A command ID was reused with a different payload." },
  branch_not_found: { tag: "BranchNotFound", domain: "store", meaning: "No branch has this name." },
  store_failure: { tag: "StoreFailure", domain: "store", meaning: "The ledger store could not complete the operation." },
  replay_mismatch: { tag: "ReplayMismatch", domain: "store", meaning: "A replay produced a fingerprint different from the recorded one." },
  store_not_found: { tag: "StoreNotFound", domain: "store", meaning: "A read names a ledger store that does not exist (only writes create a store)." },
  store_unavailable: { tag: "StoreUnavailable", domain: "store", meaning: "The ledger store at this path or URL could not be opened or created." },
  store_corrupt: { tag: "StoreCorrupt", domain: "store", meaning: "The ledger store's pages fail the integrity check; it is refused for writes." },
  fork_out_of_range: { tag: "ForkOutOfRange", domain: "store", meaning: "A branch would fork at a sequence past the end of the history." },

  // ---- the common executor ----
  budget_exceeded: { tag: "BudgetExceeded", domain: "executor", meaning: "A sequence used more node attempts than its budget.", limit: "sequenceNodeBudget" },
  invalid_target: { tag: "InvalidTarget", domain: "executor", meaning: "A chosen target is missing, defeated or not allowed by the effect." },
  actor_defeated: { tag: "ActorDefeated", domain: "executor", meaning: "The acting character is defeated or missing." },
  unknown_character: { tag: "UnknownCharacter", domain: "executor", meaning: "A character ID is not in the combat state." },
  nondeterminism: { tag: "Nondeterminism", domain: "executor", meaning: "Repeated runs of the same input produced different bytes." },
  rng_mismatch: { tag: "RngMismatch", domain: "executor", meaning: "A replay did not consume the recorded random inputs." },

  // ---- Hallyu Hex ----
  text_link_mismatch: { tag: "TextLinkMismatch", domain: "hallyu", meaning: "A card's effect texts joined with one space differ from its rules_text." },
  unknown_operation: { tag: "UnknownOperation", domain: "hallyu", meaning: "An action names an operation outside the v0.1 vocabulary." },
  missing_field: { tag: "MissingField", domain: "hallyu", meaning: "An action or effect lacks a field its operation or kind requires." },
  unknown_event: { tag: "UnknownEvent", domain: "hallyu", meaning: "A trigger or event-count condition names an undeclared event." },
  unknown_fact: { tag: "UnknownFact", domain: "hallyu", meaning: "A condition is headed by a fact the engine does not know." },
  unknown_window: { tag: "UnknownWindow", domain: "hallyu", meaning: "A window or play window is not in the declared vocabulary." },
  invalid_amount: { tag: "InvalidAmount", domain: "hallyu", meaning: "An amount is not allowed here (e.g. `all` outside damage prevention)." },
  effect_id_mismatch: { tag: "EffectIdMismatch", domain: "hallyu", meaning: "An effect ID is not `<card code>-E<n>` in array order." },
  unreachable_effect: { tag: "UnreachableEffect", domain: "hallyu", meaning: "An effect can never run (an on-enter or activated effect on a card with no persistent zone)." },
  no_deck_list: { tag: "NoDeckList", domain: "hallyu", meaning: "A deck file declares no deck list, so no game can be set up from it." },
  illegal_action: { tag: "IllegalAction", domain: "hallyu", meaning: "The action is not legal in the current game state." },
  game_over: { tag: "GameOver", domain: "hallyu", meaning: "The game has ended; no further action is legal." },
  replay_incomplete: { tag: "ReplayIncomplete", domain: "hallyu", meaning: "A game log's actions end before the game does, and the log does not say it is partial." },

  // ---- command line ----
  usage_error: { tag: "UsageError", domain: "cli", meaning: "The command line is not valid for this command." },
  file_unwritable: { tag: "FileUnwritable", domain: "cli", meaning: "An output file or folder (--out, --log) cannot be written." },
  internal_error: { tag: "InternalError", domain: "cli", meaning: "A defect in cardfx itself (exit 70); please report it." },

  // ---- scale-out (worker pools, cluster) ----
  simulation_split: { tag: "SimulationSplit", domain: "scale", meaning: "Partial simulation results do not cover adjacent game ranges of one seed." },
  worker_failed: { tag: "WorkerFailed", domain: "scale", meaning: "A worker thread or cluster runner failed or died before answering." }
} as const satisfies Record<string, CodeEntry>

/** Every diagnostic code, with its error tag, domain and meaning. */
export const DiagnosticCodeTable: { readonly [C in DiagnosticCode]: (typeof table)[C] } = table

/** A diagnostic code: a key of {@link DiagnosticCodeTable}. */
export type DiagnosticCode = keyof typeof table

/** The error tag that carries a code. */
export type DiagnosticTag = (typeof table)[DiagnosticCode]["tag"]

/** All codes in table order. */
export const diagnosticCodes: ReadonlyArray<DiagnosticCode> = Object.keys(table) as Array<DiagnosticCode>

export const isDiagnosticCode = (u: unknown): u is DiagnosticCode =>
  typeof u === "string" && Object.prototype.hasOwnProperty.call(table, u)

/** The limit codes: codes whose table row names the `Limits` entry they enforce. */
export const limitCodes: ReadonlyArray<DiagnosticCode> = diagnosticCodes.filter(
  (c) => (DiagnosticCodeTable[c] as CodeEntry).limit !== undefined
)

/** The `Limits` entry a limit code enforces (undefined for other codes). */
export const limitOf = (code: DiagnosticCode): keyof typeof Limits | undefined => (DiagnosticCodeTable[code] as CodeEntry).limit
