/**
 * The handlers of every endpoint of {@link CardfxApi}: thin faces over the
 * public services (the switchable catalog, the planner, the ledger store, the
 * Hallyu Hex games). Each request reads the runtime current when it starts
 * and finishes on it, whatever a reload does meanwhile.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Context, Effect, Layer, Option, type ParseResult, Schedule, Schema, Stream } from "effect"
import type { IncomingMessage } from "node:http"
import { basename, isAbsolute, relative, resolve, sep } from "node:path"
import {
  type ApiError,
  apiError,
  apiErrorOf,
  Authorization,
  CardfxApi,
  Operator,
  OperatorCredential
} from "../api/Api.js"
import { type AssessRequest, type DiscoverRequest, InspectDocument, type InstanceDocument } from "../api/Documents.js"
import {
  AssessResult,
  type CardfxError,
  Cards,
  ComputerSeats,
  ContentCatalog,
  diagnostic,
  Games,
  httpStatusOf,
  Instances,
  LiveCatalog,
  type Runtime,
  Scenarios
} from "../services/index.js"
import { boundedDiagnostics, boundedMessage } from "./Bounded.js"
import { ServerWorkers } from "./Workers.js"

/**
 * An error as its response: the body `{code, message, diagnostics}` with the
 * table's status of the code. (Written here rather than by the API's error
 * encoder: the error classes share one body shape, and a code reaches the
 * status its table row says whatever the handler.)
 */
export const errorResponse = (e: ApiError): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    { code: e.code, message: boundedMessage(e.message), diagnostics: boundedDiagnostics(e.diagnostics) },
    { status: httpStatusOf(e.code) }
  )

/**
 * Requests whose handler has produced its answer: a Schema failure after
 * that is the encoding of the server's own answer (the platform reports it
 * as a decode error), which the server answers 500 `internal_error`, never
 * 400 blaming the client (src/server/Server.ts).
 */
export const answeredRequests = new WeakSet<IncomingMessage>()

/**
 * A handler's effect as the endpoint's answer: its value (marked as
 * answered, see {@link answeredRequests}), or its error as the error
 * response of the code's status.
 */
export const answered = <A, R>(
  self: Effect.Effect<A, ApiError, R>
): Effect.Effect<A | HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.matchEffect(self, {
    onFailure: (e) => Effect.succeed(errorResponse(e)),
    onSuccess: (a) =>
      Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
        answeredRequests.add(NodeHttpServerRequest.toIncomingMessage(request))
        return a
      })
  })

/**
 * `layer` built with only the services `only` keeps of its environment.
 * Why: an `HttpApiBuilder.group` keeps the context it was built in and
 * merges it into every request's (`Context.merge`: a new `Map` of both), so
 * a group built among the server's ~30 services copied all of them on each
 * request. `only` is typed to keep at least what `layer` requires (its
 * middlewares' services included); the router a group registers into is
 * the server's because it is built in the same memo map (the platform
 * shares it by memoization, not through the context).
 */
export const withOnly = <ROut, E, RIn>(
  layer: Layer.Layer<ROut, E, RIn>,
  only: (all: Context.Context<RIn>) => Context.Context<RIn>
): Layer.Layer<ROut, E, RIn> =>
  Layer.scopedContext(Effect.gen(function*() {
    const all = yield* Effect.context<RIn>()
    const memoMap = yield* Layer.CurrentMemoMap
    const scope = yield* Effect.scope
    return yield* Effect.mapInputContext(
      Layer.buildWithMemoMap(layer, memoMap, scope),
      (_: Context.Context<never>) => only(all)
    )
  }))

/** What the handlers need to know about how the server was started. */
export class ServedPackages extends Context.Tag("cardfx/server/ServedPackages")<
  ServedPackages,
  { readonly packages: ReadonlyArray<string>; readonly deckFile: string }
>() {}

/** A service's tagged error as the API's error body: every diagnostic it carries. */
const fromError = (e: CardfxError): ApiError => apiError(e.diagnostics)

