/**
 * The planning core of `CardTransformationPlanner`: ONE pure function,
 * {@link plan}, decides what a ledger command would do to a card instance in
 * an activity. `assess` and `discover` are views of that plan; the apply
 * command (see `Planner.ts`) persists that same plan through the
 * `LedgerStore`. There is no other route that changes a ledger.
 *
 * Planning order (each stage stops the plan when it fails):
 * 1. identities: the card (`unknown_card`), the transformation
 *    (`unknown_transformation`), the entry (`entry_not_found`);
 * 2. policy, every failure reported: the activity authorizes the
 *    transformation(s) (`not_authorized`), eligibility (`not_eligible`), slot
 *    capacity (`slot_full`), `maxPerCard` (`max_per_card`), exclusions in both
 *    directions (`excluded_transformation`). A replacement is checked as if
 *    the replaced entry were gone;
 * 3. sealing in the pinned runtime (`CardBundleCompiler.seal`'s codes);
 * 4. the complete candidate ledger composed by the resolver (its codes:
 *    `missing_tag`, `no_matching_rule`, `component_collision`, ...). A removal
 *    goes through `checkRemoval` (`dependency_violation`).
 *
 * Policy facts about entries already in the ledger (slot, category,
 * exclusions) are read from the runtime's catalog: sealed content does not
 * record them. Composition never reads the catalog for sealed rules.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { canonicalJson } from "../../kernel/Canonical.js"
import { Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { seal } from "../BundleCompiler.js"
import { CompositionTraceEntry, type EffectiveCardDefinition } from "../Effective.js"
import type { LedgerCommand } from "../ledger/Command.js"
import {
  activeEntries,
  activeEntry,
  appendVerified,
  type CapturedAt,
  type CardLedger,
  type LedgerEntry,
  ledgerSequence,
  ledgerSize,
  removeEntry,
  replaceVerified,
  type SealedEntryContent,
  verifySealed
} from "../ledger/Ledger.js"
import { checkRemoval, resolveEffectiveCard } from "../Resolver.js"
import type { Runtime } from "../Runtime.js"
import type { Card, EffectComponent } from "../schema/Card.js"
import type { Status } from "../schema/Status.js"
import type { Transformation } from "../schema/Transformation.js"
import { type ComponentFacts, PlanningCache, type Resolved, type Sealed } from "./PlanningCache.js"

export { LedgerCommand } from "../ledger/Command.js"

/**
 * The result of `Assess`, with the seed's field names. `revision`, `sequence`
 * and `step` are the captured basis of the assessment: the card's current
 * revision (the `expectedRevision` an apply must carry), the global sequence
 * of the last event the ledger reflects, and the 1-based step the new entry
 * would take in the ledger's history.
 */
export const AssessResult = Schema.Struct({
  isCompatible: Schema.Boolean,
  revision: Schema.NonNegativeInt,
  sequence: Schema.NonNegativeInt,
  step: Schema.NonNegativeInt,
  /** Sorted (ordinal): components added, removed, changed, or whose origin changed. */
  changedComponentIds: Schema.Array(Schema.String),
  /** The final trace: the candidate's when compatible, the current card's otherwise. */
  compositionTrace: Schema.Array(CompositionTraceEntry),
  diagnostics: Schema.Array(Diagnostic)
}).annotations({ identifier: "AssessResult" })
export type AssessResult = typeof AssessResult.Type

/** What a committed plan hands to the store. */
export interface PlannedChange {
  readonly ledger: CardLedger
  readonly effective: EffectiveCardDefinition
  /** The entry the command created (apply, replace). */
  readonly entry: LedgerEntry | undefined
  /** The entry the command removed (remove, replace). */
  readonly removedEntryId: string | undefined
  readonly baseCard: Card
  readonly statuses: ReadonlyMap<string, Status>
}

/** A plan: the assessment plus, when compatible, the change to persist. */
export interface Plan {
  readonly assessment: AssessResult
  readonly change: PlannedChange | undefined
}

