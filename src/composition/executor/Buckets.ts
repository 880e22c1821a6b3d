/**
 * The bucket pipeline: base (the effective card's number, never pre-scaled)
 * → flat additions → additive percent → multipliers → clamp ≥ 0 → floor.
 *
 * Sources are contextual only, read from the live combat state at impact
 * time: statuses held (their catalog `modifiers`), relics, buffs and
 * attributes. Outgoing modifiers come from the actor, incoming ones from the
 * target. Contributions are ordered by (bucket, source kind, source ID
 * ordinal, direction, position in the source's modifier list), and the sums
 * and products are taken in that order, so the result never depends on the
 * order the state happens to list its sources in.
 *
 * Scaling: statuses scale by stacks, attributes by points, relics and buffs
 * count once. `perStack`/`perPoint` multiply a flat/percent value by the
 * units and raise a multiplier to their power; `once` applies the value once
 * (an attribute at 0 points contributes nothing).
 *
 * Floor: the value is floored after adding 1e-9, so that a product that is
 * mathematically an integer but lands a hair below it in binary floating
 * point (20 × 1.15 = 22.999999999999996) floors to that integer.
 *
 * @since 0.1.0
 */
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { Attribute, Buff, Modifier, Relic } from "../schema/Modifier.js"
import type { Status } from "../schema/Status.js"
import type { Character } from "./CombatState.js"
import type { Contribution, SourceKind } from "./Events.js"

/** The catalog lookups the executor needs (a `Runtime` satisfies it). */
export interface ExecutorLookups {
  readonly statuses: ReadonlyMap<string, Status>
  readonly relics: ReadonlyMap<string, Relic>
  readonly buffs: ReadonlyMap<string, Buff>
  readonly attributes: ReadonlyMap<string, Attribute>
}

/** Added before flooring; see the module comment. */
export const FLOOR_EPSILON = 1e-9

const bucketRank = { flat: 0, percent: 1, multiplier: 2 } as const
const sourceRank: Record<SourceKind, number> = { status: 0, relic: 1, buff: 2, attribute: 3 }

/**
 * The breakdown order of two contributions (`ia`, `ib`: each one's index within its source's
 * modifier list, the last tiebreak).
 */
const compare = (a: Contribution, ia: number, b: Contribution, ib: number): number =>
  bucketRank[a.bucket] - bucketRank[b.bucket] ||
  sourceRank[a.source] - sourceRank[b.source] ||
  compareOrdinal(a.sourceId, b.sourceId) ||
  (a.direction === b.direction ? 0 : a.direction === "outgoing" ? -1 : 1) ||
  ia - ib

const scaled = (m: Modifier, units: number, perUnit: boolean): number => {
  if (!perUnit) return m.value
  return m.bucket === "multiplier" ? Math.pow(m.value, units) : m.value * units
}

/** Contributions are collected with each one's index in its source's modifier list in a parallel array (no wrapper object per contribution). */
const push = (
  out: Array<Contribution>,
  index: Array<number>,
  modifiers: ReadonlyArray<Modifier>,
  effectType: "DAMAGE" | "HEAL",
  direction: "outgoing" | "incoming",
  source: SourceKind,
  sourceId: string,
  holderId: string,
  units: number
): void => {
  for (let i = 0; i < modifiers.length; i++) {
    const m = modifiers[i] as Modifier
    if (m.direction !== direction || !m.effectTypes.includes(effectType)) continue
    const scaling = m.scaling ?? "once"
    const value = scaled(m, units, scaling !== "once")
    out.push({ bucket: m.bucket, source, sourceId, holderId, direction, value })
    index.push(i)
  }
}

const unknown = (kind: string, id: string, holderId: string): Diagnostic =>
  diagnostic("unknown_reference", `${kind} "${id}" held by "${holderId}" is not in the runtime catalog`, {
    subject: id,
    details: { holder: holderId, kind }
  })

