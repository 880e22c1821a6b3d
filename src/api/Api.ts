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
  JoinedGame,
  JoinRequest,
  NewGameRequest,
  ReloadReport,
  ReplayDocument,
  RunDocument,
  RuntimeInfo,
  ScenarioRunRequest,
  SeatHeaders
} from "./Documents.js"
import * as OpenApiDocument from "./OpenApiDocument.js"
import { RuntimeEventsParams } from "./RuntimeEvents.js"
import {
  AssessResult,
  CommandOutcome,
  type Diagnostic,
  diagnostic,
  type DiagnosticCode,
  DiagnosticCodeSchema,
  Discovery,
  HistoryPaging,
  type HttpStatus,
  httpStatusOf,
  Limits,
  ReplayPaging,
  RequestId,
  StarterDeck
} from "./Schemas.js"

// ---------------------------------------------------------------- errors, one class per status

/**
 * The error body of one status: `code` is one of the table's codes with that
 * status (the server sends each code with its status, src/server/Server.ts
 * `bodyOf`), so the spec lists per status only the codes it can carry.
 */
const errorFields = (status: HttpStatus) => {
  const codes = DiagnosticCodeSchema.literals.filter((c) => httpStatusOf(c) === status)
  return {
    ...ErrorBody.fields,
    code: DiagnosticCodeSchema.pipe(
      Schema.filter((c) => httpStatusOf(c) === status, { message: () => `a code whose status is ${status}` }),
      Schema.annotations({ jsonSchema: { enum: codes } })
    )
  }
}

// Each class's `_tag` getter makes it matchable with `Effect.catchTag` on the client; it is not part of the body.
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(
  errorFields(400),
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
  errorFields(401),
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
  errorFields(403),
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
  errorFields(404),
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
  errorFields(408),
  HttpApiSchema.annotations({ status: 408, description: "The body or its handling took longer than the timeout." })
) {
  get _tag(): "RequestTimeout" {
    return "RequestTimeout"
  }
}
export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(
  errorFields(405),
  HttpApiSchema.annotations({
    status: 405,
    description: "A known path with a method it does not take; `Allow` lists the ones it does."
  })
) {
  get _tag(): "MethodNotAllowed" {
    return "MethodNotAllowed"
  }
}
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  errorFields(409),
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
  errorFields(413),
  HttpApiSchema.annotations({ status: 413, description: "The body is larger than the body cap." })
) {
  get _tag(): "PayloadTooLarge" {
    return "PayloadTooLarge"
  }
}
export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  errorFields(415),
  HttpApiSchema.annotations({
    status: 415,
    description: "A body whose `Content-Type` is not exactly `application/json`."
  })
) {
  get _tag(): "UnsupportedMediaType" {
    return "UnsupportedMediaType"
  }
}
export class Unprocessable extends Schema.Class<Unprocessable>("Unprocessable")(
  errorFields(422),
  HttpApiSchema.annotations({
    status: 422,
    description: "Content the engine rejects (incompatible transformation, illegal action, ...)."
  })
) {
  get _tag(): "Unprocessable" {
    return "Unprocessable"
  }
}
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(
  errorFields(429),
  HttpApiSchema.annotations({
    status: 429,
    description:
      "This client created games or branches faster than the rate limit allows (without the operator token); `Retry-After` says when to retry."
  })
) {
  get _tag(): "TooManyRequests" {
    return "TooManyRequests"
  }
}
export class InternalError extends Schema.Class<InternalError>("InternalError")(
  errorFields(500),
  HttpApiSchema.annotations({ status: 500, description: "A defect or a replay mismatch (never bad input)." })
) {
  get _tag(): "InternalError" {
    return "InternalError"
  }
}
export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  errorFields(503),
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
  | MethodNotAllowed
  | RequestTimeout
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | Unprocessable
  | TooManyRequests
  | InternalError
  | Unavailable

const byStatus = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  // 405 and 415 are answered by the server's door (src/server/Door.ts) before any handler runs.
  405: MethodNotAllowed,
  408: RequestTimeout,
  409: Conflict,
  413: PayloadTooLarge,
  415: UnsupportedMediaType,
  422: Unprocessable,
  429: TooManyRequests,
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

