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

/** The exit classes of the command line: 1 content or user mistake, 2 usage, 70 defect. */
export type ExitClass = 1 | 2 | 70

/** The HTTP statuses a diagnostic maps to. */
export type HttpStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 503

/** The part of cardfx that raises a code. */
export type DiagnosticDomain =
  | "input"
  | "content"
  | "compiler"
  | "composition"
  | "planner"
  | "store"
  | "executor"
  | "hallyu"
  | "cli"
  | "scale"
  | "server"

interface CodeEntry {
  readonly tag: string
  readonly domain: DiagnosticDomain
  readonly meaning: string
  /** The HTTP status `cardfx serve` answers with when this code is the first error (one column: it cannot drift from the code). */
  readonly status: HttpStatus
  /**
   * The exit class `cardfx` ends with when this code fails a command (one
   * column, like `status`): 1 (a content problem or a user mistake, the
   * default), 2 (a bad command line) or 70 (a defect).
   */
  readonly exit?: ExitClass
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
  file_unreadable: {
    tag: "FileUnreadable",
    domain: "input",
    meaning: "The file or folder could not be read.",
    status: 400
  },
  file_too_large: {
    tag: "FileTooLarge",
    domain: "input",
    meaning: "The file is larger than the input size cap.",
    limit: "inputBytes",
    status: 413
  },
  empty_file: {
    tag: "EmptyFile",
    domain: "input",
    meaning: "The file is empty or holds only white space.",
    status: 400
  },
  invalid_utf8: { tag: "InvalidUtf8", domain: "input", meaning: "The file is not valid UTF-8.", status: 400 },
  json_syntax: { tag: "JsonSyntax", domain: "input", meaning: "The file is not well-formed JSON.", status: 400 },
  depth_limit: {
    tag: "DepthLimit",
    domain: "input",
    meaning: "JSON nesting is deeper than the input depth cap.",
    limit: "inputDepth",
    status: 400
  },
  forbidden_key: {
    tag: "ForbiddenKey",
    domain: "input",
    meaning: "An object key is __proto__, constructor or prototype.",
    status: 400
  },
  duplicate_key: {
    tag: "DuplicateKey",
    domain: "input",
    meaning: "An object repeats a key; JSON.parse would silently keep the last one.",
    status: 400
  },
  unsafe_number: {
    tag: "UnsafeNumber",
    domain: "input",
    meaning: "A number is non-finite or outside the safe-integer range.",
    status: 400
  },
  schema_invalid: {
    tag: "SchemaInvalid",
    domain: "input",
    meaning: "A value does not have the shape its Schema requires.",
    status: 400
  },
  unknown_field: {
    tag: "UnknownField",
    domain: "input",
    meaning: "An object has a key its Schema does not declare.",
    status: 400
  },
  unclassified_file: {
    tag: "UnclassifiedFile",
    domain: "input",
    meaning: "cardfx cannot tell what kind of content a file holds.",
    status: 400
  },