const collectFrom = (
  lookups: ExecutorLookups,
  holder: Character,
  effectType: "DAMAGE" | "HEAL",
  direction: "outgoing" | "incoming",
  out: Array<Contribution>,
  index: Array<number>
): Diagnostic | undefined => {
  const id = holder.characterId
  const statuses = holder.statuses
  for (let i = 0; i < statuses.length; i++) {
    const s = statuses[i]
    if (s === undefined) continue
    const def = lookups.statuses.get(s.statusId)
    if (def === undefined) return unknown("status", s.statusId, id)
    if (def.modifiers !== undefined) {
      push(out, index, def.modifiers, effectType, direction, "status", s.statusId, id, s.stacks)
    }
  }
  const relics = holder.relics
  for (let i = 0; i < relics.length; i++) {
    const r = relics[i] as string
    const def = lookups.relics.get(r)
    if (def === undefined) return unknown("relic", r, id)
    push(out, index, def.modifiers, effectType, direction, "relic", r, id, 1)
  }
  const buffs = holder.buffs
  for (let i = 0; i < buffs.length; i++) {
    const b = buffs[i] as string
    const def = lookups.buffs.get(b)
    if (def === undefined) return unknown("buff", b, id)
    push(out, index, def.modifiers, effectType, direction, "buff", b, id, 1)
  }
  const attributes = holder.attributes
  for (const a in attributes) {
    const points = attributes[a]
    if (points === undefined || points === 0) continue
    const def = lookups.attributes.get(a)
    if (def === undefined) return unknown("attribute", a, id)
    push(out, index, def.modifiers, effectType, direction, "attribute", a, id, points)
  }
  return undefined
}

/** The outcome of one resolution: the final amount and its ordered contributions. */
export interface Resolution {
  readonly amount: number
  readonly contributions: ReadonlyArray<Contribution>
}

const NONE: ReadonlyArray<Contribution> = []

/**
 * Resolves `base` for an impact of `effectType` by `actor` on `target`
 * through the bucket pipeline, or the diagnostic for a source missing from
 * the catalog.
 */
export const resolveAmount = (
  lookups: ExecutorLookups,
  effectType: "DAMAGE" | "HEAL",
  base: number,
  actor: Character,
  target: Character
): Resolution | Diagnostic => {
  const cs: Array<Contribution> = []
  const index: Array<number> = []
  const e1 = collectFrom(lookups, actor, effectType, "outgoing", cs, index)
  if (e1 !== undefined) return e1
  const e2 = collectFrom(lookups, target, effectType, "incoming", cs, index)
  if (e2 !== undefined) return e2
  if (cs.length === 0) return { amount: finish(base), contributions: NONE }
  if (cs.length > 1) sortCollected(cs, index)
  return { amount: applyBuckets(base, cs), contributions: cs }
}

/**
 * Sorts contributions into breakdown order, moving their indexes alongside: a stable insertion
 * sort (an impact has a handful of contributions, mostly in order already), the order
 * `Array.prototype.sort` with `compare` gives.
 */
const sortCollected = (cs: Array<Contribution>, index: Array<number>): void => {
  for (let i = 1; i < cs.length; i++) {
    const c = cs[i] as Contribution
    const ic = index[i] as number
    let j = i - 1
    while (j >= 0 && compare(cs[j] as Contribution, index[j] as number, c, ic) > 0) {
      cs[j + 1] = cs[j] as Contribution
      index[j + 1] = index[j] as number
      j--
    }
    cs[j + 1] = c
    index[j + 1] = ic
  }
}

const finish = (x: number): number => (x > 0 ? Math.floor(x + FLOOR_EPSILON) : 0)

/** Runs the pipeline over contributions already in breakdown order. */
export const applyBuckets = (base: number, contributions: ReadonlyArray<Contribution>): number => {
  let flat = 0
  let percent = 0
  let multiplier = 1
  for (let i = 0; i < contributions.length; i++) {
    const c = contributions[i] as Contribution
    if (c.bucket === "flat") flat += c.value
    else if (c.bucket === "percent") percent += c.value
    else multiplier *= c.value
  }
  return finish((base + flat) * (1 + percent / 100) * multiplier)
}

const num = (v: number): string => String(Object.is(v, -0) ? 0 : v)

/**
 * The human rendering of a breakdown: `9 base +2 strength ×1.5 vulnerable → 16`.
 * Built only on demand (never on the executor's hot path).
 */
export const renderBreakdown = (base: number, contributions: ReadonlyArray<Contribution>, amount: number): string => {
  let out = `${num(base)} base`
  for (const c of contributions) {
    if (c.bucket === "flat") out += ` ${c.value < 0 ? "-" : "+"}${num(Math.abs(c.value))} ${c.sourceId}`
    else if (c.bucket === "percent") out += ` ${c.value < 0 ? "-" : "+"}${num(Math.abs(c.value))}% ${c.sourceId}`
    else out += ` ×${num(c.value)} ${c.sourceId}`
  }
  return `${out} → ${num(amount)}`
}
