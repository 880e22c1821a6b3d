/**
 * The document shapes the workbench reads: the same JSON documents the CLI
 * prints with `--format json` (`inspect`, `discover`, `assess`, `run`,
 * `ledger …`) and the Hallyu Hex player views. Only the fields the page
 * renders are listed, structurally, so the page depends on the public
 * documents and never on server internals.
 *
 * @since 0.1.0
 */

export interface DiagnosticDoc {
  readonly code: string
  readonly severity?: string | undefined
  readonly message: string
  readonly subject?: string | undefined
  readonly transformationId?: string | undefined
  readonly ruleId?: string | undefined
}

export interface ConditionDoc {
  readonly fact: string
  readonly statusId?: string | undefined
  readonly value?: number | undefined
  readonly not?: boolean | undefined
}

export interface EffectDoc {
  readonly type: string
  readonly amount?: number | undefined
  readonly statusId?: string | undefined
  readonly stacks?: number | undefined
  readonly duration?: number | undefined
  readonly target: string
  readonly chance?: number | undefined
  readonly repeat?: number | undefined
  readonly conditions?: ReadonlyArray<ConditionDoc> | undefined
  readonly tags?: ReadonlyArray<string> | undefined
}

export interface ComponentDoc {
  readonly componentId: string
  readonly order: number
  readonly childTiming?: string | undefined
  readonly executionScope?: string | undefined
  readonly effect: EffectDoc
  readonly children?: ReadonlyArray<ComponentDoc> | undefined
}

/** One entry of `compositionTrace`: the ledger entry and rule that produced an expansion. */
export interface TraceDoc {
  readonly entryId: string
  readonly transformationId: string
  readonly ruleId: string
  readonly bundleId: string
  readonly scope: string
  readonly anchorId: string | null
  readonly expansionId: string
  readonly memberIds: ReadonlyArray<string>
}

export interface CompiledNodeDoc {
  readonly componentId: string
  readonly rank: number
  readonly children: ReadonlyArray<CompiledNodeDoc>
}

/** An effective card (`inspect`'s `effectiveBase`). */
export interface EffectiveDoc {
  readonly cardId: string
  readonly cost: number
  readonly tags?: ReadonlyArray<string> | undefined
  readonly metadata?: { readonly nameKey?: string; readonly artKey?: string } | undefined
  readonly components: ReadonlyArray<ComponentDoc>
  readonly compositionTrace: ReadonlyArray<TraceDoc>
  readonly compiled?: { readonly roots: ReadonlyArray<CompiledNodeDoc> } | undefined
  readonly fingerprint: string
}

export interface LedgerEntryDoc {
  readonly entryId: string
  readonly position: number
  readonly state: string
  readonly upgradeId: string
}

export interface LedgerDoc {
  readonly cardId: string
  readonly entries: ReadonlyArray<LedgerEntryDoc>
  readonly revision: number
}

export interface AssessmentDoc {
  readonly isCompatible: boolean
  readonly revision: number
  readonly changedComponentIds: ReadonlyArray<string>
  readonly compositionTrace: ReadonlyArray<TraceDoc>
  readonly diagnostics: ReadonlyArray<DiagnosticDoc>
}

export interface OfferDoc {
  readonly upgradeId: string
  readonly category?: string | undefined
  readonly slotId?: string | undefined
  readonly assessment: AssessmentDoc
}

/** `cardfx discover --format json`. */
export interface DiscoverDoc {
  readonly cardId: string
  readonly activity: string
  readonly revision: number
  readonly offers: ReadonlyArray<OfferDoc>
}

/** One executor event of `cardfx run --format json` (the fields the page shows). */
export interface ContributionDoc {
  readonly bucket: string
  readonly source: string
  readonly sourceId: string
  readonly holderId: string
  readonly direction: string
  readonly value: number
}

export type ExecutorEventDoc =
  | {
    readonly type: "impact"
    readonly nodeId: string
    readonly targetId: string
    readonly effect: string
    readonly base: number
    readonly amount: number
    readonly hpBefore: number
    readonly hpAfter: number
    readonly contributions: ReadonlyArray<ContributionDoc>
  }
  | {
    readonly type: "statusApplied"
    readonly nodeId: string
    readonly targetId: string
    readonly statusId: string
    readonly stacksBefore: number
    readonly stacks: number
    readonly remaining?: number | undefined
    readonly payload: Readonly<Record<string, number>>
  }
  | {
    readonly type: "skip"
    readonly nodeId: string
    readonly targetId?: string
    readonly reason: string
    readonly fact?: string
  }
  | { readonly type: string; readonly [k: string]: unknown }
