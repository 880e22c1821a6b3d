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
import { type CardfxError, errorFromDiagnostics } from "../../kernel/Errors.js"
import { Limits } from "../../kernel/Limits.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { optional } from "../../kernel/SchemaExt.js"
import { Bundle } from "../schema/Bundle.js"
import type { EffectComponent } from "../schema/Card.js"
import { AuthoredId, Symbol as SymbolId } from "../schema/Symbols.js"
import { CompositionRule, Patch, Requirements } from "../schema/Transformation.js"

/** Schema of a package pin (see `Runtime.ts`'s `PackagePin`). */
export const PackagePin = Schema.Struct({
  packageId: Schema.String.pipe(Schema.maxLength(128)),
  version: Schema.String.pipe(Schema.maxLength(64)),
  contentHash: Schema.String.pipe(Schema.maxLength(128))
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
  externalIds: Schema.Array(SymbolId)
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
  sealHash: Schema.String.pipe(Schema.maxLength(128))
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

// ---------------------------------------------------------------------------
// The persistent structure behind a ledger.
//
// A ledger's history only grows: commands append entries and flip active ones
// to removed. A ledger made by the commands below carries (non-enumerable) a
// `History`: the entries as appended, in an append-only log SHARED with the
// ledgers it was derived from (a ledger owns the prefix `log[0, size)`; an
// append to the newest ledger of a log pushes onto it, an append to an older
// one copies its prefix first), the active entries in ledger order (found by ID with a scan, or a
// Map built once for a ledger with many),
// the next position and the last captured sequence. So a command costs
// O(active entries), not O(history): no copy of the history, no scan. The
// `entries` field is still an array of the documented shape: it is built from
// the log on first read (serializing a checkpoint, encoding, a test) and kept.
// A ledger from elsewhere (decoded, spelled out) gets its History built once,
// in one pass, on first use.
//
// A transient append (a candidate that is assessed and dropped: assess,
// discovery) does not push onto the shared log: its entry is the ledger's own
// `tail`. Pushed, it would make the stored ledger an older one of its log, and
// the next real command on it would copy its whole history.

interface Log {
  readonly entries: Array<LedgerEntry>
  /** entryId → index of its first entry in `entries` (append-only like the log). */
  readonly index: Map<string, number>
  /** The removed copy of a logged entry (the same for every ledger that removed it). */
  readonly removed: WeakMap<LedgerEntry, LedgerEntry>
}

interface History {
  readonly log: Log
  /** How many of this ledger's entries are the shared log's: `log.entries[0, shared)`. */
  readonly shared: number
  /** This ledger's entries after the shared ones (transient appends; usually none). */
  readonly tail: ReadonlyArray<LedgerEntry>
  /** Entries of this ledger: `shared + tail.length`. */
  readonly size: number
  /** Active entries in ledger order (`position`, then `entryId` ordinal). */
  readonly active: ReadonlyArray<LedgerEntry>
  /** `active` by ID, built on first use when there are more than {@link SCANNED} (see `activeById`). */
  byId: Map<string, LedgerEntry> | undefined
  /** One past the highest position of any entry (a new entry's position). */
  readonly nextPosition: number
  /** The highest captured sequence of any entry (0 for none). */
  readonly sequence: number
  /** `entries`, once built. */
  materialized: ReadonlyArray<LedgerEntry> | undefined
}

const HISTORY: unique symbol = Symbol("cardfx/LedgerHistory")
interface WithHistory {
  readonly [HISTORY]?: History
}

const NO_ENTRIES: ReadonlyArray<LedgerEntry> = []

/**
 * Up to this many active entries (a card's slots: usually a handful) are found by a scan; a Map per
 * ledger costs more to copy on every command than the scan does.
 */
const SCANNED = 16

/** The active entry with this ID: a scan of a few, else a Map built once per history. */
const activeById = (h: History, entryId: string): LedgerEntry | undefined => {
  const active = h.active
  if (active.length <= SCANNED) {
    for (let i = 0; i < active.length; i++) {
      const e = active[i] as LedgerEntry
      if (e.entryId === entryId) return e
    }
    return undefined
  }
  let byId = h.byId
  if (byId === undefined) {
    byId = new Map()
    for (const e of active) byId.set(e.entryId, e)
    h.byId = byId
  }
  return byId.get(entryId)
}

const ledgerOrder = (a: LedgerEntry, b: LedgerEntry): number =>
  a.position - b.position || compareOrdinal(a.entryId, b.entryId)

const buildHistory = (ledger: CardLedger): History => {
  const entries = [...ledger.entries]
  const index = new Map<string, number>()
  const active: Array<LedgerEntry> = []
  let nextPosition = 0
  let sequence = 0
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as LedgerEntry
    if (!index.has(e.entryId)) index.set(e.entryId, i)
    if (e.state === "active") active.push(e)
    if (e.position >= nextPosition) nextPosition = e.position + 1
    if (e.captured.sequence > sequence) sequence = e.captured.sequence
  }
  active.sort(ledgerOrder)
  return {
    log: { entries, index, removed: new WeakMap() },
    shared: entries.length,
    tail: NO_ENTRIES,
    size: entries.length,
    active,
    byId: undefined,
    nextPosition,
    sequence,
    materialized: ledger.entries
  }
}

/** The History of a ledger: its own, or one built from its entries (not kept: the ledger is not ours to annotate). */
const historyOf = (ledger: CardLedger): History => (ledger as WithHistory)[HISTORY] ?? buildHistory(ledger)

const materialize = (h: History): ReadonlyArray<LedgerEntry> => {
  if (h.materialized !== undefined) return h.materialized
  const { entries, removed } = h.log
  const out: Array<LedgerEntry> = new Array(h.size)
  for (let i = 0; i < h.size; i++) {
    const e = (i < h.shared ? entries[i] : h.tail[i - h.shared]) as LedgerEntry
    if (e.state === "removed" || activeById(h, e.entryId) === e) out[i] = e
    else {
      let r = removed.get(e)
      if (r === undefined) {
        r = { ...e, state: "removed" }
        removed.set(e, r)
      }
      out[i] = r
    }
  }
  h.materialized = out
  return out
}

/** A ledger value over a History: `cardId`, `entries` (built on first read), `revision`, as the Schema has them. */
const ledgerWith = (cardId: string, revision: number, h: History): CardLedger => {
  const ledger = {
    cardId,
    get entries(): ReadonlyArray<LedgerEntry> {
      return materialize(h)
    },
    revision
  }
  Object.defineProperty(ledger, HISTORY, { value: h, enumerable: false })
  return ledger
}

/**
 * The log to append to: the shared one when this ledger is its newest, else a copy of this ledger's
 * entries (its prefix of the log and its tail).
 */
const ownLog = (h: History): Log => {
  if (h.tail.length === 0 && h.log.entries.length === h.shared) return h.log
  const entries = h.log.entries.slice(0, h.shared)
  for (const e of h.tail) entries.push(e)
  const index = new Map<string, number>()
  for (let i = 0; i < entries.length; i++) {
    const id = (entries[i] as LedgerEntry).entryId
    if (!index.has(id)) index.set(id, i)
  }
  return { entries, index, removed: h.log.removed }
}

/** Whether a ledger has an entry (active or removed) with this ID. */
const hasEntry = (h: History, entryId: string): boolean => {
  const i = h.log.index.get(entryId)
  return (i !== undefined && i < h.shared) || h.tail.some((e) => e.entryId === entryId)
}

/**
 * The history after appending `entry` (active) and, optionally, removing the active entry `removedId`.
 * Transient: the entry goes to the new history's own tail, not onto the shared log.
 */
const extend = (h: History, entry: LedgerEntry, removedId?: string, transient = false): History => {
  let log: Log
  let shared: number
  let tail: ReadonlyArray<LedgerEntry>
  if (transient) {
    log = h.log
    shared = h.shared
    tail = [...h.tail, entry]
  } else {
    log = ownLog(h)
    log.entries.push(entry)
    if (!log.index.has(entry.entryId)) log.index.set(entry.entryId, h.size)
    shared = h.size + 1
    tail = NO_ENTRIES
  }
  const kept = removedId === undefined ? h.active : h.active.filter((e) => e.entryId !== removedId)
  const last = kept[kept.length - 1]
  const active = last === undefined || ledgerOrder(last, entry) < 0
    ? [...kept, entry]
    : [...kept, entry].sort(ledgerOrder)
  return {
    log,
    shared,
    tail,
    size: h.size + 1,
    active,
    byId: undefined,
    nextPosition: Math.max(h.nextPosition, entry.position + 1),
    sequence: Math.max(h.sequence, entry.captured.sequence),
    materialized: undefined
  }
}

/** The history after removing the active entry `entryId`. */
const withoutActive = (h: History, entryId: string): History => ({
  log: h.log,
  shared: h.shared,
  tail: h.tail,
  size: h.size,
  active: h.active.filter((e) => e.entryId !== entryId),
  byId: undefined,
  nextPosition: h.nextPosition,
  sequence: h.sequence,
  materialized: undefined
})

/** How many entries a ledger's history holds (active and removed); the next entry's step is this + 1. */
export const ledgerSize = (ledger: CardLedger): number => {
  const h = (ledger as WithHistory)[HISTORY]
  return h !== undefined ? h.size : ledger.entries.length
}

/** The highest captured sequence of a ledger's entries (0 for none): the last event a bare ledger reflects. */
export const ledgerSequence = (ledger: CardLedger): number => historyOf(ledger).sequence

/** The active entry with this ID, if any (by ID: no scan of the history). */
export const activeEntry = (ledger: CardLedger, entryId: string): LedgerEntry | undefined =>
  activeById(historyOf(ledger), entryId)

/**
 * A ledger folded forward with events (deltas, in revision order): each
 * removes the entry `removedEntryId` (when active) and appends `entry` (when
 * not null). Linear in the events; the start's history is not copied.
 */
export const foldLedger = (
  start: CardLedger,
  deltas: ReadonlyArray<{ readonly entry: LedgerEntry | null; readonly removedEntryId: string | null }>
): CardLedger => {
  let h = historyOf(start)
  for (const d of deltas) {
    if (d.entry !== null) {
      h = extend(
        h,
        d.entry,
        d.removedEntryId !== null && activeById(h, d.removedEntryId) !== undefined ? d.removedEntryId : undefined
      )
    } else if (d.removedEntryId !== null && activeById(h, d.removedEntryId) !== undefined) {
      h = withoutActive(h, d.removedEntryId)
    }
  }
  return ledgerWith(start.cardId, start.revision + deltas.length, h)
}

/**
 * Ledgers' active orders, memoized: ledgers are immutable values, so each
 * order is computed once. Owned by a `ResolutionCache` (no module holds it).
 */
export class ActiveOrders {
  private readonly memo = new WeakMap<CardLedger, ReadonlyArray<LedgerEntry>>()
  of(ledger: CardLedger): ReadonlyArray<LedgerEntry> {
    const own = (ledger as WithHistory)[HISTORY]
    if (own !== undefined) return own.active
    let cached = this.memo.get(ledger)
    if (cached === undefined) {
      cached = historyOf(ledger).active
      this.memo.set(ledger, cached)
    }
    return cached
  }
}

/** Active entries in ledger order: `position`, then `entryId` ordinal (memoized in `orders` when given). */
export const activeEntries = (ledger: CardLedger, orders?: ActiveOrders): ReadonlyArray<LedgerEntry> =>
  orders === undefined ? historyOf(ledger).active : orders.of(ledger)

/** Options of a ledger command: the new entry's ID and when it was applied. */
export interface EntryOptions {
  readonly entryId: string
  readonly captured: CapturedAt
  /**
   * The new ledger is assessed and dropped (assess, discovery): its entry is its own, not pushed onto
   * the history it shares with `ledger`, so a later command on `ledger` still appends without copying
   * that history. The ledger made is the same value either way.
   */
  readonly transient?: boolean | undefined
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

const duplicateEntry = (h: History, entryId: string): Array<Diagnostic> =>
  hasEntry(h, entryId)
    ? [diagnostic("duplicate_id", `ledger entry ${entryId} already exists`, { subject: entryId })]
    : []

/**
 * Appends content that already passed {@link verifySealed} (the planner
 * verifies each sealed object once and keeps the answer in its cache) as a
 * new active entry at the end of the ledger.
 */
export const appendVerified = (
  ledger: CardLedger,
  content: SealedEntryContent,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const h = historyOf(ledger)
  const dup = duplicateEntry(h, opts.entryId)
  if (dup.length > 0) return Either.left(dup)
  return Either.right(
    ledgerWith(
      ledger.cardId,
      ledger.revision + 1,
      extend(h, makeEntry(content, h.nextPosition, opts), undefined, opts.transient === true)
    )
  )
}

/** Appends sealed content as a new active entry at the end of the ledger. */
export const appendEntry = (
  ledger: CardLedger,
  content: unknown,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const sealed = verifySealed(content)
  return Either.isLeft(sealed) ? Either.left(sealed.left) : appendVerified(ledger, sealed.right, opts)
}

const notFound = (entryId: string): Array<Diagnostic> => [
  diagnostic("entry_not_found", `no active ledger entry ${entryId}`, { subject: entryId })
]

/**
 * Marks an entry removed (it stays in the ledger as history). This does not
 * check dependencies: the planner calls `checkRemoval` (Resolver.ts) first.
 */
export const removeEntry = (ledger: CardLedger, entryId: string): Either.Either<CardLedger, Array<Diagnostic>> => {
  const h = historyOf(ledger)
  if (activeById(h, entryId) === undefined) return Either.left(notFound(entryId))
  return Either.right(ledgerWith(ledger.cardId, ledger.revision + 1, withoutActive(h, entryId)))
}

const replaceWith = (
  ledger: CardLedger,
  entryId: string,
  content: () => Either.Either<SealedEntryContent, Array<Diagnostic>>,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => {
  const h = historyOf(ledger)
  const target = activeById(h, entryId)
  if (target === undefined) return Either.left(notFound(entryId))
  const sealed = content()
  if (Either.isLeft(sealed)) return Either.left(sealed.left)
  const dup = duplicateEntry(h, opts.entryId)
  if (dup.length > 0) return Either.left(dup)
  const entry = makeEntry(sealed.right, target.position, opts, entryId)
  return Either.right(
    ledgerWith(ledger.cardId, ledger.revision + 1, extend(h, entry, entryId, opts.transient === true))
  )
}

/** Replaces an active entry with sealed content; the new entry keeps the old one's position. */
export const replaceEntry = (
  ledger: CardLedger,
  entryId: string,
  content: unknown,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => replaceWith(ledger, entryId, () => verifySealed(content), opts)

/** {@link replaceEntry} with content that already passed {@link verifySealed}. */
export const replaceVerified = (
  ledger: CardLedger,
  entryId: string,
  content: SealedEntryContent,
  opts: EntryOptions
): Either.Either<CardLedger, Array<Diagnostic>> => replaceWith(ledger, entryId, () => Either.right(content), opts)

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
    : Effect.fail(errorFromDiagnostics(r.left, diagnostic("unsealed_definition", "ledger command failed")))

/** The ledger commands in the typed error channel (the first error's tagged error, carrying every diagnostic). */
export const LedgerCommands = {
  append: (ledger: CardLedger, content: unknown, opts: EntryOptions) => toEffect(appendEntry(ledger, content, opts)),
  remove: (ledger: CardLedger, entryId: string) => toEffect(removeEntry(ledger, entryId)),
  replace: (ledger: CardLedger, entryId: string, content: unknown, opts: EntryOptions) =>
    toEffect(replaceEntry(ledger, entryId, content, opts)),
  verify: (ledger: CardLedger) => toEffect(verifyLedger(ledger))
} as const
