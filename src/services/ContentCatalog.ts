/**
 * `ContentCatalog`: the served content. It publishes the content package
 * folders it was started with, holds the runtime current now (a
 * {@link LiveCatalog}, provided alongside), and is the one implementation of
 * the content-update check and of hot reload, used by a server start,
 * `POST /v1/admin/reload`, `cardfx serve --watch` and `cardfx ledger check`:
 *
 * - `check` recomposes every stored instance on every branch under a runtime
 *   — its sealed entries as sealed (sealed rules are never re-read), its base
 *   card and statuses from the runtime — and reports each one that no longer
 *   composes with its instance, card, branch, code and message;
 * - `reload` publishes the folders again, checks the stored instances under
 *   the candidate *serialized with writes* (no command commits between the
 *   check and the switch: commands run under {@link ContentCatalogService.withWrites}),
 *   then switches, or fails with `reload_rejected` carrying a diagnostic per
 *   broken instance and keeps the old runtime.
 *
 * @since 0.1.0
 */
import { Context, Deferred, Effect, Either, Layer, STM, Stream, SubscriptionRef, TRef } from "effect"
import { displayKeyOf } from "../composition/Publication.js"
import { resolveEffectiveCard } from "../composition/Resolver.js"
import type { Runtime } from "../composition/Runtime.js"
import {
  type BranchInfo,
  type InstanceHead,
  LedgerStore,
  type LedgerStoreService,
  MAIN
} from "../composition/store/LedgerStore.js"
import { hashCanonical } from "../kernel/Canonical.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import type { BranchNotFound, ReloadRejected, StartRejected, StoreCorrupt, StoreFailure } from "../kernel/Errors.js"
import { errorOf } from "../kernel/Errors.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import { traced } from "../kernel/Tracing.js"
import { ContentLoader, LiveCatalog, type LoadError } from "./Catalog.js"

/** The package version of cardfx (kept in step with package.json by the public-surface test). */
export const SERVER_VERSION = "0.1.0"

/** What a runtime publishes (the `GET /v1/runtime` document). */
export interface RuntimeInfo {
  readonly engineVersion: number
  readonly serverVersion: string
  readonly contentHash: string
  readonly packages: ReadonlyArray<
    { readonly packageId: string; readonly version: string; readonly contentHash: string }
  >
  readonly cards: ReadonlyArray<string>
  readonly transformations: ReadonlyArray<string>
  readonly activities: ReadonlyArray<string>
  readonly statuses: ReadonlyArray<string>
  /** The display names of the content, one table per locale (ordinal), keys in ordinal order. */
  readonly locales: ReadonlyArray<{ readonly locale: string; readonly names: Readonly<Record<string, string>> }>
  /**
   * The display key of every published card, status and transformation (its own `metadata.nameKey`,
   * else `status.<id>.name` / `upgrade.<id>.name`), by ID in ordinal order: what a client looks up in
   * `locales` (no key convention on the client's side).
   */
  readonly nameKeys: {
    readonly cards: Readonly<Record<string, string>>
    readonly statuses: Readonly<Record<string, string>>
    readonly transformations: Readonly<Record<string, string>>
  }
}

/** A stored instance that does not compose under a runtime. */
export interface BrokenInstance {
  readonly instanceId: string
  readonly cardId: string
  readonly branch: string
  readonly code: DiagnosticCode
  readonly message: string
}

/** The outcome of a check or a reload. */
export interface ReloadReport {
  /** True when the checked runtime is served now. */
  readonly switched: boolean
  readonly runtime: RuntimeInfo
  /** Stored instances checked (every branch). */
  readonly checked: number
  /** Of those, the ones recomposed (the others' ledger and content were unchanged since a check). */
  readonly recomposed: number
  readonly broken: ReadonlyArray<BrokenInstance>
}

