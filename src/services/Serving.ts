/**
 * `Serving`: the HTTP API over the served application's services (what
 * `cardfx serve` runs). This module is the port: the interface and its Tag.
 * The HTTP server (src/server, `cardfx/server`) implements it; the `cardfx`
 * bin's composition root (src/bin) provides that implementation to the CLI,
 * which knows only this port.
 *
 * @since 0.1.0
 */
import {
  Context,
  type Duration,
  type Effect,
  type Layer,
  type Logger,
  type Option,
  type Redacted,
  type Scope
} from "effect"
import type { AgentDecider, ComputerSeatsOptions } from "./ComputerSeats.js"
import type { ContentCatalogService } from "./ContentCatalog.js"
import type { ServingLimits } from "./ServingLimits.js"

/** How the HTTP API is served. */
export interface ServingOptions {
  readonly packages: ReadonlyArray<string>
  /** SQLite path or postgres:// URL (both the ledger store and the Hallyu Hex games). */
  readonly store: string
  /** The Hallyu Hex deck file served. */
  readonly deckFile: string
  readonly host: string
  /** 0 for an ephemeral port. */
  readonly port: number
  /** The bearer token of mutating endpoints; none: every request may mutate. */
  readonly token: Option.Option<Redacted.Redacted<string>>
  /** Time to receive a body once the headers are in. */
  readonly bodyTimeout: Duration.DurationInput
  /** Host names accepted in the `Host` header besides the loopback names and `host`. */
  readonly allowedHosts: ReadonlyArray<string>
  /** Origins answered with CORS headers; none: CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
  /** Where the access log lines go (one JSON line a request); undefined: no access log. */
  readonly accessLog: ((line: string) => void) | undefined
  /** Every read needs the operator token too (a game's seat view: that seat's secret). */
  readonly protectReads?: boolean | undefined
  /** Time between heartbeats on open event streams (default 15 s). */
  readonly heartbeat?: Duration.DurationInput | undefined
  /** Serve content that breaks stored instances (each logged); by default such a start fails with `start_rejected`. */
  readonly allowBroken?: boolean | undefined
  /** Computer seats: decisions at once (`--agent-pool`) and the largest iteration budget (`--max-agent-iterations`). */
  readonly computerSeats?: ComputerSeatsOptions | undefined
  /** Where computer seats decide (the `cardfx` bin: worker threads, src/workers/AgentPool.ts); default: in process. */
  readonly agentDecider?: Layer.Layer<AgentDecider> | undefined
  /** This process is one worker of `serve --workers N` (see {@link ServingService.workers}). */
  readonly worker?: boolean | undefined
  /** Start even when the other servers on the store serve other content. */
  readonly allowContentMismatch?: boolean | undefined
  /** The limits on anonymous clients (rate limit, live games, stream slots); absent ones keep their defaults. */
  readonly limits?: ServingLimits | undefined
}

/** A JSON-lines log written in batches. */
export interface BatchedLog {
  /** The logger (install with `Logger.replace(Logger.defaultLogger, logger)`). */
  readonly logger: Logger.Logger<unknown, void>
  /** Adds one ready-made line (no newline) to the batch: the door's access log. */
  readonly line: (line: string) => void
  /** Writes the lines not yet written (the command calls it before it exits). */
  readonly flush: () => void
}

/** A server serving until its scope closes. */
export interface Listening {
  /** Where it listens: `http://HOST:PORT`. */
  readonly url: string
  /** The served content's reload (publish, check every stored instance, switch): `POST /v1/admin/reload`'s. */
  readonly reload: ContentCatalogService["reload"]
}

export interface ServingService {
  /**
   * Serves until the scope closes; then it stops taking requests, lets the
   * ones in flight finish and closes the store. Fails with what kept it
   * from starting (a content diagnostic's tagged error, a bind error).
   */
  readonly serve: (o: ServingOptions) => Effect.Effect<Listening, unknown, Scope.Scope>
  /** A JSON-lines logger writing to `write` in batches (the request log). */
  readonly batchedJsonLog: (write: (chunk: string) => void) => BatchedLog
  /** `serve --workers N`: several processes answering one port (src/server/Workers.ts). */
  readonly workers: ServingWorkers
}

/** The processes of `serve --workers N`: one primary (no requests) and N workers. */
export interface ServingWorkers {
  /** This process's slot (1..N) when it is a worker its primary forked; undefined in any other process. */
  readonly slot: number | undefined
  /** In a worker: sends log lines to the primary (the one log). */
  readonly sendLog: (chunk: string) => void
  /** In a worker: tells the primary it listens at `url`. */
  readonly sendListening: (url: string) => void
  /**
   * In the primary: forks `count` workers of this command line answering one
   * port; the URL once all listen, or the exit status of a worker that could
   * not start. Closing the scope drains every worker.
   */
  readonly supervise: (o: {
    readonly count: number
    readonly write: (chunk: string) => void
  }) => Effect.Effect<{ readonly url: string }, { readonly exitCode: number }, Scope.Scope>
}

/** The HTTP serving service (implemented by src/server, `cardfx/server`). */
export class Serving extends Context.Tag("cardfx/Serving")<Serving, ServingService>() {}
