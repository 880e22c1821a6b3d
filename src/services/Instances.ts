/**
 * `Instances`: stored card instances — ledger commands (planned against the
 * served runtime and persisted, serialized with content reloads), the stored
 * state with its effective card, the history, the replay check, and the
 * branches of the store. The HTTP instance routes are adapters over it.
 *
 * A rejected command fails with its first error's tagged error carrying every
 * diagnostic of the rejection (it is recorded, so a retry answers the same).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer } from "effect"
import type { EffectiveCardDefinition } from "../composition/Effective.js"
import { componentOrigins } from "../composition/Effective.js"
import type { CardLedger } from "../composition/ledger/Ledger.js"
import type { LedgerCommand } from "../composition/planner/Plan.js"
import { CardTransformationPlanner, type RejectionError } from "../composition/planner/Planner.js"
import { invalidRequestId } from "../composition/schema/Symbols.js"
import {
  type BranchInfo,
  type CommandOutcome,
  HistoryPaging,
  LedgerStore,
  MAIN,
  ReplayPaging,
  type StoredEvent
} from "../composition/store/LedgerStore.js"
import {
  type BranchNotFound,
  type CommandConflict,
  type DuplicateId,
  errorOf,
  type ForkOutOfRange,
  type InvalidId,
  type ReplayMismatch,
  type StoreCorrupt,
  type StoreFailure,
  type UnknownInstance
} from "../kernel/Errors.js"
import { traced } from "../kernel/Tracing.js"
import { ContentCatalog } from "./ContentCatalog.js"

/** The activity a command or query runs in when the caller names none. */
export const DEFAULT_ACTIVITY = "canonical_command"

/** A ledger command on a stored instance. */
export interface InstanceCommandRequest {
  readonly instanceId: string
  readonly cardId: string
  /** The caller's idempotence key: a retry with the same ID and body returns the recorded outcome. */
  readonly commandId: string
  /** Optimistic concurrency: reject unless the instance is at this revision (absent: no check, as `cardfx ledger` allows). */
  readonly expectedRevision?: number | undefined
  readonly command: LedgerCommand
  readonly activity?: string | undefined
  readonly branch?: string | undefined
}

/** A stored instance on a branch, its effective card and where each component came from. */
export interface InstanceState {
  readonly branch: string
  readonly instanceId: string
  readonly cardId: string
  readonly revision: number
  readonly sequence: number
  readonly fingerprint: string
  readonly ledger: CardLedger
  readonly effective: EffectiveCardDefinition
  readonly origins: Readonly<Record<string, string>>
}

/** The replay check of one instance: each revision rebuilt from the events alone, beside the stored fingerprint. */
export interface InstanceReplay {
  readonly branch: string
  readonly instanceId: string
  readonly steps: ReadonlyArray<{
    readonly revision: number
    readonly sequence: number
    readonly fingerprint: string
    readonly stored: string
  }>
  readonly matches: boolean
  /** The `from` of the next page (an event sequence), or null after the last. */
  readonly next: number | null
}

/** A page of a replay: events with `sequence >= from` (default 0), at most `limit` (default 500, at most 5000). */
export interface ReplayPage {
  readonly from?: number | undefined
  readonly limit?: number | undefined
}

/** A branch as listed: `main` is the root and has no parent. */
export interface BranchListing {
  readonly name: string
  readonly parent: string | null
  readonly forkSequence: number
}

/** The errors of reading a stored instance. */
export type ReadError = UnknownInstance | StoreFailure | StoreCorrupt | BranchNotFound | InvalidId

