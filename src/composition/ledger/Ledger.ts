/**
 * The per-card ledger: the one authority for permanent transformations. An
 * entry is what `CardBundleCompiler.seal` captured from the pinned runtime —
 * the transformation's requirements, its structural patches and its
 * `closedCompositionRules` (each rule with its closed bundle, templates
 * resolved) — plus the entry's identity, its position in the ledger and the
 * revision/sequence/step it was applied at. Resolving a ledger never reads the
 * current catalog for these rules.
 *
 * Only sealed content can enter the ledger: every entry carries a `sealHash`
 * (sha256 of the canonical JSON of its sealed content) and admission checks it,
 * so an authoring definition, a hand-edited rule or an open template is
 * rejected with `unsealed_definition`.
 *
 * Order: active entries sorted by `position` (a replacement takes the position
 * of the entry it replaces), then `entryId` ordinal.
 *
 * @since 0.1.0
 */
import { Effect, Either, Schema } from "effect"
import { canonicalJson, sha256Hex } from "../../kernel/Canonical.js"
import { withLimit } from "../../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic } from "../../kernel/Errors.js"
import { Limits } from "../../kernel/Limits.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { optional } from "../../kernel/SchemaExt.js"
import { Bundle } from "../schema/Bundle.js"
import type { EffectComponent } from "../schema/Card.js"
import { AuthoredId, Symbol } from "../schema/Symbols.js"
import { CompositionRule, Patch, Requirements } from "../schema/Transformation.js"

/** Schema of a package pin (see `Runtime.ts`'s `PackagePin`). */
export const PackagePin = Schema.Struct({
  packageId: Schema.String,
  version: Schema.String,
  contentHash: Schema.String
}).annotations({ identifier: "PackagePin" })

/** Schema of the runtime an entry was sealed in: engine version + package versions + content hashes. */
export const RuntimePin = Schema.Struct({
  engineVersion: Schema.Int,
  packages: Schema.Array(PackagePin)
}).annotations({ identifier: "RuntimePin" })
export type RuntimePin = typeof RuntimePin.Type

/**
 * A composition rule with its bundle captured immutably at seal time. The
 * bundle is closed: a template's `$parameter` references were replaced by the
 * rule's binding sources (`$anchor` or an explicit structural ID) and its
 * `effectComponentParameters` dropped. `externalIds` lists the explicit
 * structural IDs bound from outside the bundle: they are never renamed.
 * Members are stored sorted by `order`, then `componentId` ordinal.
 */
export const ClosedCompositionRule = Schema.Struct({
  rule: CompositionRule,
  bundle: Bundle,
  externalIds: Schema.Array(Symbol)
}).annotations({ identifier: "ClosedCompositionRule" })
export type ClosedCompositionRule = typeof ClosedCompositionRule.Type

/** The fields `CardBundleCompiler.seal` produces; `sealHash` covers all the others. */
export const sealedContentFields = {
  upgradeId: AuthoredId,
  requirements: Requirements,
  patches: Schema.Array(Patch),
  /** Sorted by `priority`, then `ruleId` ordinal; at most 32 (a sealed entry obeys the authoring limit). */
  closedCompositionRules: Schema.Array(ClosedCompositionRule).pipe(
    Schema.maxItems(
      Limits.rulesPerTransformation,
      withLimit("rule_limit", { measure: "length", max: Limits.rulesPerTransformation })
    )
  ),
  pin: RuntimePin,
  sealHash: Schema.String
}

/** What sealing a transformation in a pinned runtime yields; it enters the ledger as an entry. */
export const SealedEntryContent = Schema.Struct(sealedContentFields).annotations({ identifier: "SealedEntryContent" })
export type SealedEntryContent = typeof SealedEntryContent.Type

/** The revision/sequence/step an entry was applied at. */
export const CapturedAt = Schema.Struct({
  revision: Schema.NonNegativeInt,
  sequence: Schema.NonNegativeInt,
  step: Schema.NonNegativeInt
}).annotations({ identifier: "CapturedAt" })
export type CapturedAt = typeof CapturedAt.Type

/** An entry is active, or removed (kept as history; a replaced entry is removed). */
export const EntryState = Schema.Literal("active", "removed")
export type EntryState = typeof EntryState.Type

/** One ledger entry. */
export const LedgerEntry = Schema.Struct({
  entryId: AuthoredId,
  position: Schema.NonNegativeInt,
  state: EntryState,
  /** The entry this one replaced (it took that entry's position). */
  replaces: optional(AuthoredId),
  captured: CapturedAt,
  ...sealedContentFields
}).annotations({ identifier: "LedgerEntry" })
export type LedgerEntry = typeof LedgerEntry.Type