  // ---- content packages and the common compiler ----
  unsupported_version: {
    tag: "UnsupportedVersion",
    domain: "content",
    meaning: "A version field names a version this engine does not support.",
    status: 422
  },
  duplicate_id: {
    tag: "DuplicateId",
    domain: "content",
    meaning: "An ID is declared more than once in its scope.",
    status: 409
  },
  invalid_id: {
    tag: "InvalidId",
    domain: "content",
    meaning: "An ID is not ASCII of the allowed characters or is longer than its limit.",
    status: 422
  },
  unknown_reference: {
    tag: "UnknownReference",
    domain: "content",
    meaning: "A reference names something that is not declared.",
    status: 422
  },
  symbol_limit: {
    tag: "SymbolLimit",
    domain: "content",
    meaning: "A symbol is longer than 128 characters.",
    limit: "symbolLength",
    status: 422
  },
  list_limit: {
    tag: "ListLimit",
    domain: "content",
    meaning: "A list holds more than 64 symbols.",
    limit: "listSymbols",
    status: 422
  },
  rule_limit: {
    tag: "RuleLimit",
    domain: "content",
    meaning: "A transformation has more than 32 composition rules.",
    limit: "rulesPerTransformation",
    status: 422
  },
  member_limit: {
    tag: "MemberLimit",
    domain: "content",
    meaning: "A rule's bundle has more than 64 members.",
    limit: "membersPerBundle",
    status: 422
  },
  name_limit: {
    tag: "NameLimit",
    domain: "content",
    meaning: "A locale table holds more than 4,096 display names.",
    limit: "namesPerLocale",
    status: 422
  },
  text_limit: {
    tag: "TextLimit",
    domain: "content",
    meaning: "A display text is longer than 200 characters.",
    limit: "displayTextLength",
    status: 422
  },
  missing_display_name: {
    tag: "MissingDisplayName",
    domain: "content",
    meaning:
      "A card, status or transformation has no display text in any locale table its content ships (a warning: it would show its ID).",
    status: 422
  },
  nesting_limit: {
    tag: "NestingLimit",
    domain: "compiler",
    meaning: "Effect children nest deeper than the effects validator allows.",
    limit: "effectDepth",
    status: 422
  },
  repeat_limit: {
    tag: "RepeatLimit",
    domain: "compiler",
    meaning: "An effect's repeat is outside 1..the effects validator's limit.",
    limit: "maxRepeat",
    status: 422
  },
  node_budget: {
    tag: "NodeBudget",
    domain: "compiler",
    meaning: "A container generates more than 4,096 effect nodes, children included.",
    limit: "generatedNodes",
    status: 422
  },
  order_overflow: {
    tag: "OrderOverflow",
    domain: "compiler",
    meaning: "An order value is outside the allowed order range.",
    limit: "orderMax",
    status: 422
  },
  contradiction: {
    tag: "Contradiction",
    domain: "content",
    meaning: "A declaration contradicts itself (e.g. a tag both required and excluded).",
    status: 422
  },
  empty_scope: {
    tag: "EmptyScope",
    domain: "content",
    meaning: "A rule or bundle would expand to nothing executable.",
    status: 422
  },
  invalid_binding: {
    tag: "InvalidBinding",
    domain: "compiler",
    meaning: "A payload binding does not point at a numeric component or a declared parameter.",
    status: 422
  },
  parameter_mismatch: {
    tag: "ParameterMismatch",
    domain: "compiler",
    meaning: "Supplied bundle parameters do not match the template's declared ones exactly.",
    status: 422
  },
  template_unbound: {
    tag: "TemplateUnbound",
    domain: "compiler",
    meaning: "A parameterized template is used as an ordinary bundle, without bindings.",
    status: 422
  },

  // ---- composition (the seed's codes first) ----
  transformation_invalid: {
    tag: "TransformationInvalid",
    domain: "composition",
    meaning: "A policy or structure failure that has no specialized code yet.",
    status: 422
  },
  missing_tag: {
    tag: "MissingTag",
    domain: "composition",
    meaning: "A required tag is absent from the final structural composition.",
    status: 422
  },
  excluded_tag: {
    tag: "ExcludedTag",
    domain: "composition",
    meaning: "An excluded tag is present on the final structural composition.",
    status: 422
  },
  missing_capability: {
    tag: "MissingCapability",
    domain: "composition",
    meaning: "A required capability is absent from the final structural composition.",
    status: 422
  },
  excluded_capability: {
    tag: "ExcludedCapability",
    domain: "composition",
    meaning: "An excluded capability is present on the final structural composition.",
    status: 422
  },
  no_matching_rule: {
    tag: "NoMatchingRule",
    domain: "composition",
    meaning: "A transformation has rules but none applies to the card.",
    status: 422
  },
  ambiguous_anchor: {
    tag: "AmbiguousAnchor",
    domain: "composition",
    meaning: "A sequence-scope binding by $anchor matches several root effects.",
    status: 422
  },
  component_collision: {
    tag: "ComponentCollision",
    domain: "composition",
    meaning: "Two components of the effective card share an ID.",
    status: 422
  },
  invalid_composition: {
    tag: "InvalidComposition",
    domain: "composition",
    meaning: "The composed container fails the common compiler.",
    status: 422
  },
  match_limit: {
    tag: "MatchLimit",
    domain: "composition",
    meaning: "A rule's selector matches more anchors than the per-rule match limit.",
    limit: "matchesPerRule",
    status: 422
  },
  expansion_limit: {
    tag: "ExpansionLimit",
    domain: "composition",
    meaning: "A card has more than 256 expansions.",
    limit: "expansionsPerCard",
    status: 422
  },
  unsealed_definition: {
    tag: "UnsealedDefinition",
    domain: "composition",
    meaning: "An authoring definition that is not closed cannot enter the ledger.",
    status: 422
  },

