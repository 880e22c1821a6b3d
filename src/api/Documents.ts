/**
 * The JSON documents of `cardfx serve` that had no Schema yet, written once
 * here and exported from the package root so the CLI, the server, the typed
 * client and the workbench all read the same shapes: the error body, the
 * runtime summary, request bodies (assess, discover, stored commands,
 * branches, scenario runs, Hallyu Hex games and actions) and the stored
 * instance, history, replay and Hallyu Hex game documents. Documents that
 * already had a Schema (`AssessResult`, `Discovery`, `CommandOutcome`,
 * `CardInspection`, `ScenarioReport`, the game log) are reused as they are.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import {
  CardInspection,
  CardLedger,
  CombatState,
  Diagnostic,
  DiagnosticCodeSchema,
  EffectiveCardDefinition,
  EventBody,
  GameLogSchema,
  LedgerCommand,
  PackagePin,
  RequestId,
  ScenarioLedgers,
  ScenarioReport,
  ScenarioStep,
  SchemaExt
} from "./Schemas.js"

/** A string a request may carry, at most `max` characters (every string of a request has a limit). */
const text = (max: number) => Schema.String.pipe(Schema.maxLength(max))

// ---------------------------------------------------------------- errors

/** Every error response body: the first error's code and message, and every diagnostic in the CLI's shape. */
export const ErrorBody = Schema.Struct({
  code: DiagnosticCodeSchema,
  message: Schema.String,
  diagnostics: Schema.Array(Diagnostic)
}).annotations({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

/** A body Schema that reports unknown keys (`unknown_field`) instead of dropping them. */
const strict = <S extends Schema.Schema.Any>(s: S, identifier: string): S =>
  s.annotations({ identifier, parseOptions: { onExcessProperty: "error" } }) as S

// ---------------------------------------------------------------- runtime

/** `GET /v1/health`. */
export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  /** `serve --workers N`: every worker (whichever answered), by slot. */
  workers: Schema.optional(Schema.Array(
    Schema.Struct({
      worker: Schema.Int,
      pid: Schema.Int,
      status: Schema.Literal("starting", "ok", "down"),
      restarts: Schema.Int
    }).annotations({ identifier: "WorkerHealth" })
  ))
}).annotations({ identifier: "Health" })
export type Health = typeof Health.Type

/** A published package's pin (the ledger's Schema: one definition). */
export const PackagePinDocument = PackagePin

/**
 * One locale's display names of the served content: the `locales` sections
 * of the served packages, gathered (names are content; a client resolves a
 * `nameKey` here and falls back to the ID).
 */
export const RuntimeLocale = Schema.Struct({
  locale: SchemaExt.described(Schema.String, "A BCP 47 locale tag such as en or pt-BR."),
  names: SchemaExt.described(
    Schema.Record({ key: Schema.String, value: Schema.String }),
    "Display text by display key (a nameKey or descriptionKey; card.<id>.name, status.<id>.name, upgrade.<id>.name), keys in ordinal order; a key missing here falls back to the ID."
  )
}).annotations({
  identifier: "RuntimeLocale",
  description: "The display names of the served content in one locale."
})
export type RuntimeLocale = typeof RuntimeLocale.Type

/** A display key by ID (ordinal ID order). */
const NameKeyTable = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * The display key of each published card, status and transformation: its
 * own `metadata.nameKey`, else `status.<id>.name` / `upgrade.<id>.name`. A
 * client resolves it in a `locales` table and falls back to the ID.
 */
export const RuntimeNameKeys = Schema.Struct({
  cards: SchemaExt.described(NameKeyTable, "cardId → the card's nameKey."),
  statuses: SchemaExt.described(NameKeyTable, "statusId → the status's display key."),
  transformations: SchemaExt.described(NameKeyTable, "upgradeId → the transformation's display key.")
}).annotations({
  identifier: "RuntimeNameKeys",
  description: "The display key of every published card, status and transformation, by ID."
})
export type RuntimeNameKeys = typeof RuntimeNameKeys.Type