/** A reload that did not switch: its code, message and diagnostics (a content error's file and place, or the broken instances). */
export interface RejectedReload {
  readonly code: string
  readonly message: string
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

/**
 * What is served now, as a page follows it (`GET /v1/runtime/events`): the runtime, and the last reload's rejection
 * while the runtime has not switched since (null once a reload switches).
 */
export interface ServedState {
  readonly runtime: RuntimeInfo
  readonly rejected: RejectedReload | null
}

/** What a runtime publishes. */
export const runtimeInfo = (runtime: Runtime): RuntimeInfo => {
  const ids = (m: ReadonlyMap<string, unknown>) => [...m.keys()].sort(compareOrdinal)
  return {
    engineVersion: runtime.pin.engineVersion,
    serverVersion: SERVER_VERSION,
    contentHash: hashCanonical(runtime.pin),
    packages: runtime.pin.packages.map((p) => ({
      packageId: p.packageId,
      version: p.version,
      contentHash: p.contentHash
    })),
    cards: ids(runtime.cards),
    transformations: ids(runtime.transformations),
    activities: ids(runtime.activities),
    statuses: ids(runtime.statuses),
    locales: runtime.locales.map((l) => ({ locale: l.locale, names: Object.fromEntries(l.names) })),
    nameKeys: {
      cards: keysOf("card", runtime.cards),
      statuses: keysOf("status", runtime.statuses),
      transformations: keysOf("transformation", runtime.transformations)
    }
  }
}

const keysOf = (
  kind: "card" | "status" | "transformation",
  m: ReadonlyMap<string, { readonly metadata?: { readonly nameKey: string } | undefined }>
): Record<string, string> =>
  Object.fromEntries([...m.keys()].sort(compareOrdinal).map((id) => [id, displayKeyOf(kind, id, m.get(id)?.metadata)]))

/** The outcome of composing one stored instance under a runtime, and what it was computed from. */
interface Verdict {
  /** The instance's ledger (its head snapshot row) and the content it composes with (card, statuses). */
  readonly key: string
  readonly broken: BrokenInstance | undefined
}

/** What one runtime's content hashes to, per thing an instance composes with (computed once per runtime). */
interface DependencyHashes {
  readonly statuses: string
  readonly cards: Map<string, string>
}

/** What a check saw: the store's sequence and branches before it listed anything, and a verdict per instance. */
interface Sweep {
  readonly sequence: number
  readonly branches: ReadonlyArray<BranchInfo>
  readonly verdicts: Map<string, BrokenInstance | undefined>
  recomposed: number
}

const instanceKey = (branch: string, instanceId: string) => `${branch}\u0000${instanceId}`

/** Lets the event loop run (I/O, timers, other requests) between instances: a check never holds the thread long. */
const breathe: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * The incremental check: recomposes stored instances under a runtime, and
 * skips an instance whose verdict is already known for the same ledger and
 * the same content. The fingerprint of a verdict is the instance's ledger —
 * its head snapshot row: the global sequence of its last event (never
 * reused, so it names exactly one ledger) and the stored fingerprint of
 * that row — with the content hash of what it composes with: its base card
 * (or its absence) and the runtime's statuses. Any other change of content
 * (transformations, activities, slots) does not enter a stored
 * instance's composition: sealed entries carry their own rules.
 */
const makeChecker = (store: LedgerStoreService) => {
  const verdicts = new Map<string, Verdict>()
  const hashes = new WeakMap<Runtime, DependencyHashes>()
  const dependencyHash = (runtime: Runtime, cardId: string): string => {
    let h = hashes.get(runtime)
    if (h === undefined) {
      h = {
        statuses: hashCanonical([...runtime.statuses.values()].sort((a, b) => compareOrdinal(a.statusId, b.statusId))),
        cards: new Map()
      }
      hashes.set(runtime, h)
    }
    let card = h.cards.get(cardId)
    if (card === undefined) {
      const base = runtime.cards.get(cardId)
      card = base === undefined ? "-" : hashCanonical(base)
      h.cards.set(cardId, card)
    }
    return `${card}:${h.statuses}`
  }

  /** One instance on one branch: its verdict, recomposing only when its fingerprint changed. */
  const one = (runtime: Runtime, branch: string, head: InstanceHead, sweep: Sweep) =>
    Effect.gen(function*() {
      const key = `${runtime.pin.engineVersion}|${head.cardId}|${head.sequence}|${head.fingerprint}|${
        dependencyHash(runtime, head.cardId)
      }`
      const id = instanceKey(branch, head.instanceId)
      const known = verdicts.get(id)
      if (known !== undefined && known.key === key) {
        sweep.verdicts.set(id, known.broken)
        return
      }
      sweep.recomposed++
      const broken = yield* compose(runtime, branch, head)
      verdicts.set(id, { key, broken })
      sweep.verdicts.set(id, broken)
      yield* breathe
    })

  const compose = (
    runtime: Runtime,
    branch: string,
    head: InstanceHead
  ): Effect.Effect<BrokenInstance | undefined, StoreFailure | StoreCorrupt | BranchNotFound> => {
    const at = { instanceId: head.instanceId, cardId: head.cardId, branch }
    const baseCard = runtime.cards.get(head.cardId)
    if (baseCard === undefined) {
      const broken: BrokenInstance = {
        ...at,
        code: "unknown_card",
        message: `card ${head.cardId} is not published by the new content`
      }
      return Effect.succeed(broken)
    }
    return Effect.map(store.read(branch, head.instanceId, head.cardId, { effective: false }), (state) => {
      const r = resolveEffectiveCard({ baseCard, ledger: state.ledger, statuses: runtime.statuses })
      if (Either.isRight(r)) return undefined
      const first = r.left.find((d) => d.severity === "error") ?? r.left[0]
      const broken: BrokenInstance = {
        ...at,
        code: first?.code ?? "invalid_composition",
        message: first?.message ?? "does not compose"
      }
      return broken
    })
  }

  /** Every instance of one branch. */
  const branchSweep = (runtime: Runtime, branch: string, sweep: Sweep) =>
    Effect.gen(function*() {
      const heads = yield* store.heads(branch)
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]
        if (head !== undefined) yield* one(runtime, branch, head, sweep)
        if (i % 64 === 63) yield* breathe
      }
    })

  /** Every instance of every branch (the store's sequence is read first: a later event is caught by {@link delta}). */
  const full = (runtime: Runtime) =>
    Effect.gen(function*() {
      const sequence = yield* store.sequence
      const branches = yield* store.branches
      const sweep: Sweep = { sequence, branches, verdicts: new Map(), recomposed: 0 }
      for (const branch of [MAIN, ...branches.map((b) => b.name)]) yield* branchSweep(runtime, branch, sweep)
      return sweep
    })

  /**
   * Brings a sweep up to date with what was written since it started (run
   * with writes held): the instances events after its sequence touched, the
   * branches created (or re-created) since, and the ones discarded.
   */
  const delta = (runtime: Runtime, sweep: Sweep) =>
    Effect.gen(function*() {
      const sequence = yield* store.sequence
      const branches = yield* store.branches
      const same = (a: BranchInfo, b: BranchInfo) =>
        a.name === b.name && a.parent === b.parent && a.forkSequence === b.forkSequence
      const fresh = branches.filter((b) => !sweep.branches.some((o) => same(o, b)))
      const next: Sweep = { sequence, branches, verdicts: sweep.verdicts, recomposed: sweep.recomposed }
      if (sequence === sweep.sequence && fresh.length === 0 && branches.length === sweep.branches.length) return next
      const live = new Set([MAIN, ...branches.map((b) => b.name)])
      for (const id of [...next.verdicts.keys()]) {
        const branch = id.slice(0, id.indexOf("\u0000"))
        if (!live.has(branch) || fresh.some((b) => b.name === branch)) next.verdicts.delete(id)
      }
      for (const b of fresh) yield* branchSweep(runtime, b.name, next)
      const freshNames = new Set(fresh.map((b) => b.name))
      const touched = new Map<string, Set<string>>()
      for (const t of yield* store.touchedSince(sweep.sequence)) {
        if (!live.has(t.branch) || freshNames.has(t.branch)) continue
        touched.set(t.branch, (touched.get(t.branch) ?? new Set()).add(t.instanceId))
      }
      for (const [branch, ids] of touched) {
        for (const head of yield* store.heads(branch)) {
          if (ids.has(head.instanceId)) yield* one(runtime, branch, head, next)
        }
      }
      return next
    })

  return { full, delta }
}

