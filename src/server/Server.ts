/**
 * `cardfx serve` as a layer: the {@link CardfxApi} handlers behind the
 * server's door (src/server/Door.ts) on a Node HTTP server, with
 * `/openapi.json` and the offline Swagger UI at `/docs` (its JavaScript and
 * CSS are inlined by `HttpApiSwagger`, nothing is fetched from a CDN).
 *
 * The door (plain Node code in front of the app) takes every request first:
 * request ID, start-up and draining answers, `Host`/CORS/origin checks, 405,
 * content type, the bearer token before the body, the body cap, the body
 * read (one listener, one timer) and the hardened JSON parser, and the
 * access log line. What reaches the app is a routed request with its body
 * parsed; the app adds, only where a request needs it, the handler timeout
 * (slow endpoints), compression and page-asset ETags (src/server/Compression.ts).
 *
 * Decode failures become 400 `schema_invalid` / `unknown_field` with the
 * JSON pointer of each issue (or the code the project's decoder gives that
 * place, as the CLI and library answer: 422 `invalid_id` for an ID), unknown routes 404 `unknown_route`, and a
 * defect 500 `internal_error` whose body never carries a stack trace.
 *
 * @since 0.1.0
 */
import {
  Etag,
  FileSystem,
  HttpApi,
  HttpApiBuilder,
  HttpApiError,
  HttpApiSwagger,
  HttpApp,
  HttpMiddleware,
  HttpPlatform,
  HttpRouter,
  HttpServer,
  HttpServerError,
  HttpServerRequest,
  Path
} from "@effect/platform"
import { NodeHttpServer, NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Context, Duration, Effect, Either, Layer, Option, Redacted, Schedule, Schema, SchemaAST } from "effect"
import { timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import {
  apiError,
  Authorization,
  CardfxApi,
  Forbidden,
  isApiError,
  OperatorCredential,
  Unauthorized
} from "../api/Api.js"
import {
  Canonical,
  ContentCatalog,
  Decode,
  type Diagnostic,
  diagnostic,
  type DiagnosticCode,
  errorFromDiagnostic,
  Games,
  Json,
  Served
} from "../services/index.js"
import type { ServingLimits } from "../services/ServingLimits.js"
import { BalanceLive } from "./Balance.js"
import * as Compression from "./Compression.js"
import * as Door from "./Door.js"
import * as Handlers from "./Handlers.js"
import { HandlersLive, ServedPackages } from "./Handlers.js"
import * as WorkbenchPage from "./Page.js"
import { DEFAULT_RATE_LIMIT } from "./RateLimit.js"
import { memberSlot, ServerWorkers } from "./Workers.js"

/** How a server runs. */
export interface ServeOptions {
  readonly packages: ReadonlyArray<string>
  /** SQLite path or postgres:// URL (both the ledger store and the Hallyu Hex games). */
  readonly store: string
  readonly tablePrefix?: string | undefined
  /** The Hallyu Hex deck file served. */
  readonly deckFile: string
  /** Serve content that breaks stored instances, logging each (default: the start fails with `start_rejected`). */
  readonly allowBroken?: boolean | undefined
  readonly host: string
  /** 0 for an ephemeral port. */
  readonly port: number
  /** The bearer token of mutating endpoints; none: every request may mutate. */
  readonly token: Option.Option<Redacted.Redacted<string>>
  /** Body cap in bytes (default 1 MiB). */
  readonly bodyLimit?: number | undefined
  /** Time to receive a body once the headers are in (default {@link DEFAULT_BODY_TIMEOUT}: a slow client is answered within a second). */
  readonly bodyTimeout?: Duration.DurationInput | undefined
  /** Time to answer once the body is in, for the endpoints that can be slow (default 30 s). */
  readonly handlerTimeout?: Duration.DurationInput | undefined
  /** Host names accepted in the `Host` header besides the loopback names and `host` (`--allowed-host`). */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** Origins answered with CORS headers, preflights included (`--cors-origin`); none: CORS off. */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /** Where the access log lines go (one JSON line a request); undefined: no access log. */
  readonly accessLog?: ((line: string) => void) | undefined
  /**
   * `--protect-reads`: every API request but `/v1/health` needs the operator
   * token — or, on a game's own endpoints, one of its seats' secrets.
   */
  readonly protectReads?: boolean | undefined
  /** Time between heartbeats on open event streams (default 15 s). */
  readonly heartbeat?: Duration.DurationInput | undefined
  /** Computer seats' decisions at once, their largest iteration budget, and where they run (default: in process). */
  readonly computerSeats?: Served.ServedOptions["computerSeats"]
  readonly agentDecider?: Served.ServedOptions["agentDecider"]
  /** This process is one worker of `serve --workers N` (src/server/Workers.ts). */
  readonly worker?: boolean | undefined
  /** Start even when the other servers on the store serve other content (src/services/ContentFollow.ts). */
  readonly allowContentMismatch?: boolean | undefined
  /** The limits on anonymous clients (rate limit, live games, stream slots); absent ones keep their defaults. */
  readonly limits?: ServingLimits | undefined
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024
/** A body that has not fully arrived after this is answered 408 `request_timeout` (a slow or stalled client). */
export const DEFAULT_BODY_TIMEOUT: Duration.DurationInput = "800 millis"

/** The server's start-up/draining state and request counters (plain numbers, shared with the door). */
export type Lifecycle = Door.Lifecycle

export const makeLifecycle: Effect.Effect<Lifecycle> = Effect.sync(Door.newLifecycle)

/** After SIGTERM, late requests are answered 503 for at least this long before the port closes. */
const DRAIN_GRACE_MS = 250
const DRAIN_POLL_MS = 20

/**
 * Stops taking requests (they get 503 `unavailable` with `Connection: close`)
 * and waits, at most `timeout`, for the ones already taken to finish.
 */
export const drain = (lifecycle: Lifecycle, timeout: Duration.DurationInput = "10 seconds"): Effect.Effect<void> =>
  Effect.suspend(() => {
    lifecycle.phase = "draining"
    // Open event streams would keep their requests in flight until the timeout: end them now.
    for (const f of lifecycle.onDrain) f()
    let polls = 0
    return Effect.repeat(Effect.sync(() => lifecycle.inflight === 0 && ++polls * DRAIN_POLL_MS >= DRAIN_GRACE_MS), {
      until: (done) => done,
      schedule: Schedule.spaced(Duration.millis(DRAIN_POLL_MS))
    }).pipe(Effect.timeoutOption(timeout), Effect.asVoid)
  })

const one = (
  code: DiagnosticCode,
  message: string,
  context: Parameters<typeof diagnostic>[2] = {}
) => [diagnostic(code, message, context)]

/**
 * The request with the body the door parsed: the platform never reads the
 * stream again. The platform's Node request caches its body as an effect
 * (`textEffect`, read by `text` and `json`): filling that cache is the cheap
 * way, and it is checked; should the platform change, a wrapper request
 * answers `text` and `json` instead.
 */
const withBody = (
  request: HttpServerRequest.HttpServerRequest,
  body: { readonly text: string; readonly value: unknown }
): HttpServerRequest.HttpServerRequest => {
  const text = Effect.succeed(body.text)
  if (Reflect.set(request, "textEffect", text) && request.text === text) return request
  return Object.create(request, {
    text: { value: text },
    json: { value: Effect.succeed(body.value) }
  }) as HttpServerRequest.HttpServerRequest
}

/**
 * The app's side of the door: what the door prepared for a request (its
 * parsed body, a handler timeout for a slow endpoint, compression). A
 * request with nothing prepared (most reads) runs the app as it is.
 */
const prepared = (options: ServeOptions) => {
  const handlerTimeout = options.handlerTimeout ?? "30 seconds"
  const timed = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
    app.pipe(
      Effect.disconnect,
      Effect.timeoutFail({ duration: handlerTimeout, onTimeout: () => "timeout" as const }),
      Effect.interruptible,
      Effect.catchAll((e) =>
        e === "timeout"
          ? Effect.succeed(bodyOf(apiError(one("request_timeout", "the request took longer than the handler timeout"))))
          : Effect.fail(e)
      )
    )
  return HttpMiddleware.make((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const p = Door.preparedFor(NodeHttpServerRequest.toIncomingMessage(request))
      if (p === undefined) return app
      let out = app
      if (p.slow) out = timed(out)
      if (p.compression !== undefined) out = HttpApp.withPreResponseHandler(out, Compression.handler(p.compression))
      if (p.body !== undefined) {
        const filled = withBody(request, p.body)
        if (filled !== request) out = Effect.provideService(out, HttpServerRequest.HttpServerRequest, filled)
      }
      return out
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

/** One endpoint's request Schemas, to decode a failed request again with the project's own decoder. */
interface RequestSchemas {
  readonly method: string
  /** The path's segments: a literal, or the name of a parameter. */
  readonly segments: ReadonlyArray<{ readonly literal: string } | { readonly param: string }>
  readonly path: Decoder | undefined
  readonly payload: Decoder | undefined
  readonly urlParams: Decoder | undefined
  /** The query parameters whose Schema is a list: one value is a list of one, as the platform decodes it. */
  readonly listParams: ReadonlySet<string>
}

/** Whether a Schema (as its encoded side, which the query's strings meet) is a list. */
const isList = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "TupleType":
      return true
    case "Refinement":
    case "Transformation":
      return isList(ast.from)
    case "Union":
      return ast.types.some(isList)
    case "Suspend":
      return isList(ast.f())
    default:
      return false
  }
}

type Decoder = (value: unknown) => Either.Either<unknown, Array<Diagnostic>>

const requestSchemas: ReadonlyArray<RequestSchemas> = (() => {
  const out: Array<RequestSchemas> = []
  const decoder = (s: Option.Option<{ readonly ast: SchemaAST.AST }>): Decoder | undefined =>
    Option.isNone(s) ? undefined : Decode.makeDecoder(Schema.make<unknown>(s.value.ast))
  HttpApi.reflect(CardfxApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      out.push({
        method: endpoint.method,
        segments: endpoint.path.split("/").map((s) => s.startsWith(":") ? { param: s.slice(1) } : { literal: s }),
        path: decoder(endpoint.pathSchema),
        payload: decoder(endpoint.payloadSchema),
        urlParams: decoder(endpoint.urlParamsSchema),
        listParams: Option.match(endpoint.urlParamsSchema, {
          onNone: () => new Set<string>(),
          onSome: (u) =>
            new Set(SchemaAST.getPropertySignatures(u.ast).filter((p) => isList(p.type)).map((p) => String(p.name)))
        })
      })
    }
  })
  return out
})()

const decodeAgain = (decode: Decoder | undefined, value: unknown): Array<Diagnostic> => {
  if (decode === undefined || value === undefined) return []
  const r = decode(value)
  return Either.isLeft(r) ? r.left : []
}

/**
 * The request decoded again, in the platform's order (path, body, query),
 * with the project's decoder: the platform's `HttpApiDecodeError` keeps each
 * issue's path and message but drops the Schema annotation that carries a
 * diagnostic code (`invalid_id` on an ID's length and syntax), which the CLI
 * and the library report.
 */
const recoveredDiagnostics = (request: HttpServerRequest.HttpServerRequest): Array<Diagnostic> => {
  const url = new URL(request.url, "http://x")
  const parts = url.pathname.split("/")
  const method = request.method === "HEAD" ? "GET" : request.method
  for (const e of requestSchemas) {
    if (e.method !== method || e.segments.length !== parts.length) continue
    const params: Record<string, string> = {}
    let matches = true
    for (let i = 0; i < parts.length && matches; i++) {
      const segment = e.segments[i]
      const part = parts[i] ?? ""
      if (segment === undefined) matches = false
      else if ("literal" in segment) matches = segment.literal === part
      else {
        try {
          params[segment.param] = decodeURIComponent(part)
        } catch {
          matches = false
        }
      }
    }
    if (!matches) continue
    const inPath = decodeAgain(e.path, params)
    if (inPath.length > 0) return inPath
    const inBody = decodeAgain(
      e.payload,
      Door.preparedFor(NodeHttpServerRequest.toIncomingMessage(request))?.body?.value
    )
    if (inBody.length > 0) return inBody
    const query: Record<string, string | Array<string>> = {}
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key)
      query[key] = values.length > 1 || e.listParams.has(key) ? values : values[0] ?? ""
    }
    return decodeAgain(e.urlParams, query)
  }
  return []
}

