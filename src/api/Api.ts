/**
 * The HTTP API of `cardfx serve`, as one `HttpApi` value of Schemas: the
 * server (`HttpApiBuilder`), the OpenAPI document (`/openapi.json`, `/docs`)
 * and the typed client (`cardfx/client`, `HttpApiClient.make`) are all
 * derived from it. Every route is under `/v1`.
 *
 * Errors: one class per HTTP status, each with the body
 * `{code, message, diagnostics}` ({@link ErrorBody}); the status of a code is
 * the `status` column of the one diagnostic table, so the CLI and the server
 * cannot disagree about what a code means. Mutating endpoints carry the
 * {@link Authorization} middleware (bearer token, enforced when the server
 * was started with `--token-env`).
 *
 * @since 0.1.0
 */
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "@effect/platform"
import { Context, Schema } from "effect"
import { BalanceRequest } from "./Balance.js"
import {
  AssessRequest,
  BranchDocument,
  BranchList,
  BranchRequest,
  CardList,
  CreatedGame,
  DiscoverRequest,
  ErrorBody,
  ExplainDocument,
  GameActionRequest,
  GameDocument,
  GameEventHeaders,
  GameId,
  GameLogDocument,
  Health,
  HistoryDocument,
  InspectDocument,
  InstanceCommand,
  InstanceDocument,
  NewGameRequest,
  ReloadReport,
  ReplayDocument,
  RunDocument,
  RuntimeInfo,
  ScenarioRunRequest,
  SeatHeaders
} from "./Documents.js"
import {
  AssessResult,
  CommandOutcome,
  type Diagnostic,
  diagnostic,
  type DiagnosticCode,
  Discovery,
  type HttpStatus,
  httpStatusOf,
  StarterDeck
} from "./Schemas.js"

// ---------------------------------------------------------------- errors, one class per status

// Each class's `_tag` getter makes it matchable with `Effect.catchTag` on the client; it is not part of the body.
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 400,
    description: "Malformed body, hostile JSON, or a value of the wrong shape."
  })
) {
  get _tag(): "BadRequest" {
    return "BadRequest"
  }
}
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 401,
    description: "A request that needs a credential without one: the operator's bearer token or a seat's X-Seat-Secret."
  })
) {
  get _tag(): "Unauthorized" {
    return "Unauthorized"
  }
}
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 403,
    description:
      "A credential that does not grant the request: a bearer token that is not the server's, a seat secret that is not this game's, a seat acting or reading for the other seat, a game's log before it ends."
  })
) {
  get _tag(): "Forbidden" {
    return "Forbidden"
  }
}
export class NotFound extends Schema.Class<NotFound>("NotFound")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 404,
    description: "Unknown card, transformation, entry, instance, branch, game or route."
  })
) {
  get _tag(): "NotFound" {
    return "NotFound"
  }
}
export class RequestTimeout extends Schema.Class<RequestTimeout>("RequestTimeout")(
  ErrorBody.fields,
  HttpApiSchema.annotations({ status: 408, description: "The body or its handling took longer than the timeout." })
) {
  get _tag(): "RequestTimeout" {
    return "RequestTimeout"
  }
}
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 409,
    description: "Revision, command, step or branch conflict; game over; reload rejected."
  })
) {
  get _tag(): "Conflict" {
    return "Conflict"
  }
}
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  ErrorBody.fields,
  HttpApiSchema.annotations({ status: 413, description: "The body is larger than the body cap." })
) {
  get _tag(): "PayloadTooLarge" {
    return "PayloadTooLarge"
  }
}
export class Unprocessable extends Schema.Class<Unprocessable>("Unprocessable")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 422,
    description: "Content the engine rejects (incompatible transformation, illegal action, ...)."
  })
) {
  get _tag(): "Unprocessable" {
    return "Unprocessable"
  }
}
export class InternalError extends Schema.Class<InternalError>("InternalError")(
  ErrorBody.fields,
  HttpApiSchema.annotations({ status: 500, description: "A defect or a replay mismatch (never bad input)." })
) {
  get _tag(): "InternalError" {
    return "InternalError"
  }
}
export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  ErrorBody.fields,
  HttpApiSchema.annotations({
    status: 503,
    description: "Starting, shutting down, the store is unavailable, or a game has as many event streams as allowed."
  })
) {
  get _tag(): "Unavailable" {
    return "Unavailable"
  }
}

