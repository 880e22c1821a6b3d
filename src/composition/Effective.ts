/**
 * `EffectiveCardDefinition`: what a card instance is after its ledger has been
 * composed — final components (authoring shape), tags, cost, capabilities,
 * the `compositionTrace` (which entry, transformation, rule, bundle, scope and
 * anchor produced which members), the compiled container the executor runs,
 * and the `fingerprint`.
 *
 * Fingerprint: sha256 of the canonical JSON of
 * `{ engineVersion, baseCard, ledger, components, compositionTrace }` where
 * `baseCard` is the base card snapshot, `ledger` the active sealed entries in
 * ledger order, `components` the final components and `compositionTrace` the
 * trace. Each ledger entry appears as {@link ledgerEntrySnapshot}: its
 * identity, position, state and captured revision/sequence/step, plus its
 * `sealHash` — the sha256 of its sealed content (requirements, patches,
 * `closedCompositionRules`, runtime pin), verified when the entry is admitted.
 * The sealed content is thus committed to by hash (a Merkle link) rather than
 * repeated: any change to it changes the fingerprint, and the hashed document
 * stays small enough for the resolver's hot path. The resolver assembles the
 * exact canonical text of that document from pieces serialized once per
 * immutable object; `fingerprintDocument` (Resolver.ts) spells the document
 * out, and a test checks `sha256(canonicalJson(document)) === fingerprint`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { canonicalJson } from "../kernel/Canonical.js"
import { optional } from "../kernel/SchemaExt.js"
import type { CompiledContainer as CompiledContainerType, CompiledNode as CompiledNodeType } from "./Compiled.js"
import type { LedgerEntry } from "./ledger/Ledger.js"
import { CardLedger } from "./ledger/Ledger.js"
import { ChildTiming, Condition, EffectComponent, EffectType, ExecutionScope, TargetKind } from "./schema/Card.js"
import { Metadata } from "./schema/Symbols.js"
import { Scope } from "./schema/Transformation.js"

/** Schema of `CompiledEffect` (Compiled.ts). */
export const CompiledEffect = Schema.Struct({
  type: EffectType,
  target: TargetKind,
  amount: Schema.Number,
  statusId: Schema.String,
  stacks: Schema.Number,
  duration: Schema.Number,
  payload: Schema.Record({ key: Schema.String, value: Schema.Number }),
  payloadSources: Schema.Record({ key: Schema.String, value: Schema.String }),
  chance: Schema.Number,
  repeat: Schema.Number,
  conditions: Schema.Array(Condition),
  tags: Schema.Array(Schema.String)
}).annotations({ identifier: "CompiledEffect" })

/** Schema of `CompiledNode` (recursive). */
export const CompiledNode: Schema.Schema<CompiledNodeType> = Schema.Struct({
  componentId: Schema.String,
  order: Schema.Number,
  rank: Schema.Number,
  depth: Schema.Number,
  capabilityIds: Schema.Array(Schema.String),
  childTiming: ChildTiming,
  executionScope: ExecutionScope,
  effect: CompiledEffect,
  children: Schema.Array(Schema.suspend((): Schema.Schema<CompiledNodeType> => CompiledNode))
}).annotations({ identifier: "CompiledNode" })

/** Schema of `CompiledContainer`. */
export const CompiledContainer: Schema.Schema<CompiledContainerType> = Schema.Struct({
  cardId: Schema.String,
  cost: Schema.Number,
  tags: Schema.Array(Schema.String),
  capabilities: Schema.Array(Schema.String),
  roots: Schema.Array(CompiledNode),
  nodeCount: Schema.Number
}).annotations({ identifier: "CompiledContainer" })

/** One expansion of one rule: who produced which members. */
export const CompositionTraceEntry = Schema.Struct({
  entryId: Schema.String,
  transformationId: Schema.String,
  ruleId: Schema.String,
  bundleId: Schema.String,
  scope: Scope,
  /** The anchor's component ID; `null` for a sequence scope without anchor. */
  anchorId: Schema.NullOr(Schema.String),
  expansionId: Schema.String,
  /** Generated IDs of the expansion (members and their local aliases), in member order. */
  memberIds: Schema.Array(Schema.String)
}).annotations({ identifier: "CompositionTraceEntry" })
export type CompositionTraceEntry = typeof CompositionTraceEntry.Type

/** A card instance after composition: what the executor plays and what inspection shows. */
export const EffectiveCardDefinition = Schema.Struct({
  engineVersion: Schema.Int,
  cardId: Schema.String,
  cost: Schema.Number,
  /** Sorted, unique. */
  tags: Schema.Array(Schema.String),
  metadata: Metadata,
  /** Final components in authoring shape (generated members included). */
  components: Schema.Array(EffectComponent),
  /** Declared `capabilityIds` ∪ `effect.<TYPE>` of root effects; sorted, unique. */
  capabilities: Schema.Array(Schema.String),
  /** One entry per expansion, in expansion order. */
  compositionTrace: Schema.Array(CompositionTraceEntry),
  /** The container the common executor runs. */
  compiled: CompiledContainer,
  /** sha256 (hex) of the canonical JSON described in this module's header. */
  fingerprint: Schema.String
}).annotations({ identifier: "EffectiveCardDefinition" })
export type EffectiveCardDefinition = typeof EffectiveCardDefinition.Type

