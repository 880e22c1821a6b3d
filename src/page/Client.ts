/**
 * The `Api` port over the typed client `cardfx/client` (src/client.ts: made
 * by `HttpApiClient.make` from the API definition the server is built
 * from), on the browser's `fetch`. Mutating calls carry the token the
 * designer entered (`model/Auth.ts`) as `Authorization: Bearer`; game calls
 * carry the seat's secret (from the game's creation) as `X-Seat-Secret`. Each call resolves to the endpoint's document;
 * an error response rejects with an `ApiError` carrying the body's `code`,
 * `message` and `diagnostics` and the status of its class (the error Schemas
 * the server writes; no status table of the page's own).
 *
 * @since 0.1.0
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Either, Exit, Option, Schema } from "effect"
import { CardfxApi, isApiError, statusOfApiError } from "../api/Api.js"
import { ErrorBody, GameDocument } from "../api/Documents.js"
import { ServedState } from "../api/RuntimeEvents.js"
import { type Api, ApiError } from "./Api.js"
import { authorizationFor } from "./model/Auth.js"

/**
 * A failure as the page's ApiError: an error response keeps its body and the status its class is sent with (the
 * API's own error Schemas, src/api/Api.ts); transport and decode failures are `client_error` with no status.
 */
const toApiError = (e: unknown): ApiError =>
  isApiError(e)
    ? new ApiError(statusOfApiError(e), e.code, e.message, e.diagnostics)
    : new ApiError(0, "client_error", e instanceof Error ? e.message : String(e))

/** The typed client of `cardfx/client`, with the token read at each request (the designer may enter it any time). */
const client = (origin: string, token: () => string) =>
  Effect.runPromise(
    HttpApiClient.make(CardfxApi, {
      baseUrl: origin,
      transformClient: HttpClient.mapRequest((request) => {
        const authorization = authorizationFor(request.method, token())
        return authorization === undefined
          ? request
          : HttpClientRequest.setHeader(request, "authorization", authorization)
      })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

const decodeGame = Schema.decodeUnknownEither(Schema.parseJson(GameDocument))
const decodeError = Schema.decodeUnknownEither(Schema.parseJson(ErrorBody))
const decodeServed = Schema.decodeUnknownEither(Schema.parseJson(ServedState))

/**
 * Reads a server-sent event stream from `path` with the browser's streaming `fetch` (EventSource cannot send the
 * seat's secret or the bearer token as a header): the `data:` lines of each event (up to its blank line) are passed
 * to `onData`. A refusal rejects with the API error of its body.
 */
const followStream = async (
  url: string,
  headers: Record<string, string>,
  onData: (data: string) => void,
  signal: AbortSignal
): Promise<void> => {
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal })
  if (response.status !== 200 || response.body === null) {
    const body = decodeError(await response.text())
    // The page's views await promises: a refused stream rejects with the API error.
    // eslint-disable-next-line no-restricted-syntax
    throw Either.isRight(body)
      ? new ApiError(response.status, body.right.code, body.right.message, body.right.diagnostics)
      : new ApiError(response.status, "client_error", `the events endpoint answered ${response.status}`)
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  let data: Array<string> = []
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }))
    if (chunk.done) return
    buffer += chunk.value
    let nl = buffer.indexOf("\n")
    while (nl >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, "")
      buffer = buffer.slice(nl + 1)
      nl = buffer.indexOf("\n")
      if (line === "") {
        const event = data.join("\n")
        data = []
        if (event !== "") onData(event)
      } else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5))
    }
  }
}

/**
 * Follows a game's event stream: each event is one game document, decoded with the API's Schema as
 * `cardfx/client`'s `gameEvents` decodes it.
 */
const followEvents = (
  origin: string,
  gameId: string,
  secret: string,
  onStep: (game: GameDocument) => void,
  signal: AbortSignal
): Promise<void> =>
  followStream(
    `${origin}/v1/hhx/games/${encodeURIComponent(gameId)}/events`,
    { "x-seat-secret": secret },
    (event) => {
      const game = decodeGame(event)
      if (Either.isRight(game)) onStep(game.right)
    },
    signal
  )

export const makeApi = (origin: string, token: () => string = () => ""): Api => {
  const typed = client(origin, token)
  const call = async <A, E>(f: (c: Awaited<typeof typed>) => Effect.Effect<A, E>): Promise<A> => {
    const exit = await Effect.runPromiseExit(f(await typed))
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.failureOption(exit.cause)
    // The page's views await promises (Preact event handlers): a failed call rejects with the API error.
    // eslint-disable-next-line no-restricted-syntax
    throw toApiError(Option.isSome(failure) ? failure.value : Cause.squash(exit.cause))
  }
  return {
    runtime: () => call((c) => c.runtime.runtime()),
    runtimeEvents: (onState, signal) =>
      followStream(`${origin}/v1/runtime/events`, {}, (event) => {
        const state = decodeServed(event)
        if (Either.isRight(state)) onState(state.right)
      }, signal),
    cards: async () => (await call((c) => c.cards.list())).cards,
    effective: async (cardId, withUpgrades = []) =>
      (await call((c) =>
        c.cards.effective({
          path: { cardId },
          urlParams: withUpgrades.length === 0 ? {} : { with: [...withUpgrades] }
        })
      )).inspection,
    discover: (payload) => call((c) => c.cards.discover({ payload })),
    instance: (instanceId, branch) => call((c) => c.instances.get({ path: { instanceId }, urlParams: { branch } })),
    history: async (instanceId, branch) =>
      (await call((c) => c.instances.history({ path: { instanceId }, urlParams: { branch } }))).events,
    command: (instanceId, payload) => call((c) => c.instances.command({ path: { instanceId }, payload })),
    branches: async (instanceId) => (await call((c) => c.instances.branches({ path: { instanceId } }))).branches,
    createBranch: (instanceId, payload) => call((c) => c.instances.createBranch({ path: { instanceId }, payload })),
    runScenario: async (payload) => (await call((c) => c.scenarios.run({ payload }))).report,
    deck: () => call((c) => c.hhx.deck()),
    newGame: (body) => call((c) => c.hhx.create({ payload: body })),
    view: (gameId, secret) =>
      call((c) => c.hhx.get({ path: { gameId }, urlParams: {}, headers: { "x-seat-secret": secret } })),
    act: (gameId, actionId, expectedStep, secret) =>
      call((c) =>
        c.hhx.act({ path: { gameId }, headers: { "x-seat-secret": secret }, payload: { actionId, expectedStep } })
      ),
    explain: (gameId, actionId, secret) =>
      call((c) => c.hhx.explain({ path: { gameId }, urlParams: { actionId }, headers: { "x-seat-secret": secret } })),
    log: (gameId, secret) => call((c) => c.hhx.log({ path: { gameId }, headers: { "x-seat-secret": secret } })),
    events: (gameId, secret, onStep, signal) => followEvents(origin, gameId, secret, onStep, signal)
  }
}
