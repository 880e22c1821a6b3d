/**
 * The ledger store's schema, as portable SQL (SQLite and PostgreSQL read the
 * same statements). JSON documents are TEXT holding canonical JSON, so the
 * bytes stored are the bytes hashed and both dialects return them unchanged.
 * Integers are BIGINT; readers convert with `Number` (PostgreSQL returns
 * BIGINT as a string).
 *
 * Tables (each name carries the store's table prefix):
 * - `meta`: `sequence`, the last global event sequence (also the row every
 *   write transaction locks first, which serializes writers on both dialects);
 * - `commands`: command ID → request hash → outcome (the durable idempotence table);
 * - `events`: the append-only event log, one row per applied command, unique
 *   per (branch, instance, revision) and per command ID, indexed by
 *   (branch, instance, sequence) since migration 3 (a replay page's rows);
 * - `snapshots`: one row per event with its revision, sequence and
 *   fingerprint, unique per (branch, instance, revision); the ledger text
 *   only at checkpoint revisions (1, 2, 4, 8, …; '' otherwise) and the
 *   `effective` column '' (since migration 2; the effective card is
 *   recomputed on read);
 * - `checkpoints` (since migration 3): an instance's active entries every
 *   256 revisions (a ledger document of the active entries alone; see
 *   Core.ts), with the revision's sequence, unique per (branch, instance,
 *   revision): where a replay page starts;
 * - `contexts`: content-addressed replay contexts (base card snapshot +
 *   statuses) that events point to, so replay never reads the catalog;
 * - `branches`: name, parent branch and the sequence it forked at.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** Table prefixes are plain identifiers (they are spliced into SQL). */
export const isTablePrefix = (p: string): boolean => /^[a-z][a-z0-9_]{0,30}$/.test(p) || p === ""

/** Each migration is a list of statements; `{p}` stands for the table prefix. */
export const migrations: ReadonlyArray<ReadonlyArray<string>> = [
  [
    "CREATE TABLE {p}meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "INSERT INTO {p}meta (key, value) VALUES ('sequence', 0)",
    "CREATE TABLE {p}branches (name TEXT PRIMARY KEY, parent TEXT NOT NULL, fork_sequence BIGINT NOT NULL)",
    `CREATE TABLE {p}events (
      sequence BIGINT PRIMARY KEY,
      branch TEXT NOT NULL,
      instance_id TEXT NOT NULL,
      card_id TEXT NOT NULL,
      revision BIGINT NOT NULL,
      command_id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      context_hash TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (branch, instance_id, revision)
    )`,
    `CREATE TABLE {p}snapshots (
      branch TEXT NOT NULL,
      instance_id TEXT NOT NULL,
      revision BIGINT NOT NULL,
      sequence BIGINT NOT NULL,
      card_id TEXT NOT NULL,
      ledger TEXT NOT NULL,
      effective TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      PRIMARY KEY (branch, instance_id, revision)
    )`,
    "CREATE TABLE {p}contexts (hash TEXT PRIMARY KEY, body TEXT NOT NULL)",
    "CREATE TABLE {p}commands (command_id TEXT PRIMARY KEY, request_hash TEXT NOT NULL, outcome TEXT NOT NULL, sequence BIGINT)"
  ],
  // 2. Bounded size: the ledger text is kept only at checkpoint revisions (powers of two) and the
  // effective card is recomputed on read (see Core.ts). Stores written before keep opening: their
  // other rows are emptied here, once; every state can still be rebuilt from its checkpoint and events.
  [
    "UPDATE {p}snapshots SET ledger = '' WHERE (revision & (revision - 1)) <> 0",
    "UPDATE {p}snapshots SET effective = ''"
  ],
  // 3. Bounded replay pages: the active entries every 256 revisions (Core.ts `isActiveCheckpoint`), and an
  // instance's events by sequence (a page from a sequence reads its own rows, not the instance's whole
  // history). Histories written before have none: a page there folds from the nearest power of two, found
  // from the rows, as before; the revisions written from now on are bounded.
  [
    `CREATE TABLE {p}checkpoints (
      branch TEXT NOT NULL,
      instance_id TEXT NOT NULL,
      revision BIGINT NOT NULL,
      sequence BIGINT NOT NULL,
      active TEXT NOT NULL,
      PRIMARY KEY (branch, instance_id, revision)
    )`,
    "CREATE INDEX {p}events_instance_sequence ON {p}events (branch, instance_id, sequence)"
  ]
]

/**
 * Applies pending migrations in one transaction; idempotent, and safe when
 * several processes open a new store at once: PostgreSQL takes a
 * transaction-scoped advisory lock first, SQLite's first DDL statement takes
 * the database write lock (a busy competitor waits on busy_timeout).
 */
export const migrate = (prefix: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = sql.literal(`${prefix}schema_migrations`)
    const applied = yield* sql.withTransaction(
      Effect.gen(function*() {
        const versions: Array<number> = []
        yield* sql.onDialectOrElse({
          pg: () => sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`,
          orElse: () => Effect.void
        })
        yield* sql`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY)`
        for (let i = 0; i < migrations.length; i++) {
          const version = i + 1
          const done = yield* sql<{ version: number }>`SELECT version FROM ${table} WHERE version = ${version}`
          if (done.length > 0) continue
          // The statements are constants; the prefix was checked by isTablePrefix.
          for (const s of migrations[i] ?? []) yield* sql.unsafe(s.replaceAll("{p}", prefix))
          yield* sql`INSERT INTO ${table} (version) VALUES (${version})`
          versions.push(version)
        }
        return versions
      })
    )
    // Migration 2 empties most of an existing store's ledger text; SQLite keeps the freed pages in the file until
    // VACUUM (which cannot run inside a transaction). A new store (migration 1 in the same run) has nothing to free.
    // PostgreSQL's autovacuum reclaims the space itself.
    if (applied.includes(2) && !applied.includes(1)) {
      yield* sql.onDialectOrElse({ sqlite: () => sql`VACUUM`, orElse: () => Effect.void })
    }
  })

/** The PostgreSQL advisory lock key that serializes migrations. */
const MIGRATION_LOCK = 0x63617264 // "card"
