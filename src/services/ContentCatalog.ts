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
import { Context, Effect, Either, Layer } from "effect"
import { resolveEffectiveCard } from "../composition/Resolver.js"
import type { Runtime } from "../composition/Runtime.js"
import { LedgerStore, type LedgerStoreService, MAIN } from "../composition/store/LedgerStore.js"
import { hashCanonical } from "../kernel/Canonical.js"
import { diagnostic } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import type { BranchNotFound, ReloadRejected, StoreFailure } from "../kernel/Errors.js"
import { errorOf } from "../kernel/Errors.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
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
  readonly broken: ReadonlyArray<BrokenInstance>
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
    statuses: ids(runtime.statuses)
  }
}

/** Recomposes every stored instance of every branch under `runtime`; the broken ones, sorted by branch then instance. */
export const checkStoredInstances = (
  store: LedgerStoreService,
  runtime: Runtime
): Effect.Effect<
  { readonly checked: number; readonly broken: ReadonlyArray<BrokenInstance> },
  StoreFailure | BranchNotFound
> =>
  Effect.gen(function*() {
    const branches = [MAIN, ...(yield* store.branches).map((b) => b.name)]
    const broken: Array<BrokenInstance> = []
    let checked = 0
    for (const branch of branches) {
      for (const instanceId of yield* store.instances(branch)) {
        const events = yield* store.history(branch, instanceId)
        const cardId = events[0]?.cardId
        if (cardId === undefined) continue
        checked++
        const state = yield* store.read(branch, instanceId, cardId)
        const baseCard = runtime.cards.get(cardId)
        if (baseCard === undefined) {
          broken.push({
            instanceId,
            cardId,
            branch,
            code: "unknown_card",
            message: `card ${cardId} is not published by the new content`
          })
          continue
        }
        const r = resolveEffectiveCard({ baseCard, ledger: state.ledger, statuses: runtime.statuses })
        if (Either.isLeft(r)) {
          const first = r.left.find((d) => d.severity === "error") ?? r.left[0]
          broken.push({
            instanceId,
            cardId,
            branch,
            code: first?.code ?? "invalid_composition",
            message: first?.message ?? "does not compose"
          })
        }
      }
    }
    return { checked, broken }
  })

/** The served content's operations. */
export interface ContentCatalogService {
  /** The runtime current now (a request reads it once and finishes on it, whatever a reload does meanwhile). */
  readonly current: Effect.Effect<Runtime>
  /** What the current runtime publishes. */
  readonly info: Effect.Effect<RuntimeInfo>
  /** Checks every stored instance against the current runtime (nothing switches: `switched` is false). */
  readonly check: Effect.Effect<ReloadReport, StoreFailure | BranchNotFound>
  /** Publishes the folders again, checks every stored instance serialized with writes, then switches. */
  readonly reload: Effect.Effect<ReloadReport, LoadError | ReloadRejected | StoreFailure | BranchNotFound>
  /**
   * Runs a write (a ledger command) against the current runtime; writes run
   * concurrently with each other, never between a reload's check and its switch.
   */
  readonly withWrites: <A, E, R>(write: (runtime: Runtime) => Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** Permits of the write gate: a write takes one, a reload all of them. */
const GATE = 1 << 20

const make = (packages: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const live = yield* LiveCatalog
    const loader = yield* ContentLoader
    const store = yield* LedgerStore
    const gate = yield* Effect.makeSemaphore(GATE)
    const reportOf = (runtime: Runtime, switched: boolean) =>
      Effect.map(
        checkStoredInstances(store, runtime),
        ({ broken, checked }): ReloadReport => ({ switched, runtime: runtimeInfo(runtime), checked, broken })
      )
    const rejected = (broken: ReadonlyArray<BrokenInstance>, checked: number): ReloadRejected =>
      errorOf(
        "reload_rejected",
        `${broken.length} stored instance(s) would not compose; the old runtime is still served`,
        { details: { broken: broken.length, checked } },
        broken.map((b) =>
          diagnostic(b.code, b.message, {
            subject: b.instanceId,
            details: { instanceId: b.instanceId, cardId: b.cardId, branch: b.branch }
          })
        )
      )
    const service: ContentCatalogService = {
      current: live.current,
      info: Effect.map(live.current, runtimeInfo),
      check: Effect.flatMap(live.current, (runtime) => reportOf(runtime, false)),
      reload: Effect.gen(function*() {
        const candidate = yield* loader.load(packages)
        return yield* gate.withPermits(GATE)(
          Effect.gen(function*() {
            const report = yield* reportOf(candidate, false)
            if (report.broken.length > 0) return yield* Effect.fail(rejected(report.broken, report.checked))
            yield* live.set(candidate)
            return { ...report, switched: true }
          })
        )
      }),
      withWrites: (write) => gate.withPermits(1)(Effect.flatMap(live.current, write))
    }
    return service
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
    Layer.effect(ContentCatalog, make(packages))
  /** Publishes `packages` (a server start) and serves them: the catalog and its live runtime. */
  static readonly load = (
    packages: ReadonlyArray<string>
  ): Layer.Layer<ContentCatalog | LiveCatalog, LoadError, ContentLoader | LedgerStore> =>
    ContentCatalog.layer(packages).pipe(Layer.provideMerge(LiveCatalog.load(packages)))
}
