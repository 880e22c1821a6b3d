/**
 * `CardBundleCompiler.seal`: turns an authoring transformation into sealed
 * ledger content in a pinned runtime. Every rule's bundle is looked up in that
 * runtime, checked, and captured immutably with the rule; a template's
 * `$parameter` references are replaced by the rule's binding sources
 * (`$anchor` or an explicit structural ID), so what enters the ledger is
 * closed. Later resolutions read only the sealed content, never the catalog.
 *
 * Seal also enforces, with their own codes and the numbers in `details`, the
 * limits that depend only on the definition: rules per transformation
 * (`rule_limit`), members per bundle (`member_limit`), symbols per list
 * (`list_limit`), characters per symbol (`symbol_limit`, generated member IDs
 * included), the namespace length (`invalid_id`), repeat (`repeat_limit`) and
 * order range (`order_overflow`); duplicates (`duplicate_id`), contradictions
 * (`contradiction`) and bundles with nothing executable (`empty_scope`).
 * Content decoded through the Schemas already meets most of these; seal checks
 * them again because a runtime can be built in memory, and a sealed entry must
 * be valid on its own.
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer } from "effect"
import { type Diagnostic, diagnostic, type DiagnosticContext } from "../kernel/Diagnostic.js"
import { type ChannelError, errorChannel } from "../kernel/ErrorChannel.js"
import { Limits } from "../kernel/Limits.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import { traced } from "../kernel/Tracing.js"
import { type ClosedCompositionRule, computeSealHash, type SealedEntryContent } from "./ledger/Ledger.js"
import type { Runtime } from "./Runtime.js"
import type { Bundle } from "./schema/Bundle.js"
import type { EffectComponent } from "./schema/Card.js"
import type { Status } from "./schema/Status.js"
import type { CompositionRule, Patch, Requirements, Transformation } from "./schema/Transformation.js"

/** Sequence scopes expand into root effects; the others into children of an anchor. */
export const isSequenceScope = (scope: CompositionRule["scope"]): boolean =>
  scope === "BeforeSequence" || scope === "AfterSequence"

/** Length of a generated member ID for a namespace and a local ID: `ns_<16 hex>.<id>`. */
export const generatedIdLength = (namespace: string, localId: string): number =>
  namespace.length + 1 + Limits.expansionHashLength + 1 + localId.length

/** Collects limit problems of one symbol list (length, symbol size, duplicates). */
export const checkSymbolList = (
  list: ReadonlyArray<string> | undefined,
  what: string,
  ctx: DiagnosticContext,
  out: Array<Diagnostic>
): void => {
  if (list === undefined) return
  if (list.length > Limits.listSymbols) {
    out.push(
      diagnostic("list_limit", `${what} holds ${list.length} symbols; the limit is ${Limits.listSymbols}`, {
        ...ctx,
        details: { limit: Limits.listSymbols, actual: list.length }
      })
    )
  }
  const seen = new Set<string>()
  for (const s of list) {
    if (s.length > Limits.symbolLength) {
      out.push(
        diagnostic(
          "symbol_limit",
          `a symbol of ${what} has ${s.length} characters; the limit is ${Limits.symbolLength}`,
          {
            ...ctx,
            subject: s.slice(0, 32),
            details: { limit: Limits.symbolLength, actual: s.length }
          }
        )
      )
    }
    if (seen.has(s)) out.push(diagnostic("duplicate_id", `${what} repeats ${s}`, { ...ctx, subject: s }))
    seen.add(s)
  }
}

