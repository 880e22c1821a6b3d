/**
 * `LedgerStore`: the durable home of card ledgers. One implementation over
 * `@effect/sql`'s `SqlClient`, two dialects (SQLite, PostgreSQL), portable SQL.
 *
 * Guarantees (each has a test on a real database file, see
 * test/composition/store):
 * - every write runs in one transaction that first locks the `meta.sequence`
 *   row, so writers are serialized on both dialects and the global event
 *   sequence has no gaps;
 * - optimistic concurrency: a command carries `expectedRevision`; when it is
 *   not the card's current revision the command is rejected with
 *   `revision_conflict`. The snapshot row of each (branch, instance,
 *   revision) is inserted with `ON CONFLICT DO NOTHING ... RETURNING`, a
 *   second guard: one winner per revision, whatever happens above;
 * - idempotence: the `commands` table maps a command ID to the sha256 of its
 *   canonical request and to its outcome, written in the same transaction as
 *   the event. A retry with the same ID and request returns the recorded
 *   outcome and applies nothing; the same ID with another request fails with
 *   `command_conflict`. REJECTIONS ARE RECORDED TOO (`revision_conflict`,
 *   `not_authorized`, every planning code, `branch_not_found`): a retry gets
 *   the same answer, even after the card changed. Only `store_failure` (no
 *   decision was made) and `command_conflict` are not recorded;
 * - snapshots: the ledger (canonical JSON) and the effective card (JSON in
 *   the resolver's deterministic construction order; `JSON.stringify` is
 *   several times faster than the canonical writer on this, the largest
 *   document) after each event, with the fingerprint;
 * - replay: folding the events (whose bodies carry the sealed entries and
 *   point at a content-addressed context holding the base card snapshot and
 *   the statuses) and resolving gives the stored fingerprints, without any
 *   runtime or catalog;
 * - branches: a branch forks from a parent branch (default `main`) at a
 *   global sequence; it sees its parent's events up to that sequence and its
 *   own after. Writing on a branch never touches a row of another branch;
 *   discarding deletes only the branch's own rows.
 *
 * Failures of the database surface as `StoreFailure` (`store_failure`) with
 * the cause's message; no `SqlError` leaks from the service.
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Context, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { canonicalJson, hashCanonical, sha256Hex } from "../../kernel/Canonical.js"
import { Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { BranchNotFound, CommandConflict, DuplicateId, ReplayMismatch, StoreFailure } from "../../kernel/Errors.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import { CardLedger, emptyLedger, LedgerEntry, verifyLedger } from "../ledger/Ledger.js"
import { LedgerCommand } from "../planner/Plan.js"
import { resolveEffectiveCard } from "../Resolver.js"
import { Card } from "../schema/Card.js"
import { Status } from "../schema/Status.js"
import { isTablePrefix, migrate } from "./Migrations.js"

/** The branch every store has. */
export const MAIN = "main"

/** A ledger command addressed to a card instance on a branch, with its idempotence key and expected revision. */
export const CommandRequest = Schema.Struct({
  commandId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  branch: Schema.String,
  /** The card instance (a deck may hold several instances of one card). */
  instanceId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  /** The base card of the instance. */
  cardId: Schema.String,
  expectedRevision: Schema.NonNegativeInt,
  /** The activity (mode) the command runs in. */
  activity: Schema.String,
  command: LedgerCommand
}).annotations({ identifier: "CommandRequest" })
export type CommandRequest = typeof CommandRequest.Type

/** What a command did. Stored as canonical JSON; a retry returns these exact bytes' value. */
export const CommandOutcome = Schema.Struct({
  commandId: Schema.String,
  status: Schema.Literal("applied", "rejected"),
  branch: Schema.String,
  instanceId: Schema.String,
  cardId: Schema.String,
  /** After the command when applied; the current revision when rejected. */
  revision: Schema.NonNegativeInt,
  /** The event's global sequence when applied. */
  sequence: Schema.NullOr(Schema.NonNegativeInt),
  entryId: Schema.NullOr(Schema.String),
  fingerprint: Schema.NullOr(Schema.String),
  changedComponentIds: Schema.Array(Schema.String),
  diagnostics: Schema.Array(Diagnostic)
}).annotations({ identifier: "CommandOutcome" })
export type CommandOutcome = typeof CommandOutcome.Type

/** What an event records besides its row columns. */
export const EventBody = Schema.Struct({
  command: LedgerCommand,
  activity: Schema.String,
  /** The entry the command created (apply, replace), as sealed. */
  entry: Schema.NullOr(LedgerEntry),
  /** The entry the command removed (remove, replace). */
  removedEntryId: Schema.NullOr(Schema.String)
}).annotations({ identifier: "EventBody" })
export type EventBody = typeof EventBody.Type

/** The content an event was composed against: the base card snapshot and the statuses (sorted by ID). */
export const ReplayContext = Schema.Struct({
  baseCard: Card,
  statuses: Schema.Array(Status)
}).annotations({ identifier: "ReplayContext" })
export type ReplayContext = typeof ReplayContext.Type

/** A stored event. */
export interface StoredEvent {
  readonly sequence: number
  readonly branch: string
  readonly instanceId: string
  readonly cardId: string
  readonly revision: number
  readonly commandId: string
  readonly kind: string
  readonly contextHash: string
  readonly body: EventBody
}

/** A card instance's state on a branch. */
export interface CardState {
  readonly branch: string
  readonly instanceId: string
  readonly cardId: string
  readonly ledger: CardLedger
  readonly revision: number
  /** Global sequence of the last event reflected (0 for a card with no event). */
  readonly lastSequence: number
  /** The serialized effective card (canonical JSON) and its fingerprint; absent at revision 0. */
  readonly effective: string | undefined
  readonly fingerprint: string | undefined
}