/** A card instance's ledger. `revision` counts the commands applied to it. */
export const CardLedger = Schema.Struct({
  cardId: AuthoredId,
  entries: Schema.Array(LedgerEntry),
  revision: Schema.NonNegativeInt
}).annotations({ identifier: "CardLedger" })
export type CardLedger = typeof CardLedger.Type

/** An empty ledger for a card. */
export const emptyLedger = (cardId: string): CardLedger => ({ cardId, entries: [], revision: 0 })

/** The part of sealed content its `sealHash` covers, in canonical form. */
export const sealedPayload = (c: Omit<SealedEntryContent, "sealHash">): unknown => ({
  upgradeId: c.upgradeId,
  requirements: c.requirements,
  patches: c.patches,
  closedCompositionRules: c.closedCompositionRules,
  pin: c.pin
})

/** sha256 of the canonical JSON of sealed content (without its hash). */
export const computeSealHash = (c: Omit<SealedEntryContent, "sealHash">): string =>
  sha256Hex(canonicalJson(sealedPayload(c)))

const isOpenBinding = (id: string): boolean => id.startsWith("$") && id !== "$anchor"

const hasOpenBinding = (components: ReadonlyArray<EffectComponent>): boolean => {
  for (const c of components) {
    if (c.effect.type === "APPLY_STATUS" && c.effect.payloadBindings !== undefined) {
      for (const b of c.effect.payloadBindings) if (isOpenBinding(b.cardEffectComponentId)) return true
    }
    if (c.children !== undefined && hasOpenBinding(c.children)) return true
  }
  return false
}

/**
 * Checks that content is sealed: its hash matches and every captured bundle is
 * closed (no template parameters left). Anything else is an authoring
 * definition that cannot enter the ledger (`unsealed_definition`).
 */
export const verifySealed = (
  content: unknown,
  subject?: string
): Either.Either<SealedEntryContent, Array<Diagnostic>> => {
  const c = content as Partial<SealedEntryContent> | null
  const upgradeId = typeof c?.upgradeId === "string" ? c.upgradeId : undefined
  const fail = (why: string) =>
    Either.left([
      diagnostic(
        "unsealed_definition",
        `${subject ?? upgradeId ?? "entry"}: ${why}; only CardBundleCompiler.seal output can enter the ledger`,
        {
          subject: subject ?? upgradeId,
          transformationId: upgradeId
        }
      )
    ])
  if (c === null || typeof c !== "object") return fail("not sealed content")
  if (typeof c.sealHash !== "string" || !Array.isArray(c.closedCompositionRules) || c.pin === undefined) {
    return fail("no seal (authoring definition)")
  }
  if (c.closedCompositionRules.length > Limits.rulesPerTransformation) {
    return fail(
      `${c.closedCompositionRules.length} captured rules exceed the limit of ${Limits.rulesPerTransformation}`
    )
  }
  for (const closed of c.closedCompositionRules) {
    if (closed.bundle.components.length > Limits.membersPerBundle) {
      return fail(
        `rule ${closed.rule.ruleId} captures ${closed.bundle.components.length} members, over the limit of ${Limits.membersPerBundle}`
      )
    }
    if (closed.bundle.effectComponentParameters !== undefined || hasOpenBinding(closed.bundle.components)) {
      return fail(`rule ${closed.rule.ruleId} captures an open template`)
    }
  }
  const full = c as SealedEntryContent
  if (computeSealHash(full) !== full.sealHash) return fail("seal hash does not match its content")
  return Either.right(full)
}

const activeOf = (ledger: CardLedger): ReadonlyArray<LedgerEntry> =>
  ledger.entries
    .filter((e) => e.state === "active")
    .sort((a, b) => a.position - b.position || compareOrdinal(a.entryId, b.entryId))

/**
 * Ledgers' active orders, memoized: ledgers are immutable values, so each
 * order is computed once. Owned by a `ResolutionCache` (no module holds it).
 */
export class ActiveOrders {
  private readonly memo = new WeakMap<CardLedger, ReadonlyArray<LedgerEntry>>()
  of(ledger: CardLedger): ReadonlyArray<LedgerEntry> {
    let cached = this.memo.get(ledger)
    if (cached === undefined) {
      cached = activeOf(ledger)
      this.memo.set(ledger, cached)
    }
    return cached
  }
}

/** Active entries in ledger order: `position`, then `entryId` ordinal (memoized in `orders` when given). */
export const activeEntries = (ledger: CardLedger, orders?: ActiveOrders): ReadonlyArray<LedgerEntry> =>
  orders === undefined ? activeOf(ledger) : orders.of(ledger)

/** Options of a ledger command: the new entry's ID and when it was applied. */
export interface EntryOptions {
  readonly entryId: string
  readonly captured: CapturedAt
}

