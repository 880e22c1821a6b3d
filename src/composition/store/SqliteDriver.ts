/**
 * The better-sqlite3 connection under a SQLite store's `SqlClient`
 * (`SqliteClient.ts` builds both), for the batch engine's prepared
 * statements. Only this tag and the error shape live here, so the store's
 * modules name it without loading the driver.
 *
 * Direct calls are only safe while the caller holds the connection: inside
 * `sql.withTransaction` (which takes the client's one permit for the whole
 * transaction), never outside it.
 *
 * @since 0.1.0
 */
import { SqlError } from "@effect/sql/SqlError"
import type BetterSqlite3 from "better-sqlite3"
import { Context } from "effect"

/** The better-sqlite3 connection under a SQLite store's `SqlClient` (see the module's note on when it may be used). */
export class SqliteDriver extends Context.Tag("cardfx/LedgerStore/SqliteDriver")<
  SqliteDriver,
  { readonly db: BetterSqlite3.Database }
>() {}

/** A driver failure as the `SqlError` the client reports (the store's boundary maps it to `store_failure`). */
export const sqlError = (cause: unknown, message: string): SqlError => new SqlError({ cause, message })
