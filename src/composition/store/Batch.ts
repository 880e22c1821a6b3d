/**
 * The batch engine: many commands in one transaction (one commit, one
 * fsync). Under the write lock it reads, in a few statements, the recorded
 * outcomes of the batch's command IDs and the committed states of its
 * instances; decides the commands one by one in plain synchronous code, each
 * seeing the ones before it; then writes the rows. Caches are updated only
 * once the transaction commits.
 *
 * The statements are the dialect's (`BatchStatements`): on SQLite the
 * driver's prepared statements, one per table, called directly inside the
 * transaction (one row per call, as the raw better-sqlite3 baseline of the
 * bench); on PostgreSQL one multi-row `INSERT` per table through the client
 * (a round trip per statement is what costs there).
 *
 * @since 0.1.0
 */
import type { SqlError } from "@effect/sql/SqlError"
import type BetterSqlite3 from "better-sqlite3"
import { Effect, Either } from "effect"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import {
  type BranchNotFound,
  CommandConflict,
  type InvalidId,
  type StoreCorrupt,
  StoreFailure
} from "../../kernel/Errors.js"
import { commandIds } from "../ledger/Command.js"
import { activeEntries, ledgerSize } from "../ledger/Ledger.js"
import { invalidRequestId } from "../schema/Symbols.js"
import { isSqlOrIoError } from "./Connection.js"
import { cacheKey, chunks, type Core, emptyState, isActiveCheckpoint, isCheckpoint, num } from "./Core.js"
import { type CardState, type CommandOutcome, type CommandRequest, type Decide } from "./Schemas.js"
import { corrupt, decodeOutcome, outcomeJson, requestHash } from "./Serialize.js"
import { sqlError } from "./SqliteDriver.js"

/** What the store holds for an instance before a transaction: its last snapshot's state, or nothing yet. */
type Loaded = CardState | "none"

/** A snapshot row (see Migrations.ts). */
type SnapshotRow = {
  readonly branch: string
  readonly instance_id: string
  readonly revision: number
  readonly sequence: number
  readonly card_id: string
  readonly ledger: string
  readonly effective: string
  readonly fingerprint: string
}

/** An active-entry checkpoint row (see Migrations.ts). */
type CheckpointRow = {
  readonly branch: string
  readonly instance_id: string
  readonly revision: number
  readonly sequence: number
  readonly active: string
}

/** An event row. */
type EventRow = {
  readonly sequence: number
  readonly branch: string
  readonly instance_id: string
  readonly card_id: string
  readonly revision: number
  readonly command_id: string
  readonly kind: string
  readonly context_hash: string
  readonly body: string
}

/** A recorded outcome. */
type CommandRow = {
  readonly command_id: string
  readonly request_hash: string
  readonly outcome: string
  readonly sequence: number | null
}

/** A recorded outcome as read back. */
interface PriorRow {
  readonly command_id: string
  readonly request_hash: string
  readonly outcome: string
}

/** The last snapshot row of an instance visible at a limit. */
interface LastRow {
  readonly instance_id: string
  readonly revision: unknown
  readonly sequence: unknown
  readonly card_id: string
  readonly fingerprint: string
}