/** The ledger source of a query body (a sealed ledger in the body, a stored instance, or none). */
const sourceOf = (body: AssessRequest | DiscoverRequest): Effect.Effect<Cards.LedgerSource, ApiError> =>
  body.ledger !== undefined && body.instanceId !== undefined
    ? Effect.fail(apiErrorOf("schema_invalid", "give ledger or instanceId, not both", { path: "/ledger" }))
    : Effect.succeed(
      body.ledger !== undefined
        ? { _tag: "Given", ledger: body.ledger, pointer: "/ledger" }
        : body.instanceId !== undefined
        ? { _tag: "Stored", instanceId: body.instanceId, branch: body.branch }
        : { _tag: "Empty" }
    )

/** Entries kept per runtime; past it the oldest goes (a bound on what hostile query variety can hold). */
const DOCUMENT_CACHE_LIMIT = 512
/** Keys longer than this (a big ledger in the body) are not kept: their documents are computed each time. */
const DOCUMENT_KEY_LIMIT = 16 * 1024

/**
 * Answers of pure queries (`effective`, and `assess` of a ledger in the
 * body), encoded once per runtime: the response is a function of the runtime
 * and the request, so a repeat is the stored bytes, with no planning,
 * resolving or Schema encoding. The runtime is the key of a `WeakMap`: a
 * reload's new runtime starts empty and the old one's entries go with it.
 * Failures are not kept.
 */
const makeDocumentCache = () => {
  const byRuntime = new WeakMap<Runtime, Map<string, HttpServerResponse.HttpServerResponse>>()
  return {
    cached: <A, I, E>(
      runtime: Runtime,
      key: string,
      compute: Effect.Effect<A, E>,
      encode: (a: A) => Effect.Effect<I, ParseResult.ParseError>
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, E> => {
      let entries = byRuntime.get(runtime)
      if (entries === undefined) {
        entries = new Map<string, HttpServerResponse.HttpServerResponse>()
        byRuntime.set(runtime, entries)
      }
      const hit = entries.get(key)
      if (hit !== undefined) return Effect.succeed(hit)
      return Effect.map(
        // The documents are the endpoints' own success Schemas: an encode failure is a defect, as in the platform.
        Effect.flatMap(compute, (a) => Effect.orDie(encode(a))),
        (encoded) => {
          const response = HttpServerResponse.unsafeJson(encoded)
          if (key.length <= DOCUMENT_KEY_LIMIT) {
            if (entries.size >= DOCUMENT_CACHE_LIMIT) {
              const oldest = entries.keys().next()
              if (oldest.done !== true) entries.delete(oldest.value)
            }
            entries.set(key, response)
          }
          return response
        }
      )
    }
  }
}

const RuntimeLive = HttpApiBuilder.group(CardfxApi, "runtime", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* ContentCatalog.ContentCatalog
    // A worker of `serve --workers N` lists every worker (src/server/Workers.ts).
    const workers = yield* Effect.serviceOption(ServerWorkers)
    return handlers
      .handle("health", () =>
        answered(Effect.succeed(
          Option.isSome(workers) ? { status: "ok" as const, workers: workers.value.table() } : { status: "ok" as const }
        )))
      .handle("runtime", () => answered(catalog.info))
      .handle("events", ({ urlParams }) =>
        answered(Effect.succeed(
          HttpServerResponse.stream(runtimeFrames(catalog.changes, urlParams.once === "true"), {
            contentType: "text/event-stream",
            headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
          })
        )))
  }))

/**
 * The served content's changes as server-sent events (`event: runtime`, one `data:` line of JSON), a heartbeat comment
 * every 15 s while the stream is open; `once`: the current state only.
 */
