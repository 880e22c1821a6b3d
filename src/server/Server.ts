/**
 * `cardfx serve` as a layer: the {@link CardfxApi} handlers on
 * `@effect/platform-node`'s `NodeHttpServer`, with `/openapi.json` and the
 * offline Swagger UI at `/docs` (its JavaScript and CSS are inlined by
 * `HttpApiSwagger`, nothing is fetched from a CDN).
 *
 * Around every request, in this order:
 * - a request ID (`x-request-id` when the client sent a sane one, else
 *   `r<n>`), echoed in the response;
 * - draining: after SIGTERM, new requests get 503 `unavailable` while the
 *   ones in flight finish;
 * - the body guard: a body needs `Content-Length` (a chunked body is 400
 *   `schema_invalid`); `Content-Length` over the cap is 413
 *   `body_too_large` before a byte is read; the body is read with the cap and the body
 *   timeout (408 `request_timeout` with `Connection: close`) and must pass the project's hardened JSON
 *   parser (depth, `__proto__`, duplicate keys, unsafe numbers: 400 with the
 *   parser's code and JSON pointer) before any Schema sees it;
 * - the handler timeout (408 `request_timeout`);
 * - one structured log line per request through Effect's `Logger`
 *   (JSON: method, route, status, durationMs, requestId).
 * Decode failures become 400 `schema_invalid` / `unknown_field` with the
 * JSON pointer of each issue, unknown routes 404 `unknown_route`, and a
 * defect 500 `internal_error` whose body never carries a stack trace.
 *
 * @since 0.1.0
 */