/** Requirement lists: limits, duplicates and contradictions (required and excluded at once). */
export const checkRequirements = (
  req: Requirements | undefined,
  what: string,
  ctx: DiagnosticContext,
  out: Array<Diagnostic>
): void => {
  if (req === undefined) return
  checkSymbolList(req.requiredTags, `${what}.requiredTags`, ctx, out)
  checkSymbolList(req.excludedTags, `${what}.excludedTags`, ctx, out)
  checkSymbolList(req.requiredCapabilities, `${what}.requiredCapabilities`, ctx, out)
  checkSymbolList(req.excludedCapabilities, `${what}.excludedCapabilities`, ctx, out)
  const contradict = (a: ReadonlyArray<string> | undefined, b: ReadonlyArray<string> | undefined, kind: string) => {
    if (a === undefined || b === undefined) return
    const set = new Set(b)
    for (const x of a) {
      if (set.has(x)) {
        out.push(diagnostic("contradiction", `${what} both requires and excludes ${kind} ${x}`, { ...ctx, subject: x }))
      }
    }
  }
  contradict(req.requiredTags, req.excludedTags, "tag")
  contradict(req.requiredCapabilities, req.excludedCapabilities, "capability")
}

/** Walks components (children included) checking per-component limits and status references. */
const checkComponents = (
  components: ReadonlyArray<EffectComponent>,
  statuses: ReadonlyMap<string, Status>,
  ctx: DiagnosticContext,
  out: Array<Diagnostic>,
  ids: Set<string>
): void => {
  for (const c of components) {
    const cctx = { ...ctx, subject: c.componentId }
    if (ids.has(c.componentId)) {
      out.push(diagnostic("duplicate_id", `component ${c.componentId} is declared twice`, cctx))
    }
    ids.add(c.componentId)
    if (c.componentId.length > Limits.symbolLength) {
      out.push(
        diagnostic(
          "symbol_limit",
          `component ID has ${c.componentId.length} characters; the limit is ${Limits.symbolLength}`,
          {
            ...cctx,
            details: { limit: Limits.symbolLength, actual: c.componentId.length }
          }
        )
      )
    }
    if (!Number.isInteger(c.order) || c.order < Limits.orderMin || c.order > Limits.orderMax) {
      out.push(
        diagnostic("order_overflow", `order ${c.order} is outside ${Limits.orderMin}..${Limits.orderMax}`, {
          ...cctx,
          details: { limit: Limits.orderMax, actual: c.order }
        })
      )
    }
    const repeat = c.effect.repeat ?? 1
    if (!Number.isInteger(repeat) || repeat < 1 || repeat > Limits.maxRepeat) {
      out.push(
        diagnostic("repeat_limit", `repeat ${repeat} is outside 1..${Limits.maxRepeat}`, {
          ...cctx,
          details: { limit: Limits.maxRepeat, actual: repeat }
        })
      )
    }
    checkSymbolList(c.capabilityIds, `${c.componentId}.capabilityIds`, cctx, out)
    checkSymbolList(c.effect.tags, `${c.componentId}.effect.tags`, cctx, out)
    if (c.effect.type === "APPLY_STATUS") {
      const status = statuses.get(c.effect.statusId)
      if (status === undefined) {
        out.push(
          diagnostic("unknown_reference", `status ${c.effect.statusId} is not published`, {
            ...cctx,
            subject: c.effect.statusId
          })
        )
      } else {
        for (const b of c.effect.payloadBindings ?? []) {
          if (!(status.payloadParameters ?? []).some((p) => p.parameterId === b.parameterId)) {
            out.push(
              diagnostic(
                "invalid_binding",
                `status ${status.statusId} declares no payload parameter ${b.parameterId}`,
                {
                  ...cctx,
                  subject: b.parameterId
                }
              )
            )
          }
        }
      }
    }
    if (c.children !== undefined) checkComponents(c.children, statuses, ctx, out, ids)
  }
}

/** Replaces `$parameter` references by binding sources; records explicit external IDs. */
const closeComponents = (
  components: ReadonlyArray<EffectComponent>,
  bindings: Readonly<Record<string, string>>,
  external: Set<string>
): Array<EffectComponent> =>
  components.map((c) => {
    let effect = c.effect
    if (effect.type === "APPLY_STATUS" && effect.payloadBindings !== undefined) {
      effect = {
        ...effect,
        payloadBindings: effect.payloadBindings.map((b) => {
          if (!b.cardEffectComponentId.startsWith("$")) return b
          const source = bindings[b.cardEffectComponentId.slice(1)]
          // Checked before closing: every `$name` is a declared, bound parameter.
          if (source === undefined) return b
          if (source !== "$anchor") external.add(source)
          return { parameterId: b.parameterId, cardEffectComponentId: source }
        })
      }
    }
    return c.children === undefined
      ? { ...c, effect }
      : { ...c, effect, children: closeComponents(c.children, bindings, external) }
  })