/** Where the plan is made: the store passes the real sequence; a pure assessment a provisional one. */
export interface PlanAt {
  /** Global sequence of the last event the ledger reflects. */
  readonly lastSequence: number
  /** Sequence the command's event would get. */
  readonly nextSequence: number
}

/** The global sequence of the last event a bare ledger reflects (its entries' captured sequences). */
export { ledgerSequence } from "../ledger/Ledger.js"

/** The entry ID a command at this ledger state creates: `e<n>`, n = 1-based step in the ledger's history. */
export const nextEntryId = (ledger: CardLedger): string => `e${ledgerSize(ledger) + 1}`

/** Whether an activity authorizes a transformation (by ID, category or slot). */
export const authorizes = (runtime: Runtime, activityId: string, upgradeId: string): boolean => {
  const a = runtime.activities.get(activityId)
  if (a === undefined) return false
  if (a.authorizes.upgradeIds?.includes(upgradeId) === true) return true
  const t = runtime.transformations.get(upgradeId)
  if (t === undefined) return false
  if (a.authorizes.categories?.includes(t.category) === true) return true
  return t.slotId !== undefined && a.authorizes.slotIds?.includes(t.slotId) === true
}

const authorization = (runtime: Runtime, activityId: string, upgradeId: string, out: Array<Diagnostic>): void => {
  if (authorizes(runtime, activityId, upgradeId)) return
  const declared = runtime.activities.has(activityId)
  out.push(
    diagnostic(
      "not_authorized",
      declared
        ? `activity ${activityId} does not authorize transformation ${upgradeId}`
        : `activity ${activityId} is not declared by the runtime, so it authorizes nothing (transformation ${upgradeId})`,
      { transformationId: upgradeId, subject: activityId }
    )
  )
}

/** Slot, maxPerCard and exclusion checks of `t` against the active entries (minus `excluding`). */
const policy = (
  runtime: Runtime,
  cardId: string,
  ledger: CardLedger,
  t: Transformation,
  excluding: string | undefined,
  out: Array<Diagnostic>,
  cache: PlanningCache
): void => {
  const id = t.upgradeId
  const ctx = { transformationId: id, subject: cardId }
  if (t.eligibility?.cardIds !== undefined && !t.eligibility.cardIds.includes(cardId)) {
    out.push(
      diagnostic(
        "not_eligible",
        `card ${cardId} is not eligible for ${id} (eligible: ${t.eligibility.cardIds.join(", ")})`,
        ctx
      )
    )
  }
  const active = activeEntries(ledger, cache.resolution.active).filter((e) => e.entryId !== excluding)
  if (t.slotId !== undefined) {
    const slot = runtime.slots.get(t.slotId)
    const inSlot = active.filter((e) => runtime.transformations.get(e.upgradeId)?.slotId === t.slotId)
    const capacity = slot?.capacity ?? 0
    if (inSlot.length >= capacity) {
      out.push(
        diagnostic(
          "slot_full",
          `slot ${t.slotId} of card ${cardId} is full (${inSlot.length}/${capacity}: ${
            inSlot.map((e) => `${e.entryId}=${e.upgradeId}`).join(", ")
          })`,
          { ...ctx, details: { slotId: t.slotId, limit: capacity, actual: inSlot.length } }
        )
      )
    }
  }
  const max = t.maxPerCard ?? 1
  const same = active.filter((e) => e.upgradeId === id).length
  if (same >= max) {
    out.push(
      diagnostic("max_per_card", `${id} is already applied ${same} time(s) to card ${cardId}; maxPerCard is ${max}`, {
        ...ctx,
        details: { limit: max, actual: same }
      })
    )
  }
  for (const e of active) {
    const other = runtime.transformations.get(e.upgradeId)
    if (t.excludes?.includes(e.upgradeId) === true || other?.excludes?.includes(id) === true) {
      out.push(
        diagnostic("excluded_transformation", `${id} and ${e.upgradeId} (entry ${e.entryId}) exclude each other`, {
          transformationId: id,
          subject: e.entryId
        })
      )
    }
  }
}