/** Every error response. */
export type ApiError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | RequestTimeout
  | Conflict
  | PayloadTooLarge
  | Unprocessable
  | InternalError
  | Unavailable

const byStatus = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  // 405 and 415 are answered by the server's door (src/server/Door.ts) before any handler runs.
  405: BadRequest,
  408: RequestTimeout,
  409: Conflict,
  413: PayloadTooLarge,
  415: BadRequest,
  422: Unprocessable,
  500: InternalError,
  503: Unavailable
} as const satisfies Record<HttpStatus, unknown>

const errorClasses = Object.values(byStatus)

/** An error response of the API, as the typed client fails with it (any of the classes above). */
export const isApiError = (u: unknown): u is ApiError => errorClasses.some((Class) => u instanceof Class)

/** The HTTP status an error response is sent with: its class's `status` annotation, as the server writes it. */
export const statusOfApiError = (e: ApiError): number =>
  HttpApiSchema.getStatusError(errorClasses.find((Class) => e instanceof Class) ?? InternalError)

/** The error response for diagnostics: the first error's code decides the status (the table's `status` column). */
export const apiError = (diagnostics: ReadonlyArray<Diagnostic>): ApiError => {
  const first = diagnostics.find((d) => d.severity === "error") ?? diagnostics[0] ??
    diagnostic("internal_error", "no diagnostic")
  const Ctor = byStatus[httpStatusOf(first.code)]
  return new Ctor({ code: first.code, message: first.message, diagnostics: [...diagnostics] })
}

/** The error response for one code. */
export const apiErrorOf = (
  code: DiagnosticCode,
  message: string,
  context: Parameters<typeof diagnostic>[2] = {}
): ApiError => apiError([diagnostic(code, message, context)])

// ---------------------------------------------------------------- authorization

/**
 * Bearer authorization of mutating endpoints. When the server was started
 * with `--token-env NAME`, the token is that variable's value (read as
 * `Config.redacted`, compared in constant time, never logged); without it the
 * middleware lets every request through.
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("cardfx/Authorization", {
  failure: Schema.Union(Unauthorized, Forbidden),
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Whether a game request carried the operator's token (see {@link OperatorCredential}). */
export class Operator extends Context.Tag("cardfx/Operator")<Operator, { readonly operator: boolean }>() {}

/**
 * The operator's bearer token on the Hallyu Hex game endpoints, where it is
 * optional: a request without it is a seat's (`X-Seat-Secret`) or a
 * spectator's; with the server's token it is the operator's (may read and act
 * for any seat); with another token it is 403 `forbidden`. A server without
 * `--token-env` has no operator.
 */
export class OperatorCredential extends HttpApiMiddleware.Tag<OperatorCredential>()("cardfx/OperatorCredential", {
  failure: Forbidden,
  provides: Operator,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

// ---------------------------------------------------------------- groups

const cardIdPath = Schema.Struct({ cardId: Schema.String })
const instancePath = Schema.Struct({ instanceId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)) })
const gamePath = Schema.Struct({ gameId: GameId })
/** `?seat=`: the seat whose view is asked for (the operator's choice; a seat's secret must be that seat's). */
const seatParam = Schema.Struct({ seat: Schema.optional(Schema.Literal("0", "1")) })
const branchParam = Schema.Struct({ branch: Schema.optional(Schema.String) })

export class RuntimeGroup extends HttpApiGroup.make("runtime")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Health))
  .add(HttpApiEndpoint.get("runtime", "/runtime").addSuccess(RuntimeInfo))
  .annotate(OpenApi.Description, "What the server serves.")
{}

