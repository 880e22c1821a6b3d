/**
 * A card's components as the tree the workbench draws: roots in execution
 * order (BeforeSequence roots, the base roots, AfterSequence roots), children
 * under their anchor in execution order, each node marked with where it came
 * from — the base card, or the ledger entry and rule of `compositionTrace`
 * that produced it — and whether the last command changed it.
 *
 * @since 0.1.0
 */
import type { CompiledNodeDoc, ComponentDoc, EffectDoc, EffectiveDoc, TraceDoc } from "./Docs.js"

export type Origin =
  | { readonly kind: "base" }
  | {
    readonly kind: "rule"
    readonly entryId: string
    readonly transformationId: string
    readonly ruleId: string
    readonly bundleId: string
    readonly scope: string
  }

export interface TreeNode {
  readonly componentId: string
  /** `root`, or the child's timing, e.g. `AfterParentImpact · PerImpact`. */
  readonly placement: string
  /** A child's timing and execution scope (a root: null). */
  readonly timing: { readonly childTiming: string; readonly executionScope: string } | null
  /** The rule scope that placed it (`AfterImpact`, `BeforeSequence`, …), or `base`. */
  readonly scope: string
  readonly summary: string
  readonly origin: Origin
  readonly changed: boolean
  readonly children: ReadonlyArray<TreeNode>
}

/** `6 DAMAGE → TARGET`, `APPLY_STATUS burning ×1, 3 turns → TARGET if target.alive`. */
export const effectSummary = (e: EffectDoc): string => {
  const parts: Array<string> = []
  if (e.type === "APPLY_STATUS") {
    parts.push(`APPLY_STATUS ${e.statusId ?? "?"}`)
    if (e.stacks !== undefined) parts.push(`${e.stacks} stack${e.stacks === 1 ? "" : "s"}`)
    if (e.duration !== undefined) parts.push(`${e.duration} turn${e.duration === 1 ? "" : "s"}`)
  } else {
    parts.push(`${e.type} ${e.amount ?? 0}`)
  }
  let s = `${parts.join(", ")} → ${e.target}`
  if (e.repeat !== undefined && e.repeat !== 1) s += ` ×${e.repeat}`
  if (e.chance !== undefined && e.chance !== 1) s += ` (${Math.round(e.chance * 100)}%)`
  const conds = (e.conditions ?? []).map((c) =>
    `${c.not === true ? "not " : ""}${c.fact}${c.statusId !== undefined ? ` ${c.statusId}` : ""}${
      c.value !== undefined ? ` ${c.value}` : ""
    }`
  )
  if (conds.length > 0) s += ` if ${conds.join(" and ")}`
  return s
}

/** Which trace entry produced each member component (member IDs, and their descendants). */
export const originIndex = (trace: ReadonlyArray<TraceDoc>): ReadonlyMap<string, TraceDoc> => {
  const m = new Map<string, TraceDoc>()
  for (const t of trace) for (const id of t.memberIds) m.set(id, t)
  return m
}

const rankIndex = (roots: ReadonlyArray<CompiledNodeDoc> | undefined): ReadonlyMap<string, number> => {
  const m = new Map<string, number>()
  const walk = (ns: ReadonlyArray<CompiledNodeDoc>): void => {
    ns.forEach((n, i) => {
      m.set(n.componentId, i)
      walk(n.children)
    })
  }
  if (roots !== undefined) walk(roots)
  return m
}

/** Siblings in execution order: the compiled form's order when present, else as listed. */
const ordered = (xs: ReadonlyArray<ComponentDoc>, ranks: ReadonlyMap<string, number>): ReadonlyArray<ComponentDoc> =>
  ranks.size === 0
    ? xs
    : xs
      .map((c, i) => ({ c, k: ranks.get(c.componentId) ?? Number.MAX_SAFE_INTEGER, i }))
      .sort((a, b) => a.k - b.k || a.i - b.i)
      .map((x) => x.c)

export const componentTree = (card: EffectiveDoc, changed: ReadonlyArray<string> = []): ReadonlyArray<TreeNode> => {
  const origins = originIndex(card.compositionTrace)
  const changedSet = new Set(changed)
  const ranks = rankIndex(card.compiled?.roots)
  const node = (c: ComponentDoc, isRoot: boolean, inherited: Origin): TreeNode => {
    const t = origins.get(c.componentId)
    const origin: Origin = t === undefined
      ? inherited
      : {
        kind: "rule",
        entryId: t.entryId,
        transformationId: t.transformationId,
        ruleId: t.ruleId,
        bundleId: t.bundleId,
        scope: t.scope
      }
    return {
      componentId: c.componentId,
      placement: isRoot ? "root" : `${c.childTiming ?? "AfterParentImpact"} · ${c.executionScope ?? "PerImpact"}`,
      timing: isRoot
        ? null
        : { childTiming: c.childTiming ?? "AfterParentImpact", executionScope: c.executionScope ?? "PerImpact" },
      scope: origin.kind === "rule" ? origin.scope : "base",
      summary: effectSummary(c.effect),
      origin,
      changed: changedSet.has(c.componentId),
      children: ordered(c.children ?? [], ranks).map((k) => node(k, false, origin))
    }
  }
  return ordered(card.components, ranks).map((c) => node(c, true, { kind: "base" }))
}

/** Every node of a tree, depth first. */
export const flatten = (nodes: ReadonlyArray<TreeNode>): ReadonlyArray<TreeNode> =>
  nodes.flatMap((n) => [n, ...flatten(n.children)])

/** The origin as one line: `e1 · core.ember.affinity / ember.damage (AfterImpact)`. */
export const originLabel = (o: Origin): string =>
  o.kind === "base" ? "base card" : `${o.entryId} · ${o.transformationId} / ${o.ruleId} (${o.scope})`