  // ---- planner and ledger ----
  unknown_card: {
    tag: "UnknownCard",
    domain: "planner",
    meaning: "No card with this ID is published in the runtime.",
    status: 404
  },
  unknown_transformation: {
    tag: "UnknownTransformation",
    domain: "planner",
    meaning: "No transformation with this ID is published in the runtime.",
    status: 404
  },
  entry_not_found: {
    tag: "EntryNotFound",
    domain: "planner",
    meaning: "No active ledger entry has this ID.",
    status: 404
  },
  not_eligible: {
    tag: "NotEligible",
    domain: "planner",
    meaning: "The card is not eligible for the transformation.",
    status: 422
  },
  slot_full: {
    tag: "SlotFull",
    domain: "planner",
    meaning: "The transformation's slot is at capacity on this card.",
    status: 422
  },
  max_per_card: {
    tag: "MaxPerCard",
    domain: "planner",
    meaning: "The transformation is already applied maxPerCard times.",
    status: 422
  },
  excluded_transformation: {
    tag: "ExcludedTransformation",
    domain: "planner",
    meaning: "An active entry excludes this transformation, or it excludes one.",
    status: 422
  },
  dependency_violation: {
    tag: "DependencyViolation",
    domain: "planner",
    meaning: "Removing the entry would break another entry's requirements.",
    status: 422
  },
  not_authorized: {
    tag: "NotAuthorized",
    domain: "planner",
    meaning: "The activity does not authorize the transformation.",
    status: 422
  },
  unknown_activity: {
    tag: "UnknownActivity",
    domain: "planner",
    meaning: "No activity with this ID is published in the runtime (a query names a mode that does not exist).",
    status: 404
  },
  revision_conflict: {
    tag: "RevisionConflict",
    domain: "store",
    meaning: "The command's expectedRevision is not the card's current revision.",
    status: 409
  },
  command_conflict: {
    tag: "CommandConflict",
    domain: "store",
    meaning: "A command ID was reused with a different payload.",
    status: 409
  },
  branch_not_found: { tag: "BranchNotFound", domain: "store", meaning: "No branch has this name.", status: 404 },
  store_failure: {
    tag: "StoreFailure",
    domain: "store",
    meaning: "The ledger store could not complete the operation.",
    status: 503
  },
  replay_mismatch: {
    tag: "ReplayMismatch",
    domain: "store",
    meaning: "A replay produced a fingerprint different from the recorded one.",
    status: 500
  },
  store_not_found: {
    tag: "StoreNotFound",
    domain: "store",
    meaning: "A read names a ledger store that does not exist (only writes create a store).",
    status: 422
  },
  store_unavailable: {
    tag: "StoreUnavailable",
    domain: "store",
    meaning: "The ledger store at this path or URL could not be opened or created.",
    status: 422
  },
  store_corrupt: {
    tag: "StoreCorrupt",
    domain: "store",
    meaning:
      "The ledger store's pages fail the integrity check; it is refused for writes (run `cardfx ledger verify`).",
    // The server's store, not the request: a client cannot fix it by changing the request.
    status: 503
  },
  fork_out_of_range: {
    tag: "ForkOutOfRange",
    domain: "store",
    meaning: "A branch would fork at a sequence past the end of the history.",
    status: 422
  },

  // ---- the common executor ----
  budget_exceeded: {
    tag: "BudgetExceeded",
    domain: "executor",
    meaning: "A sequence used more node attempts than its budget.",
    limit: "sequenceNodeBudget",
    status: 422
  },
  turn_limit: {
    tag: "TurnLimit",
    domain: "executor",
    meaning: "A turn would start past the turn counter's maximum (1,000,000).",
    status: 422
  },
  invalid_target: {
    tag: "InvalidTarget",
    domain: "executor",
    meaning: "A chosen target is missing, defeated or not allowed by the effect.",
    status: 422
  },
  actor_defeated: {
    tag: "ActorDefeated",
    domain: "executor",
    meaning: "The acting character is defeated or missing.",
    status: 422
  },
  unknown_character: {
    tag: "UnknownCharacter",
    domain: "executor",
    meaning: "A character ID is not in the combat state.",
    status: 422
  },
  nondeterminism: {
    tag: "Nondeterminism",
    domain: "executor",
    meaning: "Repeated runs of the same input produced different bytes.",
    status: 500
  },
  rng_mismatch: {
    tag: "RngMismatch",
    domain: "executor",
    meaning: "A replay did not consume the recorded random inputs.",
    status: 500
  },

