/**
 * Lowering of composition rules: what depends only on sealed content
 * (immutable values) is prepared once per sealed object — a rule's local and
 * external IDs, node count and depth, its expansion IDs, its members renamed
 * per anchor with bindings resolved and timing set for the scope. A
 * {@link Preparation} value holds these memo tables; it is owned by a
 * resolution cache (`ResolutionCache.ts`), not by this module.
 *
 * @since 0.1.0
 */
import { isSequenceScope } from "./BundleCompiler.js"
import { type CompositionTraceEntry, ledgerEntrySnapshotJson } from "./Effective.js"
import { ExpansionIds, memberId } from "./Expansion.js"
import { flat } from "./FingerprintText.js"
import type { ClosedCompositionRule, LedgerEntry } from "./ledger/Ledger.js"
import type { EffectComponent } from "./schema/Card.js"
import type { Requirements } from "./schema/Transformation.js"

/**
 * Requirements as their four lists, an absent one empty: every requirement the resolver checks on
 * each resolution has this one shape (the sealed objects have as many shapes as combinations of
 * present lists, which made the check's reads polymorphic).
 */
export interface RequirementLists {
  readonly requiredTags: ReadonlyArray<string>
  readonly excludedTags: ReadonlyArray<string>
  readonly requiredCapabilities: ReadonlyArray<string>
  readonly excludedCapabilities: ReadonlyArray<string>
}

const NONE: ReadonlyArray<string> = Object.freeze([])

/** The four lists of `req` (undefined when there is no requirement). */
export const requirementLists = (req: Requirements | undefined): RequirementLists | undefined =>
  req === undefined ? undefined : {
    requiredTags: req.requiredTags ?? NONE,
    excludedTags: req.excludedTags ?? NONE,
    requiredCapabilities: req.requiredCapabilities ?? NONE,
    excludedCapabilities: req.excludedCapabilities ?? NONE
  }

/** A trace entry and its canonical JSON, built once per (entry, rule, anchor key). */
export interface CachedTrace {
  readonly trace: CompositionTraceEntry
  readonly json: string
}

/** One expansion's members, lowered. */
export interface Lowered {
  /** Top-level members, renamed, bindings resolved, timing set for the scope. */
  readonly members: ReadonlyArray<EffectComponent>
  /** Every generated ID (members and nested aliases), in member order. */
  readonly ids: ReadonlyArray<string>
  /**
   * External bound targets (`$anchor` or an explicit ID): generated ID of the
   * binding component → target ID. Bindings to the bundle's own members are
   * local and checked by the compiler on the composed container.
   */
  readonly bindings: ReadonlyArray<readonly [string, string]>
}

/** A sealed rule, prepared. */
export interface PreparedRule {
  readonly closed: ClosedCompositionRule
  /** The rule's `when`, as lists. */
  readonly when: RequirementLists | undefined
  readonly sequence: boolean
  readonly usesAnchor: boolean
  readonly localIds: ReadonlySet<string>
  readonly externalIds: ReadonlySet<string>
  /** Nodes one expansion adds (children included). */
  readonly nodes: number
  /** Depth of the member subtrees (a member alone is 1). */
  readonly depth: number
  readonly ids: ExpansionIds
  /** anchor ID (or sequence anchor ID) → lowered members. */
  readonly lowered: Map<string, Lowered>
}

/** A sealed ledger entry, prepared. */
export interface PreparedEntry {
  readonly rules: ReadonlyArray<PreparedRule>
  /** The entry's `requirements`, as lists. */
  readonly requirements: RequirementLists | undefined
  /** Canonical JSON of the entry's fingerprint snapshot (flat: it is part of every fingerprint document). */
  readonly json: string
  /** Trace entries (and their canonical JSON) by rule index, then anchor key. */
  readonly traces: ReadonlyArray<Map<string, CachedTrace>>
}

const subtreeStats = (cs: ReadonlyArray<EffectComponent>, ids: Set<string>): { nodes: number; depth: number } => {
  let nodes = 0
  let depth = 0
  for (const c of cs) {
    ids.add(c.componentId)
    nodes++
    if (c.children !== undefined && c.children.length > 0) {
      const s = subtreeStats(c.children, ids)
      nodes += s.nodes
      depth = Math.max(depth, 1 + s.depth)
    } else depth = Math.max(depth, 1)
  }
  return { nodes, depth }
}