/** Whether a request carried the operator's token (see {@link OperatorCredential}, {@link Authorization}). */
export class Operator extends Context.Tag("cardfx/Operator")<Operator, { readonly operator: boolean }>() {}

/**
 * Bearer authorization of mutating endpoints. When the server was started
 * with `--token-env NAME`, the token is that variable's value (read as
 * `Config.redacted`, compared in constant time, never logged); without it the
 * middleware lets every request through. It provides {@link Operator}: true
 * when the request carried the server's token (a server without a token has
 * no operator, so its creations are rate-limited and use drawn seeds).
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("cardfx/Authorization", {
  failure: Schema.Union(Unauthorized, Forbidden),
  provides: Operator,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

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

// ---------------------------------------------------------------- statuses per operation

/*
 * Each operation lists the statuses it can answer, no more. Every one can
 * answer 403 (a `Host` or `Origin` the door refuses), 500 (a defect, or an
 * answer the server fails to encode) and 503 (starting, draining, the store
 * unavailable or damaged): those are the API's. With `--protect-reads`
 * every operation but `health` needs a credential: 401 (per group). A body
 * brings 400, 408, 413 and 415 (the door's checks); the rest is each
 * operation's own.
 */

// ---------------------------------------------------------------- groups

const cardIdPath = Schema.Struct({
  cardId: RequestId.annotations({ description: "A published card's ID." })
})
const instancePath = Schema.Struct({
  instanceId: RequestId.annotations({ description: "A stored card instance's ID (1..128 characters)." })
})
const gamePath = Schema.Struct({ gameId: GameId })
/** `?seat=`: the seat whose view is asked for (the operator's choice; a seat's secret must be that seat's). */
const seatParam = Schema.Struct({
  seat: Schema.optional(
    Schema.Literal("0", "1").annotations({
      description: "The seat whose view is asked for: the operator's choice; with a seat's secret, that seat."
    })
  )
})
const branchParam = Schema.Struct({
  branch: Schema.optional(RequestId.annotations({ description: "The branch (default `main`)." }))
})

/** An integer query parameter: a string of digits on the wire, declared as the bounded integer it decodes to. */
const intParam = (min: number, max: number, description: string) =>
  Schema.compose(Schema.String.pipe(Schema.maxLength(16)), Schema.NumberFromString).pipe(
    Schema.int(),
    Schema.between(min, max)
  ).annotations({ description, jsonSchema: { type: "integer", minimum: min, maximum: max } })

/** `?branch=&from=&limit=`: one page of an instance's replay. */
const replayParams = Schema.Struct({
  ...branchParam.fields,
  from: Schema.optional(
    intParam(
      0,
      Number.MAX_SAFE_INTEGER,
      "The event sequence the page starts at (default 0): the previous page's `next`."
    )
  ),
  limit: Schema.optional(
    intParam(1, ReplayPaging.maxLimit, `Events per page (default ${ReplayPaging.defaultLimit}).`)
  )
})

/** `?branch=&from=&limit=`: one page of an instance's history. */
const historyParams = Schema.Struct({
  ...branchParam.fields,
  from: Schema.optional(
    intParam(
      0,
      Number.MAX_SAFE_INTEGER,
      "The event sequence the page starts at (default 0): the previous page's `next`."
    )
  ),
  limit: Schema.optional(
    intParam(1, HistoryPaging.maxLimit, `Events per page (default ${HistoryPaging.defaultLimit}).`)
  )
})

