/**
 * The normalized form the common compiler produces and the common executor
 * runs. Plain immutable data: every default is filled in, every list sorted,
 * every binding resolved to a number. Contract between compiler, resolver and
 * executor.
 *
 * Order: siblings (roots, or the children of one node) are sorted by
 * `(rank, order, componentId ordinal)`. `rank` is 0 for structural
 * components; the resolver gives expansion members other ranks so that
 * BeforeSequence roots run before structural roots (negative ranks),
 * AfterSequence roots after them, and AfterImpact children after the
 * children the anchor already had, each group in the seed's expansion order.
 *
 * @since 0.1.0
 */
import type { ChildTiming, Condition, EffectType, ExecutionScope, TargetKind } from "./schema/Card.js"

export interface CompiledEffect {
  readonly type: EffectType
  readonly target: TargetKind
  /** DAMAGE/HEAL: the effective card's number (the bucket pipeline's base). */
  readonly amount: number
  /** APPLY_STATUS only ("" otherwise). */
  readonly statusId: string
  /** APPLY_STATUS: stacks applied (default 1). */
  readonly stacks: number
  /** APPLY_STATUS: duration in turns; 0 means the status's default. */
  readonly duration: number
  /** APPLY_STATUS: payload parameter → the bound component's base amount, resolved at compile time. */
  readonly payload: Readonly<Record<string, number>>
  /** parameterId → bound component ID (kept for traces). */
  readonly payloadSources: Readonly<Record<string, string>>
  readonly chance: number
  readonly repeat: number
  readonly conditions: ReadonlyArray<Condition>
  /** Sorted, unique. */
  readonly tags: ReadonlyArray<string>
}

export interface CompiledNode {
  readonly componentId: string
  readonly order: number
  readonly rank: number
  /** 1 for roots. */
  readonly depth: number
  /** Sorted, unique. */
  readonly capabilityIds: ReadonlyArray<string>
  /** Children: when they run relative to the parent's numeric resolution (roots: "AfterParentImpact"). */
  readonly childTiming: ChildTiming
  /** Children: per impact or once per parent proc (roots: "PerImpact"). */
  readonly executionScope: ExecutionScope
  readonly effect: CompiledEffect
  /** Sorted by (rank, order, componentId). */
  readonly children: ReadonlyArray<CompiledNode>
}

export interface CompiledContainer {
  readonly cardId: string
  readonly cost: number
  /** Sorted, unique. */
  readonly tags: ReadonlyArray<string>
  /** Declared `capabilityIds` of every component ∪ `effect.<TYPE>` of root effects; sorted, unique. */
  readonly capabilities: ReadonlyArray<string>
  /** Sorted by (rank, order, componentId). */
  readonly roots: ReadonlyArray<CompiledNode>
  /** Every node, children included (≤ 4,096, repeats not multiplied). */
  readonly nodeCount: number
}
