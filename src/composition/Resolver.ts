/**
 * The resolver: composes a card instance's ledger into its
 * `EffectiveCardDefinition`. Pure core (`resolveEffectiveCard`), and a
 * `CardResolver` service at the edge that fails with the kernel's tagged
 * errors.
 *
 * Pipeline (the seed's "One authority, two layers"):
 * 1. the patches of every active entry, in ledger order, over the base card;
 * 2. that structural base compiled by the common compiler;
 * 3. every entry's `requirements` checked on the structural composition
 *    (which includes what the entry itself added);
 * 4. rules chosen by `when`, anchors by `selector` over structural ROOT
 *    effects only (generated effects never feed selection);
 * 5. expansions in the seed's order — entries in ledger order, rules by
 *    `priority` then `ruleId`, anchors and members by `order` then
 *    `componentId` — lowered per scope through compiler ranks
 *    (BeforeSequence roots: negative ranks; AfterSequence roots and all
 *    children: positive ranks, so they follow what was already there);
 * 6. the composed container compiled again; the result and its fingerprint.
 * No gameplay runs and no RNG is drawn.
 *
 * Compiler diagnostics of the composed container keep their specific code
 * when the code names a limit, identity or binding problem
 * (`component_collision`, `node_budget`, `nesting_limit`, `repeat_limit`,
 * `order_overflow`, `symbol_limit`, `list_limit`, `invalid_binding`,
 * `template_unbound`, `contradiction`), with the transformation and rule added
 * when a generated ID is involved; any other compiler code is relayed as
 * `invalid_composition` with the compiler's code in `details.compilerCode`.
 * A patch whose target is gone (e.g. after a hot reload of the base card) is
 * `invalid_composition` too.
 *
 * `match_limit`: one rule's selector matching more than
 * `Limits.matchesPerRule` (64) structural root effects on one card, for every
 * rule that expands per anchor (AfterImpact, BeforeImpact, OncePerProc) and for
 * sequence rules that bind `$anchor`. `details: { limit, actual }`.
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto"
import { Context, Effect, Either, Layer } from "effect"
import { type Diagnostic, type DiagnosticContext, diagnostic } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import { type CardfxError, errorFromDiagnostic } from "../kernel/Errors.js"
import { Limits } from "../kernel/Limits.js"
import { checkSymbolList, isSequenceScope } from "./BundleCompiler.js"
import type { CompiledContainer, CompiledNode } from "./Compiled.js"
import { compileContainer } from "./Compiler.js"
import { canonicalJson } from "../kernel/Canonical.js"
import { type CompositionTraceEntry, type EffectiveCardDefinition, ledgerEntrySnapshot } from "./Effective.js"
import { ExpansionIds, memberId, sequenceAnchorId } from "./Expansion.js"
import { activeEntries, type CardLedger, type ClosedCompositionRule, type LedgerEntry, removeEntry } from "./ledger/Ledger.js"
import type { Card, EffectComponent } from "./schema/Card.js"
import { ENGINE_VERSION } from "./schema/Package.js"
import type { Status } from "./schema/Status.js"
import type { Patch, Requirements } from "./schema/Transformation.js"

/** What the resolver composes: a base card, its ledger and the statuses to check references against. */
export interface ResolveInput {
  readonly baseCard: Card
  readonly ledger: CardLedger
  readonly statuses: ReadonlyMap<string, Status>
}

// ---------------------------------------------------------------------------
// Preparation: everything that depends only on sealed content, computed once
// per sealed object (sealed values are immutable).