import {
  HttpApiBuilder,
  HttpApiError,
  HttpApiSwagger,
  HttpMethod,
  HttpMiddleware,
  HttpServer,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeHttpServerRequest } from "@effect/platform-node"
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage"
import { Cause, Clock, Duration, Effect, Either, Fiber, Layer, Option, Redacted, Ref, Schedule } from "effect"
import { timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import {
  type ApiError,
  apiError,
  Authorization,
  BadRequest,
  CardfxApi,
  Conflict,
  Forbidden,
  InternalError,
  NotFound,
  PayloadTooLarge,
  RequestTimeout,
  Unauthorized,
  Unavailable,
  Unprocessable
} from "../api/Api.js"
import {
  Canonical,
  type Diagnostic,
  diagnostic,
  type DiagnosticCode,
  httpStatusOf,
  Json,
  Served
} from "../Library.js"
import { HandlersLive, ServedPackages } from "./Handlers.js"
import * as WorkbenchPage from "./page/Page.js"

/** How a server runs. */
export interface ServeOptions {
  readonly packages: ReadonlyArray<string>
  /** SQLite path or postgres:// URL (both the ledger store and the Hallyu Hex games). */
  readonly store: string
  readonly tablePrefix?: string | undefined
  /** The Hallyu Hex deck file served. */
  readonly deckFile: string
  readonly host: string
  /** 0 for an ephemeral port. */
  readonly port: number
  /** The bearer token of mutating endpoints; none: every request may mutate. */
  readonly token: Option.Option<Redacted.Redacted<string>>
  /** Body cap in bytes (default 1 MiB). */
  readonly bodyLimit?: number | undefined
  /** Time to receive a body once the headers are in (default {@link DEFAULT_BODY_TIMEOUT}: a slow client is answered within a second). */
  readonly bodyTimeout?: Duration.DurationInput | undefined
  /** Time to answer once the body is in (default 30 s). */
  readonly handlerTimeout?: Duration.DurationInput | undefined
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024
/** A body that has not fully arrived after this is answered 408 `request_timeout` (a slow or stalled client). */
export const DEFAULT_BODY_TIMEOUT: Duration.DurationInput = "800 millis"

/** Draining state shared by the request middleware and the SIGTERM finalizer. */
export interface Lifecycle {
  readonly draining: Ref.Ref<boolean>
  readonly inflight: Ref.Ref<number>
  readonly requests: Ref.Ref<number>
}

export const makeLifecycle: Effect.Effect<Lifecycle> = Effect.all({
  draining: Ref.make(false),
  inflight: Ref.make(0),
  requests: Ref.make(0)
})

/** Stops taking requests and waits (at most `timeout`) for the ones in flight. */
export const drain = (lifecycle: Lifecycle, timeout: Duration.DurationInput = "10 seconds"): Effect.Effect<void> =>
  Ref.set(lifecycle.draining, true).pipe(
    Effect.zipRight(
      Effect.repeat(Ref.get(lifecycle.inflight), { until: (n) => n === 0, schedule: Schedule.spaced("20 millis") })
        .pipe(
          Effect.timeoutOption(timeout),
          Effect.asVoid
        )
    )
  )

const errorResponse = (diagnostics: ReadonlyArray<Diagnostic>, requestId: string) => {
  const first = diagnostics[0] ?? diagnostic("internal_error", "no diagnostic")
  return HttpServerResponse.unsafeJson(
    { code: first.code, message: first.message, diagnostics },
    { status: httpStatusOf(first.code), headers: { "x-request-id": requestId } }
  )
}

const one = (
  code: DiagnosticCode,
  message: string,
  context: Parameters<typeof diagnostic>[2] = {}
) => [diagnostic(code, message, context)]

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The request middleware described in the module comment. */
const guard = (lifecycle: Lifecycle, options: ServeOptions) => {
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const bodyTimeout = options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT
  const handlerTimeout = options.handlerTimeout ?? "30 seconds"
  return HttpMiddleware.make((app) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = yield* Clock.currentTimeMillis
      const n = yield* Ref.updateAndGet(lifecycle.requests, (x) => x + 1)
      const sent = request.headers["x-request-id"]
      const requestId = sent !== undefined && REQUEST_ID.test(sent) ? sent : `r${n}`
      const handle = Effect.gen(function*() {
        if (yield* Ref.get(lifecycle.draining)) {
          return errorResponse(one("unavailable", "the server is shutting down"), requestId)
        }
        if (HttpMethod.hasBody(request.method)) {
          const type = request.headers["content-type"]
          // Only JSON bodies: any other type would reach a parser other than the hardened one.
          if (type !== undefined && !type.toLowerCase().includes("application/json")) {
            return errorResponse(
              one("schema_invalid", `the body must be application/json, not ${type}`, { subject: "content-type" }),
              requestId
            )
          }
          const length = request.headers["content-length"]
          // A body past the cap could only be refused by resetting the connection mid-stream; a declared length can be refused with an answer.
          if (length === undefined && request.headers["transfer-encoding"] !== undefined) {
            return errorResponse(
              one("schema_invalid", "a request body needs a Content-Length header (chunked bodies are not accepted)", {
                subject: "content-length"
              }),
              requestId
            )
          }
          const declared = Number(length ?? "0")
          if (declared > limit) {
            return errorResponse(
              one("body_too_large", `the body has ${declared} bytes; the cap is ${limit}`, {
                details: { limit, actual: declared }
              }),
              requestId
            )
          }
          // The platform's read runs in its own fiber and is never interrupted: interrupting it destroys the
          // socket, and the client would get no answer. The timeout only stops waiting for it; the 408 closes
          // the connection, and the read ends when the socket does (or Node's requestTimeout backstop fires).
          const body = request.text.pipe(IncomingMessage.withMaxBodySize(Option.some(limit)), Effect.either)
          // Most bodies arrive with their headers: when Node has the whole message, read it without the race.
          // (The request handler runs before Node parses the rest of the packet: one yield lets it finish.)
          yield* Effect.yieldNow()
          const read = NodeHttpServerRequest.toIncomingMessage(request).complete
            ? Option.some(yield* body)
            : yield* Effect.flatMap(
              Effect.forkDaemon(body),
              (reading) => Fiber.join(reading).pipe(Effect.timeoutOption(bodyTimeout), Effect.interruptible)
            )
          if (Option.isNone(read)) {
            return HttpServerResponse.setHeader(
              errorResponse(
                one(
                  "request_timeout",
                  `the body did not arrive within ${Duration.format(Duration.decode(bodyTimeout))}`
                ),
                requestId
              ),
              "connection",
              "close"
            )
          }
          const text = read.value
          if (Either.isLeft(text)) {
            return String(text.left.cause).includes("maxBytes")
              ? errorResponse(
                one("body_too_large", `the body is larger than the cap of ${limit} bytes`, { details: { limit } }),
                requestId
              )
              : errorResponse(one("json_syntax", "the body could not be read"), requestId)
          }
          if (text.right.trim() !== "") {
            const parsed = Json.parseJson(text.right, { maxBytes: limit })
            if (Either.isLeft(parsed)) {
              const d = parsed.left
              return errorResponse([
                d.code === "file_too_large" ? diagnostic("body_too_large", d.message, { details: { limit } }) : d
              ], requestId)
            }
          }
        }
        return yield* app.pipe(
          Effect.disconnect,
          Effect.timeoutFail({ duration: handlerTimeout, onTimeout: () => "timeout" as const }),
          Effect.interruptible,
          Effect.catchAll((e) =>
            e === "timeout"
              ? Effect.succeed(
                errorResponse(one("request_timeout", "the request took longer than the handler timeout"), requestId)
              )
              : Effect.fail(e)
          ),
          Effect.map((r) => HttpServerResponse.setHeader(r, "x-request-id", requestId))
        )
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logError("unhandled failure", Cause.pretty(cause)),
            errorResponse(one("internal_error", "internal error"), requestId)
          )
        )
      )
      const response = yield* Effect.acquireUseRelease(
        Ref.update(lifecycle.inflight, (x) => x + 1),
        () => handle,
        () => Ref.update(lifecycle.inflight, (x) => x - 1)
      )
      const ended = yield* Clock.currentTimeMillis
      yield* Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          method: request.method,
          route: request.url.split("?")[0] ?? request.url,
          status: response.status,
          durationMs: ended - started,
          requestId
        })
      )
      return response
    })
  )
}

