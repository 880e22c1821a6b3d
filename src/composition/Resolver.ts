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
import { Context, Effect, Either, Layer } from "effect"
import { type Diagnostic, diagnostic, type DiagnosticContext } from "../kernel/Diagnostic.js"
import { type ChannelError, errorChannel } from "../kernel/ErrorChannel.js"
import { Limits } from "../kernel/Limits.js"
import { traced } from "../kernel/Tracing.js"
import type { CompiledNode } from "./Compiled.js"
import { compileContainer } from "./Compiler.js"
import { type CompositionTraceEntry, type EffectiveCardDefinition, ledgerEntrySnapshot } from "./Effective.js"
import { sequenceAnchorId } from "./Expansion.js"
import { sha256, traceJson } from "./FingerprintText.js"
import {
  activeEntries,
  type CardLedger,
  type ClosedCompositionRule,
  type LedgerEntry,
  removeEntry
} from "./ledger/Ledger.js"
import { type CachedTrace, lower, type PreparedEntry, type PreparedRule, type RequirementLists } from "./Lowering.js"
import { ResolutionCache } from "./ResolutionCache.js"
import type { Card, EffectComponent } from "./schema/Card.js"
import { ENGINE_VERSION } from "./schema/Package.js"
import type { Status } from "./schema/Status.js"
import type { Requirements } from "./schema/Transformation.js"
import { relay } from "./Structural.js"

/** How a resolution uses its cache. */
export interface ResolveOptions {
  /**
   * The ledger is a candidate that is resolved once and dropped (discovery's offers): what the
   * cache prepares from its entries that it did not hold yet is used for this resolution only.
   * A memo entry keyed by an object nobody keeps is garbage that V8's young-generation collector
   * still promotes (it keeps `WeakMap` values alive), and promoted temporaries teach V8 to
   * pretenure the code that allocates them (docs/engine-profile.md). The result is the same.
   */
  readonly transient?: boolean | undefined
}

/** What the resolver composes: a base card, its ledger and the statuses to check references against. */
export interface ResolveInput {
  readonly baseCard: Card
  readonly ledger: CardLedger
  readonly statuses: ReadonlyMap<string, Status>
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
  for (const t of req.requiredTags ?? []) {
    if (!tags.has(t)) out.push(diagnostic("missing_tag", `${who} requires tag ${t}`, { ...ctx, subject: t }))
  }
  for (const t of req.excludedTags ?? []) {
    if (tags.has(t)) out.push(diagnostic("excluded_tag", `${who} excludes tag ${t}`, { ...ctx, subject: t }))
  }
  for (const c of req.requiredCapabilities ?? []) {
    if (!capabilities.has(c)) {
      out.push(diagnostic("missing_capability", `${who} requires capability ${c}`, { ...ctx, subject: c }))
    }
  }
  for (const c of req.excludedCapabilities ?? []) {
    if (capabilities.has(c)) {
      out.push(diagnostic("excluded_capability", `${who} excludes capability ${c}`, { ...ctx, subject: c }))
    }
  }
}

/** Whether `req` holds (the prepared lists of a sealed requirement: one shape, read on every resolution). */
const holds = (req: RequirementLists | undefined, tags: ReadonlySet<string>, caps: ReadonlySet<string>): boolean => {
  if (req === undefined) return true
  const { requiredTags, excludedTags, requiredCapabilities, excludedCapabilities } = req
  for (let i = 0; i < requiredTags.length; i++) if (!tags.has(requiredTags[i] as string)) return false
  for (let i = 0; i < excludedTags.length; i++) if (tags.has(excludedTags[i] as string)) return false
  for (let i = 0; i < requiredCapabilities.length; i++) if (!caps.has(requiredCapabilities[i] as string)) return false
  for (let i = 0; i < excludedCapabilities.length; i++) if (caps.has(excludedCapabilities[i] as string)) return false
  return true
}