interface Lowered {
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

interface PreparedRule {
  readonly closed: ClosedCompositionRule
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

interface PreparedEntry {
  readonly rules: ReadonlyArray<PreparedRule>
  /** Canonical JSON of the entry's fingerprint snapshot. */
  readonly json: string
  /** Trace entries (and their canonical JSON) per rule index and anchor key. */
  readonly traces: Map<string, { readonly trace: CompositionTraceEntry; readonly json: string }>
}

const preparedRules = new WeakMap<ClosedCompositionRule, PreparedRule>()
const preparedEntries = new WeakMap<LedgerEntry, PreparedEntry>()

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

const prepareRule = (closed: ClosedCompositionRule): PreparedRule => {
  let p = preparedRules.get(closed)
  if (p === undefined) {
    const localIds = new Set<string>()
    const stats = subtreeStats(closed.bundle.components, localIds)
    const bindings = closed.rule.effectBindings ?? {}
    p = {
      closed,
      sequence: isSequenceScope(closed.rule.scope),
      usesAnchor: Object.values(bindings).includes("$anchor"),
      localIds,
      externalIds: new Set(closed.externalIds),
      nodes: stats.nodes,
      depth: stats.depth,
      ids: new ExpansionIds(closed.rule.namespace),
      lowered: new Map()
    }
    preparedRules.set(closed, p)
  }
  return p
}

const prepareEntry = (entry: LedgerEntry): PreparedEntry => {
  let p = preparedEntries.get(entry)
  if (p === undefined) {
    p = { rules: entry.closedCompositionRules.map(prepareRule), json: canonicalJson(ledgerEntrySnapshot(entry)), traces: new Map() }
    preparedEntries.set(entry, p)
  }
  return p
}

const baseJsonCache = new WeakMap<Card, string>()
const baseJson = (card: Card): string => {
  let s = baseJsonCache.get(card)
  if (s === undefined) {
    s = canonicalJson(card)
    baseJsonCache.set(card, s)
  }
  return s
}

// Canonical JSON of components, memoized per (immutable) component object, so
// untouched structural components and cached lowered members are serialized once.
const componentJsonCache = new WeakMap<EffectComponent, string>()
const componentJson = (c: EffectComponent): string => {
  let s = componentJsonCache.get(c)
  if (s !== undefined) return s
  const record = c as unknown as Record<string, unknown>
  // Default sort compares UTF-16 code units: the ordinal order.
  const keys = Object.keys(record).sort()
  s = "{"
  let first = true
  for (const k of keys) {
    const v = record[k]
    if (v === undefined) continue
    s += `${first ? "" : ","}${JSON.stringify(k)}:${k === "children" ? componentsJson(v as ReadonlyArray<EffectComponent>) : valueJson(v)}`
    first = false
  }
  s += "}"
  componentJsonCache.set(c, s)
  return s
}
// Field values (effects, capability lists) are immutable objects shared between
// component objects (a copy made to attach children keeps its effect object).
const valueJsonCache = new WeakMap<object, string>()
const valueJson = (v: unknown): string => {
  if (typeof v !== "object" || v === null) return canonicalJson(v)
  let s = valueJsonCache.get(v)
  if (s === undefined) {
    s = canonicalJson(v)
    valueJsonCache.set(v, s)
  }
  return s
}
const componentsJson = (cs: ReadonlyArray<EffectComponent>): string => {
  let s = "["
  for (let i = 0; i < cs.length; i++) s += (i > 0 ? "," : "") + componentJson(cs[i] as EffectComponent)
  return s + "]"
}

const traceJson = (t: CompositionTraceEntry): string =>
  `{"anchorId":${t.anchorId === null ? "null" : JSON.stringify(t.anchorId)},"bundleId":${JSON.stringify(t.bundleId)},` +
  `"entryId":${JSON.stringify(t.entryId)},"expansionId":${JSON.stringify(t.expansionId)},` +
  `"memberIds":${JSON.stringify(t.memberIds)},"ruleId":${JSON.stringify(t.ruleId)},"scope":${JSON.stringify(t.scope)},` +
  `"transformationId":${JSON.stringify(t.transformationId)}}`

// ---------------------------------------------------------------------------
// Lowering

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

const lower = (rule: PreparedRule, key: string, anchorId: string | undefined): Lowered => {
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

// An anchor with an expansion's members appended to its children. Memoized per
// (anchor object, lowered members): both are immutable and reused between
// resolutions, so the composed anchor (and its serialization) is too.
const attachedCache = new WeakMap<EffectComponent, WeakMap<ReadonlyArray<EffectComponent>, EffectComponent>>()
const attach = (anchor: EffectComponent, members: ReadonlyArray<EffectComponent>): EffectComponent => {
  let byMembers = attachedCache.get(anchor)
  if (byMembers === undefined) {
    byMembers = new WeakMap()
    attachedCache.set(anchor, byMembers)
  }
  let out = byMembers.get(members)
  if (out === undefined) {
    out = { ...anchor, children: anchor.children === undefined ? [...members] : [...anchor.children, ...members] }
    byMembers.set(members, out)
  }
  return out
}

// ---------------------------------------------------------------------------
// Patches

interface Structural {
  cost: number
  tags: Array<string>
  components: ReadonlyArray<EffectComponent>
}

type Update = (c: EffectComponent) => EffectComponent | string

/** Applies `f` to the component with `id` anywhere in the tree (copy on write); undefined when absent. */
const updateIn = (
  cs: ReadonlyArray<EffectComponent>,
  id: string,
  f: Update
): { list: Array<EffectComponent>; error?: string } | undefined => {
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as EffectComponent
    if (c.componentId === id) {
      const r = f(c)
      if (typeof r === "string") return { list: [...cs], error: r }
      const list = [...cs]
      list[i] = r
      return { list }
    }
    if (c.children !== undefined) {
      const inner = updateIn(c.children, id, f)
      if (inner !== undefined) {
        if (inner.error !== undefined) return { list: [...cs], error: inner.error }
        const list = [...cs]
        list[i] = { ...c, children: inner.list }
        return { list }
      }
    }
  }
  return undefined
}

const removeIn = (cs: ReadonlyArray<EffectComponent>, id: string): Array<EffectComponent> | undefined => {
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as EffectComponent
    if (c.componentId === id) return [...cs.slice(0, i), ...cs.slice(i + 1)]
    if (c.children !== undefined) {
      const inner = removeIn(c.children, id)
      if (inner !== undefined) {
        const list = [...cs]
        const { children: _children, ...rest } = c
        list[i] = inner.length > 0 ? { ...c, children: inner } : rest
        return list
      }
    }
  }
  return undefined
}

const numericUpdate =
  (op: "addNumber" | "setNumber", field: "amount" | "stacks" | "duration" | "repeat", value: number, statuses: ReadonlyMap<string, Status>): Update =>
  (c) => {
    const e = c.effect
    let current: number | undefined
    if (field === "amount") {
      if (e.type === "APPLY_STATUS") return `component ${c.componentId} has no amount (it applies a status)`
      current = e.amount
    } else if (field === "repeat") current = e.repeat ?? 1
    else {
      if (e.type !== "APPLY_STATUS") return `component ${c.componentId} has no ${field} (it is not APPLY_STATUS)`
      current = field === "stacks" ? (e.stacks ?? 1) : (e.duration ?? statuses.get(e.statusId)?.defaultDuration)
      if (current === undefined && op === "addNumber") return `component ${c.componentId} has no duration to add to`
    }
    const next = op === "addNumber" ? (current ?? 0) + value : value
    return { ...c, effect: { ...e, [field]: next } as EffectComponent["effect"] }
  }

const applyPatch = (
  s: Structural,
  p: Patch,
  statuses: ReadonlyMap<string, Status>,
  ctx: DiagnosticContext,
  out: Array<Diagnostic>
): void => {
  const missing = (id: string): void => {
    out.push(
      diagnostic("invalid_composition", `patch ${p.op} targets component ${id}, which the card does not have`, {
        ...ctx,
        subject: id
      })
    )
  }
  const update = (id: string, f: Update): void => {
    const r = updateIn(s.components, id, f)
    if (r === undefined) missing(id)
    else if (r.error !== undefined) out.push(diagnostic("transformation_invalid", `patch ${p.op}: ${r.error}`, { ...ctx, subject: id }))
    else s.components = r.list
  }
  switch (p.op) {
    case "addTags":
      for (const t of p.tags) if (!s.tags.includes(t)) s.tags.push(t)
      return
    case "removeTags":
      s.tags = s.tags.filter((t) => !p.tags.includes(t))
      return
    case "addCapabilities":
      return update(p.componentId, (c) => {
        const caps = [...(c.capabilityIds ?? [])]
        for (const x of p.capabilityIds) if (!caps.includes(x)) caps.push(x)
        return { ...c, capabilityIds: caps }
      })
    case "addNumber":
    case "setNumber":
      return update(p.componentId, numericUpdate(p.op, p.field, p.value, statuses))
    case "addCost":
      s.cost += p.value
      return
    case "setCost":
      s.cost = p.value
      return
    case "addComponent":
      if (p.parentId === undefined) {
        s.components = [...s.components, p.component]
        return
      }
      return update(p.parentId, (c) => ({ ...c, children: [...(c.children ?? []), p.component] }))
    case "removeComponent": {
      const r = removeIn(s.components, p.componentId)
      if (r === undefined) return missing(p.componentId)
      s.components = r
      return
    }
  }
}

// ---------------------------------------------------------------------------
// Requirements and selection

/** Requirement failures of `req` against a set of tags and capabilities. */
export const checkRequirementsOn = (
  req: Requirements | undefined,
  tags: ReadonlySet<string>,
  capabilities: ReadonlySet<string>,
  ctx: DiagnosticContext,
  out: Array<Diagnostic>
): void => {
  if (req === undefined) return
  const who = ctx.ruleId !== undefined ? `rule ${ctx.ruleId}` : `transformation ${ctx.transformationId ?? ""}`
  for (const t of req.requiredTags ?? [])
    if (!tags.has(t)) out.push(diagnostic("missing_tag", `${who} requires tag ${t}`, { ...ctx, subject: t }))
  for (const t of req.excludedTags ?? [])
    if (tags.has(t)) out.push(diagnostic("excluded_tag", `${who} excludes tag ${t}`, { ...ctx, subject: t }))
  for (const c of req.requiredCapabilities ?? [])
    if (!capabilities.has(c)) out.push(diagnostic("missing_capability", `${who} requires capability ${c}`, { ...ctx, subject: c }))
  for (const c of req.excludedCapabilities ?? [])
    if (capabilities.has(c)) out.push(diagnostic("excluded_capability", `${who} excludes capability ${c}`, { ...ctx, subject: c }))
}

const holds = (req: Requirements | undefined, tags: ReadonlySet<string>, caps: ReadonlySet<string>): boolean => {
  if (req === undefined) return true
  for (const t of req.requiredTags ?? []) if (!tags.has(t)) return false
  for (const t of req.excludedTags ?? []) if (tags.has(t)) return false
  for (const c of req.requiredCapabilities ?? []) if (!caps.has(c)) return false
  for (const c of req.excludedCapabilities ?? []) if (caps.has(c)) return false
  return true
}

const selects = (rule: ClosedCompositionRule["rule"], root: CompiledNode): boolean => {
  const s = rule.selector
  if (s === undefined) return true
  if (s.effectTypes !== undefined && s.effectTypes.length > 0 && !s.effectTypes.includes(root.effect.type)) return false
  if (s.componentIds !== undefined && s.componentIds.length > 0 && !s.componentIds.includes(root.componentId)) return false
  if (s.requiredEffectTags !== undefined)
    for (const t of s.requiredEffectTags) if (!root.effect.tags.includes(t)) return false
  return true
}

// ---------------------------------------------------------------------------
// Compiler relay

const keptCompilerCodes: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  "component_collision",
  "node_budget",
  "nesting_limit",
  "repeat_limit",
  "order_overflow",
  "symbol_limit",
  "list_limit",
  "invalid_binding",
  "template_unbound",
  "contradiction"
])