const collectParameterRefs = (components: ReadonlyArray<EffectComponent>, out: Array<string>): void => {
  for (const c of components) {
    if (c.effect.type === "APPLY_STATUS") {
      for (const b of c.effect.payloadBindings ?? []) {
        if (b.cardEffectComponentId.startsWith("$")) out.push(b.cardEffectComponentId.slice(1))
      }
    }
    if (c.children !== undefined) collectParameterRefs(c.children, out)
  }
}

/** Members sorted by `order`, then `componentId` ordinal (the seed's member order). */
export const sortMembers = (components: ReadonlyArray<EffectComponent>): Array<EffectComponent> =>
  [...components].sort((a, b) => a.order - b.order || compareOrdinal(a.componentId, b.componentId))

const sameSet = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false
  const s = new Set(a)
  for (const x of b) if (!s.has(x)) return false
  return s.size === a.length
}

const sealRule = (
  runtime: Runtime,
  upgradeId: string,
  rule: CompositionRule,
  index: number,
  out: Array<Diagnostic>
): ClosedCompositionRule | undefined => {
  const ctx: DiagnosticContext = {
    transformationId: upgradeId,
    ruleId: rule.ruleId,
    path: `/compositionRules/${index}`
  }
  const before = out.length
  if (rule.namespace.length > Limits.namespaceLength || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(rule.namespace)) {
    out.push(
      diagnostic(
        "invalid_id",
        `namespace ${
          rule.namespace.slice(0, 64)
        } must be ASCII letters, digits, _ and - of at most ${Limits.namespaceLength} characters (has ${rule.namespace.length})`,
        {
          ...ctx,
          subject: rule.namespace.slice(0, 64),
          details: { limit: Limits.namespaceLength, actual: rule.namespace.length }
        }
      )
    )
  }
  checkRequirements(rule.when, `${rule.ruleId}.when`, ctx, out)
  checkSymbolList(rule.selector?.componentIds, `${rule.ruleId}.selector.componentIds`, ctx, out)
  checkSymbolList(rule.selector?.requiredEffectTags, `${rule.ruleId}.selector.requiredEffectTags`, ctx, out)
  checkSymbolList(rule.selector?.effectTypes, `${rule.ruleId}.selector.effectTypes`, ctx, out)

  const bundle: Bundle | undefined = runtime.bundles.get(rule.bundleId)
  if (bundle === undefined) {
    out.push(
      diagnostic("unknown_reference", `bundle ${rule.bundleId} is not published`, { ...ctx, subject: rule.bundleId })
    )
    return undefined
  }
  const bctx = { ...ctx, subject: bundle.bundleId }
  if (bundle.components.length > Limits.membersPerBundle) {
    out.push(
      diagnostic(
        "member_limit",
        `bundle ${bundle.bundleId} has ${bundle.components.length} members; the limit is ${Limits.membersPerBundle}`,
        {
          ...bctx,
          details: { limit: Limits.membersPerBundle, actual: bundle.components.length }
        }
      )
    )
  }
  if (bundle.components.length === 0 || bundle.components.every((c) => c.effect.chance === 0)) {
    out.push(diagnostic("empty_scope", `bundle ${bundle.bundleId} has nothing executable`, bctx))
  }

  const ids = new Set<string>()
  checkComponents(bundle.components, runtime.statuses, bctx, out, ids)
  for (const id of ids) {
    const len = generatedIdLength(rule.namespace, id)
    if (len > Limits.symbolLength) {
      out.push(
        diagnostic(
          "symbol_limit",
          `generated ID for member ${id} would have ${len} characters; the limit is ${Limits.symbolLength}`,
          {
            ...ctx,
            subject: id,
            details: { limit: Limits.symbolLength, actual: len }
          }
        )
      )
    }
  }
  const sequence = isSequenceScope(rule.scope)
  for (const m of bundle.components) {
    const timing = rule.scope === "BeforeImpact" ? "BeforeParentImpact" : "AfterParentImpact"
    const execution = rule.scope === "OncePerProc" ? "OncePerParentProc" : "PerImpact"
    const contradicts = sequence
      ? m.childTiming !== undefined || m.executionScope !== undefined
      : (m.childTiming !== undefined && m.childTiming !== timing) ||
        (m.executionScope !== undefined && m.executionScope !== execution)
    if (contradicts) {
      out.push(
        diagnostic(
          "contradiction",
          `member ${m.componentId} declares a timing/execution scope that contradicts scope ${rule.scope}`,
          {
            ...ctx,
            subject: m.componentId
          }
        )
      )
    }
  }

  // Templates: supplied parameters must match the declared ones exactly.
  const declared = bundle.effectComponentParameters ?? []
  const bindings = rule.effectBindings ?? {}
  const supplied = Object.keys(bindings).sort(compareOrdinal)
  if (declared.length > 0 && supplied.length === 0) {
    out.push(
      diagnostic(
        "template_unbound",
        `template ${bundle.bundleId} is used without bindings for ${[...declared].sort(compareOrdinal).join(", ")}`,
        bctx
      )
    )
  } else if (!sameSet(declared, supplied)) {
    out.push(
      diagnostic(
        "parameter_mismatch",
        `rule ${rule.ruleId} supplies [${supplied.join(", ")}] but bundle ${bundle.bundleId} declares [${
          [...declared].sort(compareOrdinal).join(", ")
        }]`,
        { ...bctx, details: { declared: declared.length, supplied: supplied.length } }
      )
    )
  }
  const refs: Array<string> = []
  collectParameterRefs(bundle.components, refs)
  const declaredSet = new Set(declared)
  for (const r of refs) {
    if (!declaredSet.has(r)) {
      out.push(
        diagnostic("invalid_binding", `bundle ${bundle.bundleId} refers to undeclared parameter $${r}`, {
          ...bctx,
          subject: r
        })
      )
    }
  }
  for (const source of Object.values(bindings)) {
    if (source !== "$anchor" && ids.has(source)) {
      out.push(
        diagnostic(
          "component_collision",
          `explicit binding ${source} is also a member ID of bundle ${bundle.bundleId}`,
          {
            ...ctx,
            subject: source
          }
        )
      )
    }
  }
  if (out.length > before) return undefined

  const external = new Set<string>()
  const members = sortMembers(closeComponents(bundle.components, bindings, external))
  const closed: Bundle = {
    bundleId: bundle.bundleId,
    components: members,
    ...(bundle.metadata !== undefined ? { metadata: bundle.metadata } : {})
  }
  return { rule, bundle: closed, externalIds: [...external].sort(compareOrdinal) }
}