/** Issues of a Schema decode as diagnostics with JSON pointers. */
const decodeDiagnostics = (e: HttpApiError.HttpApiDecodeError): Array<Diagnostic> =>
  e.issues.length === 0
    ? [diagnostic("schema_invalid", e.message)]
    : e.issues.map((i) =>
      i._tag === "Unexpected"
        ? diagnostic("unknown_field", `${Json.toPointer(i.path)} is not a field of this request`, {
          path: Json.toPointer(i.path)
        })
        : diagnostic("schema_invalid", `${Json.toPointer(i.path) || "the body"}: ${i.message}`, {
          path: Json.toPointer(i.path)
        })
    )

const apiErrorClasses = [
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  RequestTimeout,
  Conflict,
  PayloadTooLarge,
  Unprocessable,
  InternalError,
  Unavailable
]
const isApiError = (u: unknown): u is ApiError => apiErrorClasses.some((C) => u instanceof C)

/**
 * An error as its response: the status is the table's status of the code.
 * (Written here rather than by the API's error-union encoder: the ten error
 * classes share one body shape, and the union would encode every one of
 * them with the first class's status.)
 */
const bodyOf = (e: ApiError) =>
  HttpServerResponse.unsafeJson({ code: e.code, message: e.message, diagnostics: e.diagnostics }, {
    status: httpStatusOf(e.code)
  })

/** Decode failures, unknown routes, handler errors and defects as the API's own error bodies. */
const translateErrors = HttpApiBuilder.middleware(CardfxApi, (app) =>
  Effect.catchAllCause(app, (cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const e: unknown = failure.value
      if (e instanceof HttpApiError.HttpApiDecodeError) return Effect.succeed(bodyOf(apiError(decodeDiagnostics(e))))
      if (e instanceof HttpServerError.RouteNotFound) {
        return Effect.succeed(
          bodyOf(apiError(one("unknown_route", `no endpoint ${e.request.method} ${e.request.url.split("?")[0] ?? ""}`)))
        )
      }
      if (isApiError(e)) return Effect.succeed(bodyOf(e))
      return Effect.failCause(cause)
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    return Effect.as(
      Effect.logError("defect", Cause.pretty(cause)),
      bodyOf(apiError(one("internal_error", "internal error")))
    )
  }))

const digest = (s: string): Buffer => Buffer.from(Canonical.sha256Hex(s), "hex")

/** Bearer check: constant-time comparison of digests (equal lengths whatever the token); the token is never logged. */
export const authorizationLayer = (token: Option.Option<Redacted.Redacted<string>>): Layer.Layer<Authorization> =>
  Layer.succeed(Authorization, {
    bearer: (provided) => {
      if (Option.isNone(token)) return Effect.void
      const given = Redacted.value(provided)
      if (given === "") {
        return Effect.fail(
          new Unauthorized({
            code: "unauthorized",
            message: "this endpoint needs Authorization: Bearer <token>",
            diagnostics: one("unauthorized", "this endpoint needs Authorization: Bearer <token>")
          })
        )
      }
      return timingSafeEqual(digest(given), digest(Redacted.value(token.value)))
        ? Effect.void
        : Effect.fail(
          new Forbidden({
            code: "forbidden",
            message: "the bearer token is not this server's",
            diagnostics: one("forbidden", "the bearer token is not this server's")
          })
        )
    }
  })

/** The application services of a server (no HTTP): catalog, store, planner, games. */
export const servicesLayer = (options: Pick<ServeOptions, "packages" | "store" | "tablePrefix" | "deckFile">) =>
  Layer.merge(
    Served.layer(options),
    Layer.succeed(ServedPackages, { packages: options.packages, deckFile: options.deckFile })
  )

/** The whole server: services, API, docs, and the Node HTTP server listening on host:port. */
export const serverLayer = (options: ServeOptions, lifecycle: Lifecycle) => {
  const api = HttpApiBuilder.api(CardfxApi).pipe(
    Layer.provide(HandlersLive),
    Layer.provide(authorizationLayer(options.token))
  )
  return HttpApiBuilder.serve(guard(lifecycle, options)).pipe(
    // No tracer is installed, so the platform's per-request span would be built and dropped: skip it.
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
    // The workbench page at `/` (src/server/page): a client of the API above, nothing more.
    Layer.provide(WorkbenchPage.layer()),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(translateErrors),
    Layer.provide(api),
    Layer.provideMerge(servicesLayer(options)),
    Layer.provideMerge(
      // Node's own limits are the backstop for a client the 408 did not stop (it closes its socket after them).
      NodeHttpServer.layer(() =>
        createServer({
          headersTimeout: 10_000,
          requestTimeout: Duration.toMillis(Duration.decode(options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT)) + 10_000,
          connectionsCheckingInterval: 1_000
        }), {
        host: options.host,
        port: options.port
      })
    )
  )
}

/** The address a running server listens on, as a base URL. */
export const serverUrl: Effect.Effect<string, never, HttpServer.HttpServer> = Effect.map(
  HttpServer.HttpServer,
  (s) => s.address._tag === "TcpAddress" ? `http://${s.address.hostname}:${s.address.port}` : `unix:${s.address.path}`
)