/**
 * The platform's decode issues, each with the code the project's decoder
 * gives the same place (`invalid_id` for an over-long ID, as on the CLI and
 * in the library) where that is not plain `schema_invalid`.
 */
const requestDiagnostics = (
  request: HttpServerRequest.HttpServerRequest,
  e: HttpApiError.HttpApiDecodeError
): Array<Diagnostic> => {
  const platform = decodeDiagnostics(e)
  const coded = new Map<string, Diagnostic>()
  for (const d of recoveredDiagnostics(request)) {
    if (d.code !== "schema_invalid" && d.code !== "unknown_field" && !coded.has(d.path ?? "")) {
      coded.set(d.path ?? "", d)
    }
  }
  return coded.size === 0
    ? platform
    : platform.map((d) => d.code === "schema_invalid" ? coded.get(d.path ?? "") ?? d : d)
}

const bodyOf = Handlers.errorResponse

/** Decode failures, unknown routes, handler errors and defects as the API's own error bodies. */
const translateErrors = HttpApiBuilder.middleware(CardfxApi, (app) =>
  Effect.catchAllCause(app, (cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const e: unknown = failure.value
      if (e instanceof HttpApiError.HttpApiDecodeError) {
        return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Handlers.answeredRequests.has(NodeHttpServerRequest.toIncomingMessage(request))
            // The handler had answered: the Schema failure is the encoding of the server's own answer.
            ? Effect.as(
              Effect.logError("answer encoding failed", e.message),
              bodyOf(apiError(one("internal_error", "internal error: the server could not encode its answer")))
            )
            : Effect.succeed(bodyOf(apiError(requestDiagnostics(request, e)))))
      }
      if (e instanceof HttpServerError.RouteNotFound) {
        return Effect.succeed(
          bodyOf(apiError(one("unknown_route", `no endpoint ${e.request.method} ${e.request.url.split("?")[0] ?? ""}`)))
        )
      }
      if (isApiError(e)) {
        return Effect.succeed(bodyOf(e))
      }
      return Effect.failCause(cause)
    }
    if (Cause.isInterruptedOnly(cause)) {
      return Effect.failCause(cause)
    }
    return Effect.as(
      Effect.logError("defect", Cause.pretty(cause)),
      bodyOf(apiError(one("internal_error", "internal error")))
    )
  }))

