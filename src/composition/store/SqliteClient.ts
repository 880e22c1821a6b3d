/**
 * The store's SQLite connection: `@effect/sql`'s `SqlClient` over one
 * better-sqlite3 connection, built as `@effect/sql-sqlite-node` builds it
 * (one connection behind a one-permit semaphore, statements prepared once
 * and cached, WAL), plus the connection itself as `SqliteDriver`.
 *
 * Why our own: the batch engine writes a batch's rows with one prepared
 * statement per table, called by the driver directly inside the transaction
 * the client holds (as the raw better-sqlite3 baseline of the bench does).
 * Through the client each was a multi-row query built per batch (a fragment
 * per value, the SQL text compiled and hashed for the statement cache, 450
 * bound values per call), slower per row than the baseline's single-row
 * statements (see README.md, "Throughput"). The library's client does not
 * expose its connection.
 *
 * Loaded on use (`Connection.ts` imports it when a SQLite layer is built),
 * so commands that never open a store do not load the driver.
 *
 * @since 0.1.0
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import Sqlite from "better-sqlite3"
import { Context, Effect, Layer, Scope } from "effect"
import { boundedCache } from "./Cache.js"
import { sqlError, SqliteDriver } from "./SqliteDriver.js"

/** Prepared statements kept per connection (the library's default). */
const PREPARED = 200

/**
 * A `SqlClient` and its `SqliteDriver` over a new connection to `filename` (`:memory:` for an in-memory
 * database). Opening errors are defects, as with the library's client: the store's `openLayer` names them
 * (`store_unavailable`, `store_corrupt`).
 */
const makeSqliteClient = (filename: string) =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.sync(() => new Sqlite(filename)),
      (db) => Effect.sync(() => db.close())
    )
    yield* Effect.sync(() => db.pragma("journal_mode = WAL"))
    const prepared = boundedCache<string, Sqlite.Statement>(PREPARED)
    const prepare = (sql: string): Sqlite.Statement => {
      const hit = prepared.get(sql)
      if (hit !== undefined) return hit
      const statement = db.prepare(sql)
      prepared.set(sql, statement)
      return statement
    }
    const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean, unprepared = false) =>
      Effect.try({
        try: () => {
          const statement = unprepared ? db.prepare(sql) : prepare(sql)
          if (statement.reader) return statement.all(...params) as ReadonlyArray<unknown>
          const info = statement.run(...params)
          return raw ? info : []
        },
        catch: (cause) => sqlError(cause, "Failed to execute statement")
      })
    const connection: Connection = {
      execute: (sql, params, transformRows) => {
        const rows = run(sql, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>
        return transformRows ? Effect.map(rows, transformRows) : rows
      },
      executeRaw: (sql, params) => run(sql, params, true),
      executeValues: (sql, params) =>
        Effect.try({
          try: () => {
            const statement = prepare(sql)
            if (!statement.reader) {
              statement.run(...params)
              return []
            }
            try {
              return statement.raw(true).all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
            } finally {
              statement.raw(false)
            }
          },
          catch: (cause) => sqlError(cause, "Failed to execute statement")
        }),
      executeUnprepared: (sql, params, transformRows) => {
        const rows = run(sql, params, false, true) as Effect.Effect<ReadonlyArray<object>, SqlError>
        return transformRows ? Effect.map(rows, transformRows) : rows
      },
      executeStream: () => Effect.dieMessage("executeStream not implemented")
    }
    const semaphore = yield* Effect.makeSemaphore(1)
    const acquirer = semaphore.withPermits(1)(Effect.succeed(connection))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))
        ),
        connection
      )
    )
    const client = yield* SqlClient.make({
      acquirer,
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer,
      spanAttributes: [["db.system.name", "sqlite"]]
    })
    return { client, driver: { db } }
  })

/** The layer of `makeSqliteClient`: `SqlClient` and `SqliteDriver` for the layer's lifetime. */
export const sqliteDriverLayer = (filename: string): Layer.Layer<SqlClient.SqlClient | SqliteDriver> =>
  Layer.scopedContext(
    Effect.map(
      makeSqliteClient(filename),
      ({ client, driver }) => Context.make(SqlClient.SqlClient, client).pipe(Context.add(SqliteDriver, driver))
    )
  ).pipe(Layer.provide(Reactivity.layer))