/** A store's decision about one command, made under the write lock from the current state. */
export type Decision =
  | { readonly _tag: "Reject"; readonly diagnostics: ReadonlyArray<Diagnostic> }
  | {
      readonly _tag: "Commit"
      readonly ledger: CardLedger
      readonly effective: EffectiveCardDefinition
      readonly body: EventBody
      readonly context: ReplayContext
      readonly changedComponentIds: ReadonlyArray<string>
    }

/** Decides a command from the current state and the sequence its event would take. Must be pure. */
export type Decide = (state: CardState, nextSequence: number) => Decision

/** A branch. */
export interface BranchInfo {
  readonly name: string
  readonly parent: string
  readonly forkSequence: number
}

/** One replayed step: the fingerprint recomputed from the events and the one stored. */
export interface ReplayStep {
  readonly branch: string
  readonly instanceId: string
  readonly revision: number
  readonly sequence: number
  readonly fingerprint: string
  readonly stored: string
}

/** Errors of the store's API. */
export type StoreError = StoreFailure | CommandConflict | BranchNotFound | DuplicateId

/** The operations of the ledger store. */
export interface LedgerStoreService {
    /** Runs one command: the recorded outcome for a retry, else `decide` under the write lock. */
    readonly execute: (request: CommandRequest, decide: Decide) => Effect.Effect<CommandOutcome, StoreFailure | CommandConflict>
    /** Runs commands in one transaction (one commit, one fsync); each is checked as if alone, in order. */
    readonly executeBatch: (
      items: ReadonlyArray<readonly [CommandRequest, Decide]>
    ) => Effect.Effect<ReadonlyArray<CommandOutcome>, StoreFailure | CommandConflict>
    /** The recorded outcome of a command ID, if any. */
    readonly outcome: (commandId: string) => Effect.Effect<Option.Option<CommandOutcome>, StoreFailure>
    /** A card instance's current state on a branch (an empty ledger of `cardId` when it has no event). */
    readonly read: (branch: string, instanceId: string, cardId: string) => Effect.Effect<CardState, StoreFailure | BranchNotFound>
    /** Instances with at least one event visible on a branch, sorted. */
    readonly instances: (branch: string) => Effect.Effect<ReadonlyArray<string>, StoreFailure | BranchNotFound>
    /** The events of an instance visible on a branch, by sequence. */
    readonly history: (branch: string, instanceId: string) => Effect.Effect<ReadonlyArray<StoredEvent>, StoreFailure | BranchNotFound>
    /** The last global sequence. */
    readonly sequence: Effect.Effect<number, StoreFailure>
    /** Forks a branch from `parent` (default main) at `atSequence` (default: now). */
    readonly fork: (
      name: string,
      options?: { readonly parent?: string; readonly atSequence?: number }
    ) => Effect.Effect<BranchInfo, StoreFailure | BranchNotFound | DuplicateId>
    /** Discards a branch and its own rows (and its descendants'). Main cannot be discarded. */
    readonly discard: (name: string) => Effect.Effect<void, StoreFailure | BranchNotFound>
    /** Branches, sorted by name (main excluded). */
    readonly branches: Effect.Effect<ReadonlyArray<BranchInfo>, StoreFailure>
    /**
     * Rebuilds every snapshot of a branch (default: every branch and main)
     * from the events alone and compares fingerprints; `replay_mismatch` on
     * the first difference.
     */
    readonly replay: (branch?: string) => Effect.Effect<ReadonlyArray<ReplayStep>, StoreFailure | BranchNotFound | ReplayMismatch>
    /** Every row of the branch's own data, canonical JSON, for byte comparisons. */
    readonly dump: (branch: string) => Effect.Effect<string, StoreFailure>
  }

// ---------------------------------------------------------------------------
// Connections

/**
 * The SQLite client: one connection (the driver keeps exactly one per
 * client), WAL from the driver, then `synchronous=FULL` on that connection —
 * better-sqlite3 leaves NORMAL on a WAL database, which can lose the last
 * commits on power loss. Parent folders are created.
 */
export const sqliteClientLayer = (filename: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.unwrapEffect(
    Effect.map(
      filename === ":memory:"
        ? Effect.void
        : Effect.asVoid(Effect.try({ try: () => mkdirSync(dirname(filename), { recursive: true }), catch: (e) => e })),
      () =>
        Layer.unwrapEffect(
          // Loaded on use: a CLI command that never opens a store does not pay for the drivers.
          Effect.map(
            Effect.promise(() => import("@effect/sql-sqlite-node/SqliteClient")),
            (SqliteClient) =>
              Layer.effectContext(
                Effect.gen(function* () {
                  const client = yield* SqliteClient.SqliteClient
                  yield* client`PRAGMA synchronous = FULL`
                  yield* client`PRAGMA busy_timeout = 10000`
                  return Context.make(SqlClient.SqlClient, client as SqlClient.SqlClient)
                })
              ).pipe(Layer.provide(SqliteClient.layer({ filename })))
          )
        )
    )
  )

/** Any failure or defect while building a store layer (the driver throws on open) becomes StoreFailure. */
const storeLayer = <E>(layer: Layer.Layer<LedgerStore, E>): Layer.Layer<LedgerStore, StoreFailure> =>
  Layer.catchAllCause(layer, (cause) =>
    Layer.fail(toStoreFailure(Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))))
  )

const causeMessage = (u: unknown): string => {
  if (typeof u === "object" && u !== null) {
    const cause = (u as { cause?: unknown }).cause
    const own = u instanceof Error ? u.message : String((u as { message?: unknown }).message ?? u)
    const inner = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : ""
    return inner !== "" && inner !== own ? `${own}: ${inner}` : own
  }
  return String(u)
}

