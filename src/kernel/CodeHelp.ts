/**
 * How to fix each diagnostic code: one short instruction per code of the one
 * table (`DiagnosticCode.ts`), written for the person who reads the
 * diagnostic. SARIF rules carry it as their help text (with a `helpUri` to
 * the code's entry in docs/codes.md), and docs/codes.md is generated from it
 * and the table (test/tooling/codes-doc.test.ts checks the file). A code
 * added to the table without a line here gets its meaning and a pointer to
 * the message (the codes-doc test names it, so the line gets written).
 *
 * @since 0.1.0
 */
import { type DiagnosticCode, DiagnosticCodeTable, exitClassOf, httpStatusOf } from "./DiagnosticCode.js"

/** Where the codes page is published: a code's entry is `#<code>`. */
export const CODES_DOC_URI = "https://cardfx.dev/docs/codes.md"

/** The anchor of a code's entry in docs/codes.md (its heading is the code itself). */
export const codeHelpUri = (code: DiagnosticCode): string => `${CODES_DOC_URI}#${code}`

const fixes = {
  file_unreadable:
    "Check that the path exists, is a regular file or folder, and is readable; fix or remove dangling links.",
  file_too_large:
    "Split the file into smaller ones (a package may hold many content files); the cap is in the message.",
  empty_file: "Write a JSON document into the file, or delete it.",
  invalid_utf8: "Save the file as UTF-8 (the message gives the byte offset of the first bad sequence).",
  json_syntax: "Fix the JSON at the line and column given: a missing comma, quote or bracket, or a trailing comma.",
  depth_limit: "Flatten the document: nest objects and arrays less deeply.",
  forbidden_key: "Rename the key: __proto__, constructor and prototype are never allowed.",
  duplicate_key: "Keep one of the repeated keys: JSON.parse would silently drop all but the last.",
  unsafe_number: "Use a finite number within ±9007199254740991 (write large identifiers as strings).",
  schema_invalid:
    "Give the value the shape the message expects (the JSON path says where); the JSON Schemas in `cardfx schema` describe every field.",
  unknown_field: "Remove the key or correct its spelling (the message suggests the closest declared field).",
  unclassified_file:
    "Put content files in a folder with manifest.json; a standalone file must be a scenario or a Hallyu Hex deck (or move it out).",
  unsupported_version:
    "Write a version this cardfx supports (see `cardfx --version` and the engineVersion in the docs).",
  duplicate_id: "Rename one of the two declarations, or remove the copy; IDs are unique in their scope.",
  invalid_id: "Use ASCII letters, digits and `_ . : - /` only, within the length limit.",
  unknown_reference:
    "Declare what is named, correct the spelling (the message suggests the closest ID), or add the package that declares it.",
  symbol_limit: "Shorten the symbol to at most 128 characters.",
  list_limit: "Keep at most 64 symbols in the list.",
  rule_limit: "Split the transformation: at most 32 composition rules each.",
  member_limit: "Split the bundle: at most 64 members per rule's bundle.",
  name_limit: "Split the locale table across files or drop unused names: at most 4,096 names per locale.",
  text_limit: "Shorten the display text to at most 200 characters.",
  missing_display_name:
    "Add the key named in the message to the package's `locales` section (one text per locale the content ships).",
  nesting_limit: "Nest effect children less deeply (the message gives the limit).",
  repeat_limit: "Use a repeat within the range the message gives.",
  node_budget: "Generate fewer effect nodes: fewer repeats, children or expanded bundles (at most 4,096).",
  order_overflow: "Use an order value within the allowed range.",
  contradiction: "Remove one side of the contradiction (e.g. a tag both required and excluded).",
  empty_scope: "Give the rule or bundle something executable to expand to, or remove it.",
  invalid_binding: "Bind to a numeric field of a component, or to a parameter the bundle declares.",
  parameter_mismatch: "Supply exactly the parameters the template declares, by the same names.",
  template_unbound: "Bind the template's parameters (effectBindings) where it is used, or make it an ordinary bundle.",
  transformation_invalid: "Read the message: the transformation breaks a structural rule; change its patches or rules.",
  missing_tag: "Add the required tag (through the card or a patch), or relax the requirement.",
  excluded_tag: "Remove the excluded tag, or relax the exclusion.",
  missing_capability: "Add the required capability, or relax the requirement.",
  excluded_capability: "Remove the excluded capability, or relax the exclusion.",
  no_matching_rule: "Adjust the rules' selectors or scopes so at least one applies to the card.",
  ambiguous_anchor: "Narrow the selector so that $anchor matches exactly one root effect.",
  component_collision: "Give one of the two components another componentId.",
  invalid_composition: "Read the compiler diagnostics in the message and change the patches or rules that cause them.",
  match_limit: "Narrow the rule's selector so it matches fewer anchors.",
  expansion_limit: "Apply fewer transformations to the card (at most 256 expansions).",
  unsealed_definition: "Close (seal) the definition before it enters the ledger.",
  unknown_card:
    "Use a card the runtime publishes (the message suggests the closest), or add the package that declares it.",
  unknown_transformation:
    "Use a transformation the runtime publishes (the message suggests the closest), or add its package.",
  entry_not_found: "Name an active ledger entry (list them with `cardfx ledger`).",
  not_eligible: "Choose a card the transformation's eligibility admits, or widen its eligibility.",
  slot_full: "Remove an entry from the slot first, or raise the slot's capacity.",
  max_per_card: "The transformation is already applied as often as allowed on this card; remove one first.",
  excluded_transformation: "Remove the excluding entry first, or drop the exclusion from the content.",
  dependency_violation: "Remove the entries that depend on this one first.",
  not_authorized: "Use an activity that authorizes the transformation, or authorize it in the activity.",
  unknown_activity: "Name an activity the runtime publishes (default `canonical_command`).",
  revision_conflict: "Read the card's current revision and send the command again with it as expectedRevision.",
  command_conflict: "Use a new command ID for a different payload (a command ID is idempotent).",
  branch_not_found: "Name an existing branch (default main), or create it first.",
  store_failure: "Check the store's disk or database and retry; the message says what failed.",
  replay_mismatch: "The history does not replay to its record: restore the store from a backup or re-seal the entry.",
  store_not_found: "Check the store path or URL; only writes create a store.",
  store_unavailable: "Check the store path or URL, its permissions and that the database is reachable.",
  store_corrupt: "Run `cardfx ledger verify`, then restore the store from a backup.",
  fork_out_of_range: "Fork at a sequence within the branch's history.",
  budget_exceeded: "Reduce the sequence's work (fewer repeats or triggers), or raise its budget.",
  turn_limit: "End the scenario before the turn counter's maximum.",
  invalid_target: "Choose a living target the effect allows.",
  actor_defeated: "Act with a living character of the state.",
  unknown_character: "Use a characterId declared in the combat state.",
  nondeterminism: "This is a defect in cardfx or in a plug-in: report it with the input.",
  rng_mismatch: "Replay with the recorded seed and inputs; the log may be from another version.",
  text_link_mismatch: "Make the effects' texts, joined with one space, equal the card's rules_text.",
  unknown_operation: "Use an operation of the v0.1 vocabulary (the deck's JSON Schema lists them).",
  missing_field: "Add the field the operation or effect kind requires (named in the message).",
  unknown_event: "Declare the event in effect_schema.events, or correct its spelling.",
  unknown_fact: "Use a fact the engine knows (the deck's JSON Schema lists them).",
  unknown_window: "Declare the window in effect_schema.windows, or correct its spelling.",
  invalid_amount: "Use a number here (`all` is allowed only for damage prevention).",
  effect_id_mismatch: "Number the effect IDs `<card code>-E1`, `-E2`, ... in array order.",
  unreachable_effect: "Give the card a persistent zone, or make the effect one that runs when the card is played.",
  no_deck_list: "Add a deck list to the deck file.",
  illegal_action: "Choose one of the legal actions of the current state (the game's `legal` list).",
  game_over: "Start a new game; this one has ended.",
  unknown_agent: "Use one of the agents offered (random, greedy, ismcts) for an existing seat.",
  invalid_iterations: "Give an integer iteration budget from 1 to the maximum in the message.",
  replay_incomplete: "Record the whole game, or mark the log as partial.",
  usage_error: "Correct the command line (`cardfx <command> --help` lists its arguments and options).",
  file_unwritable: "Choose an output path that does not exist yet (or may be replaced) in a writable folder.",
  simulation_split: "Merge results of adjacent game ranges of one seed only.",
  worker_failed: "Retry; if it repeats, run with --workers 1 and report the message.",
  cluster_unreachable: "Check the --pg/--cluster URL, that PostgreSQL runs and that its storage is healthy.",
  cluster_no_runners: "Start at least one cluster runner (`cardfx cluster run`) before a --cluster simulation.",
  cluster_port_in_use: "Give the runner a free --port, or stop the process that holds it.",
  unauthorized: "Send the credential: the operator's bearer token, or the seat's X-Seat-Secret.",
  forbidden: "Use a credential that grants this request (the right token or seat secret).",
  unknown_route: "Check the method and path against the API (GET /openapi.json).",
  unknown_instance: "Name a stored instance of this branch.",
  unknown_game: "Name a game the server holds (create one first).",
  body_too_large: "Send a smaller body, or raise the server's body cap.",
  request_timeout: "Send the body faster or make the request smaller; retry.",
  too_many_subscribers: "Close unused event streams and retry later.",
  step_conflict: "Read the game's current step and send the action again with it as expectedStep.",
  reload_rejected: "Fix the content so the stored instances still compose (each one is listed), then reload.",
  start_rejected: "Fix the content for the listed instances, or start with --allow-broken.",
  unavailable: "The server is shutting down: retry against the new instance.",
  starting: "Retry in a moment: the server is still starting.",
  port_in_use: "Give a free --port, or stop the process that holds it.",
  method_not_allowed: "Use one of the methods in the Allow header.",
  unsupported_media_type: "Send the body with Content-Type: application/json.",
  host_not_allowed: "Use a loopback host name, or start the server with --allowed-host for this one.",
  origin_not_allowed: "Start the server with --cors-origin for this page's origin.",
  internal_error: "This is a defect in cardfx: report it with the command or request that caused it.",
  rate_limited:
    "Wait the Retry-After seconds before creating more games or branches, or use the operator token (the limits are flags of cardfx serve).",
  too_many_games: "Retry when some games end, or raise --max-live-games on the server.",
  invitation_invalid:
    "Ask the inviter for a new invitation: a code works once, until it expires (--invitation-ttl), and only for its game.",
  reload_invalid:
    "Fix the content file named (its path is relative to the served package) at the line given, then reload again."
} as const satisfies Partial<Record<DiagnosticCode, string>>

