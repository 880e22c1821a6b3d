/**
 * Before and after an upgrade: what changed on the card, number by number
 * and component by component (`strike: damage 6 → 8`, `+ ember….burn: a new
 * after-impact Burning`), and the fingerprint change. Pure; compares two
 * effective cards by component ID.
 *
 * @since 0.1.0
 */
import type { ComponentDoc, EffectDoc, EffectiveDoc } from "./Docs.js"

export interface FieldChange {
  readonly field: string
  readonly before: string
  readonly after: string
}

export type ComponentChange =
  | { readonly kind: "added"; readonly componentId: string }
  | { readonly kind: "removed"; readonly componentId: string }
  | { readonly kind: "changed"; readonly componentId: string; readonly fields: ReadonlyArray<FieldChange> }

export interface CardDiff {
  /** Card-level changes: cost, tags. */
  readonly card: ReadonlyArray<FieldChange>
  readonly components: ReadonlyArray<ComponentChange>
  readonly fingerprint: { readonly before: string; readonly after: string } | null
}

const flat = (
  cs: ReadonlyArray<ComponentDoc>,
  parent: string | null,
  out: Map<string, [ComponentDoc, string | null]>
) => {
  for (const c of cs) {
    out.set(c.componentId, [c, parent])
    flat(c.children ?? [], c.componentId, out)
  }
  return out
}

const show = (v: unknown): string =>
  v === undefined ? "–" : Array.isArray(v) ? v.join(", ") || "–" : typeof v === "object" ? JSON.stringify(v) : String(v)

/** The fields of an effect a designer reads, with their names. */
const effectFields = (e: EffectDoc): ReadonlyArray<readonly [string, unknown]> => [
  ["type", e.type],
  ["amount", e.type === "APPLY_STATUS" ? undefined : e.amount],
  ["status", e.type === "APPLY_STATUS" ? e.statusId : undefined],
  ["stacks", e.type === "APPLY_STATUS" ? e.stacks : undefined],
  ["duration", e.type === "APPLY_STATUS" ? e.duration : undefined],
  ["target", e.target],
  ["repeat", e.repeat],
  ["chance", e.chance],
  ["conditions", e.conditions === undefined ? undefined : JSON.stringify(e.conditions)],
  ["effect tags", e.tags]
]

export const cardDiff = (before: EffectiveDoc, after: EffectiveDoc): CardDiff => {
  const card: Array<FieldChange> = []
  if (before.cost !== after.cost) card.push({ field: "cost", before: show(before.cost), after: show(after.cost) })
  if (show(before.tags) !== show(after.tags)) {
    card.push({ field: "tags", before: show(before.tags), after: show(after.tags) })
  }
  const b = flat(before.components, null, new Map())
  const a = flat(after.components, null, new Map())
  const components: Array<ComponentChange> = []
  for (const [id, [bc, bp]] of b) {
    const hit = a.get(id)
    if (hit === undefined) {
      components.push({ kind: "removed", componentId: id })
      continue
    }
    const [ac, ap] = hit
    const fields: Array<FieldChange> = []
    const af = new Map(effectFields(ac.effect))
    for (const [name, v] of effectFields(bc.effect)) {
      if (show(v) !== show(af.get(name))) fields.push({ field: name, before: show(v), after: show(af.get(name)) })
    }
    if (bp !== ap) fields.push({ field: "anchor", before: show(bp ?? "root"), after: show(ap ?? "root") })
    if (bc.order !== ac.order) fields.push({ field: "order", before: show(bc.order), after: show(ac.order) })
    if (fields.length > 0) components.push({ kind: "changed", componentId: id, fields })
  }
  for (const id of a.keys()) if (!b.has(id)) components.push({ kind: "added", componentId: id })
  return {
    card,
    components,
    fingerprint: before.fingerprint === after.fingerprint
      ? null
      : { before: before.fingerprint, after: after.fingerprint }
  }
}

/** Whether anything a designer sees changed. */
export const isEmptyDiff = (d: CardDiff): boolean => d.card.length === 0 && d.components.length === 0