/** `GET /v1/runtime`: what the server serves now. */
export const RuntimeInfo = Schema.Struct({
  engineVersion: Schema.Int,
  /** `cardfx` package version. */
  serverVersion: Schema.String,
  /** sha256 of the canonical JSON of the runtime pin (engine version + every package pin). */
  contentHash: Schema.String,
  packages: Schema.Array(PackagePinDocument),
  /** Sorted IDs of what the runtime publishes. */
  cards: Schema.Array(Schema.String),
  transformations: Schema.Array(Schema.String),
  activities: Schema.Array(Schema.String),
  statuses: Schema.Array(Schema.String),
  locales: SchemaExt.described(
    Schema.Array(RuntimeLocale),
    "The display names of the served content, one table per locale, in ordinal locale order (empty when the packages ship none)."
  ),
  nameKeys: SchemaExt.described(
    RuntimeNameKeys,
    "The display key of every published card, status and transformation: what a client looks up in locales."
  )
}).annotations({ identifier: "RuntimeInfo" })
export type RuntimeInfo = typeof RuntimeInfo.Type

// ---------------------------------------------------------------- cards

/** `GET /v1/cards`: one line per published card, sorted by ID. */
export const CardSummary = Schema.Struct({
  cardId: Schema.String,
  /** The card's localisation key for its name (`metadata.nameKey`). */
  nameKey: Schema.String,
  cost: Schema.Int,
  tags: Schema.Array(Schema.String)
}).annotations({ identifier: "CardSummary" })
export type CardSummary = typeof CardSummary.Type

export const CardList = Schema.Struct({ cards: Schema.Array(CardSummary) }).annotations({ identifier: "CardList" })
export type CardList = typeof CardList.Type

/** `cardfx inspect --format json` and `GET /v1/cards/{cardId}/effective`. */
export const InspectDocument = Schema.Struct({
  ok: Schema.Literal(true),
  inspection: CardInspection
}).annotations({ identifier: "InspectDocument" })
export type InspectDocument = typeof InspectDocument.Type

/**
 * Where a query's ledger comes from (as `--ledger` / `--store --instance
 * --branch` on the command line): a sealed ledger, a stored instance of the
 * served store, or neither (an empty ledger).
 */
const ledgerSourceFields = {
  cardId: RequestId,
  /** The activity (mode); default `canonical_command`. */
  activity: SchemaExt.optional(RequestId),
  /** A sealed `CardLedger` document (as `--ledger FILE`). */
  ledger: SchemaExt.optional(CardLedger),
  /** A stored instance of the served store (as `--store --instance`). */
  instanceId: SchemaExt.optional(RequestId),
  /** With `instanceId`: the branch (default main). */
  branch: SchemaExt.optional(RequestId)
}

/** `POST /v1/assess`: the body of `cardfx assess` (its answer is `AssessResult`). */
export const AssessRequest = strict(
  Schema.Struct({ ...ledgerSourceFields, command: LedgerCommand }),
  "AssessRequest"
)
export type AssessRequest = typeof AssessRequest.Type

/** `POST /v1/discover`: the body of `cardfx discover` (its answer is `Discovery`). */
export const DiscoverRequest = strict(Schema.Struct(ledgerSourceFields), "DiscoverRequest")
export type DiscoverRequest = typeof DiscoverRequest.Type

// ---------------------------------------------------------------- stored instances

/** `POST /v1/instances/{instanceId}/commands`. */
export const InstanceCommand = strict(
  Schema.Struct({
    /** The client's idempotence key: a retry with the same ID and body returns the recorded outcome. */
    commandId: RequestId,
    /** The instance's base card. */
    cardId: RequestId,
    /** The revision the client saw (`revision` of the instance or of an Assess). */
    expectedRevision: Schema.NonNegativeInt,
    command: LedgerCommand,
    activity: SchemaExt.optional(RequestId),
    branch: SchemaExt.optional(RequestId)
  }),
  "InstanceCommand"
)
export type InstanceCommand = typeof InstanceCommand.Type

