/**
 * The ledger store's values: the request a command is sent as, the outcome
 * it gets back, what an event records, the replay context, and the states,
 * branches and reports the store's reads return. Each shape is defined once,
 * here; the store's tables hold their canonical JSON.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Diagnostic } from "../../kernel/Diagnostic.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import { LedgerCommand } from "../ledger/Command.js"
import { type CardLedger, LedgerEntry } from "../ledger/Ledger.js"
import { Card } from "../schema/Card.js"
import { Status } from "../schema/Status.js"
import { RequestId } from "../schema/Symbols.js"

/** The branch every store has. */
export const MAIN = "main"

/**
 * A ledger command addressed to a card instance on a branch, with its
 * idempotence key. `expectedRevision` is optional: when stated, the command
 * is rejected with `revision_conflict` unless it is the instance's current
 * revision; when absent, the command applies to whatever is current. The
 * request's identity (its hash, checked on a retry) holds only what the
 * caller stated, so a retry of a request without `expectedRevision` after a
 * commit is still the same request.
 */
export const CommandRequest = Schema.Struct({
  commandId: RequestId,
  branch: RequestId,
  /** The card instance (a deck may hold several instances of one card). */
  instanceId: RequestId,
  /** The base card of the instance. */
  cardId: RequestId,
  expectedRevision: Schema.optional(Schema.NonNegativeInt),
  /** The activity (mode) the command runs in. */
  activity: RequestId,
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

/** What an event records besides its row columns: the delta the command made to the ledger. */
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
  /** The serialized effective card (JSON) and its fingerprint; absent at revision 0. */
  readonly effective: string | undefined
  readonly fingerprint: string | undefined
}

/**
 * The last snapshot row of an instance visible on a branch: what identifies
 * its ledger without reading it (global sequences are never reused, so the
 * row's sequence names exactly one ledger; its fingerprint is a second check).
 */
export interface InstanceHead {
  readonly instanceId: string
  readonly cardId: string
  readonly revision: number
  readonly sequence: number
  readonly fingerprint: string
}

/** An instance an event touched, on the branch the event was written to. */
export interface TouchedInstance {
  readonly branch: string
  readonly instanceId: string
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

/** Replay pages (`LedgerStore.replayPage`): events per page when none is asked, and at most. */
export const ReplayPaging = { defaultLimit: 500, maxLimit: 5000 } as const

/** History pages (`GET /v1/instances/{id}/history?from=&limit=`): events per page by default and at most. */
export const HistoryPaging = { defaultLimit: 200, maxLimit: 1000 } as const

/**
 * The work a replay page did (`LedgerStore.replayPage`), bounded whatever the history's length:
 * tests check it (no timing).
 */
export interface ReplayWork {
  /** The revision the state before the page started from: a checkpoint's, a cached ledger's, or 0. */
  readonly checkpoint: number
  /** Events folded onto it, up to the page (at most 255 past an active-entry checkpoint). */
  readonly folded: number
  /** Event rows read in all: the page's (at most `limit + 1` per link of the branch's chain), the folded ones, one or two lookups. */
  readonly eventRows: number
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

/** One check of `verify`: its name, whether it passed, and what it found. */
export interface VerifyCheck {
  readonly check: string
  readonly ok: boolean
  readonly problems: ReadonlyArray<string>
}

/** What `verify` found: `ok` when every check passed. */
export interface VerifyReport {
  readonly ok: boolean
  readonly dialect: "sqlite" | "pg"
  readonly checks: ReadonlyArray<VerifyCheck>
}