const relay = (
  ds: ReadonlyArray<Diagnostic>,
  cardId: string,
  stage: "structural" | "composed",
  origin: ReadonlyMap<string, CompositionTraceEntry>,
  components: ReadonlyArray<EffectComponent>
): Array<Diagnostic> =>
  ds.map((d) => {
    // The compiler reports paths into the container; find the generated component they name, if any.
    const id = componentAtPath(components, d.path)
    const t = id !== undefined ? origin.get(id) : undefined
    const ctx: DiagnosticContext = {
      subject: id ?? d.subject ?? cardId,
      transformationId: t?.transformationId,
      ruleId: t?.ruleId,
      path: d.path,
      details: d.details
    }
    if (keptCompilerCodes.has(d.code)) return diagnostic(d.code, d.message, ctx)
    return diagnostic("invalid_composition", `the ${stage} container does not compile: ${d.message}`, {
      ...ctx,
      details: { ...(d.details ?? {}), compilerCode: d.code }
    })
  })

const componentAtPath = (components: ReadonlyArray<EffectComponent>, path: string | undefined): string | undefined => {
  if (path === undefined) return undefined
  const m = /^\/components((?:\/\d+(?:\/children)?)+)/.exec(path)
  if (m === null || m[1] === undefined) return undefined
  let list: ReadonlyArray<EffectComponent> | undefined = components
  let found: EffectComponent | undefined
  for (const part of m[1].split("/").filter((x) => x !== "")) {
    if (part === "children") {
      list = found?.children
      continue
    }
    found = list?.[Number(part)]
    if (found === undefined) return undefined
  }
  return found?.componentId
}

