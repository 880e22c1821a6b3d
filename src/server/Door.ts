/**
 * The front door of `cardfx serve`: the Node `request` listener in front of
 * the `HttpApi` app, in plain TypeScript (no fiber, no Effect, no timer
 * unless a body is still arriving). It decides what can be decided from the
 * request line and the headers, reads a JSON body once, and hands the
 * request to the app:
 *
 * - a request ID (`x-request-id` when the client sent a sane one, else
 *   `r<n>`), set on the Node response first, so every answer carries it —
 *   the door's own, the app's and the platform's;
 * - `starting` (503, `Retry-After: 1`) until the app is attached, and
 *   `unavailable` (503, `Connection: close`) once draining;
 * - the `Host` header: a loopback name, the bound host, or one given with
 *   `--allowed-host` (403 `host_not_allowed`: DNS rebinding);
 * - CORS only for the origins given with `--cors-origin` (a preflight is
 *   answered 204); a mutation from any other foreign origin is 403
 *   `origin_not_allowed`;
 * - a known path with a method it does not have: 405 `method_not_allowed`
 *   with `Allow`;
 * - a request body needs `Content-Type: application/json` (415
 *   `unsupported_media_type`) and a `Content-Length` (400 `schema_invalid`
 *   for a chunked one); over the cap it is 413 `body_too_large` with
 *   `Connection: close` before a byte is read; the bearer token of an
 *   endpoint that needs it is checked before the body is read (401/403), and
 *   so is a game endpoint's credential (a seat's `X-Seat-Secret` or the
 *   operator token: required to act, and everywhere with `--protect-reads`);
 * - the body is read with one `data` listener and one timer (408
 *   `request_timeout` with `Connection: close` when it has not arrived in
 *   time) and parsed by the hardened JSON parser (depth, `__proto__`,
 *   duplicate keys, unsafe numbers: 400 with the parser's code and JSON
 *   pointer); the app gets the parsed value ({@link prepared}), never the
 *   stream;
 * - the access log line, written when the response closes, only when the
 *   log is on.
 *
 * The route table is derived from the `HttpApi` definition
 * ({@link routesOf}): the definition stays the one source of the routes.
 *
 * @since 0.1.0
 */
import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { Either } from "effect"
import { timingSafeEqual } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Canonical, type Diagnostic, diagnostic, type DiagnosticCode, httpStatusOf, Json } from "../services/index.js"
import { boundedDiagnostics, boundedMessage } from "./Bounded.js"
import * as Compression from "./Compression.js"
import { makeRateLimit, type RateLimitOptions } from "./RateLimit.js"

// ---------------------------------------------------------------- routes

/** One route: its method, its path pattern (`:name` segments match any one segment). */
export interface Route {
  readonly method: string
  readonly path: string
  /** The endpoint needs the operator's bearer token (the `Authorization` middleware). */
  readonly needsToken: boolean
  /** Handlers that can take long (a handler timeout applies to them only). */
  readonly slow: boolean
  /** A static page asset (the page, `/docs`, `/openapi.json`): answered with an ETag. */
  readonly asset?: boolean
  /** A game's own endpoint: a seat's `X-Seat-Secret` is a credential there, beside the operator token. */
  readonly seat?: boolean
  /** A game endpoint that always needs a credential (acting). */
  readonly seatRequired?: boolean
  /** Never needs a credential, even with `--protect-reads` (health). */
  readonly open?: boolean
  /** A creation rate-limited per client address without the operator token (its bucket's kind). */
  readonly limited?: string | undefined
}

interface Pattern {
  readonly segments: ReadonlyArray<string | undefined>
  readonly routes: Array<Route>
  allow: string
}

/** The routes of a server, by path: what the door matches a request against. */
export interface RouteTable {
  /** Paths without parameters. */
  readonly exact: ReadonlyMap<string, Pattern>
  /** Paths with parameters, by segment count. */
  readonly byLength: ReadonlyMap<number, ReadonlyArray<Pattern>>
}