/** `GET /v1/instances/{instanceId}`: the stored instance on a branch, its effective card and where each component came from. */
export const InstanceDocument = Schema.Struct({
  branch: Schema.String,
  instanceId: Schema.String,
  cardId: Schema.String,
  revision: Schema.NonNegativeInt,
  /** Global sequence of the last event reflected. */
  sequence: Schema.NonNegativeInt,
  fingerprint: Schema.String,
  ledger: CardLedger,
  effective: EffectiveCardDefinition,
  origins: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ identifier: "InstanceDocument" })
export type InstanceDocument = typeof InstanceDocument.Type

/** One stored event. */
export const StoredEventDocument = Schema.Struct({
  sequence: Schema.NonNegativeInt,
  branch: Schema.String,
  instanceId: Schema.String,
  cardId: Schema.String,
  revision: Schema.NonNegativeInt,
  commandId: Schema.String,
  kind: Schema.String,
  contextHash: Schema.String,
  body: EventBody
}).annotations({ identifier: "StoredEvent" })

/** `GET /v1/instances/{instanceId}/history`. */
export const HistoryDocument = Schema.Struct({
  branch: Schema.String,
  instanceId: Schema.String,
  events: Schema.Array(StoredEventDocument),
  /** The next page's `from` (a sequence), or null after the last page. */
  next: Schema.NullOr(Schema.NonNegativeInt)
}).annotations({ identifier: "HistoryDocument" })
export type HistoryDocument = typeof HistoryDocument.Type

/** `GET /v1/instances/{instanceId}/replay?from=&limit=`: one page of revisions rebuilt from the stored checkpoints and events, beside the stored fingerprints. */
export const ReplayDocument = Schema.Struct({
  branch: Schema.String,
  instanceId: Schema.String,
  steps: Schema.Array(
    Schema.Struct({
      revision: Schema.NonNegativeInt,
      sequence: Schema.NonNegativeInt,
      fingerprint: Schema.String,
      stored: Schema.String
    })
  ),
  /** True when every replayed fingerprint equals the stored one. */
  matches: Schema.Boolean,
  /** The next page's `from` (an event sequence), or null after the last page. */
  next: Schema.NullOr(Schema.NonNegativeInt)
}).annotations({ identifier: "ReplayDocument" })
export type ReplayDocument = typeof ReplayDocument.Type

/** `POST /v1/instances/{instanceId}/branches`: fork a branch of the store. */
export const BranchRequest = strict(
  Schema.Struct({
    name: RequestId,
    /** Default main. */
    parent: SchemaExt.optional(RequestId),
    /** Default: now. */
    atSequence: SchemaExt.optional(Schema.NonNegativeInt)
  }),
  "BranchRequest"
)
export type BranchRequest = typeof BranchRequest.Type

export const BranchDocument = Schema.Struct({
  name: Schema.String,
  /** Null for `main`, the root. */
  parent: Schema.NullOr(Schema.String),
  forkSequence: Schema.NonNegativeInt
}).annotations({ identifier: "Branch" })
export type BranchDocument = typeof BranchDocument.Type

export const BranchList = Schema.Struct({ branches: Schema.Array(BranchDocument) }).annotations({
  identifier: "BranchList"
})
export type BranchList = typeof BranchList.Type

// ---------------------------------------------------------------- scenarios

/**
 * `POST /v1/scenarios/run`: a scenario document whose `packages` are package
 * IDs of the served runtime (never paths: a request reaches only what the
 * server serves).
 */
export const ScenarioRunRequest = strict(
  Schema.Struct({
    $schema: SchemaExt.optional(text(1024)),
    scenario: Schema.Literal(1).annotations({ jsonSchema: { type: "integer", enum: [1] } }),
    name: SchemaExt.optional(text(256)),
    description: SchemaExt.optional(text(4096)),
    /** Package IDs of the served runtime. */
    packages: Schema.NonEmptyArray(RequestId).pipe(Schema.maxItems(64)),
    seed: Schema.Int.pipe(Schema.between(0, Number.MAX_SAFE_INTEGER)),
    state: CombatState,
    ledgers: SchemaExt.optional(ScenarioLedgers),
    steps: Schema.Array(ScenarioStep)
  }),
  "ScenarioRunRequest"
)
export type ScenarioRunRequest = typeof ScenarioRunRequest.Type