/** The stored-instance operations. */
export interface InstancesService {
  /** Plans and persists a command; a rejection fails with its tagged error. */
  readonly command: (
    request: InstanceCommandRequest
  ) => Effect.Effect<CommandOutcome, RejectionError | StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
  /**
   * Like `command` (the same request, planned and persisted the same way
   * under the write gate), but a rejection is an outcome (`status`
   * "rejected" with every diagnostic, recorded, so a retry answers the same):
   * for a face that prints the rejected outcome, as `cardfx ledger
   * apply|remove|replace` does.
   */
  readonly execute: (
    request: InstanceCommandRequest
  ) => Effect.Effect<CommandOutcome, StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
  readonly get: (instanceId: string, branch?: string) => Effect.Effect<InstanceState, ReadError>
  /**
   * One page of the instance's events (`sequence >= from`, at most `limit`,
   * default {@link HistoryPaging}); `next` is the next page's `from`, or null.
   * The work is bounded by `limit`, whatever the history's length.
   */
  readonly history: (
    instanceId: string,
    branch?: string,
    page?: ReplayPage
  ) => Effect.Effect<
    {
      readonly branch: string
      readonly instanceId: string
      readonly events: ReadonlyArray<StoredEvent>
      readonly next: number | null
    },
    ReadError
  >
  /**
   * One page of the replay check, rebuilt from the last stored checkpoint
   * before the page: the work is bounded by the checkpoint gap and `limit`,
   * not by the instance's whole history. Out-of-range `from`/`limit` are
   * clamped (the HTTP contract rejects them first).
   */
  readonly replay: (
    instanceId: string,
    branch?: string,
    page?: ReplayPage
  ) => Effect.Effect<InstanceReplay, ReadError | ReplayMismatch>
  /**
   * The branches an instance can be read on: `main` first (no parent, fork
   * sequence 0) when it exists there, then by name the forks it is visible
   * on (created on the fork, or on an ancestor before the fork point);
   * `unknown_instance` when it exists on no branch.
   */
  readonly branches: (
    instanceId: string
  ) => Effect.Effect<ReadonlyArray<BranchListing>, UnknownInstance | StoreFailure | StoreCorrupt | InvalidId>
  readonly createBranch: (
    name: string,
    options?: { readonly parent?: string | undefined; readonly atSequence?: number | undefined }
  ) => Effect.Effect<
    BranchInfo,
    StoreFailure | BranchNotFound | DuplicateId | InvalidId | ForkOutOfRange | StoreCorrupt
  >
}

const unknown = (instanceId: string, branch: string) =>
  errorOf("unknown_instance", `no stored instance ${instanceId} on branch ${branch}`, { subject: instanceId })

/**
 * A stored instance's events on a branch (its parents' up to the fork
 * included) and its card; `unknown_instance` when it has none — an instance
 * exists once a command was stored for it. Every face reads through this:
 * the service below, and `cardfx ledger show|history` over a store file
 * (which needs no content).
 */
export const storedEvents = (
  store: Context.Tag.Service<LedgerStore>,
  branch: string,
  instanceId: string
): Effect.Effect<
  { readonly cardId: string; readonly events: ReadonlyArray<StoredEvent> },
  ReadError
> => {
  // The IDs' own check, as the request Schema makes it at the server's edge: every face answers `invalid_id`.
  const invalid = invalidRequestId([["/instanceId", instanceId], ["/branch", branch]])
  if (invalid !== undefined) return Effect.fail(invalid)
  return Effect.flatMap(store.history(branch, instanceId), (events) => {
    const first = events[0]
    return first === undefined
      ? Effect.fail(unknown(instanceId, branch))
      : Effect.succeed({ cardId: first.cardId, events })
  })
}

/**
 * The branches a stored instance can be read on, `main` first (see
 * `InstancesService.branches`); `unknown_instance` when it has no event on
 * any. The service and `cardfx ledger branch --instance` read through this.
 */
export const instanceBranches = (
  store: Context.Tag.Service<LedgerStore>,
  instanceId: string
): Effect.Effect<ReadonlyArray<BranchListing>, UnknownInstance | StoreFailure | StoreCorrupt | InvalidId> => {
  const invalid = invalidRequestId([["/instanceId", instanceId]])
  if (invalid !== undefined) return Effect.fail(invalid)
  return Effect.flatMap(store.branchesOf(instanceId), ({ forks, main }) => {
    const listed: ReadonlyArray<BranchListing> = [
      ...(main ? [{ name: MAIN, parent: null, forkSequence: 0 }] : []),
      ...forks.map((b) => ({ name: b.name, parent: b.parent, forkSequence: b.forkSequence }))
    ]
    return listed.length === 0
      ? Effect.fail(
        errorOf("unknown_instance", `no stored instance ${instanceId} on any branch`, { subject: instanceId })
      )
      : Effect.succeed(listed)
  })
}

