/**
 * The store's connections (SQLite file, PostgreSQL, in-memory SQLite) and
 * how their failures surface.
 *
 * - Drivers are imported when a layer is built, so commands that never open
 *   a store do not load them.
 * - Only commands that write create a store: a reader opening a SQLite path
 *   that does not exist fails with `store_not_found` and creates nothing.
 *   A writer creates the parent folders with a bounded walk (node's recursive
 *   `mkdir` spins forever on some paths, `/proc/...` for one).
 * - A store that cannot be opened is `store_unavailable`, naming the path or
 *   URL (never the password); a file whose pages are damaged is
 *   `store_corrupt`, when it is opened and when a later read or write meets
 *   a damaged page (SQLite's "database disk image is malformed").
 * - Only SQL and I/O errors become `store_failure`; anything else (a
 *   programming error) stays a defect, so the CLI reports it as one (exit
 *   70) and a server as a 500.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect, Layer, Option, Predicate, Redacted } from "effect"
import { mkdirSync, statSync } from "node:fs"
import { dirname } from "node:path"
import { StoreCorrupt, StoreFailure, StoreNotFound, StoreUnavailable } from "../../kernel/Errors.js"
import type { SqliteDriver } from "./SqliteDriver.js"

/** How a store is opened: `create` (the default) lets it be created; readers pass `false`. */
export interface OpenOptions {
  readonly create?: boolean
}

/** The errors of opening a store. */
export type StoreOpenError = StoreFailure | StoreNotFound | StoreUnavailable | StoreCorrupt

const MAX_DEPTH = 256

/** `mkdir -p` in a bounded walk: finds the deepest existing ancestor, then creates each level once. */
export const ensureParent = (filename: string): Effect.Effect<void, StoreUnavailable> =>
  Effect.suspend(() => {
    const dir = dirname(filename)
    const missing: Array<string> = []
    let at = dir
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const st = statOrUndefined(at)
      if (st !== undefined) {
        if (!st.isDirectory()) return Effect.fail(unavailable(filename, `${at} is not a folder`))
        break
      }
      missing.push(at)
      const up = dirname(at)
      if (up === at) break
      at = up
    }
    for (const d of missing.reverse()) {
      try {
        mkdirSync(d)
      } catch (e) {
        const code = (e as { code?: unknown }).code
        // Another process created it meanwhile: fine. Anything else ends the walk (no retry loop).
        if (code !== "EEXIST") {
          return Effect.fail(unavailable(filename, `cannot create folder ${d}: ${String(code ?? e)}`))
        }
      }
    }
    return Effect.void
  })

const statOrUndefined = (p: string) => {
  try {
    return statSync(p)
  } catch {
    return undefined
  }
}

const unavailable = (location: string, why: string): StoreUnavailable =>
  new StoreUnavailable({ message: `cannot open the ledger store ${location}: ${why}`, subject: location })

/**
 * The SQLite client: one connection (`SqliteClient.ts`: our `SqlClient` over
 * one better-sqlite3 connection, and that connection for the batch engine's
 * prepared statements), WAL, then `synchronous=FULL` on that connection —
 * better-sqlite3 leaves NORMAL on a WAL database, which can lose the last
 * commits on power loss. A writer creates the parent folders; a reader
 * (`create: false`) requires the file.
 */
export const sqliteClientLayer = (
  filename: string,
  options: OpenOptions = {}
): Layer.Layer<SqlClient.SqlClient | SqliteDriver, unknown> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      if (filename !== ":memory:") {
        if (options.create === false) {
          const st = statOrUndefined(filename)
          if (st === undefined) {
            return yield* Effect.fail(
              new StoreNotFound({ message: `no ledger store at ${filename}`, subject: filename })
            )
          }
          if (!st.isFile()) return yield* Effect.fail(unavailable(filename, "not a file"))
        } else yield* ensureParent(filename)
      }
      // Loaded on use: a CLI command that never opens a store does not pay for the driver.
      const { sqliteDriverLayer } = yield* Effect.promise(() => import("./SqliteClient.js"))
      return Layer.effectDiscard(
        Effect.gen(function*() {
          const client = yield* SqlClient.SqlClient
          yield* client`PRAGMA synchronous = FULL`
          yield* client`PRAGMA busy_timeout = 10000`
        })
      ).pipe(Layer.provideMerge(sqliteDriverLayer(filename)))
    })
  )

/** The PostgreSQL client: a pool of 8, a 5 s connect timeout. */
export const pgClientLayer = (url: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.unwrapEffect(
    Effect.map(Effect.promise(() => import("@effect/sql-pg/PgClient")), (PgClient) =>
      PgClient.layer({ url: Redacted.make(url), maxConnections: 8, connectTimeout: "5 seconds" }))
  )

/** A location as it may be shown: a URL's password is hidden. */
export const displayLocation = (location: string): string =>
  location.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/, "$1:***@")