const toStoreFailure = (u: unknown): StoreFailure =>
  u instanceof StoreFailure ? u : new StoreFailure({ message: `ledger store: ${causeMessage(u)}` })

/** SqlErrors and defects (a failed COMMIT is a defect in @effect/sql) become StoreFailure; typed errors pass. */
const guard = <A, E>(effect: Effect.Effect<A, E | SqlError>): Effect.Effect<A, Exclude<E, SqlError> | StoreFailure> =>
  effect.pipe(
    Effect.catchAllCause((cause): Effect.Effect<never, Exclude<E, SqlError> | StoreFailure> => {
      const failure = Cause.failureOption(cause)
      if (Option.isSome(failure)) {
        const e = failure.value as { _tag?: unknown }
        if (e._tag === "SqlError") return Effect.fail(toStoreFailure(e))
        return Effect.fail(failure.value as Exclude<E, SqlError>)
      }
      if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
      return Effect.fail(toStoreFailure(Cause.squash(cause)))
    })
  )

// ---------------------------------------------------------------------------
// Rows

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v))

interface SnapshotRow {
  readonly revision: unknown
  readonly sequence: unknown
  readonly card_id: string
  readonly ledger: string
  readonly effective: string
  readonly fingerprint: string
}

interface EventRow {
  readonly sequence: unknown
  readonly branch: string
  readonly instance_id: string
  readonly card_id: string
  readonly revision: unknown
  readonly command_id: string
  readonly kind: string
  readonly context_hash: string
  readonly body: string
}

interface BranchRow {
  readonly name: string
  readonly parent: string
  readonly fork_sequence: unknown
}

const decodeLedger = Schema.decodeUnknownEither(Schema.parseJson(CardLedger))
const decodeOutcome = Schema.decodeUnknownEither(Schema.parseJson(CommandOutcome))
const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(EventBody))
const decodeContext = Schema.decodeUnknownEither(Schema.parseJson(ReplayContext))

const corrupt = (what: string, e: unknown): StoreFailure =>
  new StoreFailure({ message: `ledger store: stored ${what} does not decode: ${String(e)}` })

const fromEither = <A>(what: string, r: Either.Either<A, unknown>): Effect.Effect<A, StoreFailure> =>
  Either.isRight(r) ? Effect.succeed(r.right) : Effect.fail(corrupt(what, r.left))

const toEvent = (r: EventRow): Effect.Effect<StoredEvent, StoreFailure> =>
  Effect.map(fromEither("event body", decodeBody(r.body)), (body) => ({
    sequence: num(r.sequence),
    branch: r.branch,
    instanceId: r.instance_id,
    cardId: r.card_id,
    revision: num(r.revision),
    commandId: r.command_id,
    kind: r.kind,
    contextHash: r.context_hash,
    body
  }))

// Canonical JSON of ledger entries, once per (immutable) entry object: a ledger
// snapshot is re-serialized after every command, and its entries mostly did not change.
const entryJsonCache = new WeakMap<LedgerEntry, string>()
const entryJson = (e: LedgerEntry): string => {
  let s = entryJsonCache.get(e)
  if (s === undefined) {
    s = canonicalJson(e)
    // The writer builds the text by concatenation (a V8 rope); reading one character flattens it
    // in place, so the many later joins copy flat text instead of walking the rope every time
    // (measured ~10x faster joins of a 20-entry ledger).
    s.charCodeAt(0)
    entryJsonCache.set(e, s)
  }
  return s
}

/** Canonical JSON of a ledger (keys in ordinal order: cardId, entries, revision), entries from the cache. */
export const ledgerJson = (l: CardLedger): string =>
  `{"cardId":${JSON.stringify(l.cardId)},"entries":[${l.entries.map(entryJson).join(",")}],"revision":${l.revision}}`

/** Canonical JSON of an event body (keys: activity, command, entry, removedEntryId). */
const bodyJson = (b: EventBody): string =>
  `{"activity":${JSON.stringify(b.activity)},"command":${canonicalJson(b.command)},"entry":${b.entry === null ? "null" : entryJson(b.entry)},"removedEntryId":${b.removedEntryId === null ? "null" : JSON.stringify(b.removedEntryId)}}`