/**
 * The routes of an `HttpApi` (through `HttpApi.reflect`), plus `extra` ones
 * (the page, `/openapi.json`, `/docs`). `needsToken(endpoint)` says which
 * endpoints need the operator token; `slow` names the slow ones as
 * `group.endpoint`.
 */
export const routesOf = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  options: {
    readonly needsToken: (middleware: ReadonlySet<{ readonly key: string }>) => boolean
    readonly slow: ReadonlySet<string>
    readonly extra: ReadonlyArray<Route>
    /** Endpoints (`group.endpoint`) that take a seat's secret; those of them that always need a credential. */
    readonly seat?: ReadonlySet<string>
    readonly seatRequired?: ReadonlySet<string>
    /** Endpoints that never need a credential. */
    readonly open?: ReadonlySet<string>
    /** Rate-limited creations: endpoint → the kind of bucket it takes from. */
    readonly limited?: ReadonlyMap<string, string>
  }
): RouteTable => {
  const all: Array<Route> = [...options.extra]
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, middleware }) => {
      const name = `${group.identifier}.${endpoint.name}`
      all.push({
        method: endpoint.method,
        path: endpoint.path,
        needsToken: options.needsToken(middleware),
        slow: options.slow.has(name),
        seat: options.seat?.has(name) === true,
        seatRequired: options.seatRequired?.has(name) === true,
        open: options.open?.has(name) === true,
        limited: options.limited?.get(name)
      })
    }
  })
  const patterns = new Map<string, Pattern>()
  for (const route of all) {
    const key = route.path.replace(/:[^/]+/g, ":")
    const pattern = patterns.get(key) ?? {
      segments: route.path.split("/").map((s) => (s.startsWith(":") ? undefined : s)),
      routes: [],
      allow: ""
    }
    pattern.routes.push(route)
    patterns.set(key, pattern)
  }
  const exact = new Map<string, Pattern>()
  const byLength = new Map<number, Array<Pattern>>()
  for (const [key, pattern] of patterns) {
    const methods = new Set(pattern.routes.map((r) => r.method))
    // The router answers HEAD with the GET route.
    if (methods.has("GET")) methods.add("HEAD")
    pattern.allow = [...methods].join(", ")
    if (!key.includes(":")) exact.set(key, pattern)
    else {
      const list = byLength.get(pattern.segments.length) ?? []
      list.push(pattern)
      byLength.set(pattern.segments.length, list)
    }
  }
  return { exact, byLength }
}

const findPattern = (table: RouteTable, path: string): Pattern | undefined => {
  const exact = table.exact.get(path)
  if (exact !== undefined) return exact
  const segments = path.split("/")
  const candidates = table.byLength.get(segments.length)
  if (candidates === undefined) return undefined
  for (const pattern of candidates) {
    let ok = true
    for (let i = 0; i < segments.length; i++) {
      const want = pattern.segments[i]
      const got = segments[i] ?? ""
      if (want === undefined ? got === "" : want !== got) {
        ok = false
        break
      }
    }
    if (ok) return pattern
  }
  return undefined
}

const routeFor = (pattern: Pattern, method: string): Route | undefined => {
  for (const r of pattern.routes) if (r.method === method || (method === "HEAD" && r.method === "GET")) return r
  return undefined
}

// ---------------------------------------------------------------- lifecycle

/** Where a server is in its life: the door answers by it. */
export type Phase = "starting" | "serving" | "draining"

/** The server's plain counters, shared by the door and the SIGTERM drain. */
export interface Lifecycle {
  phase: Phase
  /** Requests the door took and whose responses have not closed. */
  inflight: number
  /** Requests seen (the `r<n>` request IDs). */
  requests: number
  /** Run when draining starts: ends what would keep a request open (the games' event streams). */
  readonly onDrain: Set<() => void>
}

export const newLifecycle = (): Lifecycle => ({ phase: "starting", inflight: 0, requests: 0, onDrain: new Set() })

