/**
 * What every part of a store shares: its tables, the write lock, the branch
 * chain, and reading a card instance's state.
 *
 * Events are deltas (the entry a command created, the entry it removed).
 * Every event has a snapshot row holding its revision, sequence and
 * fingerprint (the row `ON CONFLICT` guards and replay compares). Two kinds
 * of checkpoint keep both the bytes per command and the work of a replay
 * page bounded however long a ledger's history grows:
 *
 * - the whole ledger text (removed entries included) in the snapshot row of
 *   revisions 1, 2, 4, 8, … (`isCheckpoint`): all of a history's together
 *   weigh under twice its last, ~2·e·n bytes for n revisions of e bytes
 *   each. A state (`ledgerAt`) is the last one folded forward with the
 *   events after it (at most half its revision; usually none, as the store
 *   keeps the ledgers it wrote in a bounded cache);
 * - the active entries alone (a ledger document of them) in the
 *   `checkpoints` table every 256 revisions (`isActiveCheckpoint`): all a
 *   replay needs (resolution reads only active entries), so the state before
 *   a replay page (`activeAt`) is one primary-key probe and at most 255
 *   folded events, whatever the history's length. Their size is the active
 *   entries' (a card's slots), not the history's.
 *
 * Whole ledgers every 256 revisions would have bounded the work too, but a
 * ledger keeps its removed entries, so the k-th holds k·256·e bytes and
 * together they hold ~e·n²/512: with the bench's e ≈ 280 B per revision,
 * 0.43 MB at n = 1,000 and 56 MB at n = 10,000 (powers of two: 0.29 MB and
 * 4.6 MB), and reading one costs as much (before, a cold page just after
 * revision 4,096 spent ≈ 50 ms decoding that one). The active-entry checkpoints of that history (two
 * active entries, 2.2 KB) are 6.6 KB and 86 KB: 9 bytes per command.
 *
 * Whole ledgers are found from the rows (the nearest non-empty one at or
 * before a revision), never by arithmetic; a history written before
 * migration 3 has no active-entry checkpoints, and its pages fold from its
 * powers of two, as before.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Either } from "effect"
import { sha256Hex } from "../../kernel/Canonical.js"
import { BranchNotFound, StoreFailure } from "../../kernel/Errors.js"
import {
  activeEntries,
  type CardLedger,
  emptyLedger,
  foldLedger,
  type LedgerEntry,
  ledgerSize
} from "../ledger/Ledger.js"
import { resolveEffectiveCard } from "../Resolver.js"
import { type BoundedCache, boundedCache } from "./Cache.js"
import { type CardState, type EventBody, MAIN, type ReplayContext, type ReplayWork } from "./Schemas.js"
import {
  corrupt,
  decodeBody,
  decodeContext,
  decodeLedger,
  fromEither,
  makeSerializers,
  type Serializers
} from "./Serialize.js"

/** Whether a revision's snapshot stores the ledger text: powers of two, so all checkpoints of a history weigh under twice its last. */
export const isCheckpoint = (revision: number): boolean =>
  revision > 0 && 2 ** Math.round(Math.log2(revision)) === revision

/**
 * Revisions between active-entry checkpoints: a replay page folds at most this
 * many events minus one before its first. 256 by measurement (README "Bounded
 * size"): a folded event costs ≈ 17 µs of CPU and a replayed step ≈ 125–270 µs,
 * so the worst case (255 folds, ≈ 4.3 ms) is under 7 % of a default page of 500
 * (≈ 62 ms); halving it halves that and doubles the checkpoints' bytes (≈ 9 per
 * command at 256 with two active entries).
 */
export const CHECKPOINT_INTERVAL = 256

/** Whether a revision gets a row in `checkpoints` (its active entries): every 256th. */
export const isActiveCheckpoint = (revision: number): boolean => revision > 0 && revision % CHECKPOINT_INTERVAL === 0

const isRemoved = (e: LedgerEntry): boolean => e.state !== "active"

/** Bounds of a store's in-process caches. */
export interface CacheOptions {
  /** Total ledger entries held by the ledger cache (default 200,000). */
  readonly ledgerEntries?: number
  /** Replay contexts held (default 512). */
  readonly contexts?: number
}

export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v))

export const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER

export interface BranchRow {
  readonly name: string
  readonly parent: string
  readonly fork_sequence: unknown
}

/** A cached ledger: valid for exactly this snapshot row (revision and global sequence; sequences are never reused). */
interface CachedLedger {
  readonly revision: number
  readonly sequence: number
  readonly ledger: CardLedger
}

export const cacheKey = (branch: string, instanceId: string) => `${branch}\u0000${instanceId}`