/** `cardfx run --format json` and `POST /v1/scenarios/run`. */
export const RunDocument = Schema.Struct({
  ok: Schema.Literal(true),
  runs: Schema.Int,
  report: ScenarioReport
}).annotations({ identifier: "RunDocument" })
export type RunDocument = typeof RunDocument.Type

// ---------------------------------------------------------------- Hallyu Hex

export const HhxSeat = Schema.Literal(0, 1).annotations({ jsonSchema: { type: "integer", enum: [0, 1] } })

/** One per seat, seat 0 first (a pair: no `prefixItems` tuple on the wire). */
const perSeat = SchemaExt.pair

/** A legal action: its stable ID and what it does. */
export const HhxAction = Schema.Struct({
  id: Schema.String,
  player: HhxSeat,
  kind: Schema.Literal("end-turn", "pass", "cast", "activate", "choose", "optional", "pay", "redirect"),
  inst: Schema.NullOr(Schema.String),
  effect: Schema.NullOr(Schema.Int),
  targets: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })),
  choice: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "HhxAction" })

/** The question to the acting seat (`d` says which; the other fields depend on it, see RULES.md). */
export const HhxDecision = Schema.Struct(
  { d: Schema.Literal("main", "window", "choose", "optional", "pay", "redirect"), player: HhxSeat },
  { key: Schema.String, value: Schema.Unknown }
).annotations({ identifier: "HhxDecision" })

export const HhxResult = Schema.Struct({
  winner: Schema.NullOr(HhxSeat),
  reason: Schema.Literal("composure", "trend-cap", "simultaneous", "turn-limit")
}).annotations({ identifier: "HhxResult" })

export const HhxSeatView = Schema.Struct({
  composure: Schema.Int,
  fandom: Schema.Int,
  trend: Schema.Int,
  deckSize: Schema.Int,
  handSize: Schema.Int,
  /** Only in the viewing seat's own view. */
  hand: Schema.NullOr(Schema.Array(Schema.String)),
  stage: Schema.Array(Schema.String),
  archive: Schema.Array(Schema.String),
  pending: Schema.Array(Schema.String)
}).annotations({ identifier: "HhxSeatView" })

/** What one seat may see of a game (the engine's `observe`); a spectator's (`viewer: null`) hides both hands. */
export const HhxPlayerView = Schema.Struct({
  viewer: Schema.NullOr(HhxSeat),
  turn: Schema.Int,
  active: HhxSeat,
  seats: perSeat(HhxSeatView),
  counters: Schema.Record({ key: Schema.String, value: Schema.Record({ key: Schema.String, value: Schema.Int }) }),
  seen: Schema.Array(Schema.Struct({ owner: HhxSeat, cards: Schema.Array(Schema.String) })),
  toAct: Schema.NullOr(HhxSeat),
  decision: Schema.NullOr(HhxDecision),
  result: Schema.NullOr(HhxResult)
}).annotations({ identifier: "HhxPlayerView" })

/**
 * A seat of a new game: `human` (a client holds its secret) or `computer`,
 * played by the server with a fair agent (`random`, `greedy`, `ismcts`) and
 * its budget in iterations (default: the agent's, at most the server's
 * `--max-agent-iterations`). Checked by the server, not here: an unknown
 * agent is 422 `unknown_agent`, a budget out of range 422 `invalid_iterations`.
 */
export const SeatRequest = Schema.Union(
  strict(Schema.Struct({ kind: Schema.Literal("human") }), "HumanSeat"),
  strict(
    Schema.Struct({
      kind: Schema.Literal("computer"),
      agent: text(64),
      iterations: SchemaExt.optional(Schema.Number)
    }),
    "ComputerSeat"
  )
).annotations({ identifier: "SeatRequest" })
export type SeatRequest = typeof SeatRequest.Type

