/**
 * `CardTransformationPlanner`: the service over the planning core (`Plan.ts`)
 * and the `LedgerStore`. `assess` and `discover` are pure queries; `execute`
 * persists the very plan `assess` would report (the store calls the same
 * `plan` under its write lock with the card's stored state), so "Assess says
 * compatible" and "apply succeeds" cannot drift apart.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option } from "effect"
import { diagnostic } from "../../kernel/Diagnostic.js"
import { type ChannelError, codesOf, errorChannel } from "../../kernel/ErrorChannel.js"
import type { BranchNotFound, CommandConflict, InvalidId, StoreCorrupt, StoreFailure } from "../../kernel/Errors.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { traced } from "../../kernel/Tracing.js"
import { sealErrors } from "../BundleCompiler.js"
import type { CardLedger } from "../ledger/Ledger.js"
import { removalErrors, resolveErrors } from "../Resolver.js"
import type { Runtime } from "../Runtime.js"
import type { Card } from "../schema/Card.js"
import type { Status } from "../schema/Status.js"
import {
  type CardState,
  type CommandOutcome,
  type CommandRequest,
  type Decide,
  LedgerStore,
  type ReplayContext
} from "../store/LedgerStore.js"
import { type AssessResult, discover, type Discovery, type LedgerCommand, plan, planningCacheFor } from "./Plan.js"
import { type PlanningCache, PlanningCaches, SharedPlanningCaches } from "./PlanningCache.js"

const contextOf = (baseCard: Card, statuses: ReadonlyMap<string, Status>): ReplayContext => ({
  baseCard,
  statuses: [...statuses.values()].sort((a, b) => compareOrdinal(a.statusId, b.statusId))
})

/**
 * The replay context of a base card and statuses: one object per pair in a
 * `PlanningCache` (so the store serializes it once), a new one without.
 */
export const replayContext = (
  baseCard: Card,
  statuses: ReadonlyMap<string, Status>,
  cache?: PlanningCache
): ReplayContext => {
  if (cache === undefined) return contextOf(baseCard, statuses)
  const byStatuses = cache.replayContexts(baseCard)
  let c = byStatuses.get(statuses)
  if (c === undefined) {
    c = contextOf(baseCard, statuses)
    byStatuses.set(statuses, c)
  }
  return c
}

/**
 * The store decision for a request, made by THE plan from the stored state.
 * `cache` is the runtime's planning cache (the planner service passes the one
 * it holds); without one, each decision plans cold.
 */
export const decideWith =
  (runtime: Runtime, request: CommandRequest, cache?: PlanningCache): Decide =>
  (state: CardState, nextSequence: number) => {
    const planning = planningCacheFor(runtime, cache)
    const p = plan({
      runtime,
      ledger: state.ledger,
      command: request.command,
      activity: request.activity,
      at: { lastSequence: state.lastSequence, nextSequence },
      cache: planning
    })
    const change = p.change
    if (change === undefined) return { _tag: "Reject", diagnostics: p.assessment.diagnostics }
    return {
      _tag: "Commit",
      ledger: change.ledger,
      effective: change.effective,
      body: {
        command: request.command,
        activity: request.activity,
        entry: change.entry ?? null,
        removedEntryId: change.removedEntryId ?? null
      },
      context: replayContext(change.baseCard, change.statuses, planning),
      changedComponentIds: p.assessment.changedComponentIds
    }
  }

/** Where a stored card instance lives. */
export interface InstanceRef {
  readonly branch: string
  readonly instanceId: string
  readonly cardId: string
}

/**
 * Every code a rejected command can carry: the planner's policy checks,
 * sealing, the ledger command, resolution and removal, and the store's
 * revision check.
 */
export const rejectionErrors = errorChannel([
  ...codesOf(sealErrors, resolveErrors, removalErrors),
  "unknown_card",
  "unknown_transformation",
  "entry_not_found",
  "not_eligible",
  "slot_full",
  "max_per_card",
  "excluded_transformation",
  "not_authorized",
  "unsealed_definition",
  "revision_conflict",
  // The store records a command to a branch that does not exist as a rejection.
  "branch_not_found"
])
/** The errors `CardTransformationPlanner.apply` fails with for a rejected command. */
export type RejectionError = ChannelError<typeof rejectionErrors>