const runtimeFrames = (
  changes: Stream.Stream<ContentCatalog.ServedState>,
  once: boolean
): Stream.Stream<Uint8Array> => {
  const events = Stream.map(changes, (s) => runtimeEncoder.encode(`event: runtime\ndata: ${JSON.stringify(s)}\n\n`))
  return once
    ? Stream.take(events, 1)
    : Stream.merge(events, Stream.as(Stream.fromSchedule(Schedule.spaced("15 seconds")), heartbeatFrame), {
      haltStrategy: "left"
    })
}
const runtimeEncoder = new TextEncoder()
const heartbeatFrame = runtimeEncoder.encode(": heartbeat\n\n")

const encodeInspect = Schema.encode(InspectDocument)
const encodeAssess = Schema.encode(AssessResult)

const CardsLive = HttpApiBuilder.group(CardfxApi, "cards", (handlers) =>
  Effect.gen(function*() {
    const live = yield* LiveCatalog
    const cards = yield* Cards.Cards
    const documents = makeDocumentCache()
    return handlers
      .handle("list", () => answered(Effect.map(cards.list, (list) => ({ cards: list }))))
      .handle("effective", ({ path, urlParams }) =>
        answered(Effect.flatMap(live.current, (runtime) =>
          documents.cached(
            runtime,
            JSON.stringify(["effective", path.cardId, urlParams.with ?? []]),
            cards.inspect({ cardId: path.cardId, upgrades: urlParams.with ?? [], upgradesPointer: "/with" }).pipe(
              Effect.map((inspection) => ({ ok: true as const, inspection })),
              Effect.mapError(fromError)
            ),
            encodeInspect
          ))))
      .handle("assess", ({ payload }) =>
        answered(Effect.gen(function*() {
          const source = yield* sourceOf(payload)
          const request = {
            cardId: payload.cardId,
            command: payload.command,
            activity: payload.activity ?? Instances.DEFAULT_ACTIVITY,
            source
          }
          const answer = Effect.mapError(cards.assess(request), fromError)
          // A pure query (the ledger is in the body, or empty): its answer depends on the runtime and the body only.
          if (source._tag === "Stored") return yield* answer
          const runtime = yield* live.current
          return yield* documents.cached(runtime, JSON.stringify(["assess", payload]), answer, encodeAssess)
        })))
      .handle("discover", ({ payload }) =>
        answered(Effect.flatMap(sourceOf(payload), (source) =>
          Effect.mapError(
            cards.discover({
              cardId: payload.cardId,
              activity: payload.activity ?? Instances.DEFAULT_ACTIVITY,
              source
            }),
            fromError
          ))))
  }))

const InstancesLive = HttpApiBuilder.group(CardfxApi, "instances", (handlers) =>
  Effect.gen(function*() {
    const instances = yield* Instances.Instances
    return handlers
      .handle("command", ({ path, payload }) =>
        answered(Effect.mapError(instances.command({ ...payload, instanceId: path.instanceId }), fromError)))
      .handle("get", ({ path, urlParams }) =>
        answered(Effect.mapError(
          Effect.map(instances.get(path.instanceId, urlParams.branch), (state): InstanceDocument => ({
            ...state,
            origins: { ...state.origins }
          })),
          fromError
        )))
      .handle("history", ({ path, urlParams }) =>
        answered(Effect.mapError(
          instances.history(path.instanceId, urlParams.branch, { from: urlParams.from, limit: urlParams.limit }),
          fromError
        )))
      .handle("replay", ({ path, urlParams }) =>
        answered(Effect.mapError(
          instances.replay(path.instanceId, urlParams.branch, { from: urlParams.from, limit: urlParams.limit }),
          fromError
        )))
      .handle("createBranch", ({ payload }) =>
        answered(Effect.mapError(
          instances.createBranch(payload.name, { parent: payload.parent, atSequence: payload.atSequence }),
          fromError
        )))
      .handle("branches", ({ path }) =>
        answered(
          Effect.mapError(Effect.map(instances.branches(path.instanceId), (branches) => ({ branches })), fromError)
        ))
  }))