/** Inspection of an existing card: its ledger and what it composes to, as `effectiveBase`. */
export const CardInspection = Schema.Struct({
  cardId: Schema.String,
  ledger: CardLedger,
  effectiveBase: EffectiveCardDefinition,
  /** Where each component came from: `base`, `patch:<entryId>` or `rule:<entryId>/<ruleId>`. */
  origins: optional(Schema.Record({ key: Schema.String, value: Schema.String }))
}).annotations({ identifier: "CardInspection" })
export type CardInspection = typeof CardInspection.Type

/** How a sealed ledger entry takes part in the fingerprint: identity + `sealHash` (see the module header). */
export const ledgerEntrySnapshot = (e: LedgerEntry): unknown => ({
  entryId: e.entryId,
  upgradeId: e.upgradeId,
  position: e.position,
  state: e.state,
  ...(e.replaces !== undefined ? { replaces: e.replaces } : {}),
  captured: e.captured,
  sealHash: e.sealHash
})

/**
 * Whether a captured basis has exactly the Schema's three keys, each a safe integer: then it is written
 * directly (`${-0}` is "0", as canonical JSON writes it).
 */
const plainCaptured = (c: LedgerEntry["captured"]): boolean =>
  Object.keys(c).length === 3 && Number.isSafeInteger(c.revision) && Number.isSafeInteger(c.sequence) &&
  Number.isSafeInteger(c.step)

/**
 * Canonical JSON of a captured basis with the Schema's keys (in ordinal order), or undefined for any
 * other shape (the caller falls back to `canonicalJson`). Shared by the fingerprint's entry snapshot
 * and the store's entry text.
 */
export const capturedJson = (c: LedgerEntry["captured"]): string | undefined =>
  plainCaptured(c) ? `{"revision":${c.revision},"sequence":${c.sequence},"step":${c.step}}` : undefined

/**
 * Canonical JSON of {@link ledgerEntrySnapshot}, written directly in ordinal key order (`captured`,
 * `entryId`, `position`, `replaces`, `sealHash`, `state`, `upgradeId`): the same bytes as
 * `canonicalJson(ledgerEntrySnapshot(e))` (tested), without building and sorting the snapshot object
 * (every new entry's snapshot is written once, when it is first resolved). Anything else falls back.
 */
export const ledgerEntrySnapshotJson = (e: LedgerEntry): string => {
  const captured = capturedJson(e.captured)
  if (captured === undefined || !Number.isSafeInteger(e.position)) {
    return canonicalJson(ledgerEntrySnapshot(e))
  }
  return `{"captured":${captured},"entryId":${JSON.stringify(e.entryId)},"position":${e.position},` +
    (e.replaces !== undefined ? `"replaces":${JSON.stringify(e.replaces)},` : "") +
    `"sealHash":${JSON.stringify(e.sealHash)},"state":${JSON.stringify(e.state)},"upgradeId":${
      JSON.stringify(e.upgradeId)
    }}`
}

/**
 * Where each component of an effective card came from: `base`, `base+patch:<entryIds>`
 * (a structural component a patch changed), `patch:<entryId>` (added by a
 * patch) or `rule:<entryId>/<ruleId>` (generated by an expansion).
 */
export const componentOrigins = (ledger: CardLedger, effective: EffectiveCardDefinition): Record<string, string> => {
  const out: Record<string, string> = {}
  const touched = new Map<string, Array<string>>()
  const added = new Map<string, string>()
  const collectAdded = (
    entryId: string,
    c: { componentId: string; children?: ReadonlyArray<{ componentId: string }> }
  ): void => {
    added.set(c.componentId, entryId)
    for (const ch of c.children ?? []) collectAdded(entryId, ch as typeof c)
  }
  for (const e of ledger.entries) {
    if (e.state !== "active") continue
    for (const p of e.patches) {
      if (p.op === "addComponent") collectAdded(e.entryId, p.component)
      else if (p.op === "addCapabilities" || p.op === "addNumber" || p.op === "setNumber") {
        touched.set(p.componentId, [...(touched.get(p.componentId) ?? []), e.entryId])
      }
    }
  }
  const generated = new Map<string, string>()
  for (const t of effective.compositionTrace) {
    for (const id of t.memberIds) generated.set(id, `rule:${t.entryId}/${t.ruleId}`)
  }
  const visit = (nodes: ReadonlyArray<CompiledNodeType>): void => {
    for (const n of nodes) {
      const id = n.componentId
      const gen = generated.get(id)
      const add = added.get(id)
      const t = touched.get(id)
      out[id] = gen ?? (add !== undefined ? `patch:${add}` : t !== undefined ? `base+patch:${t.join(",")}` : "base")
      visit(n.children)
    }
  }
  visit(effective.compiled.roots)
  return out
}