const make = Effect.gen(function*() {
  const catalog = yield* ContentCatalog
  const planner = yield* CardTransformationPlanner
  const store = yield* LedgerStore
  const eventsOf = (branch: string, instanceId: string) => storedEvents(store, branch, instanceId)
  // The planner's request: only what the caller stated (no `expectedRevision` key when none, as the request hash wants).
  const requestOf = (r: InstanceCommandRequest) => ({
    commandId: r.commandId,
    branch: r.branch ?? MAIN,
    instanceId: r.instanceId,
    cardId: r.cardId,
    ...(r.expectedRevision !== undefined ? { expectedRevision: r.expectedRevision } : {}),
    activity: r.activity ?? DEFAULT_ACTIVITY,
    command: r.command
  })
  const service: InstancesService = {
    command: (r) => catalog.withWrites((runtime) => planner.apply(runtime, requestOf(r))),
    execute: (r) => catalog.withWrites((runtime) => planner.execute(runtime, requestOf(r))),
    get: (instanceId, branch = MAIN) =>
      Effect.gen(function*() {
        const { cardId } = yield* eventsOf(branch, instanceId)
        const state = yield* store.read(branch, instanceId, cardId)
        if (state.effective === undefined || state.fingerprint === undefined) {
          return yield* Effect.fail(
            errorOf("unknown_instance", `instance ${instanceId} has no effective card`, { subject: instanceId })
          )
        }
        // The store wrote this JSON itself from a resolved card; it is trusted.
        const effective = JSON.parse(state.effective) as EffectiveCardDefinition
        return {
          branch,
          instanceId,
          cardId,
          revision: state.revision,
          sequence: state.lastSequence,
          fingerprint: state.fingerprint,
          ledger: state.ledger,
          effective,
          origins: componentOrigins(state.ledger, effective)
        }
      }),
    history: (instanceId, branch = MAIN, page = {}) =>
      Effect.gen(function*() {
        const invalid = invalidRequestId([["/instanceId", instanceId], ["/branch", branch]])
        if (invalid !== undefined) return yield* Effect.fail(invalid)
        const from = Math.max(0, Math.floor(page.from ?? 0))
        const limit = Math.min(
          HistoryPaging.maxLimit,
          Math.max(1, Math.floor(page.limit ?? HistoryPaging.defaultLimit))
        )
        const found = yield* store.historyPage(branch, instanceId, { from, limit })
        // An empty page: the instance may still exist before `from` (one row tells).
        if (found.events.length === 0) {
          const any = from === 0 ? found : yield* store.historyPage(branch, instanceId, { from: 0, limit: 1 })
          if (any.events.length === 0) return yield* Effect.fail(unknown(instanceId, branch))
        }
        return { branch, instanceId, events: found.events, next: found.next }
      }),
    replay: (instanceId, branch = MAIN, page = {}) =>
      Effect.gen(function*() {
        const invalid = invalidRequestId([["/instanceId", instanceId], ["/branch", branch]])
        if (invalid !== undefined) return yield* Effect.fail(invalid)
        const from = Math.max(0, Math.floor(page.from ?? 0))
        const limit = Math.min(ReplayPaging.maxLimit, Math.max(1, Math.floor(page.limit ?? ReplayPaging.defaultLimit)))
        const found = yield* store.replayPage(branch, instanceId, { from, limit })
        // An empty page is an unknown instance, or a `from` past its last event (then an empty answer).
        if (!found.exists) return yield* Effect.fail(unknown(instanceId, branch))
        const steps = found.steps.map((s) => ({
          revision: s.revision,
          sequence: s.sequence,
          fingerprint: s.fingerprint,
          stored: s.stored
        }))
        return { branch, instanceId, steps, matches: steps.every((s) => s.fingerprint === s.stored), next: found.next }
      }),
    branches: (instanceId) => instanceBranches(store, instanceId),
    // A new branch makes ledgers visible there (at its fork sequence): a write, so never between a reload's check and switch.
    createBranch: (name, options = {}) =>
      catalog.withWrites(() =>
        store.fork(name, {
          ...(options.parent !== undefined ? { parent: options.parent } : {}),
          ...(options.atSequence !== undefined ? { atSequence: options.atSequence } : {})
        })
      )
  }
  return service
})

/** Stored card instances. */
export class Instances extends Context.Tag("cardfx/Instances")<Instances, InstancesService>() {
  static readonly layer: Layer.Layer<Instances, never, ContentCatalog | CardTransformationPlanner | LedgerStore> = Layer
    .effect(Instances, Effect.map(make, (s) => traced("Instances", s)))
}