/** `POST /v1/hhx/games`. */
export const NewGameRequest = strict(
  Schema.Struct({
    /**
     * Mixed into the seed the server draws (sha256 of 32 random bytes and this): it never fixes the hands,
     * unless `fixedSeed` (the operator's).
     */
    seed: SchemaExt.optional(Schema.Union(
      Schema.String.pipe(Schema.maxLength(128)),
      Schema.Int.pipe(Schema.between(0, Number.MAX_SAFE_INTEGER))
    )),
    /** Use `seed` as it is (tests, tournaments): the operator's token only (403 `forbidden` otherwise). */
    fixedSeed: SchemaExt.optional(Schema.Boolean),
    /** Seat 1 is for another client: the answer holds seat 0's secret and an invitation for seat 1. */
    invite: SchemaExt.optional(Schema.Boolean),
    /** Deck list IDs for seat 0 and seat 1 (default: the deck file's first two). */
    decks: SchemaExt.optional(perSeat(RequestId)),
    /** Who plays each seat, seat 0 first (absent or shorter: human); a computer seat's secret is never returned. */
    seats: SchemaExt.optional(Schema.Array(SeatRequest).pipe(Schema.maxItems(8)))
  }),
  "NewGameRequest"
)
export type NewGameRequest = typeof NewGameRequest.Type

/** `POST /v1/hhx/games/{gameId}/actions`. */
export const GameActionRequest = strict(
  Schema.Struct({
    /** A legal action's ID (from `legalActions`). */
    actionId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
    /** The game's `step` the client saw: a stale step is 409 `step_conflict`. */
    expectedStep: Schema.NonNegativeInt
  }),
  "GameActionRequest"
)
export type GameActionRequest = typeof GameActionRequest.Type

/**
 * A game ID: new games get 22 random base64url characters (16 bytes of
 * node:crypto randomness, unguessable); games stored before then keep their
 * `g<n>` IDs. At most 128 characters.
 */
export const GameId = RequestId.annotations({
  identifier: "GameId",
  description: "22 random base64url characters (older games: `g<n>`); a request may name any request ID."
})

/**
 * The headers a game request may carry: its seat's secret (from the game's
 * creation). Without one a read answers the spectator's view; acting needs
 * one (or the operator's `Authorization: Bearer` token).
 */
export const SeatHeaders = Schema.Struct({
  "x-seat-secret": SchemaExt.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)).annotations({
      description: "A seat's secret, as `POST /v1/hhx/games` returned it."
    })
  )
})

/** `GET /v1/hhx/games/{gameId}/events`: the seat's secret, and the last step the client saw (to resume). */
export const GameEventHeaders = Schema.Struct({
  ...SeatHeaders.fields,
  "last-event-id": SchemaExt.optional(
    Schema.compose(Schema.String.pipe(Schema.maxLength(16)), Schema.NumberFromString).pipe(
      Schema.int(),
      Schema.between(0, Number.MAX_SAFE_INTEGER)
    ).annotations({
      description: "The `id:` of the last event received (a step number): the stream resumes with the steps after it.",
      jsonSchema: {
        type: "string",
        pattern: "^[0-9]{1,16}$",
        maxLength: 16,
        description: "The `id:` of the last event received (a step number): the stream resumes with the steps after it."
      }
    })
  )
})

/**
 * A game as one viewer may see it — every Hallyu Hex game endpoint's answer:
 * a seat's own view (proved by its `X-Seat-Secret`), or a spectator's with
 * both hands hidden.
 */
export const GameDocument = Schema.Struct({
  gameId: Schema.String,
  /** Actions applied so far; the next action's `expectedStep`, and the event ID of `/events`. */
  step: Schema.NonNegativeInt,
  /** The seat whose view this is; null: a spectator's view. */
  viewer: Schema.NullOr(HhxSeat),
  /** Null until the game ends, except for the operator: the seed replays to both hands. */
  seed: Schema.NullOr(Schema.String),
  /** sha256 (hex) of the seed, from the start: the seed revealed when the game ends must hash to it. */
  seedCommitment: Schema.String,
  decks: Schema.NullOr(perSeat(Schema.String)),
  deckHash: Schema.String,
  /** sha256 of the canonical state (the log's fingerprint at this step); null in a spectator's view of a game in progress. */
  fingerprint: Schema.NullOr(Schema.String),
  /** What the viewer may see: its own hand only, both public zones, the sizes of hidden zones. */
  view: HhxPlayerView,
  toAct: Schema.NullOr(HhxSeat),
  /** The viewer's own legal actions: empty unless the viewer is the seat to act. */
  legalActions: Schema.Array(HhxAction),
  result: Schema.NullOr(HhxResult)
}).annotations({ identifier: "GameDocument" })
export type GameDocument = typeof GameDocument.Type