const checkPatches = (
  runtime: Runtime,
  upgradeId: string,
  patches: ReadonlyArray<Patch>,
  out: Array<Diagnostic>
): void => {
  patches.forEach((p, i) => {
    const ctx: DiagnosticContext = { transformationId: upgradeId, path: `/patches/${i}` }
    switch (p.op) {
      case "addTags":
      case "removeTags":
        checkSymbolList(p.tags, `patch ${p.op}`, ctx, out)
        return
      case "addCapabilities":
        checkSymbolList(p.capabilityIds, `patch ${p.op}`, ctx, out)
        return
      case "addComponent":
        checkComponents([p.component], runtime.statuses, ctx, out, new Set())
        return
      default:
        return
    }
  })
}

/**
 * Seals a transformation in a pinned runtime: the content a ledger entry
 * holds. Fails with the definition's diagnostics (each with
 * `transformationId`, `ruleId`, `subject` and, for limits, the numbers).
 */
export const seal = (
  runtime: Runtime,
  transformation: Transformation
): Either.Either<SealedEntryContent, Array<Diagnostic>> => {
  const upgradeId = transformation.upgradeId
  const out: Array<Diagnostic> = []
  const rules = transformation.compositionRules ?? []
  if (rules.length > Limits.rulesPerTransformation) {
    out.push(
      diagnostic(
        "rule_limit",
        `${upgradeId} has ${rules.length} composition rules; the limit is ${Limits.rulesPerTransformation}`,
        {
          transformationId: upgradeId,
          subject: upgradeId,
          details: { limit: Limits.rulesPerTransformation, actual: rules.length }
        }
      )
    )
  }
  checkRequirements(transformation.requirements, `${upgradeId}.requirements`, {
    transformationId: upgradeId,
    subject: upgradeId
  }, out)
  checkPatches(runtime, upgradeId, transformation.patches ?? [], out)
  const ruleIds = new Set<string>()
  const closed: Array<ClosedCompositionRule> = []
  rules.forEach((rule, i) => {
    if (ruleIds.has(rule.ruleId)) {
      out.push(
        diagnostic("duplicate_id", `rule ${rule.ruleId} is declared twice`, {
          transformationId: upgradeId,
          ruleId: rule.ruleId,
          subject: rule.ruleId
        })
      )
    }
    ruleIds.add(rule.ruleId)
    const c = sealRule(runtime, upgradeId, rule, i, out)
    if (c !== undefined) closed.push(c)
  })
  if (out.length > 0) return Either.left(out)
  closed.sort((a, b) => a.rule.priority - b.rule.priority || compareOrdinal(a.rule.ruleId, b.rule.ruleId))
  const content = {
    upgradeId,
    requirements: transformation.requirements ?? {},
    patches: transformation.patches ?? [],
    closedCompositionRules: closed,
    pin: runtime.pin
  }
  return Either.right({ ...content, sealHash: computeSealHash(content) })
}