const contextCache = new WeakMap<ReplayContext, { readonly json: string; readonly hash: string }>()
/** Canonical JSON and hash of a replay context, once per (immutable) context object. */
const serializedContext = (c: ReplayContext): { readonly json: string; readonly hash: string } => {
  let s = contextCache.get(c)
  if (s === undefined) {
    const json = canonicalJson(c)
    s = { json, hash: sha256Hex(json) }
    contextCache.set(c, s)
  }
  return s
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(["activity", "branch", "cardId", "command", "commandId", "expectedRevision", "instanceId"])

/**
 * The sha256 of a request's canonical JSON: the idempotence key's fingerprint. A request with
 * exactly the schema's fields (the usual case) is written directly in canonical key order (the
 * same bytes as the kernel's writer, tested), anything else goes through `canonicalJson`;
 * node's one-shot `hash` gives the same digest as `sha256Hex` without a Hash object.
 */
export const requestHash = (request: CommandRequest): string => {
  const keys = Object.keys(request)
  if (keys.length !== REQUEST_KEYS.size || !keys.every((k) => REQUEST_KEYS.has(k)) || !Number.isInteger(request.expectedRevision))
    return hashCanonical(request)
  return hash(
    "sha256",
    `{"activity":${JSON.stringify(request.activity)},"branch":${JSON.stringify(request.branch)},"cardId":${JSON.stringify(request.cardId)},` +
      `"command":${canonicalJson(request.command)},"commandId":${JSON.stringify(request.commandId)},` +
      `"expectedRevision":${request.expectedRevision},"instanceId":${JSON.stringify(request.instanceId)}}`,
    "hex"
  )
}

/** Canonical JSON of an outcome (keys in ordinal order), as `canonicalJson` writes it (tested). */
export const outcomeJson = (o: CommandOutcome): string =>
  `{"branch":${JSON.stringify(o.branch)},"cardId":${JSON.stringify(o.cardId)},"changedComponentIds":${canonicalJson(o.changedComponentIds)},` +
  `"commandId":${JSON.stringify(o.commandId)},"diagnostics":${o.diagnostics.length === 0 ? "[]" : canonicalJson(o.diagnostics)},` +
  `"entryId":${o.entryId === null ? "null" : JSON.stringify(o.entryId)},"fingerprint":${o.fingerprint === null ? "null" : JSON.stringify(o.fingerprint)},` +
  `"instanceId":${JSON.stringify(o.instanceId)},"revision":${canonicalJson(o.revision)},"sequence":${o.sequence === null ? "null" : canonicalJson(o.sequence)},` +
  `"status":${JSON.stringify(o.status)}}`

const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER

// ---------------------------------------------------------------------------
// The implementation

const make = (prefix: string) =>
  Effect.gen(function* () {
    if (!isTablePrefix(prefix)) return yield* Effect.fail(new StoreFailure({ message: `invalid table prefix ${prefix}` }))
    const sql = yield* SqlClient.SqlClient
    yield* migrate(prefix)
    const T = {
      meta: sql.literal(`${prefix}meta`),
      branches: sql.literal(`${prefix}branches`),
      events: sql.literal(`${prefix}events`),
      snapshots: sql.literal(`${prefix}snapshots`),
      contexts: sql.literal(`${prefix}contexts`),
      commands: sql.literal(`${prefix}commands`)
    }

    /** The write lock: a no-op update of the sequence row (SQLite: takes the database write lock; PostgreSQL: the row lock). */
    const lock = sql`UPDATE ${T.meta} SET value = value WHERE key = 'sequence'`
    const currentSequence = Effect.map(
      sql<{ value: unknown }>`SELECT value FROM ${T.meta} WHERE key = 'sequence'`,
      (rows) => num(rows[0]?.value ?? 0)
    )

    const branchRow = (name: string) =>
      Effect.map(
        sql<BranchRow>`SELECT name, parent, fork_sequence FROM ${T.branches} WHERE name = ${name}`,
        (rows) => rows[0]
      )

    /** [branch, max sequence visible] from the branch up to main. */
    const chain = (branch: string): Effect.Effect<Array<readonly [string, number]>, SqlError | BranchNotFound> =>
      Effect.gen(function* () {
        const out: Array<readonly [string, number]> = []
        let name = branch
        let limit = MAX_SEQUENCE
        for (let guardDepth = 0; guardDepth < 64; guardDepth++) {
          out.push([name, limit])
          if (name === MAIN) return out
          const row = yield* branchRow(name)
          if (row === undefined)
            return yield* Effect.fail(new BranchNotFound({ message: `no branch ${name}`, subject: name }))
          limit = Math.min(limit, num(row.fork_sequence))
          name = row.parent
        }
        return yield* Effect.fail(new BranchNotFound({ message: `branch ${branch} has a parent chain deeper than 64`, subject: branch }))
      })

    /**
     * Parsed ledgers of the last snapshot seen per (branch of the snapshot, instance), so a
     * command does not decode the ledger it wrote itself. A hit needs the row's revision AND
     * global sequence: committed sequences are never reused, so a stale entry cannot match.
     * Entries are only added for committed rows (see executeBatch).
     */
    const ledgerCache = new Map<string, { readonly revision: number; readonly sequence: number; readonly ledger: CardLedger }>()
    const cacheKey = (branch: string, instanceId: string) => `${branch}\u0000${instanceId}`

    const readState = (branch: string, instanceId: string, cardId: string, withEffective: boolean) =>
      Effect.gen(function* () {
        const links = yield* chain(branch)
        for (const [name, limit] of links) {
          // The ledger text (the largest column) is read only when the cache cannot supply it.
          const rows = withEffective
            ? yield* sql<SnapshotRow>`SELECT revision, sequence, card_id, ledger, effective, fingerprint FROM ${T.snapshots}
                WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit}
                ORDER BY revision DESC LIMIT 1`
            : yield* sql<Omit<SnapshotRow, "ledger" | "effective">>`SELECT revision, sequence, card_id, fingerprint FROM ${T.snapshots}
                WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit}
                ORDER BY revision DESC LIMIT 1`
          const row: Partial<SnapshotRow> & Omit<SnapshotRow, "ledger" | "effective"> | undefined = rows[0]
          if (row === undefined) continue
          const revision = num(row.revision)
          const sequence = num(row.sequence)
          const key = cacheKey(name, instanceId)
          const hit = ledgerCache.get(key)
          let ledger: CardLedger
          if (hit !== undefined && hit.revision === revision && hit.sequence === sequence) ledger = hit.ledger
          else {
            const text =
              row.ledger ??
              (yield* sql<{ ledger: string }>`SELECT ledger FROM ${T.snapshots}
                WHERE branch = ${name} AND instance_id = ${instanceId} AND revision = ${revision}`)[0]?.ledger
            if (text === undefined) return yield* Effect.fail(corrupt("ledger", `snapshot ${name}/${instanceId}@${revision} vanished`))
            ledger = yield* fromEither("ledger", decodeLedger(text))
            ledgerCache.set(key, { revision, sequence, ledger })
          }
          return {
            branch,
            instanceId,
            cardId: row.card_id,
            ledger,
            revision,
            lastSequence: sequence,
            effective: withEffective ? row.effective : undefined,
            fingerprint: row.fingerprint
          } satisfies CardState
        }
        return {
          branch,
          instanceId,
          cardId,
          ledger: emptyLedger(cardId),
          revision: 0,
          lastSequence: 0,
          effective: undefined,
          fingerprint: undefined
        } satisfies CardState
      })

    /** Context hashes known to be committed (contexts are never deleted), so their insert is skipped. */
    const knownContexts = new Set<string>()

    const CHUNK = 50
    const chunks = <A>(xs: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
      const out: Array<ReadonlyArray<A>> = []
      for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK))
      return out
    }

    /** The write lock (see `lock`) that also returns the current global sequence: one statement. */
    const lockSequence = Effect.map(
      sql<{ value: unknown }>`UPDATE ${T.meta} SET value = value WHERE key = 'sequence' RETURNING value`,
      (rows) => num(rows[0]?.value ?? 0)
    )

    /** What the store holds for an instance before a transaction: its last snapshot's state, or nothing yet. */
    type Loaded = CardState | "none"

    /**
     * The committed states of many instances of one branch, a few statements for all of them:
     * per link of the branch's chain, the last snapshot visible at the link's limit of every
     * instance not found on an earlier link (the same row `readState` picks:
     * the highest revision with `sequence <= limit`). Ledger texts are read only for cache misses.
     */
    const loadStates = (branch: string, instanceIds: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const links = yield* chain(branch)
        const out = new Map<string, Loaded>()
        let missing = instanceIds
        for (const [name, limit] of links) {
          if (missing.length === 0) break
          for (const part of chunks(missing)) {
            const rows = yield* sql<{ instance_id: string; revision: unknown; sequence: unknown; card_id: string; fingerprint: string }>`
              SELECT s.instance_id, s.revision, s.sequence, s.card_id, s.fingerprint FROM ${T.snapshots} s
              WHERE s.branch = ${name} AND s.instance_id IN ${sql.in(part)} AND s.revision = (
                SELECT MAX(m.revision) FROM ${T.snapshots} m
                WHERE m.branch = ${name} AND m.instance_id = s.instance_id AND m.sequence <= ${limit})`
            for (const row of rows) {
              const revision = num(row.revision)
              const sequence = num(row.sequence)
              const key = cacheKey(name, row.instance_id)
              const hit = ledgerCache.get(key)
              let ledger: CardLedger
              if (hit !== undefined && hit.revision === revision && hit.sequence === sequence) ledger = hit.ledger
              else {
                const text = (yield* sql<{ ledger: string }>`SELECT ledger FROM ${T.snapshots}
                  WHERE branch = ${name} AND instance_id = ${row.instance_id} AND revision = ${revision}`)[0]?.ledger
                if (text === undefined) return yield* Effect.fail(corrupt("ledger", `snapshot ${name}/${row.instance_id}@${revision} vanished`))
                ledger = yield* fromEither("ledger", decodeLedger(text))
                ledgerCache.set(key, { revision, sequence, ledger })
              }
              out.set(row.instance_id, {
                branch,
                instanceId: row.instance_id,
                cardId: row.card_id,
                ledger,
                revision,
                lastSequence: sequence,
                effective: undefined,
                fingerprint: row.fingerprint
              })
            }
          }
          missing = missing.filter((id) => !out.has(id))
        }
        for (const id of missing) out.set(id, "none")
        return out
      })

    /**
     * Per-transaction bookkeeping. The transaction first takes the write lock and
     * reads, in a few statements, everything its commands can need: the recorded
     * outcomes of their IDs and the committed states of their instances. The
     * commands are then decided one by one, in order, by plain synchronous code,
     * each seeing the ones before it (through `states` and `decided`); their rows
     * are written together at the end, one multi-row INSERT per table, so a batch
     * of N commands costs a handful of statements instead of ~5N. Caches are
     * updated only once the transaction commits.
     */
    interface Batch {
      sequence: number
      readonly start: number
      readonly prior: Map<string, { readonly request_hash: string; readonly outcome: string }>
      readonly decided: Map<string, { readonly hash: string; readonly outcome: CommandOutcome }>
      /** Committed states read at the start, by cache key; a missing branch maps to its error. */
      readonly loaded: Map<string, Loaded | BranchNotFound>
      /** States after the batch's own commands, by cache key. */
      readonly states: Map<string, CardState>
      readonly contexts: Map<string, string>
      readonly snapshots: Array<Record<string, string | number>>
      readonly events: Array<Record<string, string | number>>
      readonly commands: Array<Record<string, string | number | null>>
      readonly onCommit: Array<() => void>
    }

    /** Decides one command of a batch (no I/O: everything it reads was loaded first). */
    const one = (request: CommandRequest, decide: Decide, batch: Batch): CommandOutcome | CommandConflict | StoreFailure => {
      const hash = requestHash(request)
      const earlier = batch.decided.get(request.commandId)
      const prior = batch.prior.get(request.commandId)
      if (earlier !== undefined || prior !== undefined) {
        if ((earlier?.hash ?? prior?.request_hash) !== hash)
          return new CommandConflict({
            message: `command ${request.commandId} was already used with a different request`,
            subject: request.commandId
          })
        if (earlier !== undefined) return earlier.outcome
        const decoded = decodeOutcome((prior as { outcome: string }).outcome)
        return Either.isRight(decoded) ? decoded.right : corrupt("outcome", decoded.left)
      }
      const base = {
        commandId: request.commandId,
        branch: request.branch,
        instanceId: request.instanceId,
        cardId: request.cardId
      }
      const rejected = (revision: number, diagnostics: ReadonlyArray<Diagnostic>): CommandOutcome => ({
        ...base,
        status: "rejected",
        revision,
        sequence: null,
        entryId: null,
        fingerprint: null,
        changedComponentIds: [],
        diagnostics
      })
      const record = (outcome: CommandOutcome): CommandOutcome => {
        batch.decided.set(request.commandId, { hash, outcome })
        batch.commands.push({ command_id: request.commandId, request_hash: hash, outcome: outcomeJson(outcome), sequence: outcome.sequence })
        return outcome
      }
      const key = cacheKey(request.branch, request.instanceId)
      let state = batch.states.get(key)
      if (state === undefined) {
        const loaded = batch.loaded.get(key)
        // Every instance of the batch was loaded (see executeBatch).
        if (loaded === undefined) return new StoreFailure({ message: `ledger store: instance ${request.instanceId} was not loaded` })
        if (typeof loaded === "object" && "_tag" in loaded)
          return record(rejected(0, [diagnostic("branch_not_found", loaded.message, { subject: request.branch })]))
        state =
          loaded === "none"
            ? {
                branch: request.branch,
                instanceId: request.instanceId,
                cardId: request.cardId,
                ledger: emptyLedger(request.cardId),
                revision: 0,
                lastSequence: 0,
                effective: undefined,
                fingerprint: undefined
              }
            : loaded
      }
      if (state.cardId !== request.cardId)
        return record(
          rejected(state.revision, [
            diagnostic("unknown_card", `instance ${request.instanceId} holds card ${state.cardId}, not ${request.cardId}`, {
              subject: request.instanceId
            })
          ])
        )
      if (state.revision !== request.expectedRevision)
        return record(
          rejected(state.revision, [
            diagnostic(
              "revision_conflict",
              `instance ${request.instanceId} is at revision ${state.revision}; the command expected ${request.expectedRevision}`,
              { subject: request.instanceId, details: { expected: request.expectedRevision, actual: state.revision } }
            )
          ])
        )
      const sequence = batch.sequence + 1
      const decision = decide(state, sequence)
      if (decision._tag === "Reject") return record(rejected(state.revision, decision.diagnostics))
      const revision = state.revision + 1
      const { json: contextJson, hash: contextHash } = serializedContext(decision.context)
      if (!knownContexts.has(contextHash) && !batch.contexts.has(contextHash)) batch.contexts.set(contextHash, contextJson)
      batch.snapshots.push({
        branch: request.branch,
        instance_id: request.instanceId,
        revision,
        sequence,
        card_id: request.cardId,
        ledger: ledgerJson(decision.ledger),
        effective: JSON.stringify(decision.effective),
        fingerprint: decision.effective.fingerprint
      })
      batch.events.push({
        sequence,
        branch: request.branch,
        instance_id: request.instanceId,
        card_id: request.cardId,
        revision,
        command_id: request.commandId,
        kind: request.command.kind,
        context_hash: contextHash,
        body: bodyJson(decision.body)
      })
      batch.sequence = sequence
      batch.states.set(key, {
        branch: request.branch,
        instanceId: request.instanceId,
        cardId: request.cardId,
        ledger: decision.ledger,
        revision,
        lastSequence: sequence,
        effective: undefined,
        fingerprint: decision.effective.fingerprint
      })
      const cached = { revision, sequence, ledger: decision.ledger }
      batch.onCommit.push(() => ledgerCache.set(key, cached))
      return record({
        ...base,
        status: "applied",
        revision,
        sequence,
        entryId: decision.body.entry?.entryId ?? null,
        fingerprint: decision.effective.fingerprint,
        changedComponentIds: decision.changedComponentIds,
        diagnostics: []
      })
    }

    /** Writes a batch's rows: contexts, snapshots (the conditional write), events, outcomes, the sequence. */
    const flush = (batch: Batch) =>
      Effect.gen(function* () {
        const contexts = [...batch.contexts].map(([hash, body]) => ({ hash, body }))
        for (const rows of chunks(contexts)) yield* sql`INSERT INTO ${T.contexts} ${sql.insert(rows)} ON CONFLICT (hash) DO NOTHING`
        for (const rows of chunks(batch.snapshots)) {
          const won = yield* sql<{ revision: unknown }>`INSERT INTO ${T.snapshots} ${sql.insert(rows)}
            ON CONFLICT (branch, instance_id, revision) DO NOTHING RETURNING revision`
          if (won.length !== rows.length)
            return yield* Effect.fail(new StoreFailure({ message: "ledger store: a revision was written concurrently; the batch was rolled back" }))
        }
        for (const rows of chunks(batch.events)) yield* sql`INSERT INTO ${T.events} ${sql.insert(rows)}`
        for (const rows of chunks(batch.commands)) yield* sql`INSERT INTO ${T.commands} ${sql.insert(rows)}`
        if (batch.sequence !== batch.start) yield* sql`UPDATE ${T.meta} SET value = ${batch.sequence} WHERE key = 'sequence'`
        for (const hash of batch.contexts.keys()) batch.onCommit.push(() => knownContexts.add(hash))
      })

    /** Loads, under the write lock, the recorded outcomes and committed states the batch's commands need. */
    const load = (items: ReadonlyArray<readonly [CommandRequest, Decide]>, batch: Batch) =>
      Effect.gen(function* () {
        const ids = [...new Set(items.map(([r]) => r.commandId))]
        for (const part of chunks(ids)) {
          const rows = yield* sql<{ command_id: string; request_hash: string; outcome: string }>`SELECT command_id, request_hash, outcome
            FROM ${T.commands} WHERE ${sql.in("command_id", part)}`
          for (const r of rows) batch.prior.set(r.command_id, r)
        }
        const byBranch = new Map<string, Set<string>>()
        for (const [r] of items) {
          if (batch.prior.has(r.commandId)) continue
          let set = byBranch.get(r.branch)
          if (set === undefined) byBranch.set(r.branch, (set = new Set()))
          set.add(r.instanceId)
        }
        for (const [branch, instances] of byBranch) {
          const loaded = yield* Effect.either(loadStates(branch, [...instances]))
          if (Either.isLeft(loaded)) {
            if (loaded.left._tag !== "BranchNotFound") return yield* Effect.fail(loaded.left)
            for (const id of instances) batch.loaded.set(cacheKey(branch, id), loaded.left)
          } else for (const [id, state] of loaded.right) batch.loaded.set(cacheKey(branch, id), state)
        }
      })

    const executeBatch = (items: ReadonlyArray<readonly [CommandRequest, Decide]>) =>
      guard(
        Effect.suspend(() => {
          const onCommit: Array<() => void> = []
          return sql
            .withTransaction(
              Effect.gen(function* () {
                const start = yield* lockSequence
                const batch: Batch = {
                  sequence: start,
                  start,
                  prior: new Map(),
                  decided: new Map(),
                  loaded: new Map(),
                  states: new Map(),
                  contexts: new Map(),
                  snapshots: [],
                  events: [],
                  commands: [],
                  onCommit
                }
                yield* load(items, batch)
                const outcomes: Array<CommandOutcome> = []
                for (const [r, d] of items) {
                  const o = one(r, d, batch)
                  if (o instanceof CommandConflict || o instanceof StoreFailure) return yield* Effect.fail(o)
                  outcomes.push(o)
                }
                yield* flush(batch)
                return outcomes
              })
            )
            .pipe(Effect.tap(() => Effect.sync(() => onCommit.forEach((f) => f()))))
        })
      )

    const listBranches = Effect.map(
      sql<BranchRow>`SELECT name, parent, fork_sequence FROM ${T.branches} ORDER BY name`,
      (rows) =>
        rows
          .map((r) => ({ name: r.name, parent: r.parent, forkSequence: num(r.fork_sequence) }))
          .sort((a, b) => compareOrdinal(a.name, b.name))
    )

    const historyOf = (branch: string, instanceId: string) =>
      Effect.gen(function* () {
        const links = yield* chain(branch)
        const out: Array<StoredEvent> = []
        for (let i = 0; i < links.length; i++) {
          const [name, limit] = links[i] as readonly [string, number]
          const rows = yield* sql<EventRow>`SELECT * FROM ${T.events}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit} ORDER BY sequence`
          for (const r of rows) out.push(yield* toEvent(r))
        }
        return out.sort((a, b) => a.sequence - b.sequence)
      })

    const instancesOf = (branch: string) =>
      Effect.gen(function* () {
        const links = yield* chain(branch)
        const ids = new Set<string>()
        for (const [name, limit] of links) {
          const rows = yield* sql<{ instance_id: string }>`SELECT DISTINCT instance_id FROM ${T.events} WHERE branch = ${name} AND sequence <= ${limit}`
          for (const r of rows) ids.add(r.instance_id)
        }
        return [...ids].sort(compareOrdinal)
      })

    const contextCache = new Map<string, ReplayContext>()
    const contextOf = (hash: string) =>
      Effect.gen(function* () {
        const hit = contextCache.get(hash)
        if (hit !== undefined) return hit
        const rows = yield* sql<{ body: string }>`SELECT body FROM ${T.contexts} WHERE hash = ${hash}`
        const row = rows[0]
        if (row === undefined) return yield* Effect.fail(new StoreFailure({ message: `ledger store: context ${hash} is missing` }))
        if (sha256Hex(row.body) !== hash) return yield* Effect.fail(new StoreFailure({ message: `ledger store: context ${hash} does not match its hash` }))
        const ctx = yield* fromEither("context", decodeContext(row.body))
        contextCache.set(hash, ctx)
        return ctx
      })

    /** Folds events into ledgers exactly as the Ledger module's commands build them. */
    const foldEvent = (ledger: CardLedger, e: StoredEvent): CardLedger => {
      const removed = e.body.removedEntryId
      const entries = removed === null ? [...ledger.entries] : ledger.entries.map((x) => (x.entryId === removed ? { ...x, state: "removed" as const } : x))
      if (e.body.entry !== null) entries.push(e.body.entry)
      return { cardId: ledger.cardId, entries, revision: ledger.revision + 1 }
    }

    const replayBranch = (branch: string) =>
      Effect.gen(function* () {
        const steps: Array<ReplayStep> = []
        for (const instanceId of yield* instancesOf(branch)) {
          const events = yield* historyOf(branch, instanceId)
          let ledger: CardLedger | undefined
          for (const e of events) {
            ledger = foldEvent(ledger ?? emptyLedger(e.cardId), e)
            const verified = verifyLedger(ledger)
            if (Either.isLeft(verified))
              return yield* Effect.fail(
                new ReplayMismatch({ message: `replay of ${instanceId}@${e.revision}: ${verified.left[0]?.message ?? "unsealed entry"}`, subject: instanceId })
              )
            const ctx = yield* contextOf(e.contextHash)
            const statuses = new Map(ctx.statuses.map((s) => [s.statusId, s] as const))
            const resolved = resolveEffectiveCard({ baseCard: ctx.baseCard, ledger, statuses })
            const rows = yield* sql<{ fingerprint: string }>`SELECT fingerprint FROM ${T.snapshots}
              WHERE branch = ${e.branch} AND instance_id = ${instanceId} AND revision = ${e.revision}`
            const stored = rows[0]?.fingerprint ?? "<missing>"
            const fingerprint = Either.isRight(resolved) ? resolved.right.fingerprint : `<fails: ${resolved.left[0]?.code ?? "?"}>`
            if (fingerprint !== stored)
              return yield* Effect.fail(
                new ReplayMismatch({
                  message: `replay of ${instanceId} revision ${e.revision} (sequence ${e.sequence}) gives ${fingerprint}, stored ${stored}`,
                  subject: instanceId,
                  details: { revision: e.revision, sequence: e.sequence }
                })
              )
            steps.push({ branch, instanceId, revision: e.revision, sequence: e.sequence, fingerprint, stored })
          }
        }
        return steps
      })

    const dumpBranch = (branch: string) =>
      Effect.gen(function* () {
        const events = yield* sql`SELECT * FROM ${T.events} WHERE branch = ${branch} ORDER BY sequence`
        const snapshots = yield* sql`SELECT * FROM ${T.snapshots} WHERE branch = ${branch} ORDER BY instance_id, revision`
        // Integer columns come back as strings from PostgreSQL's BIGINT: normalize so both dialects dump the same bytes.
        const ints = new Set(["sequence", "revision"])
        const norm = (rows: ReadonlyArray<object>) =>
          rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ints.has(k) ? num(v) : v])))
        return canonicalJson({ branch, events: norm(events), snapshots: norm(snapshots) })
      })

    const service: LedgerStoreService = {
      execute: (request, decide) =>
        Effect.map(executeBatch([[request, decide]]), (outcomes) => outcomes[0] as CommandOutcome),
      executeBatch,
      outcome: (commandId) =>
        guard(
          Effect.gen(function* () {
            const rows = yield* sql<{ outcome: string }>`SELECT outcome FROM ${T.commands} WHERE command_id = ${commandId}`
            const row = rows[0]
            if (row === undefined) return Option.none()
            return Option.some(yield* fromEither("outcome", decodeOutcome(row.outcome)))
          })
        ),
      read: (branch, instanceId, cardId) => guard(readState(branch, instanceId, cardId, true)),
      instances: (branch) => guard(instancesOf(branch)),
      history: (branch, instanceId) => guard(historyOf(branch, instanceId)),
      sequence: guard(currentSequence),
      fork: (name, options = {}) =>
        guard(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* lock
              const parent = options.parent ?? MAIN
              if (name === MAIN || (yield* branchRow(name)) !== undefined)
                return yield* Effect.fail(new DuplicateId({ message: `branch ${name} already exists`, subject: name }))
              if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
                return yield* Effect.fail(new StoreFailure({ message: `ledger store: invalid branch name ${name}` }))
              yield* chain(parent)
              const now = yield* currentSequence
              const at = options.atSequence ?? now
              if (!Number.isInteger(at) || at < 0 || at > now)
                return yield* Effect.fail(new StoreFailure({ message: `ledger store: cannot fork at sequence ${at} (the store is at ${now})` }))
              yield* sql`INSERT INTO ${T.branches} (name, parent, fork_sequence) VALUES (${name}, ${parent}, ${at})`
              return { name, parent, forkSequence: at }
            })
          )
        ),
      discard: (name) =>
        guard(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* lock
              if (name === MAIN || (yield* branchRow(name)) === undefined)
                return yield* Effect.fail(new BranchNotFound({ message: `no branch ${name} to discard`, subject: name }))
              const all = yield* listBranches
              const doomed = new Set([name])
              for (let changed = true; changed; ) {
                changed = false
                for (const b of all)
                  if (doomed.has(b.parent) && !doomed.has(b.name)) {
                    doomed.add(b.name)
                    changed = true
                  }
              }
              for (const b of doomed) {
                yield* sql`DELETE FROM ${T.events} WHERE branch = ${b}`
                yield* sql`DELETE FROM ${T.snapshots} WHERE branch = ${b}`
                yield* sql`DELETE FROM ${T.branches} WHERE name = ${b}`
              }
            })
          )
        ),
      branches: guard(listBranches),
      replay: (branch) =>
        guard(
          Effect.gen(function* () {
            const names = branch !== undefined ? [branch] : [MAIN, ...(yield* listBranches).map((b) => b.name)]
            const out: Array<ReplayStep> = []
            for (const b of names) out.push(...(yield* replayBranch(b)))
            return out
          })
        ),
      dump: (branch) => guard(dumpBranch(branch))
    }
    return service
  })