const ScenariosLive = HttpApiBuilder.group(CardfxApi, "scenarios", (handlers) =>
  Effect.gen(function*() {
    const scenarios = yield* Scenarios.Scenarios
    return handlers.handle("run", ({ payload }) =>
      answered(Effect.mapError(
        Effect.map(scenarios.runServed(payload), (report) => ({ ok: true as const, runs: 1, report })),
        fromError
      )))
  }))

/** The client's network address (the per-client limits), or "" when unknown. */
const addressOf: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => Option.getOrElse(request.remoteAddress, () => "")
)

/** The caller of a game request: the operator check's answer, the seat secret header, `?seat=`, the address. */
const callerOf = (
  headers: { readonly "x-seat-secret"?: string },
  seat?: "0" | "1" | undefined
): Effect.Effect<Games.Caller, never, Operator | HttpServerRequest.HttpServerRequest> =>
  Effect.zipWith(Operator, addressOf, ({ operator }, address) => ({
    operator,
    secret: headers["x-seat-secret"],
    seat: seat === undefined ? undefined : seat === "0" ? 0 : 1,
    address
  }))

/**
 * One server-sent event per step (`id:` is the step, so `Last-Event-ID`
 * resumes), a comment line per heartbeat. A step's document is encoded once
 * however many subscribers share its projection (the service hands them the
 * same object).
 */
const encoder = new TextEncoder()
const frames = new WeakMap<Games.GameDocument, Uint8Array>()
const heartbeat = encoder.encode(": heartbeat\n\n")
/**
 * The first bytes of every stream, written at once: Node sends the status line and the headers with the first
 * body bytes, and a stream resumed at the current step has no step to send yet (it would wait for a heartbeat).
 * `retry:` is the browser's reconnection delay (ms).
 */
const opening = encoder.encode("retry: 2000\n\n")
const sseFrames = (events: Stream.Stream<Games.GameEvent>): Stream.Stream<Uint8Array> =>
  Stream.concat(
    Stream.succeed(opening),
    Stream.map(events, (e) => {
      if (e._tag === "heartbeat") return heartbeat
      const known = frames.get(e.document)
      if (known !== undefined) return known
      const frame = encoder.encode(`id: ${e.step}\nevent: step\ndata: ${JSON.stringify(e.document)}\n\n`)
      frames.set(e.document, frame)
      return frame
    })
  )

const HhxLive = HttpApiBuilder.group(CardfxApi, "hhx", (handlers) =>
  Effect.gen(function*() {
    const games = yield* Games.Games
    // Creating a game goes through the computer seats (a request may name some); everything else is the games'.
    const computerSeats = yield* ComputerSeats.ComputerSeats
    return handlers
      .handle("deck", () => answered(Effect.succeed(games.engine.deck)))
      .handle("create", ({ payload }) =>
        answered(Effect.flatMap(Operator, ({ operator }) =>
          Effect.mapError(
            computerSeats.create(payload, { operator }),
            fromError
          ))))
      .handle("join", ({ payload }) =>
        answered(Effect.mapError(
          games.join(payload.code),
          fromError
        )))
      .handle("act", ({ headers, path, payload }) =>
        answered(Effect.flatMap(callerOf(headers), (caller) =>
          Effect.mapError(games.act(path.gameId, payload, caller), fromError))))
      .handle("get", ({ headers, path, urlParams }) =>
        answered(Effect.flatMap(callerOf(headers, urlParams.seat), (caller) =>
          Effect.mapError(games.get(path.gameId, caller), fromError))))
      .handle("log", ({ headers, path }) =>
        answered(Effect.flatMap(callerOf(headers), (caller) =>
          Effect.mapError(games.log(path.gameId, caller), fromError))))
      .handle("explain", ({ headers, path, urlParams }) =>
        answered(Effect.flatMap(callerOf(headers), (caller) =>
          Effect.mapError(games.explain(path.gameId, urlParams.actionId, caller), fromError))))
      .handle("events", ({ headers, path, urlParams }) =>
        answered(Effect.flatMap(callerOf(headers, urlParams.seat), (caller) =>
          Effect.mapError(
            Effect.map(games.events(path.gameId, caller, headers["last-event-id"]), (events) =>
              HttpServerResponse.stream(sseFrames(events), {
                contentType: "text/event-stream",
                // No proxy buffering or caching: each event goes out as it is written.
                headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
              })),
            fromError
          ))))
  }))