/** A seat's secret: returned once, when the game is created (the server keeps only its sha256). */
export const SeatSecret = Schema.Struct({
  seat: HhxSeat,
  secret: Schema.String
}).annotations({ identifier: "SeatSecret" })
export type SeatSecret = typeof SeatSecret.Type

/** An invitation to a seat: a single-use code for the other client, open until `expiresAt`. */
export const Invitation = Schema.Struct({
  /** Hand it to the other client (a link or a code): `POST /v1/hhx/invitations` exchanges it once. */
  code: Schema.String,
  seat: HhxSeat,
  /** ISO 8601. */
  expiresAt: Schema.String
}).annotations({ identifier: "Invitation" })
export type Invitation = typeof Invitation.Type

/**
 * `POST /v1/hhx/games`: the new game as a spectator sees it, and one secret
 * per human seat (seat 0 first) — for an invitation game, seat 0's only, and
 * the invitation for seat 1.
 */
export const CreatedGame = Schema.Struct({
  game: GameDocument,
  seats: Schema.Array(SeatSecret),
  invitation: Schema.NullOr(Invitation)
}).annotations({ identifier: "CreatedGame" })
export type CreatedGame = typeof CreatedGame.Type

/** `POST /v1/hhx/invitations`: an invitation's code. */
export const JoinRequest = strict(
  Schema.Struct({
    code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))
  }),
  "JoinRequest"
)
export type JoinRequest = typeof JoinRequest.Type

/** `POST /v1/hhx/invitations`: the invited seat's secret (only the joiner ever holds it) and that seat's view. */
export const JoinedGame = Schema.Struct({
  gameId: Schema.String,
  seat: HhxSeat,
  secret: Schema.String,
  game: GameDocument
}).annotations({ identifier: "JoinedGame" })
export type JoinedGame = typeof JoinedGame.Type

/** `GET /v1/hhx/games/{gameId}/explain?actionId=`: why an action is or is not legal now. */
export const ExplainDocument = Schema.Struct({
  actionId: Schema.String,
  legal: Schema.Boolean,
  /** The engine's reason when not legal (`not-in-hand`, `not-enough-fandom`, ...). */
  reason: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ExplainDocument" })
export type ExplainDocument = typeof ExplainDocument.Type

/** The game log (`cardfx replay` reads it). */
export const GameLogDocument = GameLogSchema.annotations({ identifier: "GameLog" })

// ---------------------------------------------------------------- hot reload

/** A stored instance that would not compose under new content. */
export const BrokenInstance = Schema.Struct({
  instanceId: Schema.String,
  cardId: Schema.String,
  branch: Schema.String,
  code: DiagnosticCodeSchema,
  message: Schema.String
}).annotations({ identifier: "BrokenInstance" })
export type BrokenInstance = typeof BrokenInstance.Type

/** `cardfx ledger check --format json` and `POST /v1/admin/reload`. */
export const ReloadReport = Schema.Struct({
  /** True when the new runtime is served now. */
  switched: Schema.Boolean,
  runtime: RuntimeInfo,
  /** Stored instances checked (every branch). */
  checked: Schema.Int,
  /** Of those, the ones recomposed: an instance whose ledger and card (and the statuses) are unchanged since a check is not. */
  recomposed: Schema.Int,
  broken: Schema.Array(BrokenInstance)
}).annotations({ identifier: "ReloadReport" })
export type ReloadReport = typeof ReloadReport.Type
