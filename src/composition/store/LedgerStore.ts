/**
 * `LedgerStore`: the durable home of card ledgers. One implementation over
 * `@effect/sql`'s `SqlClient`, two dialects (SQLite, PostgreSQL), portable SQL.
 * The parts live beside this file, one concept each: the values
 * (`Schemas.ts`), the tables and their migrations (`Migrations.ts`), the
 * connections and how their failures surface (`Connection.ts`), the
 * canonical serializers (`Serialize.ts`), the shared state reads
 * (`Core.ts`), the batch engine (`Batch.ts`), and history, replay and
 * verification (`History.ts`). See ./README.md and docs/store.md for the guarantees.
 *
 * Guarantees (each has a test on a real database file, see
 * test/composition/store):
 * - every write runs in one transaction that first locks the `meta.sequence`
 *   row, so writers are serialized on both dialects and the global event
 *   sequence has no gaps;
 * - optimistic concurrency: a command that states `expectedRevision` is
 *   rejected with `revision_conflict` unless it is current; the snapshot row
 *   of each (branch, instance, revision) is inserted with `ON CONFLICT DO
 *   NOTHING ... RETURNING`, a second guard: one winner per revision;
 * - idempotence: the `commands` table maps a command ID to the sha256 of its
 *   canonical request (what the caller stated) and to its outcome, written in
 *   the same transaction as the event. A retry returns the recorded outcome;
 *   the same ID with another request fails with `command_conflict`.
 *   Rejections are recorded too;
 * - bounded size: events are deltas, the ledger text is stored at
 *   checkpoints only (see Core.ts), caches are bounded (see Cache.ts);
 * - a SQLite file whose pages are damaged is refused for writes
 *   (`store_corrupt`); `verify` reports the integrity check.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import {
  BranchNotFound,
  type CommandConflict,
  DuplicateId,
  ForkOutOfRange,
  type InvalidId,
  type ReplayMismatch,
  StoreCorrupt,
  StoreFailure,
  StoreNotFound
} from "../../kernel/Errors.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { traced } from "../../kernel/Tracing.js"
import { invalidRequestId } from "../schema/Symbols.js"
import { makeBatchEngine } from "./Batch.js"
import {
  displayLocation,
  guard,
  openLayer,
  type OpenOptions,
  pgClientLayer,
  sqliteClientLayer,
  type StoreOpenError
} from "./Connection.js"
import { type BranchRow, type CacheOptions, makeCore, num } from "./Core.js"
import { makeHistory, replayAll } from "./History.js"
import { isTablePrefix, migrate } from "./Migrations.js"
import {
  type BranchInfo,
  type CardState,
  type CommandOutcome,
  type CommandRequest,
  type Decide,
  type InstanceHead,
  MAIN,
  type ReplayStep,
  type ReplayWork,
  type StoredEvent,
  type TouchedInstance,
  type VerifyReport
} from "./Schemas.js"
import { decodeOutcome, fromEither } from "./Serialize.js"
import { SqliteDriver } from "./SqliteDriver.js"

export { type OpenOptions, sqliteClientLayer, type StoreOpenError } from "./Connection.js"
export type { CacheOptions } from "./Core.js"
export * from "./Schemas.js"
export { ledgerJson, outcomeJson, requestHash } from "./Serialize.js"

/** Errors of the store's API. */
export type StoreError =
  | StoreFailure
  | CommandConflict
  | BranchNotFound
  | DuplicateId
  | InvalidId
  | StoreCorrupt
  | ForkOutOfRange