/** Loads the served folders again and switches to them when every stored instance still composes. */
export const reload = Effect.flatMap(
  ContentCatalog.ContentCatalog,
  (catalog) => Effect.mapError(catalog.reload, fromError)
)

/** A served file as the answer may name it: relative to its package folder (`<package>/<file>`), never absolute. */
const servedPath = (packages: ReadonlyArray<string>, file: string): string => {
  for (const p of packages) {
    const root = resolve(p)
    const rel = relative(root, resolve(file))
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return `${basename(root)}/${rel.split(sep).join("/")}`
  }
  return basename(file)
}

/**
 * A rejected reload's answer, logged: 409 `reload_rejected` (broken
 * instances) as it is; any other failure is content that does not load,
 * 422 `reload_invalid` (not the file's own code, whose status would blame the
 * request's body), each diagnostic's file relative to its package. The log
 * line names the file and JSON pointer, or the broken instances.
 */
const rejectedReload = (packages: ReadonlyArray<string>) => (e: CardfxError) =>
  Effect.gen(function*() {
    const diagnostics = e.diagnostics.map((d) => {
      if (d.file === undefined) return d
      const file = servedPath(packages, d.file)
      return { ...d, file, message: d.message.split(d.file).join(file) }
    })
    if (e.code === "reload_rejected") {
      yield* Effect.logWarning("reload rejected").pipe(Effect.annotateLogs({
        code: e.code,
        instances: diagnostics.slice(1).map((d) => d.subject ?? "?").join(", ")
      }))
      return apiError(diagnostics)
    }
    const at = diagnostics.find((d) => d.file !== undefined)
    const where = at?.file === undefined
      ? ""
      : `${at.file}${at.path !== undefined && at.path !== "" ? `#${at.path}` : ""}`
    yield* Effect.logWarning("reload rejected").pipe(Effect.annotateLogs({ code: e.code, file: where }))
    return apiError([
      diagnostic(
        "reload_invalid",
        `the served content does not load${where === "" ? "" : ` (${where})`}: the old runtime is kept`,
        at?.file === undefined ? {} : { file: at.file, ...(at.path === undefined ? {} : { path: at.path }) }
      ),
      ...diagnostics
    ])
  })

const AdminLive = HttpApiBuilder.group(CardfxApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* ContentCatalog.ContentCatalog
    const { packages } = yield* ServedPackages
    return handlers.handle(
      "reload",
      () => answered(Effect.catchAll(catalog.reload, (e) => Effect.flip(rejectedReload(packages)(e))))
    )
  }))

/** Every group's handlers. */
export const HandlersLive = Layer.mergeAll(
  withOnly(RuntimeLive, (all) => {
    const only = Context.pick(ContentCatalog.ContentCatalog)(all)
    // `serve --workers N`: a worker's table of every worker, when there is one.
    const workers = Context.getOption(all, ServerWorkers)
    return Option.isSome(workers) ? Context.add(only, ServerWorkers, workers.value) : only
  }),
  withOnly(CardsLive, Context.pick(LiveCatalog, Cards.Cards)),
  withOnly(InstancesLive, Context.pick(Instances.Instances, Authorization)),
  withOnly(ScenariosLive, Context.pick(Scenarios.Scenarios)),
  withOnly(HhxLive, Context.pick(Games.Games, ComputerSeats.ComputerSeats, Authorization, OperatorCredential)),
  withOnly(AdminLive, Context.pick(ContentCatalog.ContentCatalog, ServedPackages, Authorization))
)