const written: Partial<Record<DiagnosticCode, string>> = fixes

/** True when the code has its own written instruction (the codes-doc test holds every code to it). */
export const hasWrittenFix = (code: DiagnosticCode): boolean => written[code] !== undefined

/** How to fix a code: its written instruction, else a pointer to the message. */
export const howToFix = (code: DiagnosticCode): string =>
  written[code] ?? "Read the message: it says what was found and where; the JSON path points into the file."

/** A code's help text: what it means and how to fix it (SARIF `help.text`). */
export const codeHelpText = (code: DiagnosticCode): string =>
  `${DiagnosticCodeTable[code].meaning} How to fix: ${howToFix(code)}`

const exitWords = { 1: "1 (content or user mistake)", 2: "2 (usage)", 70: "70 (defect)" } as const

/** docs/codes.md, generated from the table and the instructions above. */
export const codesMarkdown = (codes: ReadonlyArray<DiagnosticCode>): string => {
  const lines = [
    "# Diagnostic codes",
    "",
    "<!-- Generated from src/kernel/DiagnosticCode.ts and src/kernel/CodeHelp.ts;",
    "     test/tooling/codes-doc.test.ts checks it (CARDFX_WRITE_CODES=1 rewrites it). -->",
    "",
    "Every code cardfx reports, in the order of the one table (`src/kernel/DiagnosticCode.ts`): what it",
    "means, the exit class a command ends with when it fails on it, the HTTP status `cardfx serve` answers",
    "with when it is the first error, and how to fix it. SARIF output (`--format sarif`) links each rule",
    "here (`helpUri`). A diagnostic's severity (error or warning) is the diagnostic's own: a warning never",
    "fails a command.",
    ""
  ]
  for (const code of codes) {
    const e = DiagnosticCodeTable[code]
    lines.push(
      `## ${code}`,
      "",
      `${e.meaning}`,
      "",
      `- Domain: ${e.domain}; error tag \`${e.tag}\``,
      `- Exit class: ${exitWords[exitClassOf(code)]}`,
      `- HTTP status: ${httpStatusOf(code)}`,
      `- How to fix: ${howToFix(code)}`,
      ""
    )
  }
  return lines.join("\n")
}