const selects = (rule: ClosedCompositionRule["rule"], root: CompiledNode): boolean => {
  const s = rule.selector
  if (s === undefined) return true
  if (s.effectTypes !== undefined && s.effectTypes.length > 0 && !s.effectTypes.includes(root.effect.type)) return false
  if (s.componentIds !== undefined && s.componentIds.length > 0 && !s.componentIds.includes(root.componentId)) {
    return false
  }
  if (s.requiredEffectTags !== undefined) {
    for (const t of s.requiredEffectTags) if (!root.effect.tags.includes(t)) return false
  }
  return true
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

/** The diagnostic context of an expansion: built only for a diagnostic (lowering runs on every resolution). */
const ctxOf = (x: Expansion): DiagnosticContext => ({
  transformationId: x.entry.upgradeId,
  ruleId: x.rule.closed.rule.ruleId
})

const fail = <A>(ds: Array<Diagnostic>): Either.Either<A, Array<Diagnostic>> => Either.left(ds)

/**
 * Composes a card instance: base card + sealed ledger → `EffectiveCardDefinition`,
 * or every diagnostic of the first failing stage. Reads nothing but its input:
 * the sealed ledger carries its rules and bundles. `cache` holds what earlier
 * resolutions prepared from the same immutable objects (see
 * `ResolutionCache.ts`); without one the resolution runs cold. The result is
 * the same either way.
 */
export const resolveEffectiveCard = (
  input: ResolveInput,
  cache: ResolutionCache = new ResolutionCache(),
  options?: ResolveOptions
): Either.Either<EffectiveCardDefinition, Array<Diagnostic>> => {
  const keep = options?.transient !== true
  const { baseCard, ledger, statuses } = input
  const cardId = baseCard.cardId
  const entries = activeEntries(ledger, cache.active)
  const out: Array<Diagnostic> = []

  if (ledger.cardId !== cardId) {
    return fail([
      diagnostic("invalid_composition", `the ledger belongs to card ${ledger.cardId}, not ${cardId}`, {
        subject: ledger.cardId
      })
    ])
  }
  for (const e of entries) {
    if (e.pin.engineVersion !== ENGINE_VERSION) {
      out.push(
        diagnostic(
          "unsupported_version",
          `entry ${e.entryId} was sealed by engine ${e.pin.engineVersion}; this engine is ${ENGINE_VERSION}`,
          {
            subject: e.entryId,
            transformationId: e.upgradeId,
            details: { engineVersion: e.pin.engineVersion, expected: ENGINE_VERSION }
          }
        )
      )
    }
  }
  if (out.length > 0) return fail(out)

  // 1–2. Patches in ledger order, then the structural base compiled by the common compiler.
  const structural = cache.structural
  let state = structural.base(baseCard, statuses)
  for (const e of entries) if (e.patches.length > 0) state = structural.after(state, e, keep)
  const st = structural.compile(state)
  if (Either.isLeft(st)) return fail([...st.left])
  const { compiled: base, tagSet, capSet, index } = st.right
  const s = state

  // Each entry prepared once per resolution (requirements and rules here, snapshot JSON for the fingerprint below).
  const preparedEntries: Array<PreparedEntry> = new Array(entries.length)
  for (let i = 0; i < entries.length; i++) {
    preparedEntries[i] = cache.preparation.entry(entries[i] as LedgerEntry, keep)
  }

  // 3. Requirements on the final structural composition.
  for (let i = 0; i < entries.length; i++) {
    // The context object and messages only for an entry whose requirements fail.
    if (holds((preparedEntries[i] as PreparedEntry).requirements, tagSet, capSet)) continue
    const e = entries[i] as LedgerEntry
    checkRequirementsOn(e.requirements, tagSet, capSet, { transformationId: e.upgradeId, subject: e.entryId }, out)
  }
  if (out.length > 0) return fail(out)

  // 4. Rules and anchors, over structural roots only.
  const expansions: Array<Expansion> = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as LedgerEntry
    const prepared = preparedEntries[i] as PreparedEntry
    if (prepared.rules.length === 0) continue
    const before = expansions.length
    for (let ruleIndex = 0; ruleIndex < prepared.rules.length; ruleIndex++) {
      const r = prepared.rules[ruleIndex] as PreparedRule
      const rule = r.closed.rule
      if (!holds(r.when, tagSet, capSet)) continue
      const anchors: Array<CompiledNode> = []
      for (const root of base.roots) if (selects(rule, root)) anchors.push(root)
      if (anchors.length === 0) continue
      if ((!r.sequence || r.usesAnchor) && anchors.length > Limits.matchesPerRule) {
        out.push(
          diagnostic(
            "match_limit",
            `rule ${rule.ruleId} matches ${anchors.length} root effects; the limit is ${Limits.matchesPerRule}`,
            {
              transformationId: e.upgradeId,
              ruleId: rule.ruleId,
              subject: e.entryId,
              details: { limit: Limits.matchesPerRule, actual: anchors.length }
            }
          )
        )
        continue
      }
      if (r.sequence) {
        if (r.usesAnchor && anchors.length > 1) {
          out.push(
            diagnostic(
              "ambiguous_anchor",
              `rule ${rule.ruleId} binds $anchor in scope ${rule.scope} but its selector matches ${anchors.length} root effects (${
                anchors.map((a) => a.componentId).join(", ")
              })`,
              {
                transformationId: e.upgradeId,
                ruleId: rule.ruleId,
                subject: e.entryId,
                details: { matches: anchors.length }
              }
            )
          )
          continue
        }
        const anchor = r.usesAnchor ? (anchors[0] as CompiledNode).componentId : null
        expansions.push({
          entry: e,
          prepared,
          ruleIndex,
          rule: r,
          anchor,
          key: anchor ?? sequenceAnchorId(e.upgradeId, rule.ruleId)
        })
      } else {
        for (const a of anchors) {
          expansions.push({ entry: e, prepared, ruleIndex, rule: r, anchor: a.componentId, key: a.componentId })
        }
      }
    }
    if (expansions.length === before && !out.some((d) => d.transformationId === e.upgradeId)) {
      out.push(
        diagnostic("no_matching_rule", `transformation ${e.upgradeId} has rules but none applies to card ${cardId}`, {
          transformationId: e.upgradeId,
          subject: e.entryId
        })
      )
    }
  }
  if (out.length > 0) return fail(out)
  if (expansions.length > Limits.expansionsPerCard) {
    // Attributed to the expansion that crossed the limit.
    const x = expansions[Limits.expansionsPerCard] as Expansion
    return fail([
      diagnostic(
        "expansion_limit",
        `card ${cardId} has ${expansions.length} expansions; the limit is ${Limits.expansionsPerCard}`,
        {
          subject: cardId,
          transformationId: x.entry.upgradeId,
          ruleId: x.rule.closed.rule.ruleId,
          details: { limit: Limits.expansionsPerCard, actual: expansions.length }
        }
      )
    ])
  }

  // 5. Lowering.
  const n = expansions.length
  let nodes = base.nodeCount
  let crossing: DiagnosticContext | undefined
  const ranks = new Map<string, number>()
  const generated = new Set<string>()
  const trace: Array<CompositionTraceEntry> = []
  const traceParts: Array<string> = []
  const before: Array<EffectComponent> = []
  const after: Array<EffectComponent> = []
  const attached = new Map<string, Array<ReadonlyArray<EffectComponent>>>()
  for (let k = 0; k < n; k++) {
    const x = expansions[k] as Expansion
    const rule = x.rule.closed.rule
    const l = lower(x.rule, x.key, x.anchor ?? undefined)
    const depth = x.rule.depth + (x.rule.sequence ? 0 : 1)
    if (depth > Limits.effectDepth) {
      out.push(
        diagnostic(
          "nesting_limit",
          `rule ${rule.ruleId} nests effects ${depth} deep; the limit is ${Limits.effectDepth}`,
          {
            ...ctxOf(x),
            subject: x.anchor ?? x.key,
            details: { limit: Limits.effectDepth, actual: depth }
          }
        )
      )
    }
    nodes += x.rule.nodes
    if (nodes > Limits.generatedNodes && crossing === undefined) crossing = ctxOf(x)
    const traces = x.prepared.traces[x.ruleIndex] as Map<string, CachedTrace>
    let cachedTrace = traces.get(x.key)
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
      traces.set(x.key, cachedTrace)
    }
    const t = cachedTrace.trace
    trace.push(t)
    traceParts.push(cachedTrace.json)
    for (const id of l.ids) {
      if (generated.has(id) || index.has(id)) {
        out.push(
          diagnostic("component_collision", `generated component ${id} collides with an existing component`, {
            ...ctxOf(x),
            subject: id
          })
        )
      }
      generated.add(id)
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
      if (node === undefined || node.effect.type === "APPLY_STATUS") {
        out.push(
          diagnostic(
            "invalid_binding",
            node === undefined
              ? generated.has(target)
                ? `binding of ${from} points at ${target}, a member generated by another expansion; bindings point at structural components only`
                : `binding of ${from} points at ${target}, which is not a structural component of card ${cardId}`
              : `binding of ${from} points at ${target}, which is not a numeric component`,
            { ...ctxOf(x), subject: target }
          )
        )
      }
    }
  }
  if (nodes > Limits.generatedNodes) {
    out.push(
      diagnostic(
        "node_budget",
        `card ${cardId} composes to ${nodes} effect nodes; the budget is ${Limits.generatedNodes}`,
        {
          ...crossing,
          subject: cardId,
          details: { limit: Limits.generatedNodes, actual: nodes }
        }
      )
    )
  }
  if (out.length > 0) return fail(out)

  const roots: Array<EffectComponent> = [...before]
  for (const c of s.components) {
    const extra = attached.get(c.componentId)
    let root = c
    if (extra !== undefined) { for (const members of extra) root = cache.preparation.attach(root, members) }
    roots.push(root)
  }
  roots.push(...after)

  // 6. The composed container, compiled again.
  const compiled = n === 0
    ? Either.right(base)
    : compileContainer({ cardId, cost: s.cost, tags: s.tags, components: roots }, {
      statuses,
      ranks,
      generatedIds: generated
    })
  if (Either.isLeft(compiled)) {
    // Generated ID → the trace entry of the expansion that generated it (built for the failure only).
    const origin = new Map<string, CompositionTraceEntry>()
    for (const t of trace) for (const id of t.memberIds) origin.set(id, t)
    return fail(relay(compiled.left, cardId, "composed", origin, roots))
  }
  const c = compiled.right

  // The document from its memoized flat pieces: few pieces for the hash to walk (FingerprintText.ts).
  const text = cache.text
  const fingerprint = sha256(
    `${text.head(baseCard)}${text.componentList(roots)},"compositionTrace":[${
      traceParts.join(",")
    }],"engineVersion":${ENGINE_VERSION},"ledger":${text.ledger(entries, preparedEntries, keep)}}`
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
  context: { readonly baseCard: Card; readonly statuses: ReadonlyMap<string, Status> },
  cache: ResolutionCache = new ResolutionCache()
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const removed = removeEntry(ledger, entryId)
  if (Either.isLeft(removed)) return removed
  const after = resolveEffectiveCard({ ...context, ledger: removed.right }, cache)
  if (Either.isRight(after)) return removed
  const now = resolveEffectiveCard({ ...context, ledger }, cache)
  const key = (d: Diagnostic) =>
    `${d.code}\u0000${d.transformationId ?? ""}\u0000${d.ruleId ?? ""}\u0000${d.subject ?? ""}`
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

/** Every code a resolution can fail with: its own, the structural base's, and the compiler codes it keeps. */
export const resolveErrors = errorChannel([
  "unsupported_version",
  "invalid_composition",
  "transformation_invalid",
  "missing_tag",
  "excluded_tag",
  "missing_capability",
  "excluded_capability",
  "no_matching_rule",
  "ambiguous_anchor",
  "match_limit",
  "expansion_limit",
  "component_collision",
  "invalid_binding",
  "template_unbound",
  "contradiction",
  "duplicate_id",
  "symbol_limit",
  "list_limit",
  "nesting_limit",
  "repeat_limit",
  "order_overflow",
  "node_budget"
])
/** The errors `CardResolver.resolve` fails with. */
export type ResolveError = ChannelError<typeof resolveErrors>

/** Every code `checkRemoval` can fail with. */
export const removalErrors = errorChannel(["entry_not_found", "dependency_violation"])
/** The errors `CardResolver.checkRemoval` fails with. */
export type RemovalError = ChannelError<typeof removalErrors>

/** The operations of the resolver service. */
export interface CardResolverService {
  /** Resolves a card instance; fails with the first error's tagged error, carrying every diagnostic of the failing stage. */
  readonly resolve: (input: ResolveInput) => Effect.Effect<EffectiveCardDefinition, ResolveError>
  /** The same as {@link CardResolverService.resolve} (kept for callers of the earlier name; its error carries every diagnostic). */
  readonly resolveAll: (input: ResolveInput) => Effect.Effect<EffectiveCardDefinition, ResolveError>
  /** Checks that an entry can be removed; the ledger after the removal. */
  readonly checkRemoval: (
    ledger: CardLedger,
    entryId: string,
    context: { readonly baseCard: Card; readonly statuses: ReadonlyMap<string, Status> }
  ) => Effect.Effect<CardLedger, RemovalError>
}

/**
 * A resolver service with its own {@link ResolutionCache}: the cache belongs
 * to the service value (one per layer build), not to a module. Every method
 * does its work when the returned Effect runs, never when it is called.
 */
export const makeResolver = (cache: ResolutionCache = new ResolutionCache()): CardResolverService => ({
  resolve: (input) => Effect.suspend(() => resolveErrors.fromEither(resolveEffectiveCard(input, cache))),
  resolveAll: (input) => Effect.suspend(() => resolveErrors.fromEither(resolveEffectiveCard(input, cache))),
  checkRemoval: (ledger, entryId, context) =>
    Effect.suspend(() => removalErrors.fromEither(checkRemoval(ledger, entryId, context, cache)))
})

/**
 * The resolver as a service. Failures are the kernel's tagged errors (the
 * first error of the failing stage decides the class; the error carries every
 * diagnostic of that stage).
 */
export class CardResolver extends Context.Tag("cardfx/CardResolver")<CardResolver, CardResolverService>() {
  /** The live implementation: pure, no requirements; each build owns a fresh resolution cache. */
  static readonly layer: Layer.Layer<CardResolver> = Layer.sync(
    CardResolver,
    () => traced("CardResolver", makeResolver())
  )
}