export class RuntimeGroup extends HttpApiGroup.make("runtime")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Description, "Liveness: `{status: \"ok\"}` once the server serves; never needs a credential.")
  )
  .add(
    HttpApiEndpoint.get("runtime", "/runtime")
      .addSuccess(RuntimeInfo)
      .addError(Unauthorized)
      .annotate(
        OpenApi.Description,
        "What the server serves now: engine and server versions, the runtime's content hash, each package's pin and the published IDs."
      )
  )
  .add(
    HttpApiEndpoint.get("events", "/runtime/events")
      .setUrlParams(RuntimeEventsParams)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/event-stream" }))
      .addError(BadRequest)
      .addError(Unauthorized)
      .annotate(
        OpenApi.Description,
        "Server-sent events of the served content: `event: runtime`, `data: {runtime, rejected}` (`GET /v1/runtime`'s document, and the last reload's rejection — code, message, diagnostics with file, line and column — while no reload has switched since, else null): first the current state, then one event per reload outcome (`--watch`'s and `POST /v1/admin/reload`'s); a `: heartbeat` comment every 15 s; the stream ends when the server shuts down, or after the first event with `?once=true`."
      )
  )
  .annotate(OpenApi.Description, "What the server serves.")
{}

export class CardsGroup extends HttpApiGroup.make("cards")
  .add(
    HttpApiEndpoint.get("list", "/cards")
      .addSuccess(CardList)
      .annotate(OpenApi.Description, "One line per published card (ID, name key, cost, tags), sorted by ID.")
  )
  .add(
    HttpApiEndpoint.get("effective", "/cards/:cardId/effective")
      .setPath(cardIdPath)
      .setUrlParams(Schema.Struct({
        with: Schema.optional(
          Schema.Array(RequestId).pipe(Schema.maxItems(Limits.listSymbols)).annotations({
            description: "Transformation IDs, sealed and appended in order."
          })
        )
      }))
      .addSuccess(InspectDocument)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        "The `inspect` document: the card with each `with` transformation sealed and appended in order."
      )
  )
  .add(
    HttpApiEndpoint.post("assess", "/assess")
      .setPayload(AssessRequest)
      .addSuccess(AssessResult)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        "`cardfx assess --format json`: an incompatible command is a 200 with `isCompatible: false`."
      )
  )
  .add(
    HttpApiEndpoint.post("discover", "/discover")
      .setPayload(DiscoverRequest)
      .addSuccess(Discovery)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
      .annotate(OpenApi.Description, "`cardfx discover --format json`: what could be applied to the card now.")
  )
  .addError(Unauthorized)
  .annotate(OpenApi.Description, "Published cards and what the planner says of them.")
{}

export class InstancesGroup extends HttpApiGroup.make("instances")
  .add(
    HttpApiEndpoint.post("command", "/instances/:instanceId/commands")
      .setPath(instancePath)
      .setPayload(InstanceCommand)
      .addSuccess(CommandOutcome)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(Conflict)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
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
      .addError(NotFound)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        "The stored instance on a branch: its ledger, effective card, revision, fingerprint and where each component came from."
      )
  )
  .add(
    HttpApiEndpoint.get("history", "/instances/:instanceId/history")
      .setPath(instancePath)
      .setUrlParams(historyParams)
      .addSuccess(HistoryDocument)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        `One page of the instance's stored events on a branch, oldest first: those with \`sequence >= from\`, at most \`limit\` (default ${HistoryPaging.defaultLimit}, at most ${HistoryPaging.maxLimit}); \`next\` is the next page's \`from\`, or null. The work per page is bounded by \`limit\`, whatever the history's length.`
      )
  )
  .add(
    HttpApiEndpoint.get("replay", "/instances/:instanceId/replay")
      .setPath(instancePath)
      .setUrlParams(replayParams)
      .addSuccess(ReplayDocument)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        `One page of the replay check: each revision with \`sequence >= from\` (at most \`limit\`, default ${ReplayPaging.defaultLimit}, at most ${ReplayPaging.maxLimit}) rebuilt from the last stored checkpoint before the page and its events, beside the stored fingerprint (\`matches\`: all equal); \`next\` is the next page's \`from\`, or null. 400 \`schema_invalid\` for a \`from\` or \`limit\` out of range.`
      )
  )
  .add(
    HttpApiEndpoint.post("createBranch", "/instances/:instanceId/branches")
      .setPath(instancePath)
      .setPayload(BranchRequest)
      .addSuccess(BranchDocument, { status: 201 })
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(Conflict)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
      .addError(TooManyRequests)
      .middleware(Authorization)
      .annotate(
        OpenApi.Description,
        "Forks a store branch from `parent` (default `main`) at `atSequence` (default: now): every instance visible on the parent then is visible on it."
      )
  )
  .add(
    HttpApiEndpoint.get("branches", "/instances/:instanceId/branches")
      .setPath(instancePath)
      .addSuccess(BranchList)
      .addError(NotFound)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        "The branches the instance can be read on: `main` first (`parent: null`, `forkSequence: 0`) when it exists there, then by name the forks it is visible on (created on the fork, or on an ancestor before the fork point), with their parents and fork sequences. 404 `unknown_instance` when it exists on no branch."
      )
  )
  .addError(BadRequest)
  .addError(Unauthorized)
  .annotate(OpenApi.Description, "Stored card instances: commands, reads, history, replay and branches.")
{}

