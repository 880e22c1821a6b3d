/**
 * The canonical text of the fingerprint document, assembled from pieces
 * serialized once per immutable object. A resolution reuses most objects of
 * the previous one (untouched structural components, lowered members, the
 * base card), so each piece's canonical JSON is memoized per object in a
 * {@link FingerprintText} value — owned by the resolution cache that holds it
 * (see `ResolutionCache.ts`), never by the module. The text equals
 * `canonicalJson` of the same values (tested through `fingerprintDocument`).
 *
 * @since 0.1.0
 */
import { canonicalJson, sha256Hex } from "../kernel/Canonical.js"
import type { CompositionTraceEntry } from "./Effective.js"
import type { Card, EffectComponent } from "./schema/Card.js"

/**
 * The same text, flat. V8 keeps a string built by `+` as a tree of its pieces (a rope), and hashing
 * a document walks every piece of every rope inside it: a memoized rope would be walked again on
 * every resolution (about 1 µs of the warm resolver's 5, docs/engine-profile.md). `Number` reads the
 * whole string, which flattens it in place, once; the text is unchanged.
 */
export const flat = (s: string): string => {
  Number(s)
  return s
}

/** Memoized canonical JSON of immutable cards, components, field values and ledgers' entry lists. */
export class FingerprintText {
  private readonly cards = new WeakMap<Card, string>()
  private readonly heads = new WeakMap<Card, string>()
  private readonly ledgers = new WeakMap<ReadonlyArray<object>, string>()
  private readonly components = new WeakMap<EffectComponent, string>()
  // Field values (effects, capability lists) are immutable objects shared between
  // component objects (a copy made to attach children keeps its effect object).
  private readonly values = new WeakMap<object, string>()

  /** Canonical JSON of a base card. */
  card(card: Card): string {
    let s = this.cards.get(card)
    if (s === undefined) {
      s = flat(canonicalJson(card))
      this.cards.set(card, s)
    }
    return s
  }

  /** The fingerprint document up to its component list: `{"baseCard":<card>,"components":`. */
  head(card: Card): string {
    let s = this.heads.get(card)
    if (s === undefined) {
      s = flat(`{"baseCard":${this.card(card)},"components":`)
      this.heads.set(card, s)
    }
    return s
  }

  /**
   * Canonical JSON of a ledger's active entries (`entries`, an immutable list memoized per ledger),
   * from each entry's snapshot JSON. `keep: false` (a transient candidate's list): not memoized.
   */
  ledger(entries: ReadonlyArray<object>, json: ReadonlyArray<{ readonly json: string }>, keep: boolean): string {
    let s = this.ledgers.get(entries)
    if (s === undefined) {
      s = "["
      for (let i = 0; i < json.length; i++) s += (i > 0 ? "," : "") + (json[i] as { readonly json: string }).json
      s = flat(s + "]")
      if (keep) this.ledgers.set(entries, s)
    }
    return s
  }

  /** Canonical JSON of a component list. */
  componentList(cs: ReadonlyArray<EffectComponent>): string {
    let s = "["
    for (let i = 0; i < cs.length; i++) s += (i > 0 ? "," : "") + this.component(cs[i] as EffectComponent)
    return s + "]"
  }

  /** Canonical JSON of one component (keys in ordinal order, `undefined` fields dropped). */
  component(c: EffectComponent): string {
    let s = this.components.get(c)
    if (s !== undefined) return s
    // EffectComponent is a (recursive) interface, so it has no index signature;
    // it is a plain record of JSON values, walked by key for the canonical order.
    const record = c as unknown as Readonly<Record<string, unknown>>
    // Default sort compares UTF-16 code units: the ordinal order.
    const keys = Object.keys(record).sort()
    s = "{"
    let first = true
    for (const k of keys) {
      const v = record[k]
      if (v === undefined) continue
      s += `${first ? "" : ","}${JSON.stringify(k)}:${
        k === "children" ? this.componentList(v as ReadonlyArray<EffectComponent>) : this.value(v)
      }`
      first = false
    }
    s = flat(s + "}")
    this.components.set(c, s)
    return s
  }

  private value(v: unknown): string {
    if (typeof v !== "object" || v === null) return canonicalJson(v)
    let s = this.values.get(v)
    if (s === undefined) {
      s = flat(canonicalJson(v))
      this.values.set(v, s)
    }
    return s
  }
}

/** Canonical JSON of a trace entry (its keys spelled in ordinal order), flat: it is memoized. */
export const traceJson = (t: CompositionTraceEntry): string =>
  flat(
    `{"anchorId":${t.anchorId === null ? "null" : JSON.stringify(t.anchorId)},"bundleId":${
      JSON.stringify(t.bundleId)
    },` +
      `"entryId":${JSON.stringify(t.entryId)},"expansionId":${JSON.stringify(t.expansionId)},` +
      `"memberIds":${JSON.stringify(t.memberIds)},"ruleId":${JSON.stringify(t.ruleId)},"scope":${
        JSON.stringify(t.scope)
      },` +
      `"transformationId":${JSON.stringify(t.transformationId)}}`
  )

/** sha256 (hex) of a text: the kernel's one sha256 helper (node's one-shot hash, no Hash object per call). */
export const sha256 = sha256Hex