/** The broken instances of a sweep, sorted by branch then instance. */
const brokenOf = (sweep: Sweep): ReadonlyArray<BrokenInstance> =>
  [...sweep.verdicts.values()].filter((b): b is BrokenInstance => b !== undefined).sort((a, b) =>
    compareOrdinal(a.branch, b.branch) || compareOrdinal(a.instanceId, b.instanceId)
  )

/** Recomposes every stored instance of every branch under `runtime` (no verdict kept); the broken ones, sorted by branch then instance. */
export const checkStoredInstances = (
  store: LedgerStoreService,
  runtime: Runtime
): Effect.Effect<
  { readonly checked: number; readonly broken: ReadonlyArray<BrokenInstance> },
  StoreFailure | StoreCorrupt | BranchNotFound
> => Effect.map(makeChecker(store).full(runtime), (s) => ({ checked: s.verdicts.size, broken: brokenOf(s) }))

/** The served content's operations. */
export interface ContentCatalogService {
  /** The runtime current now (a request reads it once and finishes on it, whatever a reload does meanwhile). */
  readonly current: Effect.Effect<Runtime>
  /** What the current runtime publishes. */
  readonly info: Effect.Effect<RuntimeInfo>
  /** Checks every stored instance against the current runtime (nothing switches: `switched` is false). */
  readonly check: Effect.Effect<ReloadReport, StoreFailure | StoreCorrupt | BranchNotFound>
  /**
   * Publishes the folders again, checks every stored instance (reads and
   * writes go on meanwhile), then holds writes, checks what they wrote
   * since, and switches — or fails with `reload_rejected` and keeps the old
   * runtime. Reloads run one at a time.
   */
  readonly reload: Effect.Effect<
    ReloadReport,
    LoadError | ReloadRejected | StoreFailure | StoreCorrupt | BranchNotFound
  >
  /**
   * Runs a write (a ledger command, a branch created) against the current
   * runtime; writes run concurrently with each other, never between a
   * reload's last check and its switch (a write arriving then waits for the
   * switch and runs on the runtime switched to).
   */
  readonly withWrites: <A, E, R>(write: (runtime: Runtime) => Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * The served state now, then after each reload (a switch, or a rejection with its diagnostics: `--watch`'s and
   * `POST /v1/admin/reload`'s alike); ends once {@link ContentCatalogService.closeChanges} ran.
   */
  readonly changes: Stream.Stream<ServedState>
  /** Ends every `changes` stream (a server's drain: they would otherwise keep their requests open). */
  readonly closeChanges: Effect.Effect<void>
}

/**
 * The write gate: writes hold it shared; a reload closes it (no write
 * enters), waits for the writes inside to finish, switches, and opens it.
 * Closing first means a steady stream of writes cannot starve a reload.
 */
const makeGate = Effect.gen(function*() {
  const writers = yield* TRef.make(0)
  const closed = yield* TRef.make(false)
  const enter = STM.flatMap(TRef.get(closed), (c) => (c ? STM.retry : TRef.update(writers, (n) => n + 1)))
  const leave = STM.commit(TRef.update(writers, (n) => n - 1))
  const drained = STM.flatMap(TRef.get(writers), (n) => (n === 0 ? STM.void : STM.retry))
  return {
    shared: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(restore(STM.commit(enter)), Effect.ensuring(restore(self), leave))
      ),
    exclusive: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          STM.commit(TRef.set(closed, true)),
          Effect.ensuring(restore(Effect.zipRight(STM.commit(drained), self)), STM.commit(TRef.set(closed, false)))
        )
      )
  }
})