// ---------------------------------------------------------------- the door

export interface DoorOptions {
  readonly routes: RouteTable
  /** Before the request number of a generated request ID (`w2-` in worker 2 of `serve --workers`: IDs stay unique). */
  readonly requestIdPrefix?: string | undefined
  /** The operator's bearer token (none: every request may mutate). */
  readonly token: string | undefined
  readonly bodyLimit: number
  readonly bodyTimeoutMs: number
  /** Host names (lower case, no port) accepted besides the loopback names. */
  readonly allowedHosts: ReadonlyArray<string>
  /** Origins (`scheme://host[:port]`) that get CORS answers. */
  readonly corsOrigins: ReadonlyArray<string>
  /** Where access log lines go; undefined: no access log (and no cost). */
  readonly accessLog: ((line: string) => void) | undefined
  /** `--protect-reads`: every API route but the open ones needs the operator token (a game's own: or a seat secret). */
  readonly protectReads?: boolean | undefined
  /** The creation rate limit per client address, for requests without the operator token. */
  readonly rateLimit?: RateLimitOptions | undefined
}

/** What the door read for the app: the parsed body, and what the app must add around the handler. */
export interface Prepared {
  /** The parsed JSON body (absent: the request had no body). */
  readonly body?: { readonly text: string; readonly value: unknown }
  readonly slow: boolean
  readonly compression: Compression.Plan | undefined
}

const prepared = new WeakMap<IncomingMessage, Prepared>()

/** What the door prepared for a request (the app's middleware reads it once). */
export const preparedFor = (request: IncomingMessage): Prepared | undefined => prepared.get(request)

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/
const LOOPBACK = ["localhost", "127.0.0.1", "::1", "[::1]"]

const json = (code: DiagnosticCode, message: string, context: Parameters<typeof diagnostic>[2] = {}) => [
  diagnostic(code, message, context)
]

/** Writes an error answer `{code, message, diagnostics}` with the table's status. */
const answer = (
  res: ServerResponse,
  diagnostics: ReadonlyArray<Diagnostic>,
  headers: Record<string, string> = {}
): void => {
  const first = diagnostics[0] ?? diagnostic("internal_error", "no diagnostic")
  const body = JSON.stringify({
    code: first.code,
    message: boundedMessage(first.message),
    diagnostics: boundedDiagnostics(diagnostics)
  })
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(httpStatusOf(first.code), {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body)
  })
  res.end(body)
}

/** How long a refused connection stays half-closed for its client to read the answer. */
const LINGER_MS = 1000

/**
 * Closes the connection once the answer is out, without reading the rest of a
 * refused body. Node would destroy a `Connection: close` socket as soon as
 * the answer is written (`destroySoon`); with request bytes still unread that
 * is a reset, and the client can lose the answer. Instead: half-close (FIN
 * after the answer), stop reading, and destroy when the client has closed or
 * after {@link LINGER_MS}.
 */
const closeAfter = (req: IncomingMessage): void => {
  const socket = req.socket
  const stop = () => socket.pause()
  Reflect.set(socket, "destroySoon", () => {
    socket.end()
    stop()
    // Node resumes a dumped request's socket on the next tick: pause again after it.
    setImmediate(stop)
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once("close", () => clearTimeout(timer))
  })
}

/** Only JSON white space (an empty body is decoded as `null`, as the platform does). */
const isBlank = (bytes: Uint8Array): boolean => {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false
  return true
}

const digest = (s: string): Buffer => Buffer.from(Canonical.sha256Hex(s), "hex")

/** `application/json`, optionally with `charset=utf-8`; nothing else. */
const isJsonType = (type: string): boolean => {
  const [media = "", ...params] = type.toLowerCase().split(";").map((s) => s.trim())
  return media === "application/json" && params.every((p) => p === "charset=utf-8" || p === "charset=\"utf-8\"")
}