const renameTree = (
  cs: ReadonlyArray<EffectComponent>,
  expansion: string,
  anchorId: string | undefined,
  rule: PreparedRule,
  ids: Array<string>,
  bindings: Array<readonly [string, string]>
): Array<EffectComponent> =>
  cs.map((c) => {
    const id = memberId(expansion, c.componentId)
    ids.push(id)
    let effect = c.effect
    if (effect.type === "APPLY_STATUS" && effect.payloadBindings !== undefined) {
      effect = {
        ...effect,
        payloadBindings: effect.payloadBindings.map((b) => {
          const src = b.cardEffectComponentId
          const local = src !== "$anchor" && !rule.externalIds.has(src) && rule.localIds.has(src)
          const target = src === "$anchor" ? (anchorId ?? src) : local ? memberId(expansion, src) : src
          if (!local) bindings.push([id, target])
          return target === src ? b : { parameterId: b.parameterId, cardEffectComponentId: target }
        })
      }
    }
    const out: EffectComponent = { ...c, componentId: id, effect }
    return c.children === undefined
      ? out
      : { ...out, children: renameTree(c.children, expansion, anchorId, rule, ids, bindings) }
  })

/** The members of one expansion of `rule` at anchor key `key` (memoized on the prepared rule). */
export const lower = (rule: PreparedRule, key: string, anchorId: string | undefined): Lowered => {
  let l = rule.lowered.get(key)
  if (l === undefined) {
    const expansion = rule.ids.of(key)
    const ids: Array<string> = []
    const bindings: Array<readonly [string, string]> = []
    let members = renameTree(rule.closed.bundle.components, expansion, anchorId, rule, ids, bindings)
    const scope = rule.closed.rule.scope
    if (!rule.sequence) {
      const childTiming = scope === "BeforeImpact" ? "BeforeParentImpact" : "AfterParentImpact"
      const executionScope = scope === "OncePerProc" ? "OncePerParentProc" : "PerImpact"
      members = members.map((m) => ({ ...m, childTiming, executionScope }))
    }
    l = { members, ids, bindings }
    rule.lowered.set(key, l)
  }
  return l
}

/** Prepared rules and entries and composed anchors, memoized per immutable sealed object. */
export class Preparation {
  private readonly rules = new WeakMap<ClosedCompositionRule, PreparedRule>()
  private readonly entries = new WeakMap<LedgerEntry, PreparedEntry>()
  private readonly attached = new WeakMap<EffectComponent, WeakMap<ReadonlyArray<EffectComponent>, EffectComponent>>()

  /** A sealed rule, prepared. */
  rule(closed: ClosedCompositionRule): PreparedRule {
    let p = this.rules.get(closed)
    if (p === undefined) {
      const localIds = new Set<string>()
      const stats = subtreeStats(closed.bundle.components, localIds)
      const bindings = closed.rule.effectBindings ?? {}
      p = {
        closed,
        when: requirementLists(closed.rule.when),
        sequence: isSequenceScope(closed.rule.scope),
        usesAnchor: Object.values(bindings).includes("$anchor"),
        localIds,
        externalIds: new Set(closed.externalIds),
        nodes: stats.nodes,
        depth: stats.depth,
        ids: new ExpansionIds(closed.rule.namespace),
        lowered: new Map()
      }
      this.rules.set(closed, p)
    }
    return p
  }

  /**
   * A sealed entry, prepared (its rules and the canonical JSON of its fingerprint snapshot).
   * `keep: false` (a transient candidate's entry, see `ResolveOptions.transient`): an entry not
   * prepared before is prepared for this call only, not memoized.
   */
  entry(entry: LedgerEntry, keep = true): PreparedEntry {
    let p = this.entries.get(entry)
    if (p === undefined) {
      const rules = entry.closedCompositionRules.map((r) => this.rule(r))
      p = {
        rules,
        requirements: requirementLists(entry.requirements),
        json: flat(ledgerEntrySnapshotJson(entry)),
        traces: rules.map(() => new Map())
      }
      if (keep) this.entries.set(entry, p)
    }
    return p
  }

  /**
   * An anchor with an expansion's members appended to its children. Memoized
   * per (anchor object, lowered members): both are immutable and reused between
   * resolutions, so the composed anchor (and its serialization) is too.
   */
  attach(anchor: EffectComponent, members: ReadonlyArray<EffectComponent>): EffectComponent {
    let byMembers = this.attached.get(anchor)
    if (byMembers === undefined) {
      byMembers = new WeakMap()
      this.attached.set(anchor, byMembers)
    }
    let out = byMembers.get(members)
    if (out === undefined) {
      out = { ...anchor, children: anchor.children === undefined ? [...members] : [...anchor.children, ...members] }
      byMembers.set(members, out)
    }
    return out
  }
}