// ---------------------------------------------------------------------------
// changedComponentIds: component identity + origin + own payload + child IDs.

const indexComponents = (
  eff: EffectiveCardDefinition | undefined,
  cache: PlanningCache | undefined
): Map<string, ComponentFacts> => {
  if (eff === undefined) return new Map()
  if (cache === undefined) return indexComponentsOf(eff)
  let out = cache.componentIndex.get(eff)
  if (out === undefined) {
    out = indexComponentsOf(eff)
    cache.componentIndex.set(eff, out)
  }
  return out
}

/**
 * A component's own payload (without its children) as canonical JSON: the
 * per-component fingerprint `changedComponentIds` compares, computed once per
 * component object (an unchanged component is the same object in the card
 * before and after a command).
 */
const payloadOf = (c: EffectComponent, cache?: PlanningCache): string => {
  let p = cache?.componentPayload.get(c)
  if (p === undefined) {
    const { children: _children, ...own } = c
    p = canonicalJson(own)
    cache?.componentPayload.set(c, p)
  }
  return p
}

const childIds = (c: EffectComponent): string =>
  c.children === undefined ? "" : c.children.map((x) => x.componentId).join("\u0000")

/**
 * Whether a component is unchanged between two cards: the same object (a
 * command copies only what it changes, so most components are), or equal
 * own payloads and child lists.
 */
const sameComponent = (a: EffectComponent, b: EffectComponent, cache: PlanningCache | undefined): boolean =>
  a === b || (payloadOf(a, cache) === payloadOf(b, cache) && childIds(a) === childIds(b))

const indexComponentsOf = (eff: EffectiveCardDefinition): Map<string, ComponentFacts> => {
  const out = new Map<string, ComponentFacts>()
  const generated = new Map<string, string>()
  const anchored = new Map<string, Array<string>>()
  for (const t of eff.compositionTrace) {
    for (const m of t.memberIds) {
      generated.set(m, `rule:${t.entryId}/${t.transformationId}/${t.ruleId}/${t.expansionId}`)
    }
    if (t.anchorId !== null) {
      const list = anchored.get(t.anchorId) ?? []
      list.push(`${t.entryId}/${t.ruleId}`)
      anchored.set(t.anchorId, list)
    }
  }
  const walk = (cs: ReadonlyArray<EffectComponent>): void => {
    for (const c of cs) {
      const children = c.children
      const origin = generated.get(c.componentId) ?? "base"
      const anchors = anchored.get(c.componentId)
      out.set(c.componentId, {
        component: c,
        origin: anchors === undefined ? origin : `${origin}|anchor:${anchors.join(",")}`
      })
      if (children !== undefined) walk(children)
    }
  }
  walk(eff.components)
  return out
}

/**
 * IDs added, removed, or whose payload, child list or origin differ between two effective cards.
 * Only `before`'s component index is memoized: `after` (a command's candidate) is indexed again only
 * when it becomes the next command's current card, and a memo entry would live as long as the
 * candidate, long enough to be promoted (the store's README, "Throughput").
 */
export const changedComponentIds = (
  before: EffectiveCardDefinition | undefined,
  after: EffectiveCardDefinition | undefined,
  cache?: PlanningCache
): Array<string> => {
  const a = indexComponents(before, cache)
  const b = indexComponents(after, undefined)
  const changed = new Set<string>()
  for (const [id, fa] of a) {
    const fb = b.get(id)
    if (fb === undefined || fb.origin !== fa.origin || !sameComponent(fa.component, fb.component, cache)) {
      changed.add(id)
    }
  }
  for (const id of b.keys()) if (!a.has(id)) changed.add(id)
  return [...changed].sort(compareOrdinal)
}

// ---------------------------------------------------------------------------