const causeMessage = (u: unknown): string => {
  if (typeof u === "object" && u !== null) {
    const cause = (u as { cause?: unknown }).cause
    const own = u instanceof Error ? u.message : String((u as { message?: unknown }).message ?? u)
    const inner = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : ""
    return inner !== "" && inner !== own ? `${own}: ${inner}` : own
  }
  return String(u)
}

const codeOf = (u: unknown): string | undefined => {
  if (typeof u !== "object" || u === null) return undefined
  const code = (u as { code?: unknown }).code
  return typeof code === "string" ? code : undefined
}

/** A SQLite error code of an error or of its cause (`SqlError` wraps the driver's error). */
const sqliteCode = (u: unknown): string | undefined => {
  for (
    let e = u, depth = 0;
    depth < 4 && typeof e === "object" && e !== null;
    depth++, e = (e as { cause?: unknown }).cause
  ) {
    const code = codeOf(e)
    if (code !== undefined && code.startsWith("SQLITE_")) return code
  }
  return undefined
}

/** Whether a failure is the database's or the file system's (as opposed to a programming error). */
export const isSqlOrIoError = (u: unknown): boolean => {
  if (typeof u !== "object" || u === null) return false
  const tag = (u as { _tag?: unknown })._tag
  if (tag === "SqlError" || tag === "ResultLengthMismatch") return true
  if (sqliteCode(u) !== undefined) return true
  // Node system errors (ENOENT, EACCES, ECONNREFUSED, ...) carry a syscall and an E-code.
  const code = codeOf(u)
  if (code !== undefined && /^E[A-Z0-9]+$/.test(code) && "syscall" in u) return true
  // PostgreSQL server errors carry a SQLSTATE and a severity.
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code) && "severity" in u) return true
  // better-sqlite3 reports a missing folder as a plain TypeError.
  return u instanceof Error && /^Cannot open database/.test(u.message)
}

/** Whether a failure says the SQLite file's pages are damaged or it is not a database. */
export const isCorruption = (u: unknown): boolean => {
  const code = sqliteCode(u)
  return code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT_INDEX"
}

export const toStoreFailure = (u: unknown): StoreFailure =>
  u instanceof StoreFailure ? u : new StoreFailure({ message: `ledger store: ${causeMessage(u)}` })

/** Damaged pages met at run time: the same answer as at open (no file in the message, `ledger verify` named). */
const corruptAtRuntime = (): StoreCorrupt =>
  new StoreCorrupt({ message: "the ledger store is damaged: run `cardfx ledger verify`" })

/** A driver's failure, whichever copy of `@effect/sql` made it (tested by tag). */
const isSqlError = <E>(e: E | SqlError): e is SqlError => Predicate.isTagged(e, "SqlError")

/** The store's own open errors, passed through as they are. */
const isStoreOpenError = (u: unknown): u is StoreOpenError =>
  u instanceof StoreFailure || u instanceof StoreNotFound || u instanceof StoreUnavailable ||
  u instanceof StoreCorrupt

const storeError = (u: unknown): StoreFailure | StoreCorrupt => isCorruption(u) ? corruptAtRuntime() : toStoreFailure(u)

/**
 * The store's boundary for an operation: SqlErrors and SQL/I/O defects (a
 * failed COMMIT is a defect in @effect/sql) become `store_failure`
 * (`store_corrupt` when the pages are damaged); typed errors pass;
 * interruption stays interruption; any other defect stays a defect.
 */
export const guard = <A, E>(
  effect: Effect.Effect<A, E | SqlError>
): Effect.Effect<A, Exclude<E | SqlError, SqlError> | StoreFailure | StoreCorrupt> =>
  effect.pipe(
    Effect.catchIf(isSqlError, (e) => Effect.fail(storeError(e))),
    Effect.catchSomeDefect((defect) =>
      isSqlOrIoError(defect) ? Option.some(Effect.fail(storeError(defect))) : Option.none()
    )
  )

/**
 * A store layer's failures, named: typed open errors pass; a damaged file is
 * `store_corrupt`; any other SQL or I/O failure while opening is
 * `store_unavailable` naming the location; other defects stay defects.
 */
export const openLayer = <A, E>(location: string, layer: Layer.Layer<A, E>): Layer.Layer<A, StoreOpenError> =>
  Layer.catchAllCause(layer, (cause) => {
    const failure = Cause.failureOption(cause)
    const u = Option.isSome(failure) ? failure.value : Cause.squash(cause)
    if (isStoreOpenError(u)) return Layer.fail(u)
    const shown = displayLocation(location)
    if (isCorruption(u)) {
      return Layer.fail(
        // No location in the message (a server's answer never names its files): the operator knows it.
        new StoreCorrupt({ message: "the ledger store is damaged: run `cardfx ledger verify`" })
      )
    }
    if (Option.isSome(failure) || isSqlOrIoError(u)) return Layer.fail(unavailable(shown, causeMessage(u)))
    // Only defects and interruptions are left (every failure was named above): they pass as they are.
    return Layer.failCause(Cause.map(cause, (e) => unavailable(shown, causeMessage(e))))
  })
