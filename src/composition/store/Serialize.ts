/**
 * The store's canonical serializers and decoders. Every document the store
 * writes is canonical JSON (keys in ordinal order), written here directly
 * for the hot shapes (the same bytes as the kernel's writer, tested), so the
 * bytes hashed are the bytes stored and both dialects hold the same text.
 *
 * The per-object caches live in a {@link Serializers} value that each store
 * owns (no module-level state); they are `WeakMap`s keyed on immutable
 * values, so they never hold what the store no longer references.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { canonicalJson, hashCanonical, sha256Hex } from "../../kernel/Canonical.js"
import { StoreFailure } from "../../kernel/Errors.js"
import { capturedJson } from "../Effective.js"
import type { LedgerCommand } from "../ledger/Command.js"
import { CardLedger, type LedgerEntry } from "../ledger/Ledger.js"
import { CommandOutcome, type CommandRequest, EventBody, ReplayContext } from "./Schemas.js"

/** Canonical JSON of a ledger (keys in ordinal order: cardId, entries, revision). */
export const ledgerJson = (l: CardLedger): string =>
  `{"cardId":${JSON.stringify(l.cardId)},"entries":[${
    l.entries.map((e) => canonicalJson(e)).join(",")
  }],"revision":${l.revision}}`

/** A command's own keys per kind, in ordinal order (`entryId` < `kind` < `upgradeId`). */
const COMMAND_KEYS: Readonly<Record<string, number>> = { apply: 2, remove: 2, replace: 3 }

/**
 * Canonical JSON of a ledger command with the Schema's keys, written directly (the same bytes as
 * `canonicalJson`, tested; no key array sorted per command); anything else through `canonicalJson`.
 */
export const commandJson = (c: LedgerCommand): string => {
  if (Object.keys(c).length !== COMMAND_KEYS[c.kind]) return canonicalJson(c)
  switch (c.kind) {
    case "apply":
      return typeof c.upgradeId === "string"
        ? `{"kind":"apply","upgradeId":${JSON.stringify(c.upgradeId)}}`
        : canonicalJson(c)
    case "remove":
      return typeof c.entryId === "string"
        ? `{"entryId":${JSON.stringify(c.entryId)},"kind":"remove"}`
        : canonicalJson(c)
    case "replace":
      return typeof c.entryId === "string" && typeof c.upgradeId === "string"
        ? `{"entryId":${JSON.stringify(c.entryId)},"kind":"replace","upgradeId":${JSON.stringify(c.upgradeId)}}`
        : canonicalJson(c)
  }
}

const REQUEST_KEYS: ReadonlySet<string> = new Set([
  "activity",
  "branch",
  "cardId",
  "command",
  "commandId",
  "expectedRevision",
  "instanceId"
])

/**
 * The sha256 of a request's canonical JSON: the idempotence key's fingerprint.
 * It covers exactly the fields the caller stated (an absent
 * `expectedRevision` is absent from the hash). A request with the schema's
 * fields (the usual case) is written directly in canonical key order (the
 * same bytes as the kernel's writer, tested), anything else goes through
 * `canonicalJson`; hashed with the kernel's `sha256Hex`.
 */
export const requestHash = (request: CommandRequest): string => {
  const keys = Object.keys(request)
  const stated = request.expectedRevision !== undefined
  if (
    keys.length !== (stated ? REQUEST_KEYS.size : REQUEST_KEYS.size - 1) ||
    !keys.every((k) => REQUEST_KEYS.has(k)) ||
    (stated && !Number.isInteger(request.expectedRevision))
  ) {
    return hashCanonical(request)
  }
  return sha256Hex(
    `{"activity":${JSON.stringify(request.activity)},"branch":${JSON.stringify(request.branch)},"cardId":${
      JSON.stringify(request.cardId)
    },` +
      `"command":${commandJson(request.command)},"commandId":${JSON.stringify(request.commandId)},` +
      (stated ? `"expectedRevision":${request.expectedRevision},` : "") +
      `"instanceId":${JSON.stringify(request.instanceId)}}`
  )
}

/** Canonical JSON of an outcome (keys in ordinal order), as `canonicalJson` writes it (tested). */
export const outcomeJson = (o: CommandOutcome): string =>
  `{"branch":${JSON.stringify(o.branch)},"cardId":${JSON.stringify(o.cardId)},"changedComponentIds":${
    canonicalJson(o.changedComponentIds)
  },` +
  `"commandId":${JSON.stringify(o.commandId)},"diagnostics":${
    o.diagnostics.length === 0 ? "[]" : canonicalJson(o.diagnostics)
  },` +
  `"entryId":${o.entryId === null ? "null" : JSON.stringify(o.entryId)},"fingerprint":${
    o.fingerprint === null ? "null" : JSON.stringify(o.fingerprint)
  },` +
  `"instanceId":${JSON.stringify(o.instanceId)},"revision":${canonicalJson(o.revision)},"sequence":${
    o.sequence === null ? "null" : canonicalJson(o.sequence)
  },` +
  `"status":${JSON.stringify(o.status)}}`