export class CardsGroup extends HttpApiGroup.make("cards")
  .add(HttpApiEndpoint.get("list", "/cards").addSuccess(CardList))
  .add(
    HttpApiEndpoint.get("effective", "/cards/:cardId/effective")
      .setPath(cardIdPath)
      .setUrlParams(Schema.Struct({ with: Schema.optional(Schema.Array(Schema.String)) }))
      .addSuccess(InspectDocument)
      .annotate(
        OpenApi.Description,
        "The `inspect` document: the card with each `with` transformation sealed and appended in order."
      )
  )
  .add(
    HttpApiEndpoint.post("assess", "/assess")
      .setPayload(AssessRequest)
      .addSuccess(AssessResult)
      .annotate(
        OpenApi.Description,
        "`cardfx assess --format json`: an incompatible command is a 200 with `isCompatible: false`."
      )
  )
  .add(
    HttpApiEndpoint.post("discover", "/discover")
      .setPayload(DiscoverRequest)
      .addSuccess(Discovery)
      .annotate(OpenApi.Description, "`cardfx discover --format json`.")
  )
{}

export class InstancesGroup extends HttpApiGroup.make("instances")
  .add(
    HttpApiEndpoint.post("command", "/instances/:instanceId/commands")
      .setPath(instancePath)
      .setPayload(InstanceCommand)
      .addSuccess(CommandOutcome)
      .middleware(Authorization)
      .annotate(
        OpenApi.Description,
        "Apply, remove or replace. 409 `revision_conflict` when expectedRevision is stale, 409 `command_conflict` when the commandId was used with another body; a retry with the same commandId and body answers the recorded outcome."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/instances/:instanceId")
      .setPath(instancePath)
      .setUrlParams(branchParam)
      .addSuccess(InstanceDocument)
  )
  .add(
    HttpApiEndpoint.get("history", "/instances/:instanceId/history")
      .setPath(instancePath)
      .setUrlParams(branchParam)
      .addSuccess(HistoryDocument)
  )
  .add(
    HttpApiEndpoint.get("replay", "/instances/:instanceId/replay")
      .setPath(instancePath)
      .setUrlParams(branchParam)
      .addSuccess(ReplayDocument)
  )
  .add(
    HttpApiEndpoint.post("createBranch", "/instances/:instanceId/branches")
      .setPath(instancePath)
      .setPayload(BranchRequest)
      .addSuccess(BranchDocument, { status: 201 })
      .middleware(Authorization)
      .annotate(OpenApi.Description, "Forks a store branch (branches are store-wide; every instance is visible on it).")
  )
  .add(HttpApiEndpoint.get("branches", "/branches").addSuccess(BranchList))
{}

export class ScenariosGroup extends HttpApiGroup.make("scenarios").add(
  HttpApiEndpoint.post("run", "/scenarios/run")
    .setPayload(ScenarioRunRequest)
    .addSuccess(RunDocument)
    .annotate(
      OpenApi.Description,
      "`cardfx run --format json` over the served runtime; `packages` are served package IDs, never paths."
    )
) {}

const seatCredentials =
  "Credentials: `X-Seat-Secret` (a seat's secret from the game's creation) proves a seat; the operator's `Authorization: Bearer` token (with `--token-env`) may read and act for any seat; neither is a spectator. With `--protect-reads`, a request needs one of the two."

export class HhxGroup extends HttpApiGroup.make("hhx")
  .add(HttpApiEndpoint.get("deck", "/hhx/deck").addSuccess(StarterDeck))
  .add(
    HttpApiEndpoint.post("create", "/hhx/games")
      .setPayload(NewGameRequest)
      .addSuccess(CreatedGame, { status: 201 })
      .middleware(Authorization)
      .annotate(
        OpenApi.Description,
        "Creates a game with a random 22-character ID and answers its spectator view and one secret per seat (`seats`, seat 0 first). The secrets are returned only here (the server keeps their sha256): hand each seat its own. Needs the operator token when the server has one."
      )
  )
  .add(
    HttpApiEndpoint.post("act", "/hhx/games/:gameId/actions")
      .setPath(gamePath)
      .setHeaders(SeatHeaders)
      .setPayload(GameActionRequest)
      .addSuccess(GameDocument)
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `Applies an action of the seat to act and answers that seat's view. Needs that seat's X-Seat-Secret (401 \`unauthorized\` without, 403 \`forbidden\` for the other seat's) or the operator token. 409 \`step_conflict\` when expectedStep is stale, 409 \`game_over\`, 422 \`illegal_action\` with the engine's explain reason in \`diagnostics[0].details.reason\`. ${seatCredentials}`
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/hhx/games/:gameId")
      .setPath(gamePath)
      .setHeaders(SeatHeaders)
      .setUrlParams(seatParam)
      .addSuccess(GameDocument)
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `The game as the caller may see it: a seat's view (its own hand, both public zones, the sizes of hidden ones) with its X-Seat-Secret, else the spectator's (no hand). \`?seat=\` asks for a seat's view: the operator's choice; with a seat's secret it must be that seat (403 otherwise). ${seatCredentials}`
      )
  )
  .add(
    HttpApiEndpoint.get("log", "/hhx/games/:gameId/log")
      .setPath(gamePath)
      .setHeaders(SeatHeaders)
      .addSuccess(GameLogDocument)
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `The full log (seed, actions, fingerprints: it replays to both hands): for anyone once the game is over, before that only for the operator (403 \`forbidden\`). ${seatCredentials}`
      )
  )
  .add(
    HttpApiEndpoint.get("explain", "/hhx/games/:gameId/explain")
      .setPath(gamePath)
      .setHeaders(SeatHeaders)
      .setUrlParams(Schema.Struct({ actionId: Schema.String.pipe(Schema.maxLength(256)) }))
      .addSuccess(ExplainDocument)
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `Why an action is or is not legal now, for the seat to act (another seat hears \`not-your-decision\`) or the operator; a spectator gets 401 \`unauthorized\`. ${seatCredentials}`
      )
  )
  .add(
    HttpApiEndpoint.get("events", "/hhx/games/:gameId/events")
      .setPath(gamePath)
      .setHeaders(GameEventHeaders)
      .setUrlParams(seatParam)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/event-stream" }))
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `Server-sent events: each step as the caller may see it (a seat's view with its X-Seat-Secret, else the spectator's), one event per step — \`id: <step>\`, \`event: step\`, \`data: <GameDocument JSON>\` — first the current step (or, with \`Last-Event-ID: <step>\`, every step after it), then each new one; a \`: heartbeat\` comment every 15 s; the stream ends after the game's last step or when the server shuts down. At most 8 streams per game (503 \`too_many_subscribers\`). ${seatCredentials}`
      )
  )
{}

