/**
 * `cardfx serve [--package DIR...] [--store PATH|postgres://…] [--host 127.0.0.1]
 * [--port 8787] [--token-env NAME] [--protect-reads] [--allowed-host NAME...] [--cors-origin ORIGIN...]
 * [--watch] [--allow-broken] [--log-level LEVEL] [--body-timeout MS] [--heartbeat MS] [--deck FILE]
 * [--agent-pool N] [--max-agent-iterations N] [--workers N|auto] [--allow-content-mismatch]
 * [--create-rate N] [--create-burst N] [--max-live-games N] [--seat-streams N] [--spectators N]
 * [--spectators-per-game N] [--spectators-per-client N] [--spectator-idle MS] [--invitation-ttl MS]`.
 * With `--workers N` (N > 1) this process is the primary of N worker processes answering one port
 * (src/server/Workers.ts, docs/scale.md).
 *
 * Serves the HTTP API (see `src/api/Api.ts`, `/openapi.json`, `/docs`).
 * Prints one JSON line `{"event":"listening","url":...}` on stdout when it
 * serves (requests that arrive earlier get 503 `starting`), then one JSON
 * log line per request. SIGTERM/SIGINT: new requests get 503 `unavailable`
 * with `Connection: close`, requests in flight finish (10 s at most), the
 * store closes. A start checks every stored instance under the content
 * (the check of `POST /v1/admin/reload`) and refuses content that breaks one
 * (`start_rejected`, naming them, exit 1) unless `--allow-broken` (each broken
 * instance is logged as a warning). `--watch` reloads the packages when
 * their bytes change (src/services/Watch.ts: in-place saves, renames,
 * deletes, a folder replaced), the same reload as `POST /v1/admin/reload`;
 * each outcome is one log line naming the files, and for a rejection the
 * file at fault or the broken instances. The server is the `Serving` port's
 * (src/services/Serving.ts), which the bin's composition root provides.
 *
 * @since 0.1.0
 */
import { Config, Console, Duration, Effect, Layer, Logger, LogLevel, Option, Redacted, Runtime } from "effect"
import { availableParallelism } from "node:os"
import {
  ComputerSeats,
  DEFAULT_STORE,
  type Diagnostic,
  exitClassOf,
  isDiagnosticCode,
  Serving
} from "../services/index.js"
import { watchContent } from "../services/Watch.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { defaultDeckPath } from "./hhx.js"
import * as Options from "./Options.js"
import { defaultPackage } from "./Paths.js"

const levels = {
  all: LogLevel.All,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
} as const

