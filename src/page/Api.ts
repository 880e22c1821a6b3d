/**
 * What the workbench asks of the server: the public HTTP API, one function
 * per endpoint, each resolving to the endpoint's JSON document or rejecting
 * with an `ApiError` (the API's `{ code, message, diagnostics }` body). The
 * documents' types are the wire Schemas' (src/api), never restated here. The
 * views depend on this port only; `Client.ts` implements it with the typed
 * client made from the API definition, as `cardfx/client` does.
 *
 * @since 0.1.0
 */
import type {
  BranchDocument,
  BranchRequest,
  CardSummary,
  CreatedGame,
  DiscoverRequest,
  ExplainDocument,
  GameDocument,
  GameLogDocument,
  HistoryDocument,
  InstanceCommand,
  InstanceDocument,
  NewGameRequest,
  RunDocument,
  RuntimeInfo,
  ScenarioRunRequest,
  SeatRequest
} from "../api/Documents.js"
import type { ServedState } from "../api/RuntimeEvents.js"
import type { CardInspection, CommandOutcome, LedgerCommand as LedgerCommandSchema } from "../api/Schemas.js"
import type { DiagnosticDoc, DiscoverDoc } from "./model/Docs.js"
import type { HhxDeckDoc } from "./model/Hhx.js"

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly diagnostics: ReadonlyArray<DiagnosticDoc> = []
  ) {
    super(message)
  }
}

/** `GET /v1/runtime`. */
export type RuntimeDoc = RuntimeInfo

/** One event of `GET /v1/runtime/events`: the runtime served now and the last reload's rejection (or null). */
export type ServedStateDoc = ServedState

/** One line of `GET /v1/cards`. */
export type CardListItemDoc = CardSummary

/** `cardfx inspect --format json`'s `inspection`. */
export type InspectDoc = CardInspection

/** `GET /v1/instances/{instanceId}`. */
export type InstanceDoc = InstanceDocument

/** One stored event of `GET /v1/instances/{instanceId}/history`. */
export type HistoryEventDoc = HistoryDocument["events"][number]

export type LedgerCommand = typeof LedgerCommandSchema.Type

export type CommandOutcomeDoc = typeof CommandOutcome.Type

export type BranchDoc = BranchDocument

/** `cardfx run --format json`'s `report`. */
export type RunReportDoc = RunDocument["report"]

/** Every Hallyu Hex game endpoint's answer: the game as one seat (or a spectator) sees it. */
export type GameDoc = GameDocument

/** `POST /v1/hhx/games`: the spectator's view and the seats' secrets (the page keeps them in memory only). */
export type CreatedGameDoc = CreatedGame

export type ExplainDoc = ExplainDocument

/** The game log (`cardfx replay` reads it). */
export type GameLogDoc = typeof GameLogDocument.Type

/** Who plays a seat: a person (this page or another client) or the server's computer agent (the API's Schema). */
export type SeatPlayer = SeatRequest

export interface Api {
  readonly runtime: () => Promise<RuntimeDoc>
  /**
   * The served content's changes (`GET /v1/runtime/events`, server-sent events): calls `onState` with the current
   * state, then after each reload's outcome; resolves when the stream ends or `signal` aborts it.
   */
  readonly runtimeEvents: (onState: (state: ServedStateDoc) => void, signal: AbortSignal) => Promise<void>
  readonly cards: () => Promise<ReadonlyArray<CardListItemDoc>>
  /** The card with each `with` transformation sealed and appended in order (an upgrade's preview). */
  readonly effective: (cardId: string, withUpgrades?: ReadonlyArray<string>) => Promise<InspectDoc>
  readonly discover: (body: DiscoverRequest) => Promise<DiscoverDoc>
  readonly instance: (instanceId: string, branch: string) => Promise<InstanceDoc>
  readonly history: (instanceId: string, branch: string) => Promise<ReadonlyArray<HistoryEventDoc>>
  readonly command: (instanceId: string, body: InstanceCommand) => Promise<CommandOutcomeDoc>
  /** The branches an instance can be read on, `main` first when it exists there (404 `unknown_instance` on none). */
  readonly branches: (instanceId: string) => Promise<ReadonlyArray<BranchDoc>>
  readonly createBranch: (instanceId: string, body: BranchRequest) => Promise<BranchDoc>
  readonly runScenario: (body: ScenarioRunRequest) => Promise<RunReportDoc>
  readonly deck: () => Promise<HhxDeckDoc>
  /**
   * A new game: the server draws its seed (`seed` is only mixed in, unless `fixedSeed`, the operator's: a replay);
   * `invite`: seat 1 is for another client (the answer holds seat 0's secret and an invitation code); `seats`, when
   * given, says who plays each seat (`{kind: "human"}`, or `{kind: "computer", agent, iterations}`: the server
   * plays that seat). The request's type is the API's own Schema's.
   */
  readonly newGame: (body: NewGameRequest) => Promise<CreatedGameDoc>
  /** A seat's view, with that seat's secret. */
  readonly view: (gameId: string, secret: string) => Promise<GameDoc>
  readonly act: (gameId: string, actionId: string, expectedStep: number, secret: string) => Promise<GameDoc>
  readonly explain: (gameId: string, actionId: string, secret: string) => Promise<ExplainDoc>
  /** The full log: once the game is over (or with the operator's token). */
  readonly log: (gameId: string, secret: string) => Promise<GameLogDoc>
  /**
   * The game's steps as server-sent events (`GET /v1/hhx/games/{id}/events`, with the seat's secret): calls `onStep`
   * with each step's document as that seat sees it, first the current one; resolves when the stream ends or
   * `signal` aborts it.
   */
  readonly events: (
    gameId: string,
    secret: string,
    onStep: (game: GameDoc) => void,
    signal: AbortSignal
  ) => Promise<void>
}