/** A batch's statements in one dialect. Each runs inside the batch's transaction. */
interface BatchStatements {
  /** Takes the write lock and returns the global sequence. */
  readonly lockSequence: Effect.Effect<number, SqlError>
  /** The recorded outcomes of these command IDs (those that have one). */
  readonly priorOutcomes: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<PriorRow>, SqlError>
  /** The last snapshot row visible at `limit` on branch `name` of each of these instances (those that have one). */
  readonly lastSnapshots: (
    name: string,
    limit: number,
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<LastRow>, SqlError>
  /** Writes the rows; fails with `StoreFailure` when a snapshot's revision was written concurrently. */
  readonly write: (rows: Rows) => Effect.Effect<void, SqlError | StoreFailure>
  /**
   * The same write, synchronous (the SQLite driver): the batch engine writes each command's rows as soon
   * as it is decided, so they die young instead of living until the batch's end (see README,
   * "Throughput": rows held for the whole batch outlived a scavenge and were promoted).
   */
  readonly writeNow?: ((rows: Rows) => WriteFailure | undefined) | undefined
}

/** Rows to write. */
interface Rows {
  readonly contexts: ReadonlyArray<{ readonly hash: string; readonly body: string }>
  readonly snapshots: ReadonlyArray<SnapshotRow>
  readonly checkpoints: ReadonlyArray<CheckpointRow>
  readonly events: ReadonlyArray<EventRow>
  readonly commands: ReadonlyArray<CommandRow>
  /** The new global sequence, if it moved. */
  readonly sequence: number | undefined
}

/** Why a synchronous write failed: a driver error, a concurrent revision, or a defect (anything else thrown). */
type WriteFailure = SqlError | StoreFailure | { readonly _tag: "Defect"; readonly defect: unknown }

const failWith = (f: WriteFailure): Effect.Effect<never, SqlError | StoreFailure> =>
  f._tag === "Defect" ? Effect.die(f.defect) : Effect.fail(f)

const concurrentRevision = () =>
  new StoreFailure({ message: "ledger store: a revision was written concurrently; the batch was rolled back" })

/** The statements through the client (PostgreSQL): one multi-row statement per table and chunk of 50. */
const clientStatements = (core: Core): BatchStatements => {
  const { sql, T, lockSequence } = core
  return {
    lockSequence,
    priorOutcomes: (ids) =>
      Effect.gen(function*() {
        const out: Array<PriorRow> = []
        for (const part of chunks(ids)) {
          out.push(
            ...(yield* sql<PriorRow>`SELECT command_id, request_hash, outcome
              FROM ${T.commands} WHERE ${sql.in("command_id", part)}`)
          )
        }
        return out
      }),
    // One statement per chunk, one index probe per instance (`ORDER BY revision DESC LIMIT 1` walks the
    // primary key backwards; the rows of an instance's older revisions are never visited).
    lastSnapshots: (name, limit, ids) =>
      Effect.gen(function*() {
        const out: Array<LastRow> = []
        for (const part of chunks(ids)) {
          out.push(
            ...(yield* sql<LastRow>`${
              sql.join(" UNION ALL ", false)(
                part.map((id, i) =>
                  sql`SELECT * FROM (SELECT instance_id, revision, sequence, card_id, fingerprint FROM ${T.snapshots}
                    WHERE branch = ${name} AND instance_id = ${id} AND sequence <= ${limit}
                    ORDER BY revision DESC LIMIT 1) ${sql.literal(`q${i}`)}`
                )
              )
            }`)
          )
        }
        return out
      }),
    write: (rows) =>
      Effect.gen(function*() {
        for (const part of chunks(rows.contexts)) {
          yield* sql`INSERT INTO ${T.contexts} ${sql.insert(part)} ON CONFLICT (hash) DO NOTHING`
        }
        for (const part of chunks(rows.snapshots)) {
          const won = yield* sql<{ revision: unknown }>`INSERT INTO ${T.snapshots} ${sql.insert(part)}
            ON CONFLICT (branch, instance_id, revision) DO NOTHING RETURNING revision`
          if (won.length !== part.length) return yield* Effect.fail(concurrentRevision())
        }
        for (const part of chunks(rows.checkpoints)) yield* sql`INSERT INTO ${T.checkpoints} ${sql.insert(part)}`
        for (const part of chunks(rows.events)) yield* sql`INSERT INTO ${T.events} ${sql.insert(part)}`
        for (const part of chunks(rows.commands)) yield* sql`INSERT INTO ${T.commands} ${sql.insert(part)}`
        if (rows.sequence !== undefined) {
          yield* sql`UPDATE ${T.meta} SET value = ${rows.sequence} WHERE key = 'sequence'`
        }
      })
  }
}

/**
 * A synchronous call of the driver as an Effect: its SQLite and I/O errors are `SqlError`s (the
 * store's boundary makes them `store_failure`); anything else is a programming error and stays a defect.
 */
const driverCall = <A>(f: () => A): Effect.Effect<A, SqlError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (cause) {
      return isSqlOrIoError(cause) ? Effect.fail(sqlError(cause, "Failed to execute statement")) : Effect.die(cause)
    }
  })