export const serveCommand = Command.make(
  "serve",
  {
    // Without --package: the bundled heroscript.base, so `npx cardfx serve` opens the workbench on the shipped content.
    packages: Options.directory("package").pipe(
      Options.repeated,
      Options.withDescription(
        "A content package folder (repeatable; default: heroscript.base of the installed package)."
      )
    ),
    store: Options.text("store").pipe(
      Options.withDefault(DEFAULT_STORE),
      Options.withDescription("Ledger store: a SQLite path or a postgres:// URL.")
    ),
    host: Options.text("host").pipe(
      Options.withDefault("127.0.0.1"),
      Options.withDescription("Interface to bind (default loopback only).")
    ),
    port: Options.integer("port").pipe(
      Options.withDefault(8787),
      Options.withDescription("TCP port (0: any free port).")
    ),
    tokenEnv: Options.text("token-env").pipe(
      Options.optional,
      Options.withDescription("Environment variable holding the bearer token that mutating endpoints require.")
    ),
    protectReads: Options.boolean("protect-reads").pipe(
      Options.withDescription(
        "Every request but /v1/health needs the --token-env token (a game's own endpoints: or one of its seats' X-Seat-Secret)."
      )
    ),
    allowedHost: Options.text("allowed-host").pipe(
      Options.repeated,
      Options.withDescription(
        "A host name the Host header may carry besides localhost, 127.0.0.1, [::1] and --host (a DNS-rebinding guard)."
      )
    ),
    corsOrigin: Options.text("cors-origin").pipe(
      Options.repeated,
      Options.withDescription(
        "An origin (scheme://host[:port]) whose browser pages may call the API: CORS headers and preflights for it (default: CORS off)."
      )
    ),
    watch: Options.boolean("watch").pipe(
      Options.withDescription(
        "Reload the packages when their bytes change (saves in place, renames, deletes, a folder replaced)."
      )
    ),
    allowBroken: Options.boolean("allow-broken").pipe(
      Options.withDescription(
        "Serve content that breaks stored instances (each is logged); without it such a start fails with start_rejected."
      )
    ),
    logLevel: Options.choice("log-level", ["all", "debug", "info", "warning", "error", "none"]).pipe(
      Options.withDefault("info" as const),
      Options.withDescription("The least severe request log line written (JSON lines on stdout).")
    ),
    bodyTimeout: Options.integer("body-timeout").pipe(
      Options.withDefault(800),
      Options.withDescription(
        "Milliseconds a request body may take to arrive after its headers (then 408 request_timeout)."
      )
    ),
    heartbeat: Options.integer("heartbeat").pipe(
      Options.withDefault(15_000),
      Options.withDescription("Milliseconds between heartbeat comments on open game event streams.")
    ),
    createRate: Options.integer("create-rate").pipe(
      Options.withDefault(60),
      Options.withDescription(
        "Games and branches created per minute per client address without the operator token (token bucket refill; 0: no limit); past it 429 rate_limited."
      )
    ),
    createBurst: Options.integer("create-burst").pipe(
      Options.withDefault(20),
      Options.withDescription("The most creations a client address may make at once (the bucket's size).")
    ),
    maxLiveGames: Options.integer("max-live-games").pipe(
      Options.withDefault(1000),
      Options.withDescription(
        "Live games (in progress, created or moved within the hour) past which creation without the operator token is 503 too_many_games."
      )
    ),
    seatStreams: Options.integer("seat-streams").pipe(
      Options.withDefault(4),
      Options.withDescription(
        "Event streams each seat (and the operator) may hold per game; spectators never take them."
      )
    ),
    spectators: Options.integer("spectators").pipe(
      Options.withDefault(512),
      Options.withDescription("Spectator event streams server-wide.")
    ),
    spectatorsPerGame: Options.integer("spectators-per-game").pipe(
      Options.withDefault(8),
      Options.withDescription("Spectator event streams per game.")
    ),
    spectatorsPerClient: Options.integer("spectators-per-client").pipe(
      Options.withDefault(8),
      Options.withDescription("Spectator event streams per client address.")
    ),
    spectatorIdle: Options.integer("spectator-idle").pipe(
      Options.withDefault(600000),
      Options.withDescription("Milliseconds after which a spectator stream that received no step is closed.")
    ),
    invitationTtl: Options.integer("invitation-ttl").pipe(
      Options.withDefault(3600000),
      Options.withDescription("Milliseconds an invitation to a seat stays open.")
    ),
    deck: Options.file("deck").pipe(
      Options.withDefault(defaultDeckPath),
      Options.withDescription("The Hallyu Hex deck served (default: the starter deck of the installed package).")
    ),
    agentPool: Options.integer("agent-pool").pipe(
      Options.withDefault(ComputerSeats.DEFAULT_AGENT_POOL_SIZE),
      Options.withDescription(
        "Worker threads deciding the games' computer seats' moves (1..64; started on the first decision)."
      )
    ),
    maxAgentIterations: Options.integer("max-agent-iterations").pipe(
      Options.withDefault(ComputerSeats.DEFAULT_MAX_AGENT_ITERATIONS),
      Options.withDescription("The largest iteration budget a game may give a computer seat (1..100000).")
    ),
    // -- scale (issue 44): several processes on one port (src/server/Workers.ts, docs/scale.md).
    workers: Options.text("workers").pipe(
      Options.withPseudoName("N"),
      Options.withDefault("1"),
      Options.withDescription(
        "Processes answering the port: 1..64 or auto (the machine's cores); they share the store, one log and one /v1/health."
      )
    ),
    allowContentMismatch: Options.boolean("allow-content-mismatch").pipe(
      Options.withDescription(
        "Start even when the other servers on the store serve other content (by default such a start fails with start_rejected)."
      )
    )
  },
  (o) =>
    Effect.flatMap(Serving.Serving, (serving) => {
      // A worker of `serve --workers N` writes its log through its primary (the one log).
      const member = serving.workers.slot !== undefined
      const log = serving.batchedJsonLog(
        member ? serving.workers.sendLog : (chunk) => process.stdout.write(chunk)
      )
      // The access log is the door's own line (no Effect logger per request); below `info` it is not made at all.
      const accessLog = LogLevel.lessThanEqual(levels[o.logLevel], LogLevel.Info) ? log.line : undefined
      return serve(serving, o, accessLog).pipe(
        Effect.ensuring(Effect.sync(log.flush)),
        // JSON lines only: runMain's pretty logger would print each request a second time.
        Effect.provide(
          Layer.merge(Logger.replace(Logger.defaultLogger, log.logger), Logger.remove(Logger.prettyLoggerDefault))
        ),
        Logger.withMinimumLogLevel(levels[o.logLevel])
      )
    })
).pipe(
  Command.withDescription(
    "Serve the HTTP API (OpenAPI at /openapi.json, docs at /docs) on 127.0.0.1 unless --host says otherwise."
  ),
  Command.withExit(1, "the server cannot start (start_rejected: the content would break stored instances)"),
  Command.withExit(
    2,
    "a value the usage check cannot judge is unusable (--port, --body-timeout, --heartbeat, --token-env, --protect-reads without --token-env, --cors-origin, --allowed-host, --agent-pool, --max-agent-iterations, --workers, a limit out of range)"
  )
)