export class ScenariosGroup extends HttpApiGroup.make("scenarios").add(
  HttpApiEndpoint.post("run", "/scenarios/run")
    .setPayload(ScenarioRunRequest)
    .addSuccess(RunDocument)
    .addError(BadRequest)
    .addError(Unauthorized)
    .addError(NotFound)
    .addError(RequestTimeout)
    .addError(PayloadTooLarge)
    .addError(UnsupportedMediaType)
    .addError(Unprocessable)
    .annotate(
      OpenApi.Description,
      "`cardfx run --format json` over the served runtime; `packages` are served package IDs, never paths."
    )
).annotate(OpenApi.Description, "Combat scenarios run over the served runtime.") {}

const seatCredentials =
  "Credentials: `X-Seat-Secret` (a seat's secret from the game's creation) proves a seat; the operator's `Authorization: Bearer` token (with `--token-env`) may read and act for any seat; neither is a spectator. With `--protect-reads`, a request needs one of the two."

export class HhxGroup extends HttpApiGroup.make("hhx")
  .add(
    HttpApiEndpoint.get("deck", "/hhx/deck")
      .addSuccess(StarterDeck)
      .annotate(OpenApi.Description, "The served Hallyu Hex deck file: rules, cards and deck lists.")
  )
  .add(
    HttpApiEndpoint.post("create", "/hhx/games")
      .setPayload(NewGameRequest)
      .addSuccess(CreatedGame, { status: 201 })
      .addError(BadRequest)
      .addError(RequestTimeout)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
      .addError(TooManyRequests)
      .middleware(Authorization)
      .annotate(
        OpenApi.Description,
        "Creates a game with a random 22-character ID and answers its spectator view and one secret per seat (`seats`, seat 0 first). The secrets are returned only here (the server keeps their sha256): hand each seat its own. The server draws the seed (32 bytes of `node:crypto`; a client's `seed` is only mixed in) and publishes its commitment (`game.seedCommitment`, sha256 of the seed); the seed is revealed with the log once the game has ended. `fixedSeed: true` uses `seed` as it is: the operator's token only (403 `forbidden`). `invite: true`: `seats` holds seat 0's secret only and `invitation` a single-use, expiring code for seat 1 (`POST /v1/hhx/invitations`). Needs the operator token when the server has one; without it creations are rate-limited per client address (429 `rate_limited` with `Retry-After`) and refused past the live-games cap (503 `too_many_games`)."
      )
  )
  .add(
    HttpApiEndpoint.post("join", "/hhx/invitations")
      .setPayload(JoinRequest)
      .addSuccess(JoinedGame)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
      .annotate(
        OpenApi.Description,
        "Exchanges an invitation's code (from the game's creation) for the invited seat's secret, drawn now: only the joiner ever holds it. The code works once; an unknown, used or expired one is 404 `invitation_invalid`. Needs no other credential: the code is one."
      )
  )
  .add(
    HttpApiEndpoint.post("act", "/hhx/games/:gameId/actions")
      .setPath(gamePath)
      .setHeaders(SeatHeaders)
      .setPayload(GameActionRequest)
      .addSuccess(GameDocument)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(RequestTimeout)
      .addError(Conflict)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unprocessable)
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
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unprocessable)
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
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unprocessable)
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
      .setUrlParams(Schema.Struct({
        actionId: Schema.String.pipe(Schema.maxLength(256)).annotations({
          description: "A legal action's ID (from `legalActions`), or one the client asks about."
        })
      }))
      .addSuccess(ExplainDocument)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unprocessable)
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
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unprocessable)
      .middleware(OperatorCredential)
      .annotate(
        OpenApi.Description,
        `Server-sent events: each step as the caller may see it (a seat's view with its X-Seat-Secret, else the spectator's), one event per step — \`id: <step>\`, \`event: step\`, \`data: <GameDocument JSON>\` — first the current step (or, with \`Last-Event-ID: <step>\`, every step after it), then each new one; a \`: heartbeat\` comment every 15 s; the stream ends after the game's last step or when the server shuts down. At most 8 streams per game (503 \`too_many_subscribers\`). ${seatCredentials}`
      )
  )
  .addError(Unauthorized)
  .annotate(OpenApi.Description, "Hallyu Hex games: seats, per-seat views, actions, logs and event streams.")
{}

