/**
 * The content-update check behind hot reload (`POST /v1/admin/reload`,
 * `cardfx serve --watch`) and `cardfx ledger check`: every stored instance
 * on every branch is recomposed under a candidate runtime — its sealed
 * entries as sealed (sealed rules are never re-read), its base card and
 * statuses from the candidate — and each one that no longer composes is
 * reported with its instance, card, branch, code and message.
 *
 * @since 0.1.0
 */
import { Effect, Either } from "effect"
import type { BrokenInstance, RuntimeInfo } from "../api/Documents.js"
import {
  type BranchNotFound,
  Canonical,
  type LedgerStoreService,
  MAIN,
  Ordinal,
  resolveEffectiveCard,
  type Runtime,
  type StoreFailure
} from "../services/index.js"

/** The package version of cardfx (kept in step with package.json by the public-surface test). */
export const SERVER_VERSION = "0.1.0"

/** The `GET /v1/runtime` document of a runtime. */
export const runtimeInfo = (runtime: Runtime): RuntimeInfo => {
  const ids = (m: ReadonlyMap<string, unknown>) => [...m.keys()].sort(Ordinal.compareOrdinal)
  return {
    engineVersion: runtime.pin.engineVersion,
    serverVersion: SERVER_VERSION,
    contentHash: Canonical.hashCanonical(runtime.pin),
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
          const first = r.left[0]
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
