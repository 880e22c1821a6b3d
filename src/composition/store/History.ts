/**
 * Reads over the event log: an instance's history on a branch, the
 * instances a branch sees, replay (rebuilding every fingerprint from the
 * events alone), byte dumps for comparisons, and `verify` (the integrity
 * check).
 *
 * Replay is linear in the number of events: each event's new entry is
 * verified once (not the whole ledger again), and resolution reads only the
 * active entries, kept up to date as the events are folded.
 *
 * @since 0.1.0
 */
import { Effect, Either } from "effect"
import { canonicalJson, sha256Hex } from "../../kernel/Canonical.js"
import { ReplayMismatch, type StoreFailure } from "../../kernel/Errors.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { type LedgerEntry, verifySealed } from "../ledger/Ledger.js"
import { resolveEffectiveCard } from "../Resolver.js"
import { type Core, MAX_SEQUENCE, num } from "./Core.js"
import {
  type BranchInfo,
  type InstanceHead,
  MAIN,
  type ReplayStep,
  type ReplayWork,
  type StoredEvent,
  type TouchedInstance,
  type VerifyCheck,
  type VerifyReport
} from "./Schemas.js"
import { decodeBody, fromEither } from "./Serialize.js"

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

const toEvent = (r: EventRow): Either.Either<StoredEvent, StoreFailure> =>
  Either.map(fromEither("event body", decodeBody(r.body)), (body) => ({
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

/** A failure's message and its cause's (the driver's reason is in the cause). */
const failureText = (u: unknown): string => {
  const own = String((u as { message?: unknown } | null)?.message ?? u).trim()
  const cause = (u as { cause?: unknown } | null)?.cause
  const inner = cause instanceof Error ? cause.message : ""
  return inner !== "" ? `${own}: ${inner}` : own
}

export const makeHistory = (core: Core) => {
  const { sql, T, chain, contextOf, activeAt } = core

  const historyOf = (branch: string, instanceId: string) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const out: Array<StoredEvent> = []
      for (const [name, limit] of links) {
        const rows = yield* sql<EventRow>`SELECT * FROM ${T.events}
          WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit} ORDER BY sequence`
        for (const r of rows) out.push(yield* toEvent(r))
      }
      return out.sort((a, b) => a.sequence - b.sequence)
    })

  /**
   * One page of an instance's events visible on a branch: those with
   * `sequence >= from`, at most `limit`, by sequence; `next` is the first
   * sequence after the page, or null. At most `limit + 1` rows per link of the
   * branch's chain (an index range), whatever the history's length.
   */
  const historyPage = (branch: string, instanceId: string, from: number, limit: number) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const found: Array<StoredEvent> = []
      for (const [name, upTo] of links) {
        if (upTo < from) continue
        const rows = yield* sql<EventRow>`SELECT * FROM ${T.events}
          WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${upTo} AND sequence >= ${from}
          ORDER BY sequence LIMIT ${limit + 1}`
        for (const r of rows) found.push(yield* toEvent(r))
      }
      found.sort((a, b) => a.sequence - b.sequence)
      return { events: found.slice(0, limit), next: found[limit]?.sequence ?? null }
    })

  const instancesOf = (branch: string) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const ids = new Set<string>()
      for (const [name, limit] of links) {
        const rows = yield* sql<
          { instance_id: string }
        >`SELECT DISTINCT instance_id FROM ${T.events} WHERE branch = ${name} AND sequence <= ${limit}`
        for (const r of rows) ids.add(r.instance_id)
      }
      return [...ids].sort(compareOrdinal)
    })

  /**
   * The last snapshot row of every instance visible on a branch: per link of
   * its chain, the highest revision at or below the link's limit; the first
   * link that has an instance wins (the row `readState` picks).
   */
  const headsOf = (branch: string) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const out = new Map<string, InstanceHead>()
      for (const [name, limit] of links) {
        const rows = yield* sql<
          { instance_id: string; card_id: string; revision: unknown; sequence: unknown; fingerprint: string }
        >`SELECT s.instance_id, s.card_id, s.revision, s.sequence, s.fingerprint FROM ${T.snapshots} s
          JOIN (SELECT instance_id, MAX(revision) AS revision FROM ${T.snapshots}
            WHERE branch = ${name} AND sequence <= ${limit} GROUP BY instance_id) m
          ON s.instance_id = m.instance_id AND s.revision = m.revision
          WHERE s.branch = ${name}`
        for (const r of rows) {
          if (out.has(r.instance_id)) continue
          out.set(r.instance_id, {
            instanceId: r.instance_id,
            cardId: r.card_id,
            revision: num(r.revision),
            sequence: num(r.sequence),
            fingerprint: r.fingerprint
          })
        }
      }
      return [...out.values()].sort((a, b) => compareOrdinal(a.instanceId, b.instanceId))
    })

  /**
   * The branches an instance can be read on: whether main, and which of `forks` (the store's) have
   * on their chain one of its events at or before the link's limit (made there, or on an ancestor
   * before the fork). One index probe per branch: the instance's first event on it.
   */
  const branchesOf = (instanceId: string, forks: ReadonlyArray<BranchInfo>) =>
    Effect.gen(function*() {
      const firsts = new Map<string, number>()
      for (const name of [MAIN, ...forks.map((b) => b.name)]) {
        const row = (yield* sql<{ sequence: unknown }>`SELECT sequence FROM ${T.events}
          WHERE branch = ${name} AND instance_id = ${instanceId} ORDER BY sequence LIMIT 1`)[0]
        if (row !== undefined) firsts.set(name, num(row.sequence))
      }
      const byName = new Map(forks.map((b) => [b.name, b] as const))
      // As `Core.chain` walks it: the branch, then its parents, each seen up to the lowest fork sequence so far.
      const visible = (branch: string): boolean => {
        let name = branch
        let limit = MAX_SEQUENCE
        for (let depth = 0; depth < 64; depth++) {
          const first = firsts.get(name)
          if (first !== undefined && first <= limit) return true
          const b = byName.get(name)
          if (name === MAIN || b === undefined) return false
          limit = Math.min(limit, b.forkSequence)
          name = b.parent
        }
        return false
      }
      return { main: firsts.has(MAIN), forks: forks.filter((b) => visible(b.name)) }
    })

  /** The instances events after `sequence` were written for, on their own branches. */
  const touchedSince = (sequence: number) =>
    Effect.map(
      sql<{ branch: string; instance_id: string }>`SELECT DISTINCT branch, instance_id FROM ${T.events}
        WHERE sequence > ${sequence}`,
      (rows): ReadonlyArray<TouchedInstance> =>
        rows.map((r) => ({ branch: r.branch, instanceId: r.instance_id })).sort((a, b) =>
          compareOrdinal(a.branch, b.branch) || compareOrdinal(a.instanceId, b.instanceId)
        )
    )

  /** The stored fingerprints of an instance visible on a branch, by "branch revision". */
  const fingerprintsOf = (branch: string, instanceId: string) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const out = new Map<string, string>()
      for (const [name, limit] of links) {
        const rows = yield* sql<
          { revision: unknown; fingerprint: string }
        >`SELECT revision, fingerprint FROM ${T.snapshots}
          WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${limit}`
        for (const r of rows) out.set(`${name} ${num(r.revision)}`, r.fingerprint)
      }
      return out
    })

  /**
   * Folds `events` (consecutive revisions of one instance) onto the entries
   * active before the first, rebuilding each fingerprint and comparing it
   * with the stored one; `replay_mismatch` on the first difference.
   */
  const replayEvents = (
    branch: string,
    instanceId: string,
    events: ReadonlyArray<StoredEvent>,
    stored: ReadonlyMap<string, string>,
    active: Map<string, LedgerEntry>,
    startRevision: number,
    steps: Array<ReplayStep>
  ) =>
    Effect.gen(function*() {
      let revision = startRevision
      for (const e of events) {
        if (e.body.removedEntryId !== null) active.delete(e.body.removedEntryId)
        if (e.body.entry !== null) {
          const sealed = verifySealed(e.body.entry, e.body.entry.entryId)
          if (Either.isLeft(sealed)) {
            return yield* Effect.fail(
              new ReplayMismatch({
                message: `replay of ${instanceId}@${e.revision}: ${sealed.left[0]?.message ?? "unsealed entry"}`,
                subject: instanceId
              })
            )
          }
          active.set(e.body.entry.entryId, e.body.entry)
        }
        revision++
        // Resolution reads only active entries: the removed ones are not carried along.
        const ledger = { cardId: e.cardId, entries: [...active.values()], revision }
        const ctx = yield* contextOf(e.contextHash)
        const statuses = new Map(ctx.statuses.map((s) => [s.statusId, s] as const))
        const resolved = resolveEffectiveCard({ baseCard: ctx.baseCard, ledger, statuses })
        const was = stored.get(`${e.branch} ${e.revision}`) ?? "<missing>"
        const fingerprint = Either.isRight(resolved)
          ? resolved.right.fingerprint
          : `<fails: ${resolved.left[0]?.code ?? "?"}>`
        if (fingerprint !== was || e.revision !== revision) {
          return yield* Effect.fail(
            new ReplayMismatch({
              message:
                `replay of ${instanceId} revision ${e.revision} (sequence ${e.sequence}) gives ${fingerprint}, stored ${was}`,
              subject: instanceId,
              details: { revision: e.revision, sequence: e.sequence }
            })
          )
        }
        steps.push({ branch, instanceId, revision: e.revision, sequence: e.sequence, fingerprint, stored: was })
      }
    })

  const replayBranch = (branch: string) =>
    Effect.gen(function*() {
      const steps: Array<ReplayStep> = []
      for (const instanceId of yield* instancesOf(branch)) {
        const events = yield* historyOf(branch, instanceId)
        const stored = yield* fingerprintsOf(branch, instanceId)
        yield* replayEvents(branch, instanceId, events, stored, new Map(), 0, steps)
      }
      return steps
    })

  /**
   * One page of an instance's replay: its events with `sequence >= from`, at
   * most `limit`, each rebuilt from the active entries before the page (the
   * nearest stored checkpoint at or before it, folded forward: see
   * `Core.activeAt`) rather than from revision 0. `next` is the sequence of
   * the first event after the page, or null; `exists` whether the instance
   * has any event visible on the branch (asked only of an empty page). The
   * work is bounded whatever the history's length, and reported (`work`):
   * at most 255 events folded (the checkpoint interval) and, per link of
   * the branch's chain, `limit + 1` page rows, one for the state before the
   * page and one for an empty page's existence check, each an index range
   * (migration 3's index by sequence; the fingerprints by revision).
   */
  const replayPage = (branch: string, instanceId: string, from: number, limit: number) =>
    Effect.gen(function*() {
      const links = yield* chain(branch)
      const found: Array<StoredEvent> = []
      let eventRows = 0
      for (const [name, upTo] of links) {
        if (upTo < from) continue
        const rows = yield* sql<EventRow>`SELECT * FROM ${T.events}
          WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${upTo} AND sequence >= ${from}
          ORDER BY sequence LIMIT ${limit + 1}`
        eventRows += rows.length
        for (const r of rows) found.push(yield* toEvent(r))
      }
      found.sort((a, b) => a.sequence - b.sequence)
      const page = found.slice(0, limit)
      const next = found[limit]?.sequence ?? null
      const steps: Array<ReplayStep> = []
      const first = page[0]
      const last = page[page.length - 1]
      if (first === undefined || last === undefined) {
        let exists = false
        for (const [name, upTo] of links) {
          const rows = yield* sql<{ sequence: unknown }>`SELECT sequence FROM ${T.events}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${upTo} ORDER BY sequence LIMIT 1`
          eventRows += rows.length
          if (rows.length > 0) {
            exists = true
            break
          }
        }
        const work: ReplayWork = { checkpoint: 0, folded: 0, eventRows }
        return { steps, next, exists, work }
      }
      const active = new Map<string, LedgerEntry>()
      let state: ReplayWork = { checkpoint: 0, folded: 0, eventRows: 0 }
      if (first.revision > 1) {
        // The state before the page: the row of revision first - 1 on the chain (the first link that has it).
        let before: { readonly branch: string; readonly sequence: number } | undefined
        for (const [name, upTo] of links) {
          const rows = yield* sql<{ sequence: unknown }>`SELECT sequence FROM ${T.events}
            WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${upTo} AND revision = ${
            first.revision - 1
          }`
          eventRows += rows.length
          const row = rows[0]
          if (row !== undefined) {
            before = { branch: name, sequence: num(row.sequence) }
            break
          }
        }
        if (before === undefined) {
          return yield* Effect.fail(
            new ReplayMismatch({
              message: `replay of ${instanceId}: revision ${first.revision - 1} is missing`,
              subject: instanceId
            })
          )
        }
        const at = yield* activeAt(links, before.branch, instanceId, first.cardId, first.revision - 1, before.sequence)
        for (const e of at.entries) active.set(e.entryId, e)
        state = at.work
      }
      // The page's stored fingerprints, by revision (the primary key's range): its events' revisions are consecutive.
      const stored = new Map<string, string>()
      for (const [name, upTo] of links) {
        if (upTo < first.sequence) continue
        const rows = yield* sql<
          { revision: unknown; fingerprint: string }
        >`SELECT revision, fingerprint FROM ${T.snapshots}
          WHERE branch = ${name} AND instance_id = ${instanceId} AND sequence <= ${upTo}
            AND revision >= ${first.revision} AND revision <= ${last.revision}`
        for (const r of rows) stored.set(`${name} ${num(r.revision)}`, r.fingerprint)
      }
      yield* replayEvents(branch, instanceId, page, stored, active, first.revision - 1, steps)
      const work: ReplayWork = {
        checkpoint: state.checkpoint,
        folded: state.folded,
        eventRows: eventRows + state.eventRows
      }
      return { steps, next, exists: true, work }
    })

  const dumpBranch = (branch: string) =>
    Effect.gen(function*() {
      const events = yield* sql`SELECT * FROM ${T.events} WHERE branch = ${branch} ORDER BY sequence`
      const snapshots = yield* sql`SELECT * FROM ${T.snapshots} WHERE branch = ${branch} ORDER BY instance_id, revision`
      const checkpoints =
        yield* sql`SELECT * FROM ${T.checkpoints} WHERE branch = ${branch} ORDER BY instance_id, revision`
      // Integer columns come back as strings from PostgreSQL's BIGINT: normalize so both dialects dump the same bytes.
      const ints = new Set(["sequence", "revision"])
      const norm = (rows: ReadonlyArray<object>) =>
        rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ints.has(k) ? num(v) : v])))
      return canonicalJson({
        branch,
        events: norm(events),
        snapshots: norm(snapshots),
        checkpoints: norm(checkpoints)
      })
    })

  /** Runs one check; a failure of the check itself (a damaged page, say) is one of its problems. */
  const check = (name: string, run: Effect.Effect<ReadonlyArray<string>, unknown>): Effect.Effect<VerifyCheck> =>
    Effect.map(Effect.either(Effect.catchAllDefect(run, (d) => Effect.fail(d))), (r) =>
      Either.isRight(r)
        ? { check: name, ok: r.right.length === 0, problems: r.right }
        : { check: name, ok: false, problems: [`the check could not run: ${failureText(r.left)}`] })

  // Pragma arguments cannot be bound parameters: PRAGMA integrity_check(20) below spells the same limit.
  const LIMIT = 20
  /** Rows of `table` (events or checkpoints) whose (branch, instance, revision, sequence) has no snapshot row. */
  const withoutSnapshot = (table: typeof T.events, what: string) =>
    Effect.map(
      sql<
        { branch: string; instance_id: string; revision: unknown }
      >`SELECT r.branch, r.instance_id, r.revision FROM ${table} r
        LEFT JOIN ${T.snapshots} s ON s.branch = r.branch AND s.instance_id = r.instance_id AND s.revision = r.revision AND s.sequence = r.sequence
        WHERE s.revision IS NULL ORDER BY r.sequence LIMIT ${LIMIT}`,
      (rows) => rows.map((r) => `${what} ${r.branch}/${r.instance_id}@${num(r.revision)} has no snapshot row`)
    )

  /** The integrity check: the pages (SQLite), then the store's own invariants. */
  const verify: Effect.Effect<VerifyReport> = Effect.gen(function*() {
    const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })
    const checks: Array<VerifyCheck> = []
    if (dialect === "sqlite") {
      checks.push(
        yield* check(
          "pages",
          Effect.map(
            sql<{ integrity_check: string }>`PRAGMA integrity_check(20)`,
            (rows) => rows.length === 1 && rows[0]?.integrity_check === "ok" ? [] : rows.map((r) => r.integrity_check)
          )
        )
      )
    }
    checks.push(
      yield* check(
        "sequence",
        Effect.gen(function*() {
          const seq = num(
            (yield* sql<{ value: unknown }>`SELECT value FROM ${T.meta} WHERE key = 'sequence'`)[0]?.value ?? -1
          )
          const max = num(
            (yield* sql<{ m: unknown }>`SELECT COALESCE(MAX(sequence), 0) AS m FROM ${T.events}`)[0]?.m ?? 0
          )
          return seq < 0
            ? ["the sequence row is missing"]
            : seq < max
            ? [`the global sequence ${seq} is behind the last event ${max}`]
            : []
        })
      ),
      yield* check("snapshots", withoutSnapshot(T.events, "event")),
      yield* check("checkpoints", withoutSnapshot(T.checkpoints, "checkpoint")),
      yield* check(
        "commands",
        Effect.map(
          sql<
            { command_id: string }
          >`SELECT e.command_id FROM ${T.events} e LEFT JOIN ${T.commands} c ON c.command_id = e.command_id
            WHERE c.command_id IS NULL ORDER BY e.sequence LIMIT ${LIMIT}`,
          (rows) => rows.map((r) => `event of command ${r.command_id} has no recorded outcome`)
        )
      ),
      yield* check(
        "contexts",
        Effect.gen(function*() {
          const problems: Array<string> = []
          const missing = yield* sql<{ context_hash: string }>`SELECT DISTINCT e.context_hash FROM ${T.events} e
            LEFT JOIN ${T.contexts} c ON c.hash = e.context_hash WHERE c.hash IS NULL`
          for (const r of missing.slice(0, LIMIT)) problems.push(`context ${r.context_hash} is missing`)
          for (
            const r of yield* sql<{ hash: string; body: string }>`SELECT hash, body FROM ${T.contexts} ORDER BY hash`
          ) {
            if (sha256Hex(r.body) !== r.hash && problems.length < LIMIT) {
              problems.push(`context ${r.hash} does not match its hash`)
            }
          }
          return problems
        })
      )
    )
    return { ok: checks.every((c) => c.ok), dialect, checks }
  })

  return {
    historyOf,
    historyPage,
    instancesOf,
    headsOf,
    branchesOf,
    touchedSince,
    replayBranch,
    replayPage,
    dumpBranch,
    verify
  }
}

export type History = ReturnType<typeof makeHistory>

/** Replay steps of several branches, in order. */
export const replayAll = (history: History, names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const out: Array<ReplayStep> = []
    for (const b of names) out.push(...(yield* history.replayBranch(b)))
    return out
  })