/** The operations of the ledger store. Each fails with exactly the errors it can produce. */
export interface LedgerStoreService {
  /** Runs one command: the recorded outcome for a retry, else `decide` under the write lock. */
  readonly execute: (
    request: CommandRequest,
    decide: Decide
  ) => Effect.Effect<CommandOutcome, StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
  /** Runs commands in one transaction (one commit, one fsync); each is checked as if alone, in order. */
  readonly executeBatch: (
    items: ReadonlyArray<readonly [CommandRequest, Decide]>
  ) => Effect.Effect<ReadonlyArray<CommandOutcome>, StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
  /** The recorded outcome of a command ID, if any. */
  readonly outcome: (commandId: string) => Effect.Effect<Option.Option<CommandOutcome>, StoreFailure | StoreCorrupt>
  /** A card instance's current state on a branch (an empty ledger of `cardId` when it has no event). */
  readonly read: (
    branch: string,
    instanceId: string,
    cardId: string,
    options?: {
      /** False: skip recomputing the effective card (`effective` is undefined); the ledger alone. Default true. */
      readonly effective?: boolean
    }
  ) => Effect.Effect<CardState, StoreFailure | StoreCorrupt | BranchNotFound>
  /** The last snapshot row of every instance visible on a branch, sorted by instance: a few statements, no ledger read. */
  readonly heads: (
    branch: string
  ) => Effect.Effect<ReadonlyArray<InstanceHead>, StoreFailure | StoreCorrupt | BranchNotFound>
  /** The instances events after `sequence` were written for (each on its own branch), sorted. */
  readonly touchedSince: (
    sequence: number
  ) => Effect.Effect<ReadonlyArray<TouchedInstance>, StoreFailure | StoreCorrupt>
  /** Instances with at least one event visible on a branch, sorted. */
  readonly instances: (
    branch: string
  ) => Effect.Effect<ReadonlyArray<string>, StoreFailure | StoreCorrupt | BranchNotFound>
  /** The events of an instance visible on a branch, by sequence. */
  readonly history: (
    branch: string,
    instanceId: string
  ) => Effect.Effect<ReadonlyArray<StoredEvent>, StoreFailure | StoreCorrupt | BranchNotFound>
  /** One page of `history`: the events with `sequence >= from`, at most `limit`; `next`: the page after, or null. */
  readonly historyPage: (
    branch: string,
    instanceId: string,
    page: { readonly from: number; readonly limit: number }
  ) => Effect.Effect<
    { readonly events: ReadonlyArray<StoredEvent>; readonly next: number | null },
    StoreFailure | StoreCorrupt | BranchNotFound
  >
  /** The last global sequence. */
  readonly sequence: Effect.Effect<number, StoreFailure | StoreCorrupt>
  /** Forks a branch from `parent` (default main) at `atSequence` (default: now; past the end is `fork_out_of_range`). */
  readonly fork: (
    name: string,
    options?: { readonly parent?: string; readonly atSequence?: number }
  ) => Effect.Effect<
    BranchInfo,
    StoreFailure | BranchNotFound | DuplicateId | InvalidId | ForkOutOfRange | StoreCorrupt
  >
  /** Discards a branch and its own rows (and its descendants'). Main cannot be discarded. */
  readonly discard: (name: string) => Effect.Effect<void, StoreFailure | BranchNotFound | InvalidId | StoreCorrupt>
  /** Branches, sorted by name (main excluded). */
  readonly branches: Effect.Effect<ReadonlyArray<BranchInfo>, StoreFailure | StoreCorrupt>
  /**
   * The branches an instance can be read on: whether main, and the forks (sorted by name) where one
   * of its events is visible (written there, or on an ancestor before the fork).
   */
  readonly branchesOf: (
    instanceId: string
  ) => Effect.Effect<
    { readonly main: boolean; readonly forks: ReadonlyArray<BranchInfo> },
    StoreFailure | StoreCorrupt
  >
  /**
   * Rebuilds every snapshot of a branch (default: every branch and main)
   * from the events alone and compares fingerprints; `replay_mismatch` on
   * the first difference. Linear in the number of events.
   */
  readonly replay: (
    branch?: string
  ) => Effect.Effect<
    ReadonlyArray<ReplayStep>,
    StoreFailure | StoreCorrupt | BranchNotFound | InvalidId | ReplayMismatch
  >
  /**
   * One page of an instance's replay on a branch: its events with
   * `sequence >= from`, at most `limit`, rebuilt from the nearest stored
   * checkpoint before the page (not from revision 0); `next` is the first
   * sequence after the page, or null. Empty when the instance has no such
   * event; `exists` says whether it has any on the branch. `work` reports
   * what the page read and folded: bounded by a constant and `limit`,
   * whatever the history's length.
   */
  readonly replayPage: (
    branch: string,
    instanceId: string,
    page: { readonly from: number; readonly limit: number }
  ) => Effect.Effect<
    {
      readonly steps: ReadonlyArray<ReplayStep>
      readonly next: number | null
      readonly exists: boolean
      readonly work: ReplayWork
    },
    StoreFailure | StoreCorrupt | BranchNotFound | ReplayMismatch
  >
  /** Every row of the branch's own data, canonical JSON, for byte comparisons. */
  readonly dump: (branch: string) => Effect.Effect<string, StoreFailure | StoreCorrupt>
  /** The integrity check (SQLite pages, then the store's invariants); never fails, reports. */
  readonly verify: Effect.Effect<VerifyReport>
}

/** Options of a store: its table prefix and cache bounds. */
export interface StoreOptions {
  readonly tablePrefix?: string
  readonly caches?: CacheOptions
}