/** The serializers one store uses, with their per-object caches. */
export interface Serializers {
  /** Canonical JSON of a ledger (each entry's sealed parts written once: see `makeSerializers`). */
  readonly ledgerJson: (l: CardLedger) => string
  /** Canonical JSON of an event body (keys: activity, command, entry, removedEntryId). */
  readonly bodyJson: (b: EventBody) => string
  /** Canonical JSON and hash of a replay context, once per (immutable) context object. */
  readonly context: (c: ReplayContext) => { readonly json: string; readonly hash: string }
}

/** The keys of a ledger entry, in ordinal order (`replaces` is optional). */
const ENTRY_KEYS: ReadonlySet<string> = new Set([
  "captured",
  "closedCompositionRules",
  "entryId",
  "patches",
  "pin",
  "position",
  "replaces",
  "requirements",
  "sealHash",
  "state",
  "upgradeId"
])

/** A store's serializers (their caches are weak: they hold nothing the caller dropped). */
export const makeSerializers = (): Serializers => {
  // The sealed parts of an entry (rules, patches, pin, requirements) are objects shared by every
  // entry made from one sealed transformation: each is written once.
  const parts = new WeakMap<object, string>()
  const part = (v: object): string => {
    let s = parts.get(v)
    if (s === undefined) {
      s = canonicalJson(v)
      s.charCodeAt(0)
      parts.set(v, s)
    }
    return s
  }
  /** Canonical JSON of an entry with the Schema's keys, from its parts; anything else through `canonicalJson`. */
  const writeEntry = (e: LedgerEntry, captured: string): string => {
    const keys = Object.keys(e)
    if (!keys.every((k) => ENTRY_KEYS.has(k))) return canonicalJson(e)
    return `{"captured":${captured},"closedCompositionRules":${part(e.closedCompositionRules)},"entryId":${
      JSON.stringify(e.entryId)
    },` +
      `"patches":${part(e.patches)},"pin":${part(e.pin)},"position":${canonicalJson(e.position)},` +
      (e.replaces !== undefined ? `"replaces":${JSON.stringify(e.replaces)},` : "") +
      `"requirements":${part(e.requirements)},"sealHash":${JSON.stringify(e.sealHash)},"state":${
        JSON.stringify(e.state)
      },"upgradeId":${JSON.stringify(e.upgradeId)}}`
  }
  // Not memoized per entry: an entry lives as long as its ledger's history (for ever, in a cached
  // ledger), and so would its text, promoted with it (README, "Throughput"); an entry is written
  // once for its event and again only in the power-of-two checkpoints (≤ 3 times in all, amortized).
  const entryJson = (e: LedgerEntry): string => {
    const captured = capturedJson(e.captured)
    return captured !== undefined ? writeEntry(e, captured) : canonicalJson(e)
  }
  const contexts = new WeakMap<ReplayContext, { readonly json: string; readonly hash: string }>()
  return {
    ledgerJson: (l) =>
      `{"cardId":${JSON.stringify(l.cardId)},"entries":[${
        l.entries.map(entryJson).join(",")
      }],"revision":${l.revision}}`,
    bodyJson: (b) =>
      `{"activity":${JSON.stringify(b.activity)},"command":${commandJson(b.command)},"entry":${
        b.entry === null ? "null" : entryJson(b.entry)
      },"removedEntryId":${b.removedEntryId === null ? "null" : JSON.stringify(b.removedEntryId)}}`,
    context: (c) => {
      let s = contexts.get(c)
      if (s === undefined) {
        const json = canonicalJson(c)
        s = { json, hash: sha256Hex(json) }
        contexts.set(c, s)
      }
      return s
    }
  }
}

export const decodeLedger = Schema.decodeUnknownEither(Schema.parseJson(CardLedger))
export const decodeOutcome = Schema.decodeUnknownEither(Schema.parseJson(CommandOutcome))
export const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(EventBody))
export const decodeContext = Schema.decodeUnknownEither(Schema.parseJson(ReplayContext))

/** A stored document that does not decode: the store's data is damaged. */
export const corrupt = (what: string, e: unknown): StoreFailure =>
  new StoreFailure({ message: `ledger store: stored ${what} does not decode: ${String(e)}` })

export const fromEither = <A>(what: string, r: Either.Either<A, unknown>): Either.Either<A, StoreFailure> =>
  Either.mapLeft(r, (e) => corrupt(what, e))