/** A start-up failure as one line: `cardfx serve: <code> <message>` when it carries a diagnostic code. */
const hasCode = (e: unknown): e is { readonly code: Parameters<typeof exitClassOf>[0] } =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" && isDiagnosticCode(e.code)

const startFailure = (e: unknown): string => {
  const fields: { readonly code?: unknown; readonly message?: unknown } = typeof e === "object" && e !== null ? e : {}
  const message = typeof fields.message === "string" && fields.message !== "" ? fields.message : String(e)
  return typeof fields.code === "string"
    ? `cardfx serve: ${fields.code} ${message}`
    : `cardfx serve: cannot serve: ${message}`
}

/**
 * What a rejected reload's log line says: its code and message, the files
 * that changed, the file (and place) of a content error, the broken
 * instances of a `reload_rejected`.
 */
const rejection = (
  e: { readonly code: string; readonly message: string; readonly diagnostics: ReadonlyArray<Diagnostic> },
  files: ReadonlyArray<string>
): Record<string, string> => {
  // `reason`, not `message`: the log line's own message stays "reload rejected".
  const out: Record<string, string> = { code: e.code, reason: e.message, files: files.join(" ") }
  if (e.code === "reload_rejected") {
    out["instances"] = e.diagnostics.slice(1).map((d) =>
      `${String(d.details?.["branch"] ?? "main")}/${d.subject ?? "?"} (${
        String(d.details?.["cardId"] ?? "?")
      }: ${d.code})`
    ).join(", ")
  } else {
    const at = e.diagnostics.find((d) => d.file !== undefined)
    // A content error names its file; one with no file (a folder gone) falls back to the changed files.
    out["file"] = at?.file !== undefined
      ? `${at.file}${at.path !== undefined && at.path !== "" ? `#${at.path}` : ""}`
      : files.join(" ")
  }
  return out
}

