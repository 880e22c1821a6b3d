/**
 * `cardfx/client`: a typed client of `cardfx serve`, made by
 * `HttpApiClient.make` from the same API definition the server is built
 * from, so every call is typed and every error response arrives as a typed
 * error (`NotFound`, `Conflict`, `Unprocessable`, ...: each `{code, message,
 * diagnostics}`, matchable with `Effect.catchTag`). Provide an `HttpClient`
 * (`FetchHttpClient.layer` from `@effect/platform`, or `NodeHttpClient`).
 *
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { makeClient } from "cardfx/client"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* makeClient("http://127.0.0.1:8787")
 *   return yield* client.cards.assess({ payload: { cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } } })
 * }).pipe(Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * A Hallyu Hex seat passes its secret (from `hhx.create`'s `seats`) as the
 * `x-seat-secret` header of each game call, and follows the game with
 * {@link gameEvents}, a `Stream` of the steps as that seat sees them:
 *
 * ```ts
 * const { game, seats } = yield* client.hhx.create({ payload: { seed: "a-long-random-seed" } })
 * const mine = { "x-seat-secret": seats[0]!.secret }
 * const view = yield* client.hhx.get({ path: { gameId: game.gameId }, urlParams: {}, headers: mine })
 * yield* gameEvents("http://127.0.0.1:8787", game.gameId, { seatSecret: seats[0]!.secret }).pipe(
 *   Stream.runForEach((step) => Console.log(step.step, step.toAct))
 * )
 * ```
 *
 * @since 0.1.0
 */
import {
  HttpApiClient,
  HttpClient,
  type HttpClientError,
  HttpClientRequest,
  type HttpClientResponse
} from "@effect/platform"
import { Effect, Option, type ParseResult, Schema, Stream } from "effect"
import { type ApiError, apiError, apiErrorOf, CardfxApi } from "./api/Api.js"
import { ErrorBody, GameDocument } from "./api/Documents.js"

export * from "./api/Api.js"
export * from "./api/Documents.js"

/** The client's type: one property per endpoint group (`runtime`, `cards`, `instances`, `scenarios`, `hhx`, `admin`). */
export type CardfxClient = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** A client of the server at `baseUrl`; `token` is sent as `Authorization: Bearer` on every request. */
export const makeClient = (baseUrl: string, options: { readonly token?: string | undefined } = {}) =>
  HttpApiClient.make(CardfxApi, {
    baseUrl,
    transformClient: (client) => {
      const token = options.token
      return token === undefined ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(token))
    }
  })

/** How {@link gameEvents} asks: as a seat (its secret), as the operator (the token, `seat`), or as a spectator. */
export interface GameEventsOptions {
  readonly seatSecret?: string | undefined
  readonly token?: string | undefined
  /** The operator's choice of view (a seat's secret decides its own). */
  readonly seat?: 0 | 1 | undefined
  /** Resume after this step (`Last-Event-ID`): the steps after it come first. */
  readonly lastEventId?: number | undefined
}

const decodeGame = Schema.decodeUnknown(Schema.parseJson(GameDocument))
const decodeError = Schema.decodeUnknown(ErrorBody)

/** An error answer (not 200) of the events endpoint as the API's error class. */
const failedAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<never, ApiError> =>
  response.json.pipe(
    Effect.flatMap(decodeError),
    Effect.matchEffect({
      onFailure: () =>
        Effect.fail(apiErrorOf("internal_error", `the events endpoint answered ${response.status} with no error body`)),
      onSuccess: (body) => Effect.fail(apiError(body.diagnostics))
    })
  )

/**
 * The steps of a game as server-sent events (`GET /v1/hhx/games/{gameId}/events`),
 * as a `Stream` of game documents: the current step (or, with `lastEventId`,
 * every step after it), then each new one as the caller may see it; it ends
 * after the game's last step or when the server shuts down (resume with the
 * last `step` as `lastEventId`). An error answer fails the stream with the
 * API's error class (`Unauthorized`, `Forbidden`, `NotFound`, `Unavailable`, ...).
 */
export const gameEvents = (
  baseUrl: string,
  gameId: string,
  options: GameEventsOptions = {}
): Stream.Stream<
  GameDocument,
  ApiError | HttpClientError.HttpClientError | ParseResult.ParseError,
  HttpClient.HttpClient
> =>
  Stream.unwrap(Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.get(`${baseUrl}/v1/hhx/games/${encodeURIComponent(gameId)}/events`).pipe(
      HttpClientRequest.accept("text/event-stream")
    )
    if (options.seatSecret !== undefined) {
      request = HttpClientRequest.setHeader(request, "x-seat-secret", options.seatSecret)
    }
    if (options.token !== undefined) request = HttpClientRequest.bearerToken(request, options.token)
    if (options.seat !== undefined) request = HttpClientRequest.setUrlParam(request, "seat", String(options.seat))
    if (options.lastEventId !== undefined) {
      request = HttpClientRequest.setHeader(request, "last-event-id", String(options.lastEventId))
    }
    const response = yield* client.execute(request)
    if (response.status !== 200) return yield* failedAnswer(response)
    // One event is the lines up to a blank line; only `data:` lines matter here (the step is also in the document).
    let data: Array<string> = []
    return response.stream.pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.filterMap((line) => {
        if (line === "") {
          const event = data.join("\n")
          data = []
          return event === "" ? Option.none() : Option.some(event)
        }
        if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5))
        return Option.none()
      }),
      Stream.mapEffect(decodeGame)
    )
  }))