/**
 * The statements by the SQLite driver: prepared once per store, one row per call. Only ever called
 * inside the batch's transaction, which holds the client's one connection.
 */
const driverStatements = (db: BetterSqlite3.Database, prefix: string): BatchStatements => {
  const prepare = () => ({
    lock: db.prepare(`UPDATE ${prefix}meta SET value = value WHERE key = 'sequence' RETURNING value`),
    prior: db.prepare(`SELECT command_id, request_hash, outcome FROM ${prefix}commands WHERE command_id = ?`),
    last: db.prepare(
      `SELECT instance_id, revision, sequence, card_id, fingerprint FROM ${prefix}snapshots
        WHERE branch = ? AND instance_id = ? AND sequence <= ? ORDER BY revision DESC LIMIT 1`
    ),
    context: db.prepare(`INSERT INTO ${prefix}contexts (hash, body) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING`),
    snapshot: db.prepare(
      `INSERT INTO ${prefix}snapshots (branch, instance_id, revision, sequence, card_id, ledger, effective, fingerprint)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (branch, instance_id, revision) DO NOTHING`
    ),
    checkpoint: db.prepare(
      `INSERT INTO ${prefix}checkpoints (branch, instance_id, revision, sequence, active) VALUES (?, ?, ?, ?, ?)`
    ),
    event: db.prepare(
      `INSERT INTO ${prefix}events (sequence, branch, instance_id, card_id, revision, command_id, kind, context_hash, body)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ),
    command: db.prepare(
      `INSERT INTO ${prefix}commands (command_id, request_hash, outcome, sequence) VALUES (?, ?, ?, ?)`
    ),
    sequence: db.prepare(`UPDATE ${prefix}meta SET value = ? WHERE key = 'sequence'`)
  })
  let prepared: ReturnType<typeof prepare> | undefined
  const st = () => (prepared ??= prepare())
  const writeNow = (rows: Rows): WriteFailure | undefined => {
    try {
      const s = st()
      for (const c of rows.contexts) s.context.run(c.hash, c.body)
      for (const r of rows.snapshots) {
        const info = s.snapshot.run(
          r.branch,
          r.instance_id,
          r.revision,
          r.sequence,
          r.card_id,
          r.ledger,
          r.effective,
          r.fingerprint
        )
        if (info.changes !== 1) return concurrentRevision()
      }
      for (const r of rows.checkpoints) s.checkpoint.run(r.branch, r.instance_id, r.revision, r.sequence, r.active)
      for (const r of rows.events) {
        s.event.run(
          r.sequence,
          r.branch,
          r.instance_id,
          r.card_id,
          r.revision,
          r.command_id,
          r.kind,
          r.context_hash,
          r.body
        )
      }
      for (const r of rows.commands) s.command.run(r.command_id, r.request_hash, r.outcome, r.sequence)
      if (rows.sequence !== undefined) s.sequence.run(rows.sequence)
      return undefined
    } catch (cause) {
      return isSqlOrIoError(cause) ? sqlError(cause, "Failed to execute statement") : { _tag: "Defect", defect: cause }
    }
  }
  return {
    lockSequence: driverCall(() => num((st().lock.get() as { value: unknown } | undefined)?.value ?? 0)),
    priorOutcomes: (ids) =>
      driverCall(() => {
        const out: Array<PriorRow> = []
        for (const id of ids) {
          const row = st().prior.get(id) as PriorRow | undefined
          if (row !== undefined) out.push(row)
        }
        return out
      }),
    lastSnapshots: (name, limit, ids) =>
      driverCall(() => {
        const out: Array<LastRow> = []
        for (const id of ids) {
          const row = st().last.get(name, id, limit) as LastRow | undefined
          if (row !== undefined) out.push(row)
        }
        return out
      }),
    write: (rows) =>
      Effect.suspend(() => {
        const failed = writeNow(rows)
        return failed === undefined ? Effect.void : failWith(failed)
      }),
    writeNow
  }
}

/** Per-transaction bookkeeping. */
interface Batch {
  sequence: number
  readonly start: number
  readonly prior: Map<string, PriorRow>
  readonly decided: Map<string, { readonly hash: string; readonly outcome: CommandOutcome }>
  /** Committed states read at the start, by cache key; a missing branch maps to its error. */
  readonly loaded: Map<string, Loaded | BranchNotFound>
  /** States after the batch's own commands, by cache key. */
  readonly states: Map<string, CardState>
  /** Contexts this batch writes (new to the store), by hash. */
  readonly contexts: Map<string, string>
  /** Rows decided and not yet written (all of them until the end on PostgreSQL; one command's on SQLite). */
  readonly contextRows: Array<{ readonly hash: string; readonly body: string }>
  readonly snapshots: Array<SnapshotRow>
  readonly checkpoints: Array<CheckpointRow>
  readonly events: Array<EventRow>
  readonly commands: Array<CommandRow>
}

/**
 * Checks a request's IDs (the store's own check, so every face and dialect
 * reject alike and nothing unbounded reaches SQL or a stored row): each is a
 * request ID, else `invalid_id` at its field.
 */
export const checkIds = (request: CommandRequest): InvalidId | undefined =>
  invalidRequestId([
    ["/commandId", request.commandId],
    ["/branch", request.branch],
    ["/instanceId", request.instanceId],
    ["/cardId", request.cardId],
    ["/activity", request.activity],
    ...commandIds(request.command)
  ])

/**
 * Builds an outcome in the Schema's field order (a decoded retry has the same order). Positional, not
 * `{ ...base, status, ... }`: on this V8 an object spread followed by new keys goes through the runtime
 * for every key (≈ 1.5 µs each, measured), which was ≈ 11 µs of a ledger command.
 */
const makeOutcome = (
  request: CommandRequest,
  status: CommandOutcome["status"],
  revision: number,
  sequence: number | null,
  entryId: string | null,
  fingerprint: string | null,
  changedComponentIds: ReadonlyArray<string>,
  diagnostics: ReadonlyArray<Diagnostic>
): CommandOutcome => ({
  commandId: request.commandId,
  status,
  branch: request.branch,
  instanceId: request.instanceId,
  cardId: request.cardId,
  revision,
  sequence,
  entryId,
  fingerprint,
  changedComponentIds,
  diagnostics
})

/**
 * The batch engine of one store; `beforeWrite` runs once per transaction, under the lock (the page
 * check). With `db` (a SQLite store's driver connection) the rows go through its prepared statements.
 */
export const makeBatchEngine = (
  core: Core,
  beforeWrite: Effect.Effect<void, StoreFailure | StoreCorrupt | SqlError>,
  db?: BetterSqlite3.Database
) => {
  const { sql, ser, ledgerCache, knownContexts, chain, cachedLedger, ledgerAt } = core
  const statements = db !== undefined ? driverStatements(db, core.prefix) : clientStatements(core)

  /**
   * The committed states of many instances of one branch, a few statements for all of them: per
   * link of the branch's chain, the last snapshot visible at the link's limit of every instance
   * not found on an earlier link (the row `readState` picks). Ledgers come from the cache or
   * the last checkpoint.
   */
  const loadStates = (branch: string, instanceIds: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const out = new Map<string, Loaded>()
      let missing = instanceIds
      for (const [name, limit] of links) {
        if (missing.length === 0) break
        const rows = yield* statements.lastSnapshots(name, limit, missing)
        for (const row of rows) {
          const revision = num(row.revision)
          const sequence = num(row.sequence)
          const ledger = cachedLedger(name, row.instance_id, revision, sequence) ??
            (yield* ledgerAt(links, name, row.instance_id, row.card_id, revision, sequence))
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
        missing = missing.filter((id) => !out.has(id))
      }
      for (const id of missing) out.set(id, "none")
      return out
    })

  /** Decides one command of a batch (no I/O: everything it reads was loaded first). */
  const one = (
    request: CommandRequest,
    decide: Decide,
    batch: Batch
  ): CommandOutcome | CommandConflict | StoreFailure => {
    const hash = requestHash(request)
    const earlier = batch.decided.get(request.commandId)
    const prior = batch.prior.get(request.commandId)
    if (earlier !== undefined || prior !== undefined) {
      if ((earlier?.hash ?? prior?.request_hash) !== hash) {
        return new CommandConflict({
          message: `command ${request.commandId} was already used with a different request`,
          subject: request.commandId
        })
      }
      if (earlier !== undefined) return earlier.outcome
      const decoded = decodeOutcome((prior as { outcome: string }).outcome)
      return Either.isRight(decoded) ? decoded.right : corrupt("outcome", decoded.left)
    }
    const rejected = (revision: number, diagnostics: ReadonlyArray<Diagnostic>): CommandOutcome =>
      makeOutcome(request, "rejected", revision, null, null, null, [], diagnostics)
    const record = (outcome: CommandOutcome): CommandOutcome => {
      batch.decided.set(request.commandId, { hash, outcome })
      batch.commands.push({
        command_id: request.commandId,
        request_hash: hash,
        outcome: outcomeJson(outcome),
        sequence: outcome.sequence
      })
      return outcome
    }
    const key = cacheKey(request.branch, request.instanceId)
    let state = batch.states.get(key)
    if (state === undefined) {
      const loaded = batch.loaded.get(key)
      // Every instance of the batch was loaded (see executeBatch).
      if (loaded === undefined) {
        return new StoreFailure({ message: `ledger store: instance ${request.instanceId} was not loaded` })
      }
      if (typeof loaded === "object" && "_tag" in loaded) {
        return record(rejected(0, [diagnostic("branch_not_found", loaded.message, { subject: request.branch })]))
      }
      state = loaded === "none" ? emptyState(request.branch, request.instanceId, request.cardId) : loaded
    }
    if (state.cardId !== request.cardId) {
      return record(
        rejected(state.revision, [
          diagnostic(
            "unknown_card",
            `instance ${request.instanceId} holds card ${state.cardId}, not ${request.cardId}`,
            { subject: request.instanceId }
          )
        ])
      )
    }
    if (request.expectedRevision !== undefined && state.revision !== request.expectedRevision) {
      return record(
        rejected(state.revision, [
          diagnostic(
            "revision_conflict",
            `instance ${request.instanceId} is at revision ${state.revision}; the command expected ${request.expectedRevision}`,
            { subject: request.instanceId, details: { expected: request.expectedRevision, actual: state.revision } }
          )
        ])
      )
    }
    const sequence = batch.sequence + 1
    const decision = decide(state, sequence)
    if (decision._tag === "Reject") return record(rejected(state.revision, decision.diagnostics))
    const revision = state.revision + 1
    const { json: contextJson, hash: contextHash } = ser.context(decision.context)
    if (!knownContexts.has(contextHash) && !batch.contexts.has(contextHash)) {
      batch.contexts.set(contextHash, contextJson)
      batch.contextRows.push({ hash: contextHash, body: contextJson })
    }
    batch.snapshots.push({
      branch: request.branch,
      instance_id: request.instanceId,
      revision,
      sequence,
      card_id: request.cardId,
      // The ledger text only at checkpoints; the effective card is recomputed on read (see Core.ts).
      ledger: isCheckpoint(revision) ? ser.ledgerJson(decision.ledger) : "",
      effective: "",
      fingerprint: decision.effective.fingerprint
    })
    if (isActiveCheckpoint(revision)) {
      // The active entries alone, every 256 revisions: where a replay page starts (see Core.ts).
      batch.checkpoints.push({
        branch: request.branch,
        instance_id: request.instanceId,
        revision,
        sequence,
        active: ser.ledgerJson({ cardId: request.cardId, entries: activeEntries(decision.ledger), revision })
      })
    }
    batch.events.push({
      sequence,
      branch: request.branch,
      instance_id: request.instanceId,
      card_id: request.cardId,
      revision,
      command_id: request.commandId,
      kind: request.command.kind,
      context_hash: contextHash,
      body: ser.bodyJson(decision.body)
    })
    batch.sequence = sequence
    // Re-inserted, so the batch's states iterate in the order of each instance's last command (the
    // order the ledger cache is told at commit, as when it was told after every command).
    batch.states.delete(key)
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
    return record(
      makeOutcome(
        request,
        "applied",
        revision,
        sequence,
        decision.body.entry?.entryId ?? null,
        decision.effective.fingerprint,
        decision.changedComponentIds,
        []
      )
    )
  }

  /** The rows decided and not yet written; `sequence` only at the batch's end. */
  const pending = (batch: Batch, sequence: number | undefined): Rows => ({
    contexts: batch.contextRows,
    snapshots: batch.snapshots,
    checkpoints: batch.checkpoints,
    events: batch.events,
    commands: batch.commands,
    sequence
  })

  /** Forgets the rows just written. */
  const written = (batch: Batch): void => {
    batch.contextRows.length = 0
    batch.snapshots.length = 0
    batch.checkpoints.length = 0
    batch.events.length = 0
    batch.commands.length = 0
  }

  /** Writes a batch's rows: contexts, snapshots (the conditional write), checkpoints, events, outcomes, the sequence. */
  const flush = (batch: Batch) =>
    statements.write(pending(batch, batch.sequence !== batch.start ? batch.sequence : undefined))

  /**
   * Once the batch committed: the caches learn its states and contexts. Per instance, not per command
   * (nothing per command is held until the commit: see README, "Throughput").
   */
  const committed = (batch: Batch): void => {
    for (const [key, state] of batch.states) {
      ledgerCache.set(
        key,
        { revision: state.revision, sequence: state.lastSequence, ledger: state.ledger },
        ledgerSize(state.ledger) + 1
      )
    }
    for (const hash of batch.contexts.keys()) knownContexts.set(hash, true)
  }

  /** Loads, under the write lock, the recorded outcomes and committed states the batch's commands need. */
  const load = (items: ReadonlyArray<readonly [CommandRequest, Decide]>, batch: Batch) =>
    Effect.gen(function*() {
      const ids = [...new Set(items.map(([r]) => r.commandId))]
      for (const r of yield* statements.priorOutcomes(ids)) batch.prior.set(r.command_id, r)
      const byBranch = new Map<string, Set<string>>()
      for (const [r] of items) {
        if (batch.prior.has(r.commandId)) continue
        let set = byBranch.get(r.branch)
        if (set === undefined) byBranch.set(r.branch, set = new Set())
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
    Effect.suspend(
      (): Effect.Effect<
        ReadonlyArray<CommandOutcome>,
        InvalidId | CommandConflict | StoreFailure | StoreCorrupt | SqlError
      > => {
        for (const [r] of items) {
          const bad = checkIds(r)
          if (bad !== undefined) return Effect.fail(bad)
        }
        return sql
          .withTransaction(
            Effect.gen(function*() {
              const start = yield* statements.lockSequence
              yield* beforeWrite
              const batch: Batch = {
                sequence: start,
                start,
                prior: new Map(),
                decided: new Map(),
                loaded: new Map(),
                states: new Map(),
                contexts: new Map(),
                contextRows: [],
                snapshots: [],
                checkpoints: [],
                events: [],
                commands: []
              }
              yield* load(items, batch)
              const outcomes: Array<CommandOutcome> = []
              const { writeNow } = statements
              for (const [r, d] of items) {
                const o = one(r, d, batch)
                if (o instanceof CommandConflict || o instanceof StoreFailure) return yield* Effect.fail(o)
                outcomes.push(o)
                if (writeNow !== undefined) {
                  const failed = writeNow(pending(batch, undefined))
                  if (failed !== undefined) return yield* failWith(failed)
                  written(batch)
                }
              }
              yield* flush(batch)
              return [outcomes, batch] as const
            })
          )
          .pipe(Effect.map(([outcomes, batch]) => {
            committed(batch)
            return outcomes
          }))
      }
    )

  return { executeBatch }
}