  // ---- Hallyu Hex ----
  text_link_mismatch: {
    tag: "TextLinkMismatch",
    domain: "hallyu",
    meaning: "A card's effect texts joined with one space differ from its rules_text.",
    status: 422
  },
  unknown_operation: {
    tag: "UnknownOperation",
    domain: "hallyu",
    meaning: "An action names an operation outside the v0.1 vocabulary.",
    status: 422
  },
  missing_field: {
    tag: "MissingField",
    domain: "hallyu",
    meaning: "An action or effect lacks a field its operation or kind requires.",
    status: 422
  },
  unknown_event: {
    tag: "UnknownEvent",
    domain: "hallyu",
    meaning: "A trigger or event-count condition names an undeclared event.",
    status: 422
  },
  unknown_fact: {
    tag: "UnknownFact",
    domain: "hallyu",
    meaning: "A condition is headed by a fact the engine does not know.",
    status: 422
  },
  unknown_window: {
    tag: "UnknownWindow",
    domain: "hallyu",
    meaning: "A window or play window is not in the declared vocabulary.",
    status: 422
  },
  invalid_amount: {
    tag: "InvalidAmount",
    domain: "hallyu",
    meaning: "An amount is not allowed here (e.g. `all` outside damage prevention).",
    status: 422
  },
  effect_id_mismatch: {
    tag: "EffectIdMismatch",
    domain: "hallyu",
    meaning: "An effect ID is not `<card code>-E<n>` in array order.",
    status: 422
  },
  unreachable_effect: {
    tag: "UnreachableEffect",
    domain: "hallyu",
    meaning: "An effect can never run (an on-enter or activated effect on a card with no persistent zone).",
    status: 422
  },
  no_deck_list: {
    tag: "NoDeckList",
    domain: "hallyu",
    meaning: "A deck file declares no deck list, so no game can be set up from it.",
    status: 422
  },
  illegal_action: {
    tag: "IllegalAction",
    domain: "hallyu",
    meaning: "The action is not legal in the current game state.",
    status: 422
  },
  game_over: {
    tag: "GameOver",
    domain: "hallyu",
    meaning: "The game has ended; no further action is legal.",
    status: 409
  },
  unknown_agent: {
    tag: "UnknownAgent",
    domain: "hallyu",
    meaning:
      "An agent name that is not one of the agents offered here (random, greedy, ismcts; cheater only for measurement), or an agent for a seat that does not exist.",
    status: 422,
    exit: 2
  },
  invalid_iterations: {
    tag: "InvalidIterations",
    domain: "hallyu",
    meaning: "An agent's iteration budget that is not an integer in 1 to the maximum allowed.",
    status: 422,
    exit: 2
  },
  replay_incomplete: {
    tag: "ReplayIncomplete",
    domain: "hallyu",
    meaning: "A game log's actions end before the game does, and the log does not say it is partial.",
    status: 422
  },

  // ---- command line ----
  usage_error: {
    tag: "UsageError",
    domain: "cli",
    meaning: "The command line is not valid for this command.",
    status: 400,
    exit: 2
  },
  file_unwritable: {
    tag: "FileUnwritable",
    domain: "cli",
    meaning: "An output file or folder (--out, --log) cannot be written.",
    status: 400
  },

  // ---- scale-out (worker pools, cluster) ----
  simulation_split: {
    tag: "SimulationSplit",
    domain: "scale",
    meaning: "Partial simulation results do not cover adjacent game ranges of one seed.",
    status: 500
  },
  worker_failed: {
    tag: "WorkerFailed",
    domain: "scale",
    meaning: "A worker thread or cluster runner failed or died before answering.",
    status: 503
  },
  cluster_unreachable: {
    tag: "ClusterUnreachable",
    domain: "scale",
    meaning: "The cluster's PostgreSQL (--pg, --cluster) cannot be reached or its storage fails.",
    status: 503
  },
  cluster_no_runners: {
    tag: "ClusterNoRunners",
    domain: "scale",
    meaning: "No cluster runner is alive to play the shards of a --cluster simulation.",
    status: 503
  },
  cluster_port_in_use: {
    tag: "ClusterPortInUse",
    domain: "scale",
    meaning: "A cluster runner cannot listen on its --host/--port.",
    status: 503
  },