/** Everything planning needs besides the command; `before` may be shared across plans (discovery). */
export interface PlanInput {
  readonly runtime: Runtime
  readonly ledger: CardLedger
  readonly command: LedgerCommand
  readonly activity: string
  readonly at?: PlanAt | undefined
  /** The current card, resolved (computed when absent). */
  readonly before?: Either.Either<EffectiveCardDefinition, ReadonlyArray<Diagnostic>> | undefined
  /**
   * The candidate is assessed and dropped (discovery): its resolution and
   * component index are not memoized. A memo entry keyed by a ledger nobody
   * keeps is garbage, but V8's young-generation collector keeps `WeakMap`
   * values alive (only a full collection drops an entry whose key died), so
   * every memoized candidate was promoted to the old generation. That made
   * V8 pretenure the resolver's and compiler's allocation sites (their
   * objects looked long-lived), and every later resolution in the process
   * allocated its temporaries in the old generation: the resolver ran 2-3×
   * slower after a discovery (see docs/engine-profile.md).
   */
  readonly transient?: boolean | undefined
  /**
   * The planning cache of this runtime (the planner service passes the one it
   * holds for the runtime). Absent, or made for another runtime: the plan
   * runs with a fresh one. The plan is the same either way.
   */
  readonly cache?: PlanningCache | undefined
}

/** The cache a plan uses: the caller's when it was made for this runtime, else a fresh one. */
export const planningCacheFor = (runtime: Runtime, cache: PlanningCache | undefined): PlanningCache =>
  cache !== undefined && cache.runtime === runtime ? cache : new PlanningCache(runtime)

const remember = (cache: PlanningCache, ledger: CardLedger, r: Resolved): Resolved => {
  cache.resolved.set(ledger, r)
  return r
}

const sealed = (cache: PlanningCache, t: Transformation): Sealed => {
  let r = cache.sealed.get(t)
  if (r === undefined) {
    r = seal(cache.runtime, t)
    cache.sealed.set(t, r)
  }
  return r
}

/** Sealed content checked by `verifySealed` once per object (the ledger's admission check). */
const admitted = (
  cache: PlanningCache,
  content: SealedEntryContent
): Either.Either<SealedEntryContent, ReadonlyArray<Diagnostic>> => {
  if (cache.verified.has(content)) return Either.right(content)
  const v = verifySealed(content)
  if (Either.isRight(v)) cache.verified.add(content)
  return v
}

/**
 * A ledger resolved, memoized per ledger object (not for a transient candidate). The resolver reads a
 * ledger's card and active entries and nothing else, so a ledger with no active entry composes to its
 * card's base whatever its history: it shares the resolution of the card's one empty ledger
 * (`PlanningCache.emptyLedger`) instead of composing the base again. That is every new instance's
 * first command and every command that removes a card's last active entry.
 */
const resolvedIn = (cache: PlanningCache, baseCard: Card, ledger: CardLedger, transient: boolean): Resolved => {
  const hit = cache.resolved.get(ledger)
  if (hit !== undefined) return hit
  if (activeEntries(ledger, cache.resolution.active).length === 0) {
    const empty = cache.emptyLedger(ledger.cardId)
    if (empty !== ledger) {
      const base = resolvedIn(cache, baseCard, empty, false)
      return transient ? base : remember(cache, ledger, base)
    }
  }
  const input = { baseCard, ledger, statuses: cache.runtime.statuses }
  return transient
    ? resolveEffectiveCard(input, cache.resolution, { transient: true })
    : remember(cache, ledger, resolveEffectiveCard(input, cache.resolution))
}

/** Resolves the current ledger of a card against a runtime's base card (memoized in `cache` when it is this runtime's). */
export const resolveCurrent = (runtime: Runtime, ledger: CardLedger, planning?: PlanningCache): Resolved => {
  const cache = planningCacheFor(runtime, planning)
  const baseCard = runtime.cards.get(ledger.cardId)
  if (baseCard === undefined) {
    return Either.left([
      diagnostic("unknown_card", `no card ${ledger.cardId} is published in the runtime`, { subject: ledger.cardId })
    ])
  }
  return resolvedIn(cache, baseCard, ledger, false)
}