const hostName = (host: string): string => {
  const h = host.toLowerCase()
  if (h.startsWith("[")) {
    const end = h.indexOf("]")
    return end < 0 ? h : h.slice(0, end + 1)
  }
  const colon = h.lastIndexOf(":")
  return colon < 0 ? h : h.slice(0, colon)
}

let lastMs = -1
let lastIso = ""
/** The time as ISO 8601, made once per millisecond (a busy server logs many lines in one). */
const isoNow = (): string => {
  // eslint-disable-next-line no-restricted-syntax -- the access log's timestamp, which no result depends on
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

/**
 * The access log line, in the shape of Effect's JSON logger (`message`,
 * `logLevel`, `timestamp`, `annotations`), written out directly: one
 * `JSON.stringify` of a nested object per request was most of the log's
 * cost. The request ID is safe as it is ({@link REQUEST_ID} or `r<n>`); the
 * method and the route are escaped.
 */
export const accessLine = (
  req: Pick<IncomingMessage, "method" | "url">,
  status: number,
  ms: number,
  requestId: string
): string => {
  const url = req.url ?? "/"
  const q = url.indexOf("?")
  return `{"message":"request","logLevel":"INFO","timestamp":"${isoNow()}","annotations":{"method":${
    JSON.stringify(req.method ?? "GET")
  },"route":${JSON.stringify(q < 0 ? url : url.slice(0, q))},"status":${status},"durationMs":${
    Math.round(ms * 1000) / 1000
  },"requestId":"${requestId}"}}`
}

/** A Node request handler. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void

/**
 * The app's two handlers: `prepared` runs the app with the middleware that
 * reads what the door prepared (the parsed body, a handler timeout,
 * compression); `plain` runs it without, for the requests the door
 * prepared nothing for (most reads), which then skip that middleware.
 */
export interface AppHandlers {
  readonly plain: NodeHandler
  readonly prepared: NodeHandler
}

/** The door as a Node request listener; `attach` installs the app's handlers once they exist. */
export interface Door {
  readonly listener: NodeHandler
  readonly attach: (handlers: AppHandlers) => void
  readonly detach: () => void
}

export const makeDoor = (lifecycle: Lifecycle, options: DoorOptions): Door => {
  let handlers: AppHandlers | undefined
  const hosts = new Set([...LOOPBACK, ...options.allowedHosts.map((h) => h.toLowerCase())])
  const origins = new Set(options.corsOrigins)
  const tokenDigest = options.token === undefined ? undefined : digest(options.token)
  const limit = options.bodyLimit
  const log = options.accessLog
  const take = options.rateLimit === undefined ? undefined : makeRateLimit(options.rateLimit)

  const dispatch = (req: IncomingMessage, res: ServerResponse, p: Prepared | undefined): void => {
    if (handlers === undefined) {
      return answer(res, json("unavailable", "the server is shutting down"), { connection: "close" })
    }
    if (p === undefined) return handlers.plain(req, res)
    prepared.set(req, p)
    handlers.prepared(req, res)
  }

  const checkToken = (req: IncomingMessage): ReadonlyArray<Diagnostic> | undefined => {
    if (tokenDigest === undefined) return undefined
    const header = req.headers.authorization ?? ""
    const given = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : ""
    if (given === "") return json("unauthorized", "this endpoint needs Authorization: Bearer <token>")
    return timingSafeEqual(digest(given), tokenDigest)
      ? undefined
      : json("forbidden", "the bearer token is not this server's")
  }

  /**
   * The credential check of a route, before any body is read: the operator
   * token where the route needs it (or `--protect-reads` protects it); on a
   * game's own routes the operator token or a seat secret (whose match the
   * service checks against the game), required for acting and under
   * `--protect-reads`, else optional (a spectator).
   */
  const checkCredential = (req: IncomingMessage, route: Route): ReadonlyArray<Diagnostic> | undefined => {
    if (route.needsToken) return checkToken(req)
    if (route.seat === true) {
      const header = req.headers.authorization
      if (header !== undefined && tokenDigest !== undefined) return checkToken(req)
      const secret = req.headers["x-seat-secret"]
      if (typeof secret === "string" && secret !== "") return undefined
      return route.seatRequired === true || options.protectReads === true
        ? json(
          "unauthorized",
          "this endpoint needs a seat's X-Seat-Secret or the operator's Authorization: Bearer <token>"
        )
        : undefined
    }
    if (options.protectReads === true && route.asset !== true && route.open !== true) {
      return tokenDigest === undefined
        ? json("unauthorized", "--protect-reads: this endpoint needs the operator's token")
        : checkToken(req)
    }
    return undefined
  }

  const readBody = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    compression: Compression.Plan | undefined
  ): void => {
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (): void => {
      done = true
      clearTimeout(timer)
      req.removeListener("data", onData)
      req.removeListener("end", onEnd)
      req.removeListener("error", onError)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        finish()
        closeAfter(req)
        return answer(
          res,
          json("body_too_large", `the body is larger than the cap of ${limit} bytes`, { details: { limit } }),
          { connection: "close" }
        )
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => {
      if (done) return
      finish()
      const bytes = chunks.length === 1 ? chunks[0] ?? Buffer.alloc(0) : Buffer.concat(chunks, size)
      if (isBlank(bytes)) {
        return dispatch(req, res, { body: { text: "", value: null }, slow: route.slow, compression })
      }
      // Bytes, not a decoded string: the parser checks the UTF-8 (invalid_utf8) as it decodes.
      const parsed = Json.parseJson(bytes, { maxBytes: limit })
      if (Either.isLeft(parsed)) {
        const d = parsed.left
        return answer(res, [
          d.code === "file_too_large" ? diagnostic("body_too_large", d.message, { details: { limit } }) : d
        ])
      }
      dispatch(req, res, {
        body: { text: parsed.right.text, value: parsed.right.value },
        slow: route.slow,
        compression
      })
    }
    const onError = (): void => {
      // The client went away mid-body: nobody to answer.
      finish()
    }
    const timer = setTimeout(() => {
      if (done) return
      finish()
      closeAfter(req)
      answer(
        res,
        json("request_timeout", `the body did not arrive within ${options.bodyTimeoutMs} ms`),
        { connection: "close" }
      )
    }, options.bodyTimeoutMs)
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", onError)
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const n = ++lifecycle.requests
    const sent = req.headers["x-request-id"]
    const requestId = typeof sent === "string" && REQUEST_ID.test(sent) ? sent : `${options.requestIdPrefix ?? ""}r${n}`
    res.setHeader("x-request-id", requestId)
    lifecycle.inflight++
    const started = log === undefined ? 0 : performance.now()
    // `close` comes once per response: `on`, not `once` (no wrapper per request).
    res.on("close", () => {
      lifecycle.inflight--
      if (log !== undefined) log(accessLine(req, res.statusCode, performance.now() - started, requestId))
    })

    if (lifecycle.phase === "starting") {
      return answer(res, json("starting", "the server is starting; retry in a moment"), { "retry-after": "1" })
    }
    if (lifecycle.phase === "draining") {
      // The client learns to open a new connection (to a restarted server) instead of reusing this one.
      return answer(res, json("unavailable", "the server is shutting down"), { connection: "close" })
    }

    const headers = req.headers
    const host = headers.host
    if (host !== undefined && !hosts.has(hostName(host))) {
      return answer(
        res,
        json(
          "host_not_allowed",
          `the Host header ${
            JSON.stringify(host.slice(0, 100))
          } is not a loopback name nor one given with --allowed-host`,
          { subject: "host" }
        )
      )
    }

    const method = req.method ?? "GET"
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    const path = q < 0 ? url : url.slice(0, q)
    const pattern = findPattern(options.routes, path)
    const origin = headers.origin
    const corsOk = origin !== undefined && origins.has(origin)
    if (corsOk) {
      res.setHeader("access-control-allow-origin", origin)
      res.setHeader("vary", "origin")
      res.setHeader("access-control-expose-headers", "x-request-id")
    }
    if (pattern === undefined) return dispatch(req, res, undefined) // the app answers 404 unknown_route
    const route = routeFor(pattern, method)
    if (route === undefined) {
      if (method === "OPTIONS" && corsOk && headers["access-control-request-method"] !== undefined) {
        res.writeHead(204, {
          "access-control-allow-methods": pattern.allow,
          "access-control-allow-headers": "authorization, content-type, x-request-id, x-seat-secret, last-event-id",
          "access-control-max-age": "600",
          "content-length": "0"
        })
        return void res.end()
      }
      return answer(
        res,
        json("method_not_allowed", `${path} does not take ${method}; it takes ${pattern.allow}`, {
          subject: method,
          details: { allow: pattern.allow }
        }),
        { allow: pattern.allow }
      )
    }

    const compression = Compression.plan(headers["accept-encoding"], headers["if-none-match"], route.asset === true)

    if (method === "GET" || method === "HEAD") {
      const refused = checkCredential(req, route)
      if (refused !== undefined) return answer(res, refused)
      return dispatch(
        req,
        res,
        // Most reads need nothing from the app's side of the door.
        compression === undefined && !route.slow ? undefined : {
          slow: route.slow,
          compression
        }
      )
    }

    // A mutation from a browser page of another origin (a form, a no-cors fetch) is refused whatever its body.
    if (origin !== undefined && !corsOk && origin !== `http://${host ?? ""}`) {
      return answer(
        res,
        json(
          "origin_not_allowed",
          `requests from ${JSON.stringify(origin.slice(0, 100))} are not allowed (--cors-origin)`,
          {
            subject: "origin"
          }
        )
      )
    }
    const length = headers["content-length"]
    const chunked = headers["transfer-encoding"] !== undefined
    const hasBody = chunked || (length !== undefined && length !== "0")
    const type = headers["content-type"]
    if (type !== undefined ? !isJsonType(type) : hasBody) {
      return answer(
        res,
        json(
          "unsupported_media_type",
          `a request body must be Content-Type: application/json, not ${
            type === undefined ? "none" : JSON.stringify(type.slice(0, 100))
          }`,
          { subject: "content-type" }
        )
      )
    }
    const refused = checkCredential(req, route)
    if (refused !== undefined) return answer(res, refused)
    // A creation without the operator's token (a server with one has checked it above): one token of its bucket.
    if (route.limited !== undefined && tokenDigest === undefined && take !== undefined) {
      const wait = take(`${route.limited} ${req.socket.remoteAddress ?? ""}`, performance.now())
      if (wait !== undefined) {
        return answer(
          res,
          json("rate_limited", `too many ${route.limited} created from this address; retry in ${wait} s`, {
            details: { retryAfter: wait }
          }),
          { "retry-after": String(wait) }
        )
      }
    }
    if (!hasBody) return dispatch(req, res, { slow: route.slow, compression })
    // A body past the cap could only be refused by resetting the connection mid-stream; a declared length can be refused with an answer.
    if (length === undefined) {
      return answer(
        res,
        json("schema_invalid", "a request body needs a Content-Length header (chunked bodies are not accepted)", {
          subject: "content-length"
        })
      )
    }
    const declared = Number(length)
    if (declared > limit) {
      closeAfter(req)
      return answer(
        res,
        json("body_too_large", `the body has ${declared} bytes; the cap is ${limit}`, {
          details: { limit, actual: declared }
        }),
        { connection: "close" }
      )
    }
    readBody(req, res, route, compression)
  }

  return {
    listener,
    attach: (h) => {
      handlers = h
      if (lifecycle.phase === "starting") lifecycle.phase = "serving"
    },
    detach: () => {
      handlers = undefined
    }
  }
}