export class BalanceGroup extends HttpApiGroup.make("balance").add(
  HttpApiEndpoint.post("run", "/hhx/balance")
    .setPayload(BalanceRequest)
    .addSuccess(HttpApiSchema.Text({ contentType: "text/event-stream" }))
    .middleware(Authorization)
    .annotate(
      OpenApi.Description,
      "Plays games [0, games) of the served deck file (read when the run starts, so an edited deck needs no restart) with seeds `<seed>/<k>` and streams server-sent events: `event: progress` with `data: {\"done\":N,\"total\":N}` as games complete, then one `event: result` with the `BalanceReport` (the bytes of `cardfx simulate --stats --format json` for the same deck, seed and games) or one `event: error` with an error body; then the stream ends. Closing the connection cancels the run. One run plays at a time; the others wait their turn. Needs the operator token when the server has one."
    )
) {}

export class AdminGroup extends HttpApiGroup.make("admin").add(
  HttpApiEndpoint.post("reload", "/admin/reload")
    .addSuccess(ReloadReport)
    .middleware(Authorization)
    .annotate(
      OpenApi.Description,
      "Re-reads the package folders; switches when every stored instance still composes, else keeps the old runtime and answers 409 `reload_rejected` with one diagnostic per broken instance."
    )
) {}

/** The whole API. */
export class CardfxApi extends HttpApi.make("cardfx")
  .add(RuntimeGroup)
  .add(CardsGroup)
  .add(InstancesGroup)
  .add(ScenariosGroup)
  .add(HhxGroup)
  .add(BalanceGroup)
  .add(AdminGroup)
  // Any code may reach any endpoint through the table's status column, so every status is declared once, here.
  .addError(BadRequest)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(RequestTimeout)
  .addError(Conflict)
  .addError(PayloadTooLarge)
  .addError(Unprocessable)
  .addError(InternalError)
  .addError(Unavailable)
  .prefix("/v1")
  .annotate(OpenApi.Title, "cardfx")
  .annotate(OpenApi.Version, "1")
  .annotate(
    OpenApi.Description,
    "The cardfx assessment/preview API: cards, stored card instances, combat scenarios and Hallyu Hex games. Errors are `{code, message, diagnostics}`."
  )
{}