/**
 * THE planning function. Pure: same inputs, same plan. The assessment's
 * diagnostics are exactly those an apply of the same command at the same
 * ledger state reports.
 */
export const plan = (input: PlanInput): Plan => {
  const { runtime, ledger, command, activity } = input
  const cache = planningCacheFor(runtime, input.cache)
  const at = input.at ?? { lastSequence: ledgerSequence(ledger), nextSequence: ledgerSequence(ledger) + 1 }
  const cardId = ledger.cardId
  const before = input.before ?? resolveCurrent(runtime, ledger, cache)
  const current = Either.isRight(before) ? before.right : undefined
  const size = ledgerSize(ledger)
  const basis = { revision: ledger.revision, sequence: at.lastSequence, step: size + 1 }
  const reject = (diagnostics: ReadonlyArray<Diagnostic>): Plan => ({
    assessment: {
      isCompatible: false,
      ...basis,
      changedComponentIds: [],
      compositionTrace: current?.compositionTrace ?? [],
      diagnostics
    },
    change: undefined
  })

  const baseCard = runtime.cards.get(cardId)
  if (baseCard === undefined) {
    return reject([diagnostic("unknown_card", `no card ${cardId} is published in the runtime`, { subject: cardId })])
  }

  const out: Array<Diagnostic> = []
  const captured: CapturedAt = {
    revision: ledger.revision + 1,
    sequence: at.nextSequence,
    step: size + 1
  }
  const entryId = nextEntryId(ledger)
  let candidate: CardLedger
  let removedEntryId: string | undefined
  let created = false

  const findActive = (id: string) => activeEntry(ledger, id)
  const lookup = (upgradeId: string): Transformation | undefined => {
    const t = runtime.transformations.get(upgradeId)
    if (t === undefined) {
      out.push(
        diagnostic("unknown_transformation", `no transformation ${upgradeId} is published in the runtime`, {
          transformationId: upgradeId,
          subject: upgradeId
        })
      )
    }
    return t
  }
  const entryMissing = (id: string): Diagnostic =>
    diagnostic("entry_not_found", `card ${cardId} has no active ledger entry ${id}`, { subject: id })

  switch (command.kind) {
    case "apply": {
      const t = lookup(command.upgradeId)
      if (t === undefined) return reject(out)
      authorization(runtime, activity, t.upgradeId, out)
      policy(runtime, cardId, ledger, t, undefined, out, cache)
      if (out.length > 0) return reject(out)
      const content = Either.flatMap(sealed(cache, t), (c) => admitted(cache, c))
      if (Either.isLeft(content)) return reject(content.left)
      const next = appendVerified(ledger, content.right, { entryId, captured, transient: input.transient })
      if (Either.isLeft(next)) return reject(next.left)
      candidate = next.right
      created = true
      break
    }
    case "remove": {
      const target = findActive(command.entryId)
      if (target === undefined) return reject([entryMissing(command.entryId)])
      authorization(runtime, activity, target.upgradeId, out)
      if (out.length > 0) return reject(out)
      // The ledger without the entry is composed once (below, and remembered); checkRemoval runs only
      // when that composition fails, to turn new failures into dependency_violation (same result as
      // calling it first: it returns this very removal when the composition succeeds).
      const removed = removeEntry(ledger, command.entryId)
      if (Either.isLeft(removed)) return reject(removed.left)
      const resolved = resolvedIn(cache, baseCard, removed.right, false)
      if (Either.isLeft(resolved)) {
        const checked = checkRemoval(
          ledger,
          command.entryId,
          { baseCard, statuses: runtime.statuses },
          cache.resolution
        )
        return reject(Either.isLeft(checked) ? checked.left : resolved.left)
      }
      candidate = removed.right
      removedEntryId = command.entryId
      break
    }
    case "replace": {
      const target = findActive(command.entryId)
      if (target === undefined) out.push(entryMissing(command.entryId))
      const t = lookup(command.upgradeId)
      if (target === undefined || t === undefined) return reject(out)
      authorization(runtime, activity, target.upgradeId, out)
      if (t.upgradeId !== target.upgradeId) authorization(runtime, activity, t.upgradeId, out)
      policy(runtime, cardId, ledger, t, target.entryId, out, cache)
      if (out.length > 0) return reject(out)
      const content = Either.flatMap(sealed(cache, t), (c) => admitted(cache, c))
      if (Either.isLeft(content)) return reject(content.left)
      const next = replaceVerified(ledger, command.entryId, content.right, {
        entryId,
        captured,
        transient: input.transient
      })
      if (Either.isLeft(next)) return reject(next.left)
      candidate = next.right
      removedEntryId = command.entryId
      created = true
      break
    }
  }

  const after = resolvedIn(cache, baseCard, candidate, input.transient === true)
  if (Either.isLeft(after)) return reject(after.left)
  return {
    assessment: {
      isCompatible: true,
      ...basis,
      changedComponentIds: changedComponentIds(current, after.right, cache),
      compositionTrace: after.right.compositionTrace,
      diagnostics: []
    },
    change: {
      ledger: candidate,
      effective: after.right,
      entry: created ? activeEntry(candidate, entryId) : undefined,
      removedEntryId,
      baseCard,
      statuses: runtime.statuses
    }
  }
}