const digest = (s: string): Buffer => Buffer.from(Canonical.sha256Hex(s), "hex")

/** A given bearer token against the server's: equal, or 403 `forbidden` (digests compared in constant time). */
const serversToken = (given: string, token: Redacted.Redacted<string>): Effect.Effect<void, Forbidden> =>
  timingSafeEqual(digest(given), digest(Redacted.value(token)))
    ? Effect.void
    : Effect.fail(
      new Forbidden({
        code: "forbidden",
        message: "the bearer token is not this server's",
        diagnostics: one("forbidden", "the bearer token is not this server's")
      })
    )

/** Bearer check: constant-time comparison of digests (equal lengths whatever the token); the token is never logged. */
export const authorizationLayer = (token: Option.Option<Redacted.Redacted<string>>): Layer.Layer<Authorization> =>
  Layer.succeed(Authorization, {
    bearer: (provided) => {
      if (Option.isNone(token)) return Effect.succeed({ operator: false })
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
      return Effect.as(serversToken(given, token.value), { operator: true })
    }
  })

/**
 * The operator's token on the game endpoints, where it is optional: none
 * (or a server without a token) is not the operator; the server's token is;
 * another token is 403 `forbidden`. Compared as {@link authorizationLayer} does.
 */
export const operatorCredentialLayer = (
  token: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<OperatorCredential> =>
  Layer.succeed(OperatorCredential, {
    bearer: (provided) => {
      const given = Redacted.value(provided)
      if (Option.isNone(token) || given === "") return Effect.succeed({ operator: false })
      return Effect.as(serversToken(given, token.value), { operator: true })
    }
  })

/** The application services of a server (no HTTP): catalog, store, planner, games. */
export const servicesLayer = (
  options: Pick<
    ServeOptions,
    | "packages"
    | "store"
    | "tablePrefix"
    | "deckFile"
    | "heartbeat"
    | "allowBroken"
    | "computerSeats"
    | "agentDecider"
    | "worker"
    | "allowContentMismatch"
    | "limits"
  >
) =>
  Layer.merge(
    Served.layer({
      packages: options.packages,
      store: options.store,
      tablePrefix: options.tablePrefix,
      deckFile: options.deckFile,
      heartbeatMs: options.heartbeat === undefined ? undefined : Duration.toMillis(Duration.decode(options.heartbeat)),
      allowBroken: options.allowBroken,
      computerSeats: options.computerSeats,
      agentDecider: options.agentDecider,
      worker: options.worker,
      allowContentMismatch: options.allowContentMismatch,
      limits: options.limits
    }),
    Layer.succeed(ServedPackages, { packages: options.packages, deckFile: options.deckFile })
  )

/** Endpoints whose handlers can take long: the only ones with a handler timeout. */
const SLOW_ENDPOINTS: ReadonlySet<string> = new Set([
  "cards.discover",
  "scenarios.run",
  "instances.replay",
  "instances.history",
  "admin.reload"
])

/** The routes outside the API definition: the workbench page (and its code-split chunks), the OpenAPI document, Swagger UI. */
const STATIC_ROUTES: ReadonlyArray<Door.Route> = [
  "/",
  "/index.html",
  "/app.js",
  "/app.css",
  "/chunks/:file",
  "/openapi.json",
  "/docs"
]
  .map((path) => ({ method: "GET", path, needsToken: false, slow: false, asset: true }))

/** The server's routes, from the API definition (the one source) plus {@link STATIC_ROUTES}. */
export const routeTable: Door.RouteTable = Door.routesOf(CardfxApi, {
  needsToken: (middleware) => [...middleware].some((m) => m.key === Authorization.key),
  slow: SLOW_ENDPOINTS,
  extra: STATIC_ROUTES,
  // A game's own endpoints: a seat's secret is a credential there.
  seat: new Set(["hhx.get", "hhx.act", "hhx.log", "hhx.explain", "hhx.events"]),
  seatRequired: new Set(["hhx.act"]),
  // The invitation's code is the credential of its exchange.
  open: new Set(["runtime.health", "hhx.join"]),
  limited: new Map([["hhx.create", "games"], ["instances.createBranch", "branches"]])
})

/**
 * What a request's handling reads from the handler's runtime: the router's
 * default services (`HttpApiBuilder.serve`'s app requires these at request
 * time; the groups carry their own services, see `Handlers.withOnly`). The
 * platform copies the runtime's context into every request's, so the
 * handler runs with these alone instead of the server's ~30 services.
 */
const requestTimeServices = Effect.map(
  Effect.context<HttpRouter.HttpRouter.DefaultServices>(),
  Context.pick(HttpPlatform.HttpPlatform, Etag.Generator, FileSystem.FileSystem, Path.Path)
)

/**
 * The Node HTTP server with the door as its request listener, as the
 * platform's `HttpServer`: it listens at once (a request that arrives while
 * the services load is answered 503 `starting`), and the app's handler is
 * attached to the door when the API is served.
 */
const doorServer = (options: ServeOptions, lifecycle: Lifecycle) =>
  Effect.gen(function*() {
    const bodyTimeoutMs = Duration.toMillis(Duration.decode(options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT))
    const requestContext = yield* requestTimeServices
    const boundHost = options.host.toLowerCase()
    const door = Door.makeDoor(lifecycle, {
      routes: routeTable,
      token: Option.getOrUndefined(Option.map(options.token, Redacted.value)),
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      bodyTimeoutMs,
      allowedHosts: [
        ...(boundHost === "0.0.0.0" || boundHost === "::" ? [] : [boundHost]),
        ...(options.allowedHosts ?? [])
      ],
      corsOrigins: options.corsOrigins ?? [],
      accessLog: options.accessLog,
      protectReads: options.protectReads,
      requestIdPrefix: options.worker === true && memberSlot !== undefined ? `w${memberSlot}-` : undefined,
      rateLimit: options.limits?.rateLimit ?? DEFAULT_RATE_LIMIT
    })
    const server = yield* Effect.acquireRelease(
      Effect.sync(() =>
        // Node's own limits are the backstop for a client the 408 did not stop (it closes its socket after them).
        createServer({
          headersTimeout: 10_000,
          requestTimeout: bodyTimeoutMs + 10_000,
          connectionsCheckingInterval: 1_000
        }, door.listener)
      ),
      (server) =>
        Effect.async<void>((resume) => {
          if (!server.listening) return resume(Effect.void)
          server.close(() => resume(Effect.void))
          server.closeIdleConnections()
        })
    )
    yield* Effect.async<void, ReturnType<typeof errorFromDiagnostic>>((resume) => {
      const onError = (e: NodeJS.ErrnoException) => {
        const where = `${options.host}:${options.port}`
        resume(Effect.fail(errorFromDiagnostic(diagnostic(
          "port_in_use",
          e.code === "EADDRINUSE"
            ? `cannot listen on ${where}: the port is in use (another server?)`
            : `cannot listen on ${where}: ${e.code ?? e.message}`,
          { subject: where, details: { host: options.host, port: options.port } }
        ))))
      }
      server.once("error", onError)
      server.listen({ host: options.host, port: options.port }, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })
    const address = server.address()
    return HttpServer.make({
      address: address === null || typeof address === "string"
        ? { _tag: "UnixAddress", path: address ?? "" }
        : { _tag: "TcpAddress", hostname: address.address, port: address.port },
      serve: (app, middleware) =>
        Effect.gen(function*() {
          const handlerOf = (withMiddleware: boolean) =>
            Effect.mapInputContext(
              withMiddleware && middleware !== undefined
                ? NodeHttpServer.makeHandler(app, middleware)
                : NodeHttpServer.makeHandler(app),
              (_: Context.Context<never>) => requestContext
            )
          // The one middleware here is `prepared` (given to `HttpApiBuilder.serve` below): it only reads what the
          // door prepared, so a request the door prepared nothing for runs the app without it.
          door.attach({ plain: yield* handlerOf(false), prepared: yield* handlerOf(true) })
          yield* Effect.addFinalizer(() => Effect.sync(door.detach))
        })
    })
  })

/** The whole server: services, API, docs, and the Node HTTP server listening on host:port. */
export const serverLayer = (options: ServeOptions, lifecycle: Lifecycle) => {
  const api = HttpApiBuilder.api(CardfxApi).pipe(
    Layer.provide(Layer.merge(HandlersLive, BalanceLive)),
    Layer.provide(authorizationLayer(options.token)),
    Layer.provide(operatorCredentialLayer(options.token))
  )
  // The drain ends the games' event streams (their requests would otherwise stay in flight).
  const drainStreams = Layer.effectDiscard(
    Effect.flatMap(
      Games.Games,
      (games) => Effect.sync(() => lifecycle.onDrain.add(() => Effect.runSync(games.closeStreams)))
    )
  ).pipe(
    // And the runtime-change streams (`GET /v1/runtime/events`).
    Layer.merge(
      Layer.effectDiscard(
        Effect.flatMap(
          ContentCatalog.ContentCatalog,
          (catalog) => Effect.sync(() => lifecycle.onDrain.add(() => Effect.runSync(catalog.closeChanges)))
        )
      )
    )
  )
  return HttpApiBuilder.serve(prepared(options)).pipe(
    // The router's default refuses a path segment over 100 characters as an unknown route: IDs go to 128, and
    // a longer one must reach its Schema (and be refused as a bad ID, not a missing route).
    Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: 4096 })),
    // No tracer is installed, so the platform's per-request span would be built and dropped: skip it.
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
    // The workbench page at `/` (src/page, routes in ./Page.ts): a client of the API above, nothing more.
    Layer.provide(WorkbenchPage.layer()),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(translateErrors),
    Layer.provide(api),
    Layer.provide(drainStreams),
    // A worker of `serve --workers N`: its health lists every worker.
    Layer.provide(options.worker === true ? ServerWorkers.layer : Layer.empty),
    Layer.provideMerge(servicesLayer(options)),
    Layer.provideMerge(
      Layer.scoped(HttpServer.HttpServer, doorServer(options, lifecycle)).pipe(
        Layer.provideMerge(NodeHttpServer.layerContext)
      )
    )
  )
}

/** The address a running server listens on, as a base URL. */
export const serverUrl: Effect.Effect<string, never, HttpServer.HttpServer> = Effect.map(
  HttpServer.HttpServer,
  (s) => s.address._tag === "TcpAddress" ? `http://${s.address.hostname}:${s.address.port}` : `unix:${s.address.path}`
)