/** The planner service. */
export class CardTransformationPlanner extends Context.Tag("cardfx/CardTransformationPlanner")<
  CardTransformationPlanner,
  {
    /** Pure query: what the command would do to this ledger in this activity. */
    readonly assess: (
      runtime: Runtime,
      ledger: CardLedger,
      command: LedgerCommand,
      activity: string
    ) => Effect.Effect<AssessResult>
    /** Pure query: every transformation of the runtime, assessed on the complete candidate. */
    readonly discover: (runtime: Runtime, ledger: CardLedger, activity: string) => Effect.Effect<Discovery>
    /** Assess against a stored instance (its captured sequence comes from the store). */
    readonly assessStored: (
      runtime: Runtime,
      ref: InstanceRef,
      command: LedgerCommand,
      activity: string
    ) => Effect.Effect<AssessResult, StoreFailure | StoreCorrupt | BranchNotFound>
    /** Discovery for a stored instance. */
    readonly discoverStored: (
      runtime: Runtime,
      ref: InstanceRef,
      activity: string
    ) => Effect.Effect<Discovery, StoreFailure | StoreCorrupt | BranchNotFound>
    /** Plan + persist; a rejection is an outcome (recorded, so retries return it). */
    readonly execute: (
      runtime: Runtime,
      request: CommandRequest
    ) => Effect.Effect<CommandOutcome, StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
    /** Like `execute`, but a rejection fails with its first diagnostic's tagged error (`NotAuthorized`, `RevisionConflict`, ...). */
    readonly apply: (
      runtime: Runtime,
      request: CommandRequest
    ) => Effect.Effect<CommandOutcome, RejectionError | StoreFailure | CommandConflict | InvalidId | StoreCorrupt>
  }
>() {
  /**
   * The live planner over a `LedgerStore`. Its planning caches, one per
   * runtime it plans against (weakly keyed: a runtime no longer referenced
   * takes its cache with it), are the application's `SharedPlanningCaches`
   * when it has them, else its own.
   */
  static readonly layer: Layer.Layer<CardTransformationPlanner, never, LedgerStore> = Layer.effect(
    CardTransformationPlanner,
    Effect.map(Effect.all([LedgerStore, Effect.serviceOption(SharedPlanningCaches)]), ([store, shared]) => {
      const caches = Option.getOrElse(shared, () => new PlanningCaches())
      const execute = (runtime: Runtime, request: CommandRequest) =>
        store.execute(request, decideWith(runtime, request, caches.of(runtime)))
      // An assessment's candidate is dropped: planned transient (its resolution not memoized, its entry kept off the
      // history it shares with the asked ledger, so the next command on a stored ledger does not copy that history).
      return traced<Context.Tag.Service<typeof CardTransformationPlanner>>("CardTransformationPlanner", {
        assess: (runtime, ledger, command, activity) =>
          Effect.sync(() =>
            plan({ runtime, ledger, command, activity, cache: caches.of(runtime), transient: true }).assessment
          ),
        discover: (runtime, ledger, activity) =>
          Effect.sync(() => discover(runtime, ledger, activity, undefined, caches.of(runtime))),
        assessStored: (runtime, ref, command, activity) =>
          Effect.map(
            store.read(ref.branch, ref.instanceId, ref.cardId),
            (s) =>
              plan({
                runtime,
                ledger: s.ledger,
                command,
                activity,
                at: { lastSequence: s.lastSequence, nextSequence: s.lastSequence + 1 },
                cache: caches.of(runtime),
                transient: true
              })
                .assessment
          ),
        discoverStored: (runtime, ref, activity) =>
          Effect.map(
            store.read(ref.branch, ref.instanceId, ref.cardId),
            (s) =>
              discover(
                runtime,
                s.ledger,
                activity,
                { lastSequence: s.lastSequence, nextSequence: s.lastSequence + 1 },
                caches.of(runtime)
              )
          ),
        execute,
        apply: (runtime, request) =>
          Effect.flatMap(execute(runtime, request), (outcome) =>
            outcome.status === "applied"
              ? Effect.succeed(outcome)
              : rejectionErrors.fail(
                outcome.diagnostics.length > 0
                  ? outcome.diagnostics
                  : [diagnostic("transformation_invalid", `command ${request.commandId} was rejected`)]
              ))
      })
    })
  )
}