const make = (packages: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const live = yield* LiveCatalog
    const loader = yield* ContentLoader
    const store = yield* LedgerStore
    const gate = yield* makeGate
    const reloads = yield* Effect.makeSemaphore(1)
    const checker = makeChecker(store)
    const state = yield* SubscriptionRef.make<ServedState>({
      runtime: runtimeInfo(yield* live.current),
      rejected: null
    })
    const closed = yield* Deferred.make<void>()
    const reportOf = (runtime: Runtime, sweep: Sweep, switched: boolean): ReloadReport => ({
      switched,
      runtime: runtimeInfo(runtime),
      checked: sweep.verdicts.size,
      recomposed: sweep.recomposed,
      broken: brokenOf(sweep)
    })
    const rejected = (report: ReloadReport): ReloadRejected =>
      errorOf(
        "reload_rejected",
        `${report.broken.length} stored instance(s) would not compose (${
          namesOf(report.broken)
        }); the old runtime is still served`,
        { details: { broken: report.broken.length, checked: report.checked } },
        diagnosticsOf(report.broken)
      )
    /** The reload's outcome, as `changes` tells it. */
    const told = <A extends ReloadReport, E extends { readonly code: string; readonly message: string }>(
      reload: Effect.Effect<A, E>
    ): Effect.Effect<A, E> =>
      reload.pipe(
        Effect.tap((report) =>
          report.switched ? SubscriptionRef.set(state, { runtime: report.runtime, rejected: null }) : Effect.void
        ),
        Effect.tapError((e) =>
          SubscriptionRef.update(state, (s) => ({
            runtime: s.runtime,
            rejected: {
              code: e.code,
              message: e.message,
              diagnostics: "diagnostics" in e && Array.isArray(e.diagnostics) ? e.diagnostics : []
            }
          }))
        )
      )
    const service: ContentCatalogService = {
      current: live.current,
      info: Effect.map(live.current, runtimeInfo),
      check: Effect.flatMap(
        live.current,
        (runtime) => Effect.map(checker.full(runtime), (sweep) => reportOf(runtime, sweep, false))
      ),
      reload: told(
        reloads.withPermits(1)(Effect.gen(function*() {
          const candidate = yield* loader.load(packages)
          // The long part, off the write gate: reads and writes go on against the old runtime.
          const first = yield* checker.full(candidate)
          if (brokenOf(first).length > 0) {
            return yield* Effect.fail(rejected(reportOf(candidate, first, false)))
          }
          // The short part: no write runs from here to the switch; what was written meanwhile is checked too.
          return yield* gate.exclusive(Effect.gen(function*() {
            const last = yield* checker.delta(candidate, first)
            const report = reportOf(candidate, last, false)
            if (report.broken.length > 0) {
              return yield* Effect.fail(rejected(report))
            }
            yield* live.set(candidate)
            return { ...report, switched: true }
          }))
        }))
      ),
      withWrites: (write) => gate.shared(Effect.flatMap(live.current, write)),
      changes: state.changes.pipe(Stream.interruptWhen(Deferred.await(closed))),
      closeChanges: Effect.asVoid(Deferred.succeed(closed, undefined))
    }
    return service
  })