const CHUNK = 50
export const chunks = <A>(xs: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK))
  return out
}

/** Folds events (deltas, in revision order) onto a ledger, as the Ledger module's commands build it. Linear in entries + events. */
export const foldEvents = (start: CardLedger, bodies: ReadonlyArray<EventBody>): CardLedger => foldLedger(start, bodies)

/** The shared parts of one store. */
export const makeCore = (prefix: string, caches: CacheOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const T = {
      meta: sql.literal(`${prefix}meta`),
      branches: sql.literal(`${prefix}branches`),
      events: sql.literal(`${prefix}events`),
      snapshots: sql.literal(`${prefix}snapshots`),
      checkpoints: sql.literal(`${prefix}checkpoints`),
      contexts: sql.literal(`${prefix}contexts`),
      commands: sql.literal(`${prefix}commands`)
    }
    const ser: Serializers = makeSerializers()
    /** Parsed ledgers of snapshot rows, so a command does not rebuild the ledger it wrote itself. Filled only for committed rows. */
    const ledgerCache: BoundedCache<string, CachedLedger> = boundedCache(caches.ledgerEntries ?? 200_000)
    /** Context hashes known to be committed (contexts are never deleted), so their insert is skipped. */
    const knownContexts: BoundedCache<string, true> = boundedCache(4096)
    const contextCache: BoundedCache<string, ReplayContext> = boundedCache(caches.contexts ?? 512)

    /** The write lock: a no-op update of the sequence row (SQLite: takes the database write lock; PostgreSQL: the row lock). */
    const lock = sql`UPDATE ${T.meta} SET value = value WHERE key = 'sequence'`
    /** The write lock that also returns the current global sequence: one statement. */
    const lockSequence = Effect.map(
      sql<{ value: unknown }>`UPDATE ${T.meta} SET value = value WHERE key = 'sequence' RETURNING value`,
      (rows) => num(rows[0]?.value ?? 0)
    )
    const currentSequence = Effect.map(
      sql<{ value: unknown }>`SELECT value FROM ${T.meta} WHERE key = 'sequence'`,
      (rows) => num(rows[0]?.value ?? 0)
    )
    const branchRow = (name: string) =>
      Effect.map(sql<BranchRow>`SELECT name, parent, fork_sequence FROM ${T.branches} WHERE name = ${name}`, (rows) =>
        rows[0])

    /** [branch, max sequence visible] from the branch up to main. */
    const chain = (branch: string): Effect.Effect<Array<readonly [string, number]>, SqlError | BranchNotFound> =>
      Effect.gen(function*() {
        const out: Array<readonly [string, number]> = []
        let name = branch
        let limit = MAX_SEQUENCE
        for (let depth = 0; depth < 64; depth++) {
          out.push([name, limit])
          if (name === MAIN) {
            return out
          }
          const row = yield* branchRow(name)
          if (row === undefined) {
            return yield* Effect.fail(new BranchNotFound({ message: `no branch ${name}`, subject: name }))
          }
          limit = Math.min(limit, num(row.fork_sequence))
          name = row.parent
        }
        return yield* Effect.fail(
          new BranchNotFound({ message: `branch ${branch} has a parent chain deeper than 64`, subject: branch })
        )
      })

    /** The cached ledger of a snapshot row, if the cache holds exactly that row's (no Effect: the common case). */
    const cachedLedger = (rowBranch: string, instanceId: string, revision: number, sequence: number) => {
      const hit = ledgerCache.get(cacheKey(rowBranch, instanceId))
      return hit !== undefined && hit.revision === revision && hit.sequence === sequence ? hit.ledger : undefined
    }

    /** A stored ledger document (a whole ledger or an active-entry checkpoint) of `revision`, decoded and checked. */
    const decodeCheckpoint = (instanceId: string, revision: number, text: string, activeOnly: boolean) =>
      Effect.gen(function*() {
        const decoded = fromEither("ledger", decodeLedger(text))
        if (Either.isLeft(decoded)) {
          return yield* Effect.fail(decoded.left)
        }
        if (decoded.right.revision !== revision) {
          return yield* Effect.fail(
            corrupt("ledger", `checkpoint ${instanceId}@${revision} holds revision ${decoded.right.revision}`)
          )
        }
        const removed = activeOnly ? decoded.right.entries.find(isRemoved) : undefined
        if (removed !== undefined) {
          return yield* Effect.fail(
            corrupt("ledger", `active checkpoint ${instanceId}@${revision} holds removed entry ${removed.entryId}`)
          )
        }
        return decoded.right
      })

    /**
     * The last whole-ledger checkpoint of an instance at or before `revision` visible on the chain
     * (read from the rows, down the primary key from `revision`), decoded; undefined if none.
     */
    const ledgerCheckpoint = (links: ReadonlyArray<readonly [string, number]>, instanceId: string, revision: number) =>
      Effect.gen(function*() {
        let from = 0
        let text: string | undefined
        for (const [name, limit] of links) {
          const rows = yield* sql<{ revision: unknown; ledger: string }>`SELECT revision, ledger FROM ${T.snapshots}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit} AND revision <= ${revision} AND ledger <> ''
            ORDER BY revision DESC LIMIT 1`
          const row = rows[0]
          if (row !== undefined && num(row.revision) > from) {
            from = num(row.revision)
            text = row.ledger
          }
        }
        return text === undefined ? undefined : yield* decodeCheckpoint(instanceId, from, text, false)
      })

    /**
     * The last active-entry checkpoint of an instance at or before `revision` visible on the chain:
     * one primary-key probe per link; its revision and text, or undefined if none.
     */
    const activeCheckpoint = (links: ReadonlyArray<readonly [string, number]>, instanceId: string, revision: number) =>
      Effect.gen(function*() {
        let found: { readonly revision: number; readonly text: string } | undefined
        for (const [name, limit] of links) {
          const row = (yield* sql<{ revision: unknown; active: string }>`SELECT revision, active FROM ${T.checkpoints}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit} AND revision <= ${revision}
            ORDER BY revision DESC LIMIT 1`)[0]
          if (row !== undefined && num(row.revision) > (found?.revision ?? 0)) {
            found = { revision: num(row.revision), text: row.active }
          }
        }
        return found
      })

    /** `start` folded forward with the events of revisions (start.revision, revision] visible on the chain; corrupt unless complete. */
    const foldTo = (
      links: ReadonlyArray<readonly [string, number]>,
      instanceId: string,
      start: CardLedger,
      revision: number
    ) =>
      Effect.gen(function*() {
        const from = start.revision
        const bodies: Array<readonly [number, string]> = []
        if (from < revision) {
          for (const [name, limit] of links) {
            const rows = yield* sql<{ revision: unknown; body: string }>`SELECT revision, body FROM ${T.events}
              WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit} AND revision > ${from} AND revision <= ${revision}`
            for (const r of rows) {
              bodies.push([num(r.revision), r.body])
            }
          }
        }
        bodies.sort((a, b) =>
          a[0] - b[0]
        )
        if (bodies.length !== revision - from || bodies.some(([r], i) => r !== from + i + 1)) {
          return yield* Effect.fail(
            corrupt("events", `${instanceId} has no complete history from revision ${from} to ${revision}`)
          )
        }
        const decoded: Array<EventBody> = []
        for (const [, body] of bodies) {
          const b = fromEither("event body", decodeBody(body))
          if (Either.isLeft(b)) return yield* Effect.fail(b.left)
          decoded.push(b.right)
        }
        return foldEvents(start, decoded)
      })

    /**
     * The ledger of the snapshot row (rowBranch, instance, revision, sequence): from the cache, or
     * the last whole-ledger checkpoint visible on the chain folded forward with the events after it.
     */
    const ledgerAt = (
      links: ReadonlyArray<readonly [string, number]>,
      rowBranch: string,
      instanceId: string,
      cardId: string,
      revision: number,
      sequence: number
    ) =>
      Effect.gen(function*() {
        const hit = cachedLedger(rowBranch, instanceId, revision, sequence)
        if (hit !== undefined) {
          return hit
        }
        const start = (yield* ledgerCheckpoint(links, instanceId, revision)) ?? emptyLedger(cardId)
        const ledger = yield* foldTo(links, instanceId, start, revision)
        ledgerCache.set(cacheKey(rowBranch, instanceId), { revision, sequence, ledger }, ledgerSize(ledger) + 1)
        return ledger
      })

    /**
     * The active entries of the snapshot row (rowBranch, instance, revision, sequence), in ledger
     * order, and the work it took: from the cache, or the last active-entry checkpoint visible on
     * the chain folded forward (at most 255 events). Below revision 256, and in histories written
     * before migration 3, the last whole-ledger checkpoint when it is nearer (a power of two, read
     * from the rows). What a replay page starts from; nothing is cached (an old revision is not a
     * current state).
     */
    const activeAt = (
      links: ReadonlyArray<readonly [string, number]>,
      rowBranch: string,
      instanceId: string,
      cardId: string,
      revision: number,
      sequence: number
    ) =>
      Effect.gen(function*() {
        const hit = cachedLedger(rowBranch, instanceId, revision, sequence)
        if (hit !== undefined) {
          const work: ReplayWork = { checkpoint: revision, folded: 0, eventRows: 0 }
          return { entries: activeEntries(hit), work }
        }
        const active = yield* activeCheckpoint(links, instanceId, revision)
        // Within one interval of an active-entry checkpoint (always, past revision 256 of a history
        // written since migration 3) no whole ledger is read: its text grows with the history.
        const whole = active !== undefined && revision - active.revision < CHECKPOINT_INTERVAL
          ? undefined
          : yield* ledgerCheckpoint(links, instanceId, revision)
        const start = active !== undefined && (whole === undefined || whole.revision <= active.revision)
          ? yield* decodeCheckpoint(instanceId, active.revision, active.text, true)
          : whole ?? emptyLedger(cardId)
        const ledger = yield* foldTo(links, instanceId, start, revision)
        const folded = revision - start.revision
        const work: ReplayWork = { checkpoint: start.revision, folded, eventRows: folded }
        return { entries: activeEntries(ledger), work }
      })

    /** A replay context by hash, checked against its hash. */
    const contextOf = (hash: string) =>
      Effect.gen(function*() {
        const hit = contextCache.get(hash)
        if (hit !== undefined) return hit
        const row = (yield* sql<{ body: string }>`SELECT body FROM ${T.contexts} WHERE hash = ${hash}`)[0]
        if (row === undefined) {
          return yield* Effect.fail(new StoreFailure({ message: `ledger store: context ${hash} is missing` }))
        }
        if (sha256Hex(row.body) !== hash) {
          return yield* Effect.fail(
            new StoreFailure({ message: `ledger store: context ${hash} does not match its hash` })
          )
        }
        const ctx = fromEither("context", decodeContext(row.body))
        if (Either.isLeft(ctx)) return yield* Effect.fail(ctx.left)
        contextCache.set(hash, ctx.right)
        return ctx.right
      })

    /** The effective card of a state, recomputed from its ledger and its last event's context (nothing else is read). */
    const effectiveOf = (rowBranch: string, instanceId: string, revision: number, ledger: CardLedger) =>
      Effect.gen(function*() {
        const row = (yield* sql<{ context_hash: string }>`SELECT context_hash FROM ${T.events}
          WHERE branch = ${rowBranch} AND instance_id = ${instanceId} AND revision = ${revision}`)[0]
        if (row === undefined) {
          return yield* Effect.fail(corrupt("event", `${rowBranch}/${instanceId}@${revision} is missing`))
        }
        const ctx = yield* contextOf(row.context_hash)
        const resolved = resolveEffectiveCard({
          baseCard: ctx.baseCard,
          ledger,
          statuses: new Map(ctx.statuses.map((s) => [s.statusId, s] as const))
        })
        if (Either.isLeft(resolved)) {
          return yield* Effect.fail(
            corrupt("state", `${instanceId}@${revision} no longer resolves: ${resolved.left[0]?.code ?? "?"}`)
          )
        }
        return JSON.stringify(resolved.right)
      })

    /** A card instance's state on a branch (the last snapshot visible on its chain), or an empty ledger. */
    const readState = (branch: string, instanceId: string, cardId: string, withEffective: boolean) =>
      Effect.gen(function*() {
        const links = yield* chain(branch)
        for (const [name, limit] of links) {
          const row = (yield* sql<{ revision: unknown; sequence: unknown; card_id: string; fingerprint: string }>`
            SELECT revision, sequence, card_id, fingerprint FROM ${T.snapshots}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit}
            ORDER BY revision DESC LIMIT 1`)[0]
          if (row === undefined) continue
          const revision = num(row.revision)
          const sequence = num(row.sequence)
          const ledger = yield* ledgerAt(links, name, instanceId, row.card_id, revision, sequence)
          return {
            branch,
            instanceId,
            cardId: row.card_id,
            ledger,
            revision,
            lastSequence: sequence,
            effective: withEffective ? yield* effectiveOf(name, instanceId, revision, ledger) : undefined,
            fingerprint: row.fingerprint
          } satisfies CardState
        }
        return emptyState(branch, instanceId, cardId)
      })

    return {
      sql,
      T,
      prefix,
      ser,
      ledgerCache,
      knownContexts,
      lock,
      lockSequence,
      currentSequence,
      branchRow,
      chain,
      cachedLedger,
      ledgerAt,
      activeAt,
      contextOf,
      readState
    }
  })

/** The shared parts of one store. */
export type Core = Effect.Effect.Success<ReturnType<typeof makeCore>>

/** The state of an instance with no event. */
export const emptyState = (branch: string, instanceId: string, cardId: string): CardState => ({
  branch,
  instanceId,
  cardId,
  ledger: emptyLedger(cardId),
  revision: 0,
  lastSequence: 0,
  effective: undefined,
  fingerprint: undefined
})