// ---------------------------------------------------------------------------
// Resolution

interface Expansion {
  readonly entry: LedgerEntry
  readonly prepared: PreparedEntry
  readonly ruleIndex: number
  readonly rule: PreparedRule
  readonly anchor: string | null
  readonly key: string
}

const collectIds = (cs: ReadonlyArray<CompiledNode>, out: Map<string, CompiledNode>): void => {
  for (const c of cs) {
    out.set(c.componentId, c)
    collectIds(c.children, out)
  }
}


// ---------------------------------------------------------------------------
// Structural states. The structural base after a sequence of sealed entries is
// a pure function of the base card, the statuses and those entries, all
// immutable values; each state is derived once from its predecessor and the
// next entry and kept (weakly) on the predecessor, so unchanged component
// objects are shared between resolutions and their serializations are reused.

interface StructuralState {
  readonly cardId: string
  readonly statuses: ReadonlyMap<string, Status>
  readonly cost: number
  readonly tags: ReadonlyArray<string>
  readonly components: ReadonlyArray<EffectComponent>
  /** Patch problems met on the way to this state (carried forward). */
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

interface StructuralBase {
  readonly compiled: CompiledContainer
  readonly tagSet: ReadonlySet<string>
  readonly capSet: ReadonlySet<string>
  /** Every structural component by ID (children included). */
  readonly index: ReadonlyMap<string, CompiledNode>
}

const baseStates = new WeakMap<Card, WeakMap<ReadonlyMap<string, Status>, StructuralState>>()
const nextStates = new WeakMap<StructuralState, WeakMap<LedgerEntry, StructuralState>>()
const structuralBases = new WeakMap<StructuralState, Either.Either<StructuralBase, ReadonlyArray<Diagnostic>>>()

const baseState = (card: Card, statuses: ReadonlyMap<string, Status>): StructuralState => {
  let byStatuses = baseStates.get(card)
  if (byStatuses === undefined) {
    byStatuses = new WeakMap()
    baseStates.set(card, byStatuses)
  }
  let st = byStatuses.get(statuses)
  if (st === undefined) {
    st = { cardId: card.cardId, statuses, cost: card.cost, tags: card.tags ?? [], components: card.components, diagnostics: [] }
    byStatuses.set(statuses, st)
  }
  return st
}

const stateAfter = (prev: StructuralState, e: LedgerEntry): StructuralState => {
  let byEntry = nextStates.get(prev)
  if (byEntry === undefined) {
    byEntry = new WeakMap()
    nextStates.set(prev, byEntry)
  }
  let st = byEntry.get(e)
  if (st === undefined) {
    const s: Structural = { cost: prev.cost, tags: [...prev.tags], components: prev.components }
    const out: Array<Diagnostic> = [...prev.diagnostics]
    for (let i = 0; i < e.patches.length; i++)
      applyPatch(s, e.patches[i] as Patch, prev.statuses, { transformationId: e.upgradeId, path: `/entries/${e.entryId}/patches/${i}` }, out)
    st = { cardId: prev.cardId, statuses: prev.statuses, cost: s.cost, tags: s.tags, components: s.components, diagnostics: out }
    byEntry.set(e, st)
  }
  return st
}

// Symbol lists of the structural components: patches can grow them, and a base
// card built in memory never went through the Schemas (the compiler checks
// duplicates, not the list and symbol limits).
const checkComponentLists = (cs: ReadonlyArray<EffectComponent>, out: Array<Diagnostic>): void => {
  for (const c of cs) {
    checkSymbolList(c.capabilityIds, `${c.componentId}.capabilityIds`, { subject: c.componentId }, out)
    checkSymbolList(c.effect.tags, `${c.componentId}.effect.tags`, { subject: c.componentId }, out)
    if (c.children !== undefined) checkComponentLists(c.children, out)
  }
}

const structuralOf = (st: StructuralState): Either.Either<StructuralBase, ReadonlyArray<Diagnostic>> => {
  let r = structuralBases.get(st)
  if (r === undefined) {
    const lists: Array<Diagnostic> = []
    if (st.diagnostics.length === 0) {
      checkSymbolList(st.tags, `${st.cardId}.tags`, { subject: st.cardId }, lists)
      checkComponentLists(st.components, lists)
    }
    if (st.diagnostics.length > 0) r = Either.left(st.diagnostics)
    else if (lists.length > 0) r = Either.left(lists)
    else {
      const c = compileContainer({ cardId: st.cardId, cost: st.cost, tags: st.tags, components: st.components }, { statuses: st.statuses })
      if (Either.isLeft(c)) r = Either.left(relay(c.left, st.cardId, "structural", new Map(), st.components))
      else {
        const index = new Map<string, CompiledNode>()
        collectIds(c.right.roots, index)
        r = Either.right({ compiled: c.right, tagSet: new Set(c.right.tags), capSet: new Set(c.right.capabilities), index })
      }
    }
    structuralBases.set(st, r)
  }
  return r
}

// node:crypto's one-shot sha256: same digest as the kernel's `sha256Hex`, without
// allocating a Hash object per call (measured ~2x faster for a few KB).
const sha256 = (text: string): string => hash("sha256", text, "hex")

const fail = <A>(ds: Array<Diagnostic>): Either.Either<A, Array<Diagnostic>> => Either.left(ds)

/**
 * Composes a card instance: base card + sealed ledger → `EffectiveCardDefinition`,
 * or every diagnostic of the first failing stage. Reads nothing but its input:
 * the sealed ledger carries its rules and bundles.
 */
export const resolveEffectiveCard = (input: ResolveInput): Either.Either<EffectiveCardDefinition, Array<Diagnostic>> => {
  const { baseCard, ledger, statuses } = input
  const cardId = baseCard.cardId
  const entries = activeEntries(ledger)
  const out: Array<Diagnostic> = []

  if (ledger.cardId !== cardId)
    return fail([
      diagnostic("invalid_composition", `the ledger belongs to card ${ledger.cardId}, not ${cardId}`, { subject: ledger.cardId })
    ])
  for (const e of entries)
    if (e.pin.engineVersion !== ENGINE_VERSION)
      out.push(
        diagnostic("unsupported_version", `entry ${e.entryId} was sealed by engine ${e.pin.engineVersion}; this engine is ${ENGINE_VERSION}`, {
          subject: e.entryId,
          transformationId: e.upgradeId,
          details: { engineVersion: e.pin.engineVersion, expected: ENGINE_VERSION }
        })
      )
  if (out.length > 0) return fail(out)

  // 1–2. Patches in ledger order, then the structural base compiled by the common compiler.
  let state = baseState(baseCard, statuses)
  for (const e of entries) if (e.patches.length > 0) state = stateAfter(state, e)
  const st = structuralOf(state)
  if (Either.isLeft(st)) return fail([...st.left])
  const { compiled: base, tagSet, capSet, index } = st.right
  const s = state

  // 3. Requirements on the final structural composition.
  for (const e of entries) checkRequirementsOn(e.requirements, tagSet, capSet, { transformationId: e.upgradeId, subject: e.entryId }, out)
  if (out.length > 0) return fail(out)

  // 4. Rules and anchors, over structural roots only.
  const expansions: Array<Expansion> = []
  for (const e of entries) {
    const prepared = prepareEntry(e)
    if (prepared.rules.length === 0) continue
    const before = expansions.length
    for (let ruleIndex = 0; ruleIndex < prepared.rules.length; ruleIndex++) {
      const r = prepared.rules[ruleIndex] as PreparedRule
      const rule = r.closed.rule
      if (!holds(rule.when, tagSet, capSet)) continue
      const anchors: Array<CompiledNode> = []
      for (const root of base.roots) if (selects(rule, root)) anchors.push(root)
      if (anchors.length === 0) continue
      const ctx = { transformationId: e.upgradeId, ruleId: rule.ruleId }
      if ((!r.sequence || r.usesAnchor) && anchors.length > Limits.matchesPerRule) {
        out.push(
          diagnostic("match_limit", `rule ${rule.ruleId} matches ${anchors.length} root effects; the limit is ${Limits.matchesPerRule}`, {
            ...ctx,
            subject: e.entryId,
            details: { limit: Limits.matchesPerRule, actual: anchors.length }
          })
        )
        continue
      }
      if (r.sequence) {
        if (r.usesAnchor && anchors.length > 1) {
          out.push(
            diagnostic(
              "ambiguous_anchor",
              `rule ${rule.ruleId} binds $anchor in scope ${rule.scope} but its selector matches ${anchors.length} root effects (${anchors.map((a) => a.componentId).join(", ")})`,
              { ...ctx, subject: e.entryId, details: { matches: anchors.length } }
            )
          )
          continue
        }
        const anchor = r.usesAnchor ? (anchors[0] as CompiledNode).componentId : null
        expansions.push({ entry: e, prepared, ruleIndex, rule: r, anchor, key: anchor ?? sequenceAnchorId(e.upgradeId, rule.ruleId) })
      } else {
        for (const a of anchors) expansions.push({ entry: e, prepared, ruleIndex, rule: r, anchor: a.componentId, key: a.componentId })
      }
    }
    if (expansions.length === before && !out.some((d) => d.transformationId === e.upgradeId))
      out.push(
        diagnostic("no_matching_rule", `transformation ${e.upgradeId} has rules but none applies to card ${cardId}`, {
          transformationId: e.upgradeId,
          subject: e.entryId
        })
      )
  }
  if (out.length > 0) return fail(out)
  if (expansions.length > Limits.expansionsPerCard) {
    // Attributed to the expansion that crossed the limit.
    const x = expansions[Limits.expansionsPerCard] as Expansion
    return fail([
      diagnostic("expansion_limit", `card ${cardId} has ${expansions.length} expansions; the limit is ${Limits.expansionsPerCard}`, {
        subject: cardId,
        transformationId: x.entry.upgradeId,
        ruleId: x.rule.closed.rule.ruleId,
        details: { limit: Limits.expansionsPerCard, actual: expansions.length }
      })
    ])
  }

  // 5. Lowering.
  const n = expansions.length
  let nodes = base.nodeCount
  let crossing: DiagnosticContext | undefined
  const ranks = new Map<string, number>()
  const generated = new Set<string>()
  const origin = new Map<string, CompositionTraceEntry>()
  const trace: Array<CompositionTraceEntry> = []
  const traceParts: Array<string> = []
  const before: Array<EffectComponent> = []
  const after: Array<EffectComponent> = []
  const attached = new Map<string, Array<ReadonlyArray<EffectComponent>>>()
  for (let k = 0; k < n; k++) {
    const x = expansions[k] as Expansion
    const rule = x.rule.closed.rule
    const ctx = { transformationId: x.entry.upgradeId, ruleId: rule.ruleId }
    const l = lower(x.rule, x.key, x.anchor ?? undefined)
    const depth = x.rule.depth + (x.rule.sequence ? 0 : 1)
    if (depth > Limits.effectDepth)
      out.push(
        diagnostic("nesting_limit", `rule ${rule.ruleId} nests effects ${depth} deep; the limit is ${Limits.effectDepth}`, {
          ...ctx,
          subject: x.anchor ?? x.key,
          details: { limit: Limits.effectDepth, actual: depth }
        })
      )
    nodes += x.rule.nodes
    if (nodes > Limits.generatedNodes && crossing === undefined) crossing = ctx
    const traceKey = `${x.ruleIndex}\u0000${x.key}`
    let cachedTrace = x.prepared.traces.get(traceKey)
    if (cachedTrace === undefined) {
      const trace: CompositionTraceEntry = {
        entryId: x.entry.entryId,
        transformationId: x.entry.upgradeId,
        ruleId: rule.ruleId,
        bundleId: x.rule.closed.bundle.bundleId,
        scope: rule.scope,
        anchorId: x.anchor,
        expansionId: x.rule.ids.of(x.key),
        memberIds: l.ids
      }
      cachedTrace = { trace, json: traceJson(trace) }
      x.prepared.traces.set(traceKey, cachedTrace)
    }
    const t = cachedTrace.trace
    trace.push(t)
    traceParts.push(cachedTrace.json)
    for (const id of l.ids) {
      if (generated.has(id) || index.has(id))
        out.push(diagnostic("component_collision", `generated component ${id} collides with an existing component`, { ...ctx, subject: id }))
      generated.add(id)
      origin.set(id, t)
    }
    const rank = rule.scope === "BeforeSequence" ? k - n : k + 1
    for (const m of l.members) ranks.set(m.componentId, rank)
    if (rule.scope === "BeforeSequence") before.push(...l.members)
    else if (rule.scope === "AfterSequence") after.push(...l.members)
    else {
      const list = attached.get(x.key)
      if (list === undefined) attached.set(x.key, [l.members])
      else list.push(l.members)
    }
    // An external binding resolves against the structural base only (the seed:
    // "generated effects do not feed the selection of other rules"), so a
    // member generated by another expansion is never a valid target, whatever
    // the ledger order.
    for (const [from, target] of l.bindings) {
      const node = index.get(target)
      if (node === undefined || node.effect.type === "APPLY_STATUS")
        out.push(
          diagnostic(
            "invalid_binding",
            node === undefined
              ? generated.has(target)
                ? `binding of ${from} points at ${target}, a member generated by another expansion; bindings point at structural components only`
                : `binding of ${from} points at ${target}, which is not a structural component of card ${cardId}`
              : `binding of ${from} points at ${target}, which is not a numeric component`,
            { ...ctx, subject: target }
          )
        )
    }
  }
  if (nodes > Limits.generatedNodes)
    out.push(
      diagnostic("node_budget", `card ${cardId} composes to ${nodes} effect nodes; the budget is ${Limits.generatedNodes}`, {
        ...crossing,
        subject: cardId,
        details: { limit: Limits.generatedNodes, actual: nodes }
      })
    )
  if (out.length > 0) return fail(out)

  const roots: Array<EffectComponent> = [...before]
  for (const c of s.components) {
    const extra = attached.get(c.componentId)
    let root = c
    if (extra !== undefined) for (const members of extra) root = attach(root, members)
    roots.push(root)
  }
  roots.push(...after)

  // 6. The composed container, compiled again.
  const compiled =
    n === 0
      ? Either.right(base)
      : compileContainer({ cardId, cost: s.cost, tags: s.tags, components: roots }, { statuses, ranks, generatedIds: generated })
  if (Either.isLeft(compiled)) return fail(relay(compiled.left, cardId, "composed", origin, roots))
  const c = compiled.right

  let ledgerJson = "["
  for (let i = 0; i < entries.length; i++) ledgerJson += (i > 0 ? "," : "") + prepareEntry(entries[i] as LedgerEntry).json
  ledgerJson += "]"
  const tj = `[${traceParts.join(",")}]`
  const fingerprint = sha256(
    `{"baseCard":${baseJson(baseCard)},"components":${componentsJson(roots)},"compositionTrace":${tj},"engineVersion":${ENGINE_VERSION},"ledger":${ledgerJson}}`
  )

  return Either.right({
    engineVersion: ENGINE_VERSION,
    cardId,
    cost: c.cost,
    tags: c.tags,
    metadata: baseCard.metadata,
    components: roots,
    capabilities: c.capabilities,
    compositionTrace: trace,
    compiled: c,
    fingerprint
  })
}

/** The fingerprint document, spelled out (for tests and audits): its canonical JSON's sha256 is the fingerprint. */
export const fingerprintDocument = (input: ResolveInput, effective: EffectiveCardDefinition): unknown => ({
  engineVersion: effective.engineVersion,
  baseCard: input.baseCard,
  ledger: activeEntries(input.ledger).map(ledgerEntrySnapshot),
  components: effective.components,
  compositionTrace: effective.compositionTrace
})

/**
 * Checks that an entry can be removed: the ledger without it must still
 * compose. A failure that the current ledger does not have is a
 * `dependency_violation` naming the dependent transformation and, in
 * `details.cause`, the code it would fail with. Returns the ledger after the
 * removal.
 */
export const checkRemoval = (
  ledger: CardLedger,
  entryId: string,
  context: { readonly baseCard: Card; readonly statuses: ReadonlyMap<string, Status> }
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const removed = removeEntry(ledger, entryId)
  if (Either.isLeft(removed)) return removed
  const after = resolveEffectiveCard({ ...context, ledger: removed.right })
  if (Either.isRight(after)) return removed
  const now = resolveEffectiveCard({ ...context, ledger })
  const key = (d: Diagnostic) => `${d.code}\u0000${d.transformationId ?? ""}\u0000${d.ruleId ?? ""}\u0000${d.subject ?? ""}`
  const existing = new Set(Either.isLeft(now) ? now.left.map(key) : [])
  const fresh = after.left.filter((d) => !existing.has(key(d)))
  if (fresh.length === 0) return removed
  return Either.left(
    fresh.map((d) =>
      diagnostic(
        "dependency_violation",
        `removing entry ${entryId} breaks ${d.transformationId ?? "the card"}: ${d.message}`,
        {
          subject: entryId,
          transformationId: d.transformationId,
          ruleId: d.ruleId,
          details: { cause: d.code, ...(d.subject !== undefined ? { dependentSubject: d.subject } : {}) }
        }
      )
    )
  )
}

// ---------------------------------------------------------------------------
// Service

const firstError = (ds: ReadonlyArray<Diagnostic>): CardfxError =>
  // A Left always carries at least one diagnostic; the fallback keeps this total.
  errorFromDiagnostic(ds[0] ?? diagnostic("invalid_composition", "composition failed")) as CardfxError

const fromEither = <A>(r: Either.Either<A, ReadonlyArray<Diagnostic>>): Effect.Effect<A, CardfxError> =>
  Either.isRight(r) ? Effect.succeed(r.right) : Effect.fail(firstError(r.left))

/**
 * The resolver as a service. Failures are the kernel's tagged errors (the
 * first diagnostic of the failing stage; `resolveAll` gives every one).
 */
export class CardResolver extends Context.Tag("cardfx/CardResolver")<
  CardResolver,
  {
    readonly resolve: (input: ResolveInput) => Effect.Effect<EffectiveCardDefinition, CardfxError>
    readonly resolveAll: (input: ResolveInput) => Effect.Effect<EffectiveCardDefinition, ReadonlyArray<Diagnostic>>
    readonly checkRemoval: (
      ledger: CardLedger,
      entryId: string,
      context: { readonly baseCard: Card; readonly statuses: ReadonlyMap<string, Status> }
    ) => Effect.Effect<CardLedger, CardfxError>
  }
>() {
  /** The live implementation: pure, no requirements. */
  static readonly layer: Layer.Layer<CardResolver> = Layer.succeed(CardResolver, {
    resolve: (input) => fromEither(resolveEffectiveCard(input)),
    resolveAll: (input) => {
      const r = resolveEffectiveCard(input)
      return Either.isRight(r) ? Effect.succeed(r.right) : Effect.fail(r.left)
    },
    checkRemoval: (ledger, entryId, context) => fromEither(checkRemoval(ledger, entryId, context))
  })
}
