/**
 * What the workbench asks of the server: the public HTTP API, one function
 * per endpoint, each resolving to the endpoint's JSON document or rejecting
 * with an `ApiError` (the API's `{ code, message, diagnostics }` body). The
 * views depend on this port only; `Client.ts` implements it with the typed
 * client `cardfx/client`.
 *
 * @since 0.1.0
 */
import type { DiagnosticDoc, DiscoverDoc, EffectiveDoc, ExecutorEventDoc, LedgerDoc } from "./model/Docs.js"
import type { GameActionDoc, HhxDeckDoc, PlayerViewDoc, Seat } from "./model/Hhx.js"

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly diagnostics: ReadonlyArray<DiagnosticDoc> = []
  ) {
    super(message)
  }
}

export interface RuntimeDoc {
  readonly engineVersion: number
  readonly contentHash: string
  readonly packages: ReadonlyArray<{ readonly packageId: string; readonly version: string }>
  readonly cards: ReadonlyArray<string>
  readonly transformations: ReadonlyArray<string>
  readonly activities: ReadonlyArray<string>
  readonly statuses: ReadonlyArray<string>
}

export interface CardListItemDoc {
  readonly cardId: string
  /** The card's localization key (cards carry keys, not display names). */
  readonly nameKey?: string | undefined
  readonly cost: number
  readonly tags: ReadonlyArray<string>
}

/** `cardfx inspect --format json`'s `inspection`. */
export interface InspectDoc {
  readonly cardId: string
  readonly ledger: LedgerDoc
  readonly effectiveBase: EffectiveDoc
}

/** `GET /v1/instances/{instanceId}`. */
export interface InstanceDoc {
  readonly instanceId: string
  readonly cardId: string
  readonly branch: string
  readonly revision: number
  readonly ledger: LedgerDoc
  readonly effective: EffectiveDoc
}

export interface HistoryEventDoc {
  readonly sequence: number
  readonly branch: string
  readonly revision: number
  readonly commandId: string
  readonly kind: string
  readonly body: {
    readonly command?: { readonly kind: string; readonly upgradeId?: string; readonly entryId?: string }
  }
}

export type LedgerCommand =
  | { readonly kind: "apply"; readonly upgradeId: string }
  | { readonly kind: "remove"; readonly entryId: string }
  | { readonly kind: "replace"; readonly entryId: string; readonly upgradeId: string }

export interface CommandOutcomeDoc {
  readonly status: string
  readonly revision: number
  readonly changedComponentIds: ReadonlyArray<string>
  readonly diagnostics: ReadonlyArray<DiagnosticDoc>
}

export interface BranchDoc {
  readonly name: string
  readonly parent: string
  readonly forkSequence: number
}

export interface RunStepDoc {
  readonly index: number
  readonly op: string
  readonly events: ReadonlyArray<ExecutorEventDoc>
  readonly fingerprint: string
}

/** `cardfx run --format json`'s `report`. */
export interface RunReportDoc {
  readonly seed: number
  readonly steps: ReadonlyArray<RunStepDoc>
}

/** Every Hallyu Hex game endpoint's answer. */
export interface GameDoc {
  readonly gameId: string
  readonly step: number
  readonly seed: string
  readonly decks: readonly [string, string] | null
  readonly fingerprint: string
  readonly views: readonly [PlayerViewDoc, PlayerViewDoc]
  readonly toAct: Seat | null
  readonly legalActions: ReadonlyArray<GameActionDoc>
  readonly result: { readonly winner: Seat | null; readonly reason: string } | null
}

export interface ExplainDoc {
  readonly actionId: string
  readonly legal: boolean
  readonly reason: string | null
  readonly message: string | null
}

/** The game log (`cardfx replay` reads it). */
export interface GameLogDoc {
  readonly seed: string
  readonly decks: readonly [string, string] | null
  readonly actions: ReadonlyArray<string>
  /** The initial state's fingerprint, then one after every action. */
  readonly fingerprints: ReadonlyArray<string>
}

export interface Api {
  readonly runtime: () => Promise<RuntimeDoc>
  readonly cards: () => Promise<ReadonlyArray<CardListItemDoc>>
  readonly effective: (cardId: string) => Promise<InspectDoc>
  readonly discover: (
    body: { readonly cardId: string; readonly activity: string; readonly instanceId?: string; readonly branch?: string }
  ) => Promise<DiscoverDoc>
  readonly instance: (instanceId: string, branch: string) => Promise<InstanceDoc>
  readonly history: (instanceId: string, branch: string) => Promise<ReadonlyArray<HistoryEventDoc>>
  readonly command: (
    instanceId: string,
    body: {
      readonly commandId: string
      readonly cardId: string
      readonly branch: string
      readonly expectedRevision: number
      readonly activity: string
      readonly command: LedgerCommand
    }
  ) => Promise<CommandOutcomeDoc>
  readonly branches: () => Promise<ReadonlyArray<BranchDoc>>
  readonly createBranch: (
    instanceId: string,
    body: { readonly name: string; readonly parent: string }
  ) => Promise<BranchDoc>
  readonly runScenario: (body: unknown) => Promise<RunReportDoc>
  readonly deck: () => Promise<HhxDeckDoc>
  readonly newGame: (seed: string) => Promise<GameDoc>
  readonly act: (gameId: string, actionId: string, expectedStep: number) => Promise<GameDoc>
  readonly explain: (gameId: string, actionId: string) => Promise<ExplainDoc>
  readonly log: (gameId: string) => Promise<GameLogDoc>
}