const serve = (serving: Serving.ServingService, o: {
  readonly packages: ReadonlyArray<string>
  readonly store: string
  readonly host: string
  readonly port: number
  readonly tokenEnv: Option.Option<string>
  readonly protectReads: boolean
  readonly heartbeat: number
  readonly allowedHost: ReadonlyArray<string>
  readonly corsOrigin: ReadonlyArray<string>
  readonly watch: boolean
  readonly allowBroken: boolean
  readonly bodyTimeout: number
  readonly deck: string
  readonly agentPool: number
  readonly maxAgentIterations: number
  readonly workers: string
  readonly allowContentMismatch: boolean
  readonly createRate: number
  readonly createBurst: number
  readonly maxLiveGames: number
  readonly seatStreams: number
  readonly spectators: number
  readonly spectatorsPerGame: number
  readonly spectatorsPerClient: number
  readonly spectatorIdle: number
  readonly invitationTtl: number
}, accessLog: ((line: string) => void) | undefined) =>
  Effect.gen(function*() {
    if (o.port < 0 || o.port > 65535) {
      yield* Console.error("cardfx: --port must be 0..65535 (see --help)")
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
    }
    if (o.bodyTimeout < 1 || o.bodyTimeout > 600_000) {
      yield* Console.error("cardfx: --body-timeout must be 1..600000 milliseconds (see --help)")
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
    }
    if (o.heartbeat < 10 || o.heartbeat > 600_000) {
      yield* Console.error("cardfx: --heartbeat must be 10..600000 milliseconds (see --help)")
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
    }
    const usage = (message: string) =>
      Console.error(`cardfx serve: usage_error ${message} (see --help)`).pipe(
        Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.usage })))
      )
    if (o.agentPool < 1 || o.agentPool > 64) return yield* usage("--agent-pool must be 1..64 threads")
    if (o.maxAgentIterations < 1 || o.maxAgentIterations > ComputerSeats.MAX_SERVER_ITERATIONS) {
      return yield* usage(`--max-agent-iterations must be 1..${ComputerSeats.MAX_SERVER_ITERATIONS}`)
    }
    for (const origin of o.corsOrigin) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
        return yield* usage(`--cors-origin ${JSON.stringify(origin)}: an origin is scheme://host[:port], no path`)
      }
    }
    for (const host of o.allowedHost) {
      if (!/^[A-Za-z0-9.\-[\]:]+$/.test(host)) {
        return yield* usage(`--allowed-host ${JSON.stringify(host)}: a host name or address, no port or scheme`)
      }
    }
    if (o.createRate < 0 || o.createRate > 1000000) {
      return yield* usage("--create-rate must be 0..1000000")
    }
    if (o.createBurst < 1 || o.createBurst > 1000000) {
      return yield* usage("--create-burst must be 1..1000000")
    }
    if (o.maxLiveGames < 1 || o.maxLiveGames > 1000000) {
      return yield* usage("--max-live-games must be 1..1000000")
    }
    if (o.seatStreams < 1 || o.seatStreams > 1000000) {
      return yield* usage("--seat-streams must be 1..1000000")
    }
    if (o.spectators < 1 || o.spectators > 1000000) {
      return yield* usage("--spectators must be 1..1000000")
    }
    if (o.spectatorsPerGame < 1 || o.spectatorsPerGame > 1000000) {
      return yield* usage("--spectators-per-game must be 1..1000000")
    }
    if (o.spectatorsPerClient < 1 || o.spectatorsPerClient > 1000000) {
      return yield* usage("--spectators-per-client must be 1..1000000")
    }
    if (o.spectatorIdle < 1 || o.spectatorIdle > 100000000) {
      return yield* usage("--spectator-idle must be 1..100000000")
    }
    if (o.invitationTtl < 1 || o.invitationTtl > 100000000) {
      return yield* usage("--invitation-ttl must be 1..100000000")
    }
    const tokenEnv = Option.getOrUndefined(o.tokenEnv)
    const token = tokenEnv !== undefined
      ? Option.some(
        yield* Config.redacted(tokenEnv).pipe(
          Effect.catchAll(() => usage(`--token-env ${tokenEnv}: the variable is not set`))
        )
      )
      : Option.none()
    // An empty token would start a server nobody can authorize against.
    if (Option.isSome(token) && Redacted.value(token.value).trim() === "") {
      return yield* usage(`--token-env ${tokenEnv ?? ""}: the variable is empty`)
    }
    // Nobody could read a server that protects its reads with no token.
    if (o.protectReads && Option.isNone(token)) return yield* usage("--protect-reads needs --token-env")
    const packages = o.packages.length > 0 ? o.packages : [defaultPackage]
    const workers = o.workers === "auto" ? availableParallelism() : /^\d{1,2}$/.test(o.workers) ? Number(o.workers) : 0
    if (workers < 1 || workers > 64) return yield* usage(`--workers ${o.workers}: 1..64 or auto`)
    const member = serving.workers.slot !== undefined
    if (workers > 1 && !member) {
      // The primary: it serves no request; its workers run this same command line (src/server/Workers.ts).
      return yield* Effect.scoped(Effect.gen(function*() {
        const { url } = yield* serving.workers.supervise({
          count: workers,
          write: (chunk) => process.stdout.write(chunk)
        }).pipe(Effect.catchAll((e) => Effect.fail(new CommandExit({ exitCode: e.exitCode }))))
        yield* Console.log(JSON.stringify({ event: "listening", url, workers }))
        return yield* Effect.never
      }))
    }
    yield* Effect.scoped(
      Effect.gen(function*() {
        // Serves until this scope closes; then it drains (in-flight requests finish) and the store closes.
        const served = yield* serving.serve({
          packages,
          store: o.store,
          deckFile: o.deck,
          host: o.host,
          port: o.port,
          token,
          bodyTimeout: Duration.millis(o.bodyTimeout),
          allowedHosts: o.allowedHost,
          corsOrigins: o.corsOrigin,
          accessLog,
          protectReads: o.protectReads,
          heartbeat: Duration.millis(o.heartbeat),
          allowBroken: o.allowBroken,
          computerSeats: { poolSize: o.agentPool, maxIterations: o.maxAgentIterations },
          worker: member,
          allowContentMismatch: o.allowContentMismatch,
          limits: {
            rateLimit: { perMinute: o.createRate, burst: o.createBurst },
            games: { maxLiveGames: o.maxLiveGames, invitationTtlMs: o.invitationTtl },
            streams: {
              perSeat: o.seatStreams,
              spectators: o.spectators,
              spectatorsPerGame: o.spectatorsPerGame,
              spectatorsPerClient: o.spectatorsPerClient,
              spectatorIdleMs: o.spectatorIdle
            }
          }
        }).pipe(
          Effect.catchAll((e) =>
            Console.error(startFailure(e)).pipe(
              // The exit class of the failure's code (the diagnostic table's column; 1 for start_rejected).
              Effect.zipRight(Effect.fail(
                new CommandExit({ exitCode: hasCode(e) ? exitClassOf(e.code) : ExitCode.contentErrors })
              ))
            )
          )
        )
        if (member) serving.workers.sendListening(served.url)
        else yield* Console.log(JSON.stringify({ event: "listening", url: served.url }))
        // With --workers, the first worker watches; a reload switches every worker (src/services/ContentFollow.ts).
        if (o.watch && (serving.workers.slot ?? 1) === 1) {
          const runtime = yield* Effect.runtime<never>()
          // The served content's reload: the same one `POST /v1/admin/reload` runs.
          const reloadOn = (files: ReadonlyArray<string>) =>
            served.reload.pipe(
              Effect.tap((r) =>
                Effect.logInfo("reload").pipe(Effect.annotateLogs({
                  files: files.join(" "),
                  switched: r.switched,
                  checked: r.checked,
                  recomposed: r.recomposed,
                  contentHash: r.runtime.contentHash
                }))
              ),
              Effect.catchAll((e) =>
                Effect.logWarning("reload rejected").pipe(Effect.annotateLogs(rejection(e, files)))
              ),
              Effect.asVoid
            )
          const stop = watchContent(packages, (change) => Runtime.runFork(runtime)(reloadOn(change.files)))
          yield* Effect.addFinalizer(() => Effect.sync(stop))
        }
        return yield* Effect.never
      })
    )
  })