const makeEntry = (
  content: SealedEntryContent,
  position: number,
  opts: EntryOptions,
  replaces?: string
): LedgerEntry => ({
  entryId: opts.entryId,
  position,
  state: "active",
  ...(replaces !== undefined ? { replaces } : {}),
  captured: opts.captured,
  upgradeId: content.upgradeId,
  requirements: content.requirements,
  patches: content.patches,
  closedCompositionRules: content.closedCompositionRules,
  pin: content.pin,
  sealHash: content.sealHash
})

const duplicateEntry = (ledger: CardLedger, entryId: string): Array<Diagnostic> =>
  ledger.entries.some((e) => e.entryId === entryId)
    ? [diagnostic("duplicate_id", `ledger entry ${entryId} already exists`, { subject: entryId })]
    : []

/** Appends sealed content as a new active entry at the end of the ledger. */
export const appendEntry = (
  ledger: CardLedger,
  content: unknown,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const sealed = verifySealed(content)
  if (Either.isLeft(sealed)) return Either.left(sealed.left)
  const dup = duplicateEntry(ledger, opts.entryId)
  if (dup.length > 0) return Either.left(dup)
  let position = 0
  for (const e of ledger.entries) if (e.position >= position) position = e.position + 1
  return Either.right({
    cardId: ledger.cardId,
    entries: [...ledger.entries, makeEntry(sealed.right, position, opts)],
    revision: ledger.revision + 1
  })
}

const findActive = (ledger: CardLedger, entryId: string): Either.Either<LedgerEntry, Array<Diagnostic>> => {
  const e = ledger.entries.find((x) => x.entryId === entryId && x.state === "active")
  return e === undefined
    ? Either.left([diagnostic("entry_not_found", `no active ledger entry ${entryId}`, { subject: entryId })])
    : Either.right(e)
}

/**
 * Marks an entry removed (it stays in the ledger as history). This does not
 * check dependencies: the planner calls `checkRemoval` (Resolver.ts) first.
 */
export const removeEntry = (ledger: CardLedger, entryId: string): Either.Either<CardLedger, Array<Diagnostic>> =>
  Either.map(findActive(ledger, entryId), (target) => ({
    cardId: ledger.cardId,
    entries: ledger.entries.map((e) => (e === target ? { ...e, state: "removed" as const } : e)),
    revision: ledger.revision + 1
  }))

/** Replaces an active entry with sealed content; the new entry keeps the old one's position. */
export const replaceEntry = (
  ledger: CardLedger,
  entryId: string,
  content: unknown,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const target = findActive(ledger, entryId)
  if (Either.isLeft(target)) return Either.left(target.left)
  const sealed = verifySealed(content)
  if (Either.isLeft(sealed)) return Either.left(sealed.left)
  const dup = duplicateEntry(ledger, opts.entryId)
  if (dup.length > 0) return Either.left(dup)
  return Either.right({
    cardId: ledger.cardId,
    entries: [
      ...ledger.entries.map((e) => (e === target.right ? { ...e, state: "removed" as const } : e)),
      makeEntry(sealed.right, target.right.position, opts, entryId)
    ],
    revision: ledger.revision + 1
  })
}

/**
 * Verifies every entry of a decoded ledger (a ledger read from a file or a
 * store): each must be sealed content whose hash matches.
 */
export const verifyLedger = (ledger: CardLedger): Either.Either<CardLedger, Array<Diagnostic>> => {
  const out: Array<Diagnostic> = []
  for (const e of ledger.entries) {
    const r = verifySealed(e, e.entryId)
    if (Either.isLeft(r)) out.push(...r.left)
  }
  return out.length > 0 ? Either.left(out) : Either.right(ledger)
}

const toEffect = <A>(r: Either.Either<A, ReadonlyArray<Diagnostic>>): Effect.Effect<A, CardfxError> =>
  Either.isRight(r)
    ? Effect.succeed(r.right)
    // A Left always carries at least one diagnostic; the fallback keeps this total.
    : Effect.fail(errorFromDiagnostic(r.left[0] ?? diagnostic("unsealed_definition", "ledger command failed")))

/** The ledger commands in the typed error channel (first diagnostic as its tagged error). */
export const LedgerCommands = {
  append: (ledger: CardLedger, content: unknown, opts: EntryOptions) => toEffect(appendEntry(ledger, content, opts)),
  remove: (ledger: CardLedger, entryId: string) => toEffect(removeEntry(ledger, entryId)),
  replace: (ledger: CardLedger, entryId: string, content: unknown, opts: EntryOptions) =>
    toEffect(replaceEntry(ledger, entryId, content, opts)),
  verify: (ledger: CardLedger) => toEffect(verifyLedger(ledger))
} as const