const make = (options: StoreOptions) =>
  Effect.gen(function*() {
    const prefix = options.tablePrefix ?? ""
    if (!isTablePrefix(prefix)) {
      return yield* Effect.fail(new StoreFailure({ message: `invalid table prefix ${prefix}` }))
    }
    yield* migrate(prefix)
    const core = yield* makeCore(prefix, options.caches)
    const { sql, T, lock, currentSequence, branchRow, chain, readState } = core
    const history = makeHistory(core)

    // The page check runs once per store value, before its first write (a long-running server pays it once).
    let pagesChecked = false
    const checkPages = Effect.suspend(() =>
      pagesChecked
        ? Effect.void
        : Effect.gen(function*() {
          const dialect = sql.onDialectOrElse({ pg: () => "pg", orElse: () => "sqlite" })
          if (dialect === "sqlite") {
            const rows = yield* sql<{ quick_check: string }>`PRAGMA quick_check(5)`
            if (rows.length !== 1 || rows[0]?.quick_check !== "ok") {
              return yield* Effect.fail(
                // No location in the message: a server's answer never names its files.
                // Nor the integrity check's raw lines: `cardfx ledger verify` shows them to the operator.
                new StoreCorrupt({
                  message: "the ledger store is damaged; it is refused for writes: run `cardfx ledger verify`"
                })
              )
            }
          }
          pagesChecked = true
        })
    )
    // A SQLite store writes its batches through the driver's prepared statements (see Batch.ts).
    const driver = yield* Effect.serviceOption(SqliteDriver)
    const { executeBatch } = makeBatchEngine(core, checkPages, Option.getOrUndefined(driver)?.db)

    const listBranches = Effect.map(
      sql<BranchRow>`SELECT name, parent, fork_sequence FROM ${T.branches} ORDER BY name`,
      (rows) =>
        rows.map((r) => ({ name: r.name, parent: r.parent, forkSequence: num(r.fork_sequence) })).sort((a, b) =>
          compareOrdinal(a.name, b.name)
        )
    )

    const service: LedgerStoreService = {
      execute: (request, decide) =>
        Effect.map(guard(executeBatch([[request, decide]])), (outcomes) => outcomes[0] as CommandOutcome),
      executeBatch: (items) => guard(executeBatch(items)),
      outcome: (commandId) =>
        guard(
          Effect.gen(function*() {
            const row =
              (yield* sql<{ outcome: string }>`SELECT outcome FROM ${T.commands} WHERE command_id = ${commandId}`)[0]
            if (row === undefined) return Option.none()
            return Option.some(yield* fromEither("outcome", decodeOutcome(row.outcome)))
          })
        ),
      read: (branch, instanceId, cardId, options = {}) =>
        guard(readState(branch, instanceId, cardId, options.effective ?? true)),
      heads: (branch) => guard(history.headsOf(branch)),
      touchedSince: (sequence) => guard(history.touchedSince(sequence)),
      instances: (branch) => guard(history.instancesOf(branch)),
      history: (branch, instanceId) => guard(history.historyOf(branch, instanceId)),
      historyPage: (branch, instanceId, page) => guard(history.historyPage(branch, instanceId, page.from, page.limit)),
      sequence: guard(currentSequence),
      fork: (name, options = {}) =>
        guard(
          sql.withTransaction(
            Effect.gen(function*() {
              const invalid = invalidRequestId([["/name", name], ["/parent", options.parent]])
              if (invalid !== undefined) return yield* Effect.fail(invalid)
              yield* lock
              yield* checkPages
              const parent = options.parent ?? MAIN
              if (name === MAIN || (yield* branchRow(name)) !== undefined) {
                return yield* Effect.fail(new DuplicateId({ message: `branch ${name} already exists`, subject: name }))
              }
              yield* chain(parent)
              const now = yield* currentSequence
              const at = options.atSequence ?? now
              if (!Number.isInteger(at) || at < 0 || at > now) {
                return yield* Effect.fail(
                  new ForkOutOfRange({
                    message: `cannot fork at sequence ${at}: the history runs from 0 to ${now}`,
                    subject: name,
                    details: { atSequence: at, sequence: now }
                  })
                )
              }
              yield* sql`INSERT INTO ${T.branches} (name, parent, fork_sequence) VALUES (${name}, ${parent}, ${at})`
              return { name, parent, forkSequence: at }
            })
          )
        ),
      discard: (name) =>
        guard(
          sql.withTransaction(
            Effect.gen(function*() {
              const invalid = invalidRequestId([["/name", name]])
              if (invalid !== undefined) return yield* Effect.fail(invalid)
              yield* lock
              yield* checkPages
              if (name === MAIN || (yield* branchRow(name)) === undefined) {
                return yield* Effect.fail(
                  new BranchNotFound({ message: `no branch ${name} to discard`, subject: name })
                )
              }
              const all = yield* listBranches
              const doomed = new Set([name])
              for (let changed = true; changed;) {
                changed = false
                for (const b of all) {
                  if (doomed.has(b.parent) && !doomed.has(b.name)) {
                    doomed.add(b.name)
                    changed = true
                  }
                }
              }
              for (const b of doomed) {
                yield* sql`DELETE FROM ${T.events} WHERE branch = ${b}`
                yield* sql`DELETE FROM ${T.snapshots} WHERE branch = ${b}`
                yield* sql`DELETE FROM ${T.checkpoints} WHERE branch = ${b}`
                yield* sql`DELETE FROM ${T.branches} WHERE name = ${b}`
              }
            })
          )
        ),
      branches: guard(listBranches),
      branchesOf: (instanceId) => guard(Effect.flatMap(listBranches, (forks) => history.branchesOf(instanceId, forks))),
      replay: (branch) =>
        guard(
          Effect.gen(function*() {
            const invalid = invalidRequestId([["/branch", branch]])
            if (invalid !== undefined) return yield* Effect.fail(invalid)
            const names = branch !== undefined ? [branch] : [MAIN, ...(yield* listBranches).map((b) => b.name)]
            return yield* replayAll(history, names)
          })
        ),
      replayPage: (branch, instanceId, page) => guard(history.replayPage(branch, instanceId, page.from, page.limit)),
      dump: (branch) => guard(history.dumpBranch(branch)),
      verify: history.verify
    }
    return service
  })

