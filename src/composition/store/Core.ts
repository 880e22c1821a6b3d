/**
 * What every part of a store shares: its tables, the write lock, the branch
 * chain, and reading a card instance's state.
 *
 * Events are deltas (the entry a command created, the entry it removed).
 * Every event has a snapshot row holding its revision, sequence and
 * fingerprint (the row `ON CONFLICT` guards and replay compares); the ledger
 * text is stored only at checkpoint revisions (1, 2, 4, 8, …), so the bytes
 * per command stay bounded however long a ledger's history grows (its
 * removed entries included). A state is its last checkpoint folded forward
 * with the events after it (at most half its revision; usually none, as the
 * store keeps the ledgers it wrote in a bounded cache).
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Either } from "effect"
import { sha256Hex } from "../../kernel/Canonical.js"
import { BranchNotFound, StoreFailure } from "../../kernel/Errors.js"
import { type CardLedger, emptyLedger, foldLedger, ledgerSize } from "../ledger/Ledger.js"
import { resolveEffectiveCard } from "../Resolver.js"
import { type BoundedCache, boundedCache } from "./Cache.js"
import { type CardState, type EventBody, MAIN, type ReplayContext } from "./Schemas.js"
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

    /**
     * The ledger of the snapshot row (rowBranch, instance, revision, sequence): from the cache, or
     * the last checkpoint visible on the chain folded forward with the events after it.
     */
    /** The cached ledger of a snapshot row, if the cache holds exactly that row's (no Effect: the common case). */
    const cachedLedger = (rowBranch: string, instanceId: string, revision: number, sequence: number) => {
      const hit = ledgerCache.get(cacheKey(rowBranch, instanceId))
      return hit !== undefined && hit.revision === revision && hit.sequence === sequence ? hit.ledger : undefined
    }

    const ledgerAt = (
      links: ReadonlyArray<readonly [string, number]>,
      rowBranch: string,
      instanceId: string,
      cardId: string,
      revision: number,
      sequence: number
    ) =>
      Effect.gen(function*() {
        const key = cacheKey(rowBranch, instanceId)
        const hit = cachedLedger(rowBranch, instanceId, revision, sequence)
        if (hit !== undefined) {
          return hit
        }
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
        let start: CardLedger = emptyLedger(cardId)
        if (text !== undefined) {
          const decoded = fromEither("ledger", decodeLedger(text))
          if (Either.isLeft(decoded)) {
            return yield* Effect.fail(decoded.left)
          }
          start = decoded.right
          if (start.revision !== from) {
            return yield* Effect.fail(
              corrupt("ledger", `checkpoint ${instanceId}@${from} holds revision ${start.revision}`)
            )
          }
        }
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
        const ledger = foldEvents(start, decoded)
        ledgerCache.set(key, { revision, sequence, ledger }, ledgerSize(ledger) + 1)
        return ledger
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
