/**
 * Test support for `cardfx serve`: a server in this process on an ephemeral
 * 127.0.0.1 port (the same `serverLayer` the command runs), the typed client
 * against it, and the PostgreSQL switch (skipped with a message when
 * unreachable, unless CARDFX_REQUIRE_POSTGRES=1).
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { type Duration, Effect, Exit, Layer, Logger, LogLevel, Option, Redacted, Scope } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CardfxClient, type ErrorBody, makeClient } from "../../src/client.js"
import { makeLifecycle, serverLayer, serverUrl } from "../../src/server/Server.js"
import type { ServingLimits } from "../../src/services/ServingLimits.js"
import { PG_REQUIRED as REQUIRED, PG_URL, pgReachable } from "../support/pg.js"

export { PG_URL }

export const pgUp = await pgReachable()
if (!pgUp && REQUIRED) {
  throw new Error(`PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but ${PG_URL} is unreachable`)
}
if (!pgUp) console.warn(`[cardfx] PostgreSQL at ${PG_URL} is unreachable: the PostgreSQL server suite is SKIPPED`)

export const PACKAGE = "data/heroscript.base"
export const DECK = "data/hallyu-hex/starter-deck.v0.json"

export interface Running {
  readonly url: string
  readonly client: CardfxClient
  /** Runs an effect that needs an HttpClient (the typed client's calls). */
  readonly run: <A, E>(e: Effect.Effect<A, E, never>) => Promise<A>
  readonly close: () => Promise<void>
}

export type StoreKind = "sqlite" | "postgres"

let counter = 0
const prefixes: Array<string> = []

/** A fresh store location: a new SQLite file, or a fresh table prefix in the PostgreSQL test database. */
export const freshStore = (kind: StoreKind): { readonly store: string; readonly tablePrefix?: string } => {
  if (kind === "sqlite") return { store: join(mkdtempSync(join(tmpdir(), "cardfx-serve-")), "ledger.db") }
  const tablePrefix = `srv${process.pid}_${counter++}_`
  prefixes.push(tablePrefix)
  return { store: PG_URL, tablePrefix }
}

/** Drops every table this process created in PostgreSQL. */
export const dropPgTables = async (): Promise<void> => {
  if (!pgUp || prefixes.length === 0) return
  const tables = [
    "schema_migrations",
    "meta",
    "branches",
    "events",
    "snapshots",
    "checkpoints",
    "contexts",
    "commands",
    "hhx_schema_migrations",
    "hhx_games"
  ]
  await Effect.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        Effect.forEach(
          prefixes.flatMap((p) => tables.map((t) => `${p}${t}`)),
          (t) => sql.unsafe(`DROP TABLE IF EXISTS ${t}`)
        )
    ).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL) })))
  )
}

/** Starts a server on 127.0.0.1:0. */
export const startServer = async (options: {
  readonly store: string
  readonly tablePrefix?: string | undefined
  readonly packages?: ReadonlyArray<string>
  readonly token?: string
  readonly bodyTimeout?: Duration.DurationInput
  readonly limits?: ServingLimits
}): Promise<Running> => {
  const scope = Effect.runSync(Scope.make())
  const lifecycle = Effect.runSync(makeLifecycle)
  const layer = serverLayer(
    {
      packages: options.packages ?? [PACKAGE],
      store: options.store,
      tablePrefix: options.tablePrefix,
      deckFile: DECK,
      host: "127.0.0.1",
      port: 0,
      token: options.token === undefined ? Option.none() : Option.some(Redacted.make(options.token)),
      bodyTimeout: options.bodyTimeout,
      limits: options.limits
    },
    lifecycle
  ).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const url = Effect.runSync(Effect.provide(serverUrl, context))
  const run = <A, E>(e: Effect.Effect<A, E, never>) => Effect.runPromise(e)
  const client = await Effect.runPromise(
    makeClient(url, options.token === undefined ? {} : { token: options.token }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
  )
  return { url, client, run, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The error of a failing call (fails the test when the call succeeds). */
export const errorOf = async <A, E>(e: Effect.Effect<A, E, never>): Promise<ErrorBody & { readonly _tag: string }> => {
  const exit = await Effect.runPromiseExit(e)
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value).slice(0, 200)}`)
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (typeof failure !== "object" || failure === null || !("code" in failure) || !("_tag" in failure)) {
    throw new Error(`expected an API error, got ${String(exit.cause)}`)
  }
  return failure as unknown as ErrorBody & { readonly _tag: string }
}