/** `CardTransformationPlanner.Assess` as a pure query: the plan's assessment, nothing persisted. */
export const assess = (
  runtime: Runtime,
  ledger: CardLedger,
  command: LedgerCommand,
  activity: string,
  cache?: PlanningCache
): AssessResult => plan({ runtime, ledger, command, activity, cache }).assessment

/** One offer of a discovery: a transformation and its full assessment on the complete candidate. */
export const DiscoveryOffer = Schema.Struct({
  upgradeId: Schema.String,
  category: Schema.String,
  slotId: Schema.optionalWith(Schema.String, { exact: true }),
  assessment: AssessResult
}).annotations({ identifier: "DiscoveryOffer" })
export type DiscoveryOffer = typeof DiscoveryOffer.Type

/** A discovery: every transformation of the pinned runtime, ordered by upgradeId (ordinal). */
export const Discovery = Schema.Struct({
  cardId: Schema.String,
  activity: Schema.String,
  revision: Schema.NonNegativeInt,
  offers: Schema.Array(DiscoveryOffer)
}).annotations({ identifier: "Discovery" })
export type Discovery = typeof Discovery.Type

/**
 * Discovery: for a card instance and an activity, every transformation of the
 * runtime with the assessment of applying it — the same plan an apply makes.
 */
export const discover = (
  runtime: Runtime,
  ledger: CardLedger,
  activity: string,
  at?: PlanAt,
  planning?: PlanningCache
): Discovery => {
  // One cache for every offer of the discovery (the caller's, when it is this runtime's).
  const cache = planningCacheFor(runtime, planning)
  const before = resolveCurrent(runtime, ledger, cache)
  const ids = [...runtime.transformations.keys()].sort(compareOrdinal)
  const offers: Array<DiscoveryOffer> = []
  for (const upgradeId of ids) {
    // Present: the ID comes from the same map.
    const t = runtime.transformations.get(upgradeId) as Transformation
    const assessment = plan({
      runtime,
      ledger,
      command: { kind: "apply", upgradeId },
      activity,
      at,
      before,
      cache,
      transient: true
    }).assessment
    offers.push({
      upgradeId,
      category: t.category,
      ...(t.slotId !== undefined ? { slotId: t.slotId } : {}),
      assessment
    })
  }
  return { cardId: ledger.cardId, activity, revision: ledger.revision, offers }
}