/** `branch/instance (card: code)` of each broken instance, the first 10, for one-line messages. */
export const namesOf = (broken: ReadonlyArray<BrokenInstance>): string => {
  const shown = broken.slice(0, 10).map((b) => `${b.branch}/${b.instanceId} (${b.cardId}: ${b.code})`).join(", ")
  return broken.length > 10 ? `${shown} and ${broken.length - 10} more` : shown
}

/** One diagnostic per broken instance (the instance as its subject, its branch and card in details). */
const diagnosticsOf = (broken: ReadonlyArray<BrokenInstance>) =>
  broken.map((b) =>
    diagnostic(b.code, b.message, {
      subject: b.instanceId,
      details: { instanceId: b.instanceId, cardId: b.cardId, branch: b.branch }
    })
  )

/**
 * The start check of a server: the stored instances under the content it
 * starts with. Breaking content is refused (`start_rejected`, naming the
 * instances) unless `allowBroken`, which serves it and logs each broken
 * instance as a warning.
 */
const startCheck = (allowBroken: boolean) =>
  Effect.gen(function*() {
    const catalog = yield* ContentCatalog
    const report = yield* catalog.check
    if (report.broken.length === 0) return
    if (!allowBroken) {
      return yield* Effect.fail(errorOf(
        "start_rejected",
        `the content would break ${report.broken.length} stored instance(s): ${
          namesOf(report.broken)
        } (cardfx ledger check lists them; --allow-broken serves it anyway)`,
        { details: { broken: report.broken.length, checked: report.checked } },
        diagnosticsOf(report.broken)
      ))
    }
    for (const b of report.broken) {
      yield* Effect.logWarning("broken instance served (--allow-broken)").pipe(
        Effect.annotateLogs({ branch: b.branch, instanceId: b.instanceId, cardId: b.cardId, code: b.code })
      )
    }
  })

/** The served content. */
export class ContentCatalog extends Context.Tag("cardfx/ContentCatalog")<ContentCatalog, ContentCatalogService>() {
  /**
   * Over a live catalog already serving `packages` (what `reload` publishes
   * again), the content loader and the ledger store.
   */
  static readonly layer = (
    packages: ReadonlyArray<string>
  ): Layer.Layer<ContentCatalog, never, LiveCatalog | ContentLoader | LedgerStore> =>
    Layer.effect(ContentCatalog, Effect.map(make(packages), (s) => traced("ContentCatalog", s)))
  /** Publishes `packages` and holds them as the live runtime (no start check: `cardfx ledger check` reports instead). */
  static readonly load = (
    packages: ReadonlyArray<string>
  ): Layer.Layer<ContentCatalog | LiveCatalog, LoadError, ContentLoader | LedgerStore> =>
    ContentCatalog.layer(packages).pipe(Layer.provideMerge(LiveCatalog.load(packages)))
  /**
   * A server start: publishes `packages`, checks every stored instance under
   * them (the check a reload runs) and refuses content that breaks one
   * (`start_rejected`), unless `allowBroken` (then each broken instance is
   * logged as a warning and the content served).
   */
  static readonly serve = (
    packages: ReadonlyArray<string>,
    options: { readonly allowBroken?: boolean | undefined } = {}
  ): Layer.Layer<
    ContentCatalog | LiveCatalog,
    LoadError | StartRejected | StoreFailure | StoreCorrupt | BranchNotFound,
    ContentLoader | LedgerStore
  > =>
    Layer.effectDiscard(startCheck(options.allowBroken ?? false)).pipe(
      Layer.provideMerge(ContentCatalog.load(packages))
    )
}