  // ---- the HTTP server (cardfx serve) ----
  unauthorized: {
    tag: "Unauthorized",
    domain: "server",
    meaning: "A request that needs a credential has none (the operator's bearer token or a seat's X-Seat-Secret).",
    status: 401
  },
  forbidden: {
    tag: "Forbidden",
    domain: "server",
    meaning: "The credential does not grant the request (wrong token or seat secret, the other seat, a log too early).",
    status: 403
  },
  unknown_route: {
    tag: "UnknownRoute",
    domain: "server",
    meaning: "No endpoint has this method and path.",
    status: 404
  },
  unknown_instance: {
    tag: "UnknownInstance",
    domain: "server",
    meaning: "No stored card instance has this ID on the branch.",
    status: 404
  },
  unknown_game: { tag: "UnknownGame", domain: "server", meaning: "No Hallyu Hex game has this ID.", status: 404 },
  body_too_large: {
    tag: "BodyTooLarge",
    domain: "server",
    meaning: "The request body is larger than the server's body cap.",
    status: 413
  },
  request_timeout: {
    tag: "RequestTimeout",
    domain: "server",
    meaning: "The request body or its handling took longer than the server's timeout.",
    status: 408
  },
  too_many_subscribers: {
    tag: "TooManySubscribers",
    domain: "server",
    meaning: "A game (or the server) has as many open event streams as it allows; retry later.",
    status: 503
  },
  rate_limited: {
    tag: "RateLimited",
    domain: "server",
    meaning:
      "This client created games or branches faster than the server's rate limit allows; retry after Retry-After.",
    status: 429
  },
  too_many_games: {
    tag: "TooManyGames",
    domain: "server",
    meaning: "The server has as many live Hallyu Hex games as it allows (--max-live-games); retry later.",
    status: 503
  },
  reload_invalid: {
    tag: "ReloadInvalid",
    domain: "server",
    meaning:
      "A reload found served content that does not load (a file with a syntax or schema error); the old runtime is kept.",
    status: 422
  },
  invitation_invalid: {
    tag: "InvitationInvalid",
    domain: "server",
    meaning: "No open invitation has this code: it is unknown, already used, or expired.",
    status: 404
  },
  step_conflict: {
    tag: "StepConflict",
    domain: "server",
    meaning: "An action's expectedStep is not the game's current step.",
    status: 409
  },
  reload_rejected: {
    tag: "ReloadRejected",
    domain: "server",
    meaning: "New content would break stored instances; the old runtime is kept.",
    status: 409
  },
  start_rejected: {
    tag: "StartRejected",
    domain: "server",
    meaning:
      "A server start refuses content that would break stored instances (each one listed); --allow-broken serves it anyway.",
    status: 409
  },
  unavailable: {
    tag: "Unavailable",
    domain: "server",
    meaning: "The server is shutting down and takes no new request.",
    status: 503
  },
  starting: {
    tag: "Starting",
    domain: "server",
    meaning: "The server is still starting (its handler is not in place yet); retry in a moment.",
    status: 503
  },
  port_in_use: {
    tag: "PortInUse",
    domain: "server",
    meaning: "cardfx serve cannot listen on its --host/--port (another process holds the port).",
    status: 503
  },
  method_not_allowed: {
    tag: "MethodNotAllowed",
    domain: "server",
    meaning: "The path exists but does not take this method; the Allow header lists the ones it takes.",
    status: 405
  },
  unsupported_media_type: {
    tag: "UnsupportedMediaType",
    domain: "server",
    meaning: "A request body that is not Content-Type: application/json.",
    status: 415
  },
  host_not_allowed: {
    tag: "HostNotAllowed",
    domain: "server",
    meaning: "The Host header is neither a loopback name nor one given with --allowed-host (DNS rebinding).",
    status: 403
  },
  origin_not_allowed: {
    tag: "OriginNotAllowed",
    domain: "server",
    meaning: "A mutation sent by a browser page of another origin not given with --cors-origin.",
    status: 403
  },
  internal_error: {
    tag: "InternalError",
    domain: "server",
    meaning: "A defect in cardfx itself (exit 70, HTTP 500), reported without its stack trace; please report it.",
    status: 500,
    exit: 70
  }
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
export const limitOf = (code: DiagnosticCode): keyof typeof Limits | undefined =>
  (DiagnosticCodeTable[code] as CodeEntry).limit

/** The HTTP status of a code. */
export const httpStatusOf = (code: DiagnosticCode): HttpStatus => table[code].status

/** The exit class of a code: the table's `exit` column, 1 when the row has none. */
export const exitClassOf = (code: DiagnosticCode): ExitClass => (table[code] as CodeEntry).exit ?? 1