/** The ledger store service. */
export class LedgerStore extends Context.Tag("cardfx/LedgerStore")<LedgerStore, LedgerStoreService>() {
  /** A SQLite file: WAL, `synchronous=FULL` on the connection, migrations applied. */
  static readonly layerSqlite = (options: { readonly filename: string; readonly tablePrefix?: string }): Layer.Layer<LedgerStore, StoreFailure> =>
    storeLayer(Layer.effect(LedgerStore, make(options.tablePrefix ?? "")).pipe(Layer.provide(sqliteClientLayer(options.filename))))

  /** An in-memory SQLite database (tests). */
  static readonly layerMemory: Layer.Layer<LedgerStore, StoreFailure> = storeLayer(
    Layer.effect(LedgerStore, make("")).pipe(Layer.provide(sqliteClientLayer(":memory:")))
  )

  /** PostgreSQL (several engine instances sharing one store). `tablePrefix` isolates stores in one database. */
  static readonly layerPg = (options: { readonly url: string; readonly tablePrefix?: string }): Layer.Layer<LedgerStore, StoreFailure> =>
    storeLayer(
      Layer.effect(LedgerStore, make(options.tablePrefix ?? "")).pipe(
        Layer.provide(
          Layer.unwrapEffect(
            Effect.map(Effect.promise(() => import("@effect/sql-pg/PgClient")), (PgClient) =>
              PgClient.layer({ url: Redacted.make(options.url), maxConnections: 8, connectTimeout: "5 seconds" })
            )
          )
        )
      )
    )

  /** A SQLite path or a `postgres://` / `postgresql://` URL. */
  static readonly layerFor = (location: string, options: { readonly tablePrefix?: string } = {}): Layer.Layer<LedgerStore, StoreFailure> =>
    /^postgres(ql)?:\/\//.test(location)
      ? LedgerStore.layerPg({ url: location, ...options })
      : LedgerStore.layerSqlite({ filename: location, ...options })
}