const build = (
  location: string,
  client: Layer.Layer<SqlClient.SqlClient, unknown>,
  options: StoreOptions
): Layer.Layer<LedgerStore, StoreOpenError> =>
  openLayer(
    location,
    Layer.effect(LedgerStore, Effect.map(make(options), (s) => traced("LedgerStore", s))).pipe(Layer.provide(client))
  )

/** The ledger store service. */
export class LedgerStore extends Context.Tag("cardfx/LedgerStore")<LedgerStore, LedgerStoreService>() {
  /** A SQLite file: WAL, `synchronous=FULL` on the connection, migrations applied. `create: false` requires the file (readers). */
  static readonly layerSqlite = (
    options: { readonly filename: string } & StoreOptions & OpenOptions
  ): Layer.Layer<LedgerStore, StoreOpenError> =>
    build(options.filename, sqliteClientLayer(options.filename, options), options)

  /** An in-memory SQLite database (tests). */
  static readonly layerMemory: Layer.Layer<LedgerStore, StoreOpenError> = openLayer(
    ":memory:",
    // Not `build`: inside the class body the class's own binding is initialized, the module's is not yet.
    Layer.effect(LedgerStore, Effect.map(make({}), (s) => traced("LedgerStore", s))).pipe(
      Layer.provide(sqliteClientLayer(":memory:"))
    )
  )

  /** PostgreSQL (several engine instances sharing one store). `tablePrefix` isolates stores in one database; `create: false` requires the tables. */
  static readonly layerPg = (
    options: { readonly url: string } & StoreOptions & OpenOptions
  ): Layer.Layer<LedgerStore, StoreOpenError> =>
    options.create === false
      ? openLayer(
        options.url,
        Layer.unwrapEffect(
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ t: string | null }>`SELECT to_regclass(${`${
              options.tablePrefix ?? ""
            }meta`})::text AS t`
            if (rows[0]?.t == null) {
              return yield* Effect.fail(
                new StoreNotFound({
                  message: `no ledger store at ${displayLocation(options.url)}${
                    options.tablePrefix ? ` (table prefix ${options.tablePrefix})` : ""
                  }`,
                  subject: displayLocation(options.url)
                })
              )
            }
            return Layer.effect(LedgerStore, Effect.map(make(options), (s) => traced("LedgerStore", s)))
          })
        ).pipe(Layer.provide(pgClientLayer(options.url)))
      )
      : build(options.url, pgClientLayer(options.url), options)

  /** A SQLite path or a `postgres://` / `postgresql://` URL. */
  static readonly layerFor = (
    location: string,
    options: StoreOptions & OpenOptions = {}
  ): Layer.Layer<LedgerStore, StoreOpenError> =>
    /^postgres(ql)?:\/\//.test(location)
      ? LedgerStore.layerPg({ url: location, ...options })
      : LedgerStore.layerSqlite({ filename: location, ...options })
}