/** Looks a transformation up in the runtime and seals it (`unknown_transformation` when absent). */
export const sealById = (runtime: Runtime, upgradeId: string): Either.Either<SealedEntryContent, Array<Diagnostic>> => {
  const t = runtime.transformations.get(upgradeId)
  return t === undefined
    ? Either.left([
      diagnostic("unknown_transformation", `no transformation ${upgradeId} is published`, { subject: upgradeId })
    ])
    : seal(runtime, t)
}

/** Every code sealing can fail with: its own checks and the compiler's on the template. */
export const sealErrors = errorChannel([
  "unknown_transformation",
  "unknown_reference",
  "transformation_invalid",
  "duplicate_id",
  "invalid_id",
  "symbol_limit",
  "list_limit",
  "rule_limit",
  "member_limit",
  "repeat_limit",
  "order_overflow",
  "nesting_limit",
  "node_budget",
  "schema_invalid",
  "contradiction",
  "empty_scope",
  "invalid_binding",
  "parameter_mismatch",
  "template_unbound",
  "component_collision"
])
/** The errors `CardBundleCompiler.seal` fails with. */
export type SealError = ChannelError<typeof sealErrors>

/** The operations of the bundle compiler service. */
export interface CardBundleCompilerService {
  /** Seals a transformation in the given pinned runtime (the work runs when the Effect runs). */
  readonly seal: (runtime: Runtime, transformation: Transformation) => Effect.Effect<SealedEntryContent, SealError>
  /** The pure core, for callers that want every diagnostic. */
  readonly sealEither: typeof seal
}

/** The bundle compiler as a service: sealing at the edge fails with the first diagnostic's tagged error. */
export class CardBundleCompiler
  extends Context.Tag("cardfx/CardBundleCompiler")<CardBundleCompiler, CardBundleCompilerService>()
{
  /** The live implementation (pure, no requirements). */
  static readonly layer: Layer.Layer<CardBundleCompiler> = Layer.succeed(
    CardBundleCompiler,
    traced("CardBundleCompiler", {
      seal: (runtime: Runtime, transformation: Transformation) =>
        Effect.suspend(() => sealErrors.fromEither(seal(runtime, transformation))),
      sealEither: seal
    })
  )
}