export class BalanceGroup extends HttpApiGroup.make("balance").add(
  HttpApiEndpoint.post("run", "/hhx/balance")
    .setPayload(BalanceRequest)
    .addSuccess(HttpApiSchema.Text({ contentType: "text/event-stream" }))
    .addError(BadRequest)
    .addError(Unauthorized)
    .addError(RequestTimeout)
    .addError(PayloadTooLarge)
    .addError(UnsupportedMediaType)
    .middleware(Authorization)
    .annotate(
      OpenApi.Description,
      "Plays games [0, games) of the served deck file (read when the run starts, so an edited deck needs no restart) with seeds `<seed>/<k>` and streams server-sent events: `event: progress` with `data: {\"done\":N,\"total\":N}` as games complete, then one `event: result` with the `BalanceReport` (the bytes of `cardfx simulate --stats --format json` for the same deck, seed and games) or one `event: error` with an error body; then the stream ends. Closing the connection cancels the run. One run plays at a time; the others wait their turn. Needs the operator token when the server has one."
    )
) {}

export class AdminGroup extends HttpApiGroup.make("admin").add(
  HttpApiEndpoint.post("reload", "/admin/reload")
    .addSuccess(ReloadReport)
    .addError(BadRequest)
    .addError(Unauthorized)
    .addError(RequestTimeout)
    .addError(Conflict)
    .addError(PayloadTooLarge)
    .addError(UnsupportedMediaType)
    .addError(Unprocessable)
    .middleware(Authorization)
    .annotate(
      OpenApi.Description,
      "Re-reads the package folders; switches when every stored instance still composes, else keeps the old runtime and answers 409 `reload_rejected` with one diagnostic per broken instance."
    )
).annotate(OpenApi.Description, "Operating the server: content reload.") {}

/** The whole API. */
export class CardfxApi extends HttpApi.make("cardfx")
  .add(AdminGroup)
  .add(BalanceGroup)
  .add(CardsGroup)
  .add(HhxGroup)
  .add(InstancesGroup)
  .add(RuntimeGroup)
  .add(ScenariosGroup)
  // What any operation can answer (the door's `Host`/`Origin` refusal, a defect, starting or draining); the rest per operation.
  .addError(Forbidden)
  .addError(InternalError)
  .addError(Unavailable)
  .prefix("/v1")
  .annotate(OpenApi.Title, "cardfx")
  .annotate(OpenApi.Version, "1")
  .annotate(
    OpenApi.Description,
    "The cardfx assessment/preview API: cards, stored card instances, combat scenarios and Hallyu Hex games. Errors are `{code, message, diagnostics}`."
  )
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/licenses/MIT" })
  .annotate(OpenApi.Servers, [{ url: "http://127.0.0.1:8787", description: "`cardfx serve` on its default address" }])
  .annotate(OpenApi.Transform, OpenApiDocument.exact)
{}
