/**
 * The structural base of a card instance: the base card after the patches of
 * every active ledger entry, in ledger order, compiled by the common compiler
 * (steps 1–2 of the resolver). Bindings, requirements and selection read this
 * base only; generated members never enter it.
 *
 * The base after a sequence of sealed entries is a pure function of the base
 * card, the statuses and those entries, all immutable values: a
 * {@link StructuralStates} value derives each state once from its predecessor
 * and the next entry and keeps it (weakly), so unchanged component objects are
 * shared between resolutions. It is owned by a resolution cache
 * (`ResolutionCache.ts`), not by this module.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { type Diagnostic, diagnostic, type DiagnosticContext } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import { checkSymbolList } from "./BundleCompiler.js"
import type { CompiledContainer, CompiledNode } from "./Compiled.js"
import { compileContainer } from "./Compiler.js"
import type { CompositionTraceEntry } from "./Effective.js"
import type { LedgerEntry } from "./ledger/Ledger.js"
import type { Card, EffectComponent } from "./schema/Card.js"
import type { Status } from "./schema/Status.js"
import type { Patch } from "./schema/Transformation.js"

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

const numericUpdate = (
  op: "addNumber" | "setNumber",
  field: "amount" | "stacks" | "duration" | "repeat",
  value: number,
  statuses: ReadonlyMap<string, Status>
): Update =>
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
    else if (r.error !== undefined) {
      out.push(diagnostic("transformation_invalid", `patch ${p.op}: ${r.error}`, { ...ctx, subject: id }))
    } else s.components = r.list
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

/** Compiler diagnostics of a container, with the transformation and rule of the generated component they name. */
export const relay = (
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

/** Every node of a compiled tree by component ID. */
export const collectIds = (cs: ReadonlyArray<CompiledNode>, out: Map<string, CompiledNode>): void => {
  for (const c of cs) {
    out.set(c.componentId, c)
    collectIds(c.children, out)
  }
}

// ---------------------------------------------------------------------------
// Structural states

/** The card after some entries' patches (not compiled yet). */
export interface StructuralState {
  readonly cardId: string
  readonly statuses: ReadonlyMap<string, Status>
  readonly cost: number
  readonly tags: ReadonlyArray<string>
  readonly components: ReadonlyArray<EffectComponent>
  /** Patch problems met on the way to this state (carried forward). */
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

/** A structural state compiled: what requirements, selection and bindings read. */
export interface StructuralBase {
  readonly compiled: CompiledContainer
  readonly tagSet: ReadonlySet<string>
  readonly capSet: ReadonlySet<string>
  /** Every structural component by ID (children included). */
  readonly index: ReadonlyMap<string, CompiledNode>
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

/** Structural states and their compiled bases, memoized per immutable input objects. */
export class StructuralStates {
  private readonly bases = new WeakMap<Card, WeakMap<ReadonlyMap<string, Status>, StructuralState>>()
  private readonly next = new WeakMap<StructuralState, WeakMap<LedgerEntry, StructuralState>>()
  // A state after patches that raised no diagnostic depends on the patches only, not on the entry
  // that carries them: entries sealed from one transformation share their patches array, so the
  // state (and its compiled base) after re-applying an upgrade is the one already derived.
  private readonly nextByPatches = new WeakMap<StructuralState, WeakMap<ReadonlyArray<Patch>, StructuralState>>()
  private readonly compiled = new WeakMap<StructuralState, Either.Either<StructuralBase, ReadonlyArray<Diagnostic>>>()

  /** The state of a base card before any patch. */
  base(card: Card, statuses: ReadonlyMap<string, Status>): StructuralState {
    let byStatuses = this.bases.get(card)
    if (byStatuses === undefined) {
      byStatuses = new WeakMap()
      this.bases.set(card, byStatuses)
    }
    let st = byStatuses.get(statuses)
    if (st === undefined) {
      st = {
        cardId: card.cardId,
        statuses,
        cost: card.cost,
        tags: card.tags ?? [],
        components: card.components,
        diagnostics: []
      }
      byStatuses.set(statuses, st)
    }
    return st
  }

  /**
   * The state after one more entry's patches. `keep: false` (a transient candidate's entry): nothing
   * is memoized under the entry (the state found or derived by its patches still is).
   */
  after(prev: StructuralState, e: LedgerEntry, keep = true): StructuralState {
    // By patches first: a state found there is the entry's too, and nothing is memoized per entry (a
    // new entry is every apply command's; its memo entry would be one more `WeakMap.set` per command).
    const shared = this.nextByPatches.get(prev)?.get(e.patches)
    if (shared !== undefined) return shared
    let byEntry = this.next.get(prev)
    if (byEntry === undefined) {
      byEntry = new WeakMap()
      this.next.set(prev, byEntry)
    }
    let st = byEntry.get(e)
    if (st === undefined) {
      const s: Structural = { cost: prev.cost, tags: [...prev.tags], components: prev.components }
      const out: Array<Diagnostic> = [...prev.diagnostics]
      for (let i = 0; i < e.patches.length; i++) {
        applyPatch(s, e.patches[i] as Patch, prev.statuses, {
          transformationId: e.upgradeId,
          path: `/entries/${e.entryId}/patches/${i}`
        }, out)
      }
      st = {
        cardId: prev.cardId,
        statuses: prev.statuses,
        cost: s.cost,
        tags: s.tags,
        components: s.components,
        diagnostics: out
      }
      if (out.length !== prev.diagnostics.length) {
        // The diagnostics name the entry: this state is the entry's own.
        if (keep) byEntry.set(e, st)
      } else {
        let byPatches = this.nextByPatches.get(prev)
        if (byPatches === undefined) {
          byPatches = new WeakMap()
          this.nextByPatches.set(prev, byPatches)
        }
        byPatches.set(e.patches, st)
      }
    }
    return st
  }

  /** A state compiled by the common compiler, or the diagnostics met on the way. */
  compile(st: StructuralState): Either.Either<StructuralBase, ReadonlyArray<Diagnostic>> {
    let r = this.compiled.get(st)
    if (r === undefined) {
      const lists: Array<Diagnostic> = []
      if (st.diagnostics.length === 0) {
        checkSymbolList(st.tags, `${st.cardId}.tags`, { subject: st.cardId }, lists)
        checkComponentLists(st.components, lists)
      }
      if (st.diagnostics.length > 0) r = Either.left(st.diagnostics)
      else if (lists.length > 0) r = Either.left(lists)
      else {
        const c = compileContainer({ cardId: st.cardId, cost: st.cost, tags: st.tags, components: st.components }, {
          statuses: st.statuses
        })
        if (Either.isLeft(c)) r = Either.left(relay(c.left, st.cardId, "structural", new Map(), st.components))
        else {
          const index = new Map<string, CompiledNode>()
          collectIds(c.right.roots, index)
          r = Either.right({
            compiled: c.right,
            tagSet: new Set(c.right.tags),
            capSet: new Set(c.right.capabilities),
            index
          })
        }
      }
      this.compiled.set(st, r)
    }
    return r
  }
}
