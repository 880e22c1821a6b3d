/**
 * Reading a state in the rules' terms: a card instance's card, zone and
 * current tones (§1), card groups, selectors and filters, player selectors,
 * conditions and amounts (§8, §10), static sources and current costs (§7).
 * Pure functions of the compiled deck and a state (the memo tables they
 * consult are caches).
 *
 * @since 0.1.0
 */
import type {
  Action,
  Amount,
  CardFilter,
  CardGroup,
  CardSelector,
  Condition,
  EffectRecord,
  PlayerSelector,
  TargetSpec
} from "../Schema.js"
import type { ZoneName } from "../Vocabulary.js"
import type { CompiledCard } from "./Compiled.js"
import type { Runtime } from "./Runtime.js"
import type { CastRecord, CostChange, Frame, GameState, PathStep, PlayerState, Seat, ToneChange } from "./State.js"

/** A player's zone by name, read with named property loads (a computed key is a megamorphic keyed load). */
export const zoneArray = (p: PlayerState, z: ZoneName): ReadonlyArray<string> => {
  switch (z) {
    case "deck":
      return p.deck
    case "hand":
      return p.hand
    case "stage":
      return p.stage
    case "archive":
      return p.archive
    case "pending":
      return p.pending
  }
}

/**
 * Removes the element at `k` (as `splice(k, 1)`, without the array of removed elements `splice`
 * returns).
 */
export const removeAt = (xs: Array<string>, k: number): void => {
  const at = k < 0 ? Math.max(0, xs.length + k) : k // a negative index counts from the end, as in `splice`
  if (at >= xs.length) return
  for (let j = at + 1; j < xs.length; j++) xs[j - 1] = xs[j] as string
  xs.pop()
}

export const other = (s: Seat): Seat => (s === 0 ? 1 : 0)
/** The owner of an instance `p<seat>-…` (§1.2). */
export const ownerOf = (inst: string): Seat => (inst.charCodeAt(1) === 48 ? 0 : 1)

export const cardOfInst = (c: Runtime, s: Pick<GameState, "cardOf">, inst: string): CompiledCard =>
  c.memo.card(s.cardOf, inst)

export const effectOf = (c: Runtime, f: Frame): EffectRecord =>
  (c.cards[f.card] as CompiledCard).def.effects[f.eff] as EffectRecord // frames are built from existing effects

export const zoneOf = (s: GameState, inst: string): ZoneName | null => {
  const p = s.players[ownerOf(inst)]
  if (p.stage.includes(inst)) return "stage"
  if (p.pending.includes(inst)) return "pending"
  if (p.hand.includes(inst)) return "hand"
  if (p.archive.includes(inst)) return "archive"
  if (p.deck.includes(inst)) return "deck"
  return null
}

/** A card's current tones: printed, with the active tone changes applied in order (§1.5). */
export const tonesOf = (c: Runtime, s: GameState, inst: string): ReadonlyArray<string> => {
  const printed = cardOfInst(c, s, inst).def.tones
  if (s.toneChanges.length === 0) return printed
  let tones: Array<string> | null = null
  const changes = s.toneChanges
  for (let n = 0; n < changes.length; n++) {
    const t = changes[n] as ToneChange
    if (t.inst !== inst) continue
    const cur: Array<string> = tones ?? printed.slice()
    const k = cur.indexOf(t.from)
    if (k >= 0) {
      if (cur.includes(t.to)) cur.splice(k, 1)
      else cur[k] = t.to
    }
    tones = cur
  }
  return tones ?? printed
}

export const matches = (c: Runtime, s: GameState, inst: string, f: CardFilter): boolean => {
  const def = cardOfInst(c, s, inst).def
  if (f.type !== undefined && def.type !== f.type) return false
  if (f.card !== undefined && def.id !== f.card) return false
  if (f.tag !== undefined && !def.tags.includes(f.tag)) return false
  if (f.tone !== undefined && !tonesOf(c, s, inst).includes(f.tone)) return false
  return true
}

export const ONE: readonly [ReadonlyArray<Seat>, ReadonlyArray<Seat>] = [[0], [1]]
export const BOTH: readonly [ReadonlyArray<Seat>, ReadonlyArray<Seat>] = [[0, 1], [1, 0]]
export const NONE: ReadonlyArray<Seat> = []

export const seatsOf = (ctrl: Seat, who: "self" | "opponent" | "any"): ReadonlyArray<Seat> =>
  who === "self" ? ONE[ctrl] : who === "opponent" ? ONE[other(ctrl)] : BOTH[ctrl]

/** Cards of a group, relative to `ctrl`, in zone order. */
export const groupCards = (c: Runtime, s: GameState, ctrl: Seat, g: CardGroup): Array<string> => {
  const out: Array<string> = []
  const seats = seatsOf(ctrl, g.controller)
  for (let k = 0; k < seats.length; k++) {
    const zone = zoneArray(s.players[seats[k] as Seat], g.zone as ZoneName) ?? []
    for (let j = 0; j < zone.length; j++) if (matches(c, s, zone[j] as string, g)) out.push(zone[j] as string)
  }
  return out
}

/** Whether a group has a card (`groupCards(…).length > 0` without building the list). */
export const anyInGroup = (c: Runtime, s: GameState, ctrl: Seat, g: CardGroup): boolean => {
  const seats = seatsOf(ctrl, g.controller)
  for (let k = 0; k < seats.length; k++) {
    const zone = zoneArray(s.players[seats[k] as Seat], g.zone as ZoneName) ?? []
    for (let j = 0; j < zone.length; j++) if (matches(c, s, zone[j] as string, g)) return true
  }
  return false
}

export const inGroup = (c: Runtime, s: GameState, ctrl: Seat, g: CardGroup, inst: string): boolean => {
  const owner = ownerOf(inst)
  if (g.controller === "self" ? owner !== ctrl : g.controller === "opponent" ? owner === ctrl : false) return false
  if (!(zoneArray(s.players[owner], g.zone as ZoneName) ?? []).includes(inst)) return false
  return matches(c, s, inst, g)
}

export const playerSeats = (s: GameState, f: Frame, p: PlayerSelector): ReadonlyArray<Seat> => {
  switch (p) {
    case "self":
      return ONE[f.ctrl]
    case "opponent":
      return ONE[other(f.ctrl)]
    case "each":
      return BOTH[s.active]
    case "pending-controller":
      return f.pend === null ? NONE : ONE[ownerOf(f.pend)]
  }
}

export const isPending = (s: GameState, inst: string): boolean => s.players[ownerOf(inst)].pending.includes(inst)

/** The target spec of key `<effect>/<id>` on a card. */
export const specOf = (card: CompiledCard, key: string): TargetSpec | undefined => {
  const slash = key.indexOf("/")
  const e = card.def.effects[Number(key.slice(0, slash))]
  const id = key.slice(slash + 1)
  return e?.targets?.find((t) => t.id === id)
}

export const cardsOf = (c: Runtime, s: GameState, f: Frame, sel: CardSelector): ReadonlyArray<string> => {
  if (sel === "self") return [f.src]
  if (sel === "each") return f.each === null ? [] : [f.each]
  if (sel === "pending-card") return f.pend !== null && isPending(s, f.pend) ? [f.pend] : []
  if ("target" in sel) {
    const key = `${f.eff}/${sel.target}`
    const inst = f.tg?.[key]
    if (inst === undefined) return []
    const spec = specOf(c.cards[f.card] as CompiledCard, key)
    // A target that is no longer a legal choice is ignored (§10).
    return spec !== undefined && inGroup(c, s, f.ctrl, spec, inst) ? [inst] : []
  }
  return groupCards(c, s, f.ctrl, sel.group)
}

const compare = (
  a: number,
  op: "gte" | "lte" | "eq",
  b: number
): boolean => (op === "gte" ? a >= b : op === "lte" ? a <= b : a === b)

export const holds = (c: Runtime, s: GameState, cond: Condition | undefined, f: Frame): boolean => {
  if (cond === undefined) return true
  // Loops, not `every`/`some` with a closure: this runs for every condition of every enumeration and
  // resolution step, and each closure was an allocation (a tenth of a playout's bytes, profiled).
  switch (cond.fact) {
    case "controls@1": {
      const seats = playerSeats(s, f, cond.player)
      if (seats.length === 0) return false
      for (let k = 0; k < seats.length; k++) {
        const stage = s.players[seats[k] as Seat].stage
        let n = 0
        for (let j = 0; j < stage.length; j++) if (matches(c, s, stage[j] as string, cond.filter)) n++
        if (n < cond.at_least) return false
      }
      return true
    }
    case "events-this-turn@1": {
      const e = c.eventIndex.get(cond.event) ?? 0
      const seats = playerSeats(s, f, cond.player)
      if (seats.length === 0) return false
      for (let k = 0; k < seats.length; k++) {
        if (!compare(s.events[e * 2 + (seats[k] as Seat)] ?? 0, cond.compare, cond.value)) return false
      }
      return true
    }
    case "damage-pending@1": {
      const seats = playerSeats(s, f, cond.player)
      for (const dmg of s.damage) if (seats.includes(dmg.target)) return true
      return false
    }
    case "resource@1": {
      const seats = playerSeats(s, f, cond.player)
      const r = cond.resource as "composure" | "fandom" | "trend"
      if (seats.length === 0) return false
      for (let k = 0; k < seats.length; k++) {
        if (!compare(s.players[seats[k] as Seat][r], cond.compare, cond.value)) return false
      }
      return true
    }
    case "pending-has-target@1": {
      if (f.pend === null) return false
      const t = s.castTargets[f.pend]
      return t !== undefined && Object.keys(t).length > 0
    }
    case "counters@1": {
      const xs = cardsOf(c, s, f, cond.card)
      if (xs.length === 0) return false
      for (let k = 0; k < xs.length; k++) {
        if (!compare(s.counters[xs[k] as string]?.[cond.counter] ?? 0, cond.compare, cond.value)) return false
      }
      return true
    }
  }
}

export const amountOf = (s: GameState, a: Amount, f: Frame, c: Runtime): number => {
  if (typeof a === "number") return a
  if (a === "all") return Number.MAX_SAFE_INTEGER
  const seats = playerSeats(s, f, a.player)
  let n = 0
  const cast = s.cast
  for (let k = 0; k < cast.length; k++) {
    const r = cast[k] as CastRecord
    if (!seats.includes(r.seat)) continue
    const flt = a.filter
    if (flt !== undefined) {
      if (flt.type !== undefined && r.type !== flt.type) continue
      if (flt.tone !== undefined && !r.tones.includes(flt.tone)) continue
      if (flt.tag !== undefined && !r.tags.includes(flt.tag)) continue
      if (flt.card !== undefined && (c.cards[c.memo.cardIndex(s.cardOf, r.inst)] as CompiledCard).def.id !== flt.card) {
        continue
      }
    }
    n++
  }
  return n
}

/** A stage card with static effects: its controller, and one frame per static effect (`card.statics` order). */
export type StaticSource = {
  readonly src: string
  readonly seat: Seat
  readonly card: CompiledCard
  readonly frames: ReadonlyArray<Frame>
}
const NO_STATICS: ReadonlyArray<StaticSource> = []

/** Stage cards with static effects, with their controller (usually none). */
export const staticSources = (c: Runtime, s: GameState): ReadonlyArray<StaticSource> => {
  if (!c.hasStatics) return NO_STATICS
  let out: Array<StaticSource> | null = null
  for (let seat: Seat = 0; seat <= 1; seat++) {
    const stage = s.players[seat as Seat].stage
    for (let k = 0; k < stage.length; k++) {
      const src = stage[k] as string
      const card = cardOfInst(c, s, src)
      if (card.statics.length > 0) {
        ;(out ??= []).push(c.memo.staticSource(src, card, seat as Seat))
      }
    }
  }
  return out ?? NO_STATICS
}

/**
 * `staticSources` of the last state enumerated, by identity of both stages
 * (unchanged by most actions, and shared between states until one changes).
 * Only for `legalActions`, whose states are finished and immutable; a draft
 * mutates its own stage copies, so resolution calls `staticSources` itself.
 */
export const enumerationStatics = (c: Runtime, s: GameState): ReadonlyArray<StaticSource> => {
  const m = c.memo.statics
  if (m !== null && m.cardOf === s.cardOf && m.s0 === s.players[0].stage && m.s1 === s.players[1].stage) {
    return m.statics
  }
  const statics = staticSources(c, s)
  c.memo.statics = { cardOf: s.cardOf, s0: s.players[0].stage, s1: s.players[1].stage, statics }
  return statics
}

/** A card's current cost (§8.5): printed, then each static and each temporary cost change, floored at 0 after each. */
export const costOf = (
  c: Runtime,
  s: GameState,
  inst: string,
  statics: ReadonlyArray<StaticSource> = staticSources(c, s)
): number => costOfCard(c, s, inst, cardOfInst(c, s, inst), statics)

/** `costOf` for a caller that already holds the instance's card (enumeration and casting read it first). */
export const costOfCard = (
  c: Runtime,
  s: GameState,
  inst: string,
  card: CompiledCard,
  statics: ReadonlyArray<StaticSource>
): number => {
  const printed = card.def.cost
  let cost = printed < 0 ? 0 : printed
  if (statics.length === 0 && s.costChanges.length === 0) return cost
  // Each cost change is applied and then the zero floor enforced (§8.5): the seed's "Apply a cost
  // change, then enforce the zero floor", in the order static changes, then temporary ones.
  for (let k = 0; k < statics.length; k++) {
    const { card, frames } = statics[k] as StaticSource
    for (let j = 0; j < frames.length; j++) {
      const f = frames[j] as Frame
      const e = card.def.effects[f.eff] as EffectRecord
      if (!holds(c, s, e.condition, f)) continue
      for (let q = 0; q < e.actions.length; q++) {
        const a = e.actions[q] as Action
        if (a.op !== "modify-cost" || typeof a.amount !== "number") continue
        if (holds(c, s, a.condition, f) && selectorContains(c, s, f, a.card, inst)) cost = floored(cost + a.amount)
      }
    }
  }
  const changes = s.costChanges
  for (let k = 0; k < changes.length; k++) {
    const m = changes[k] as CostChange
    if (m.inst !== null ? m.inst === inst : m.group !== null && inGroup(c, s, m.ctrl, m.group, inst)) {
      cost = floored(cost + m.amount)
    }
  }
  return cost
}

const floored = (n: number): number => (n < 0 ? 0 : n)

export const selectorContains = (c: Runtime, s: GameState, f: Frame, sel: CardSelector, inst: string): boolean =>
  typeof sel === "object" && "group" in sel
    ? inGroup(c, s, f.ctrl, sel.group, inst)
    : cardsOf(c, s, f, sel).includes(inst)

export const resolveList = (e: EffectRecord, path: ReadonlyArray<PathStep>): ReadonlyArray<Action> => {
  let list: ReadonlyArray<Action> = e.actions
  // Indexed: this runs for every step of every action list (the path is almost always empty).
  for (let k = 0; k < path.length; k++) {
    const step = path[k] as PathStep
    const a = list[step.i]
    if (a === undefined) return []
    if (step.f === "options" && a.op === "choose-one") list = a.options[step.o]?.actions ?? []
    else if (step.f === "on_prevented" && a.op === "deal-damage") list = a.on_prevented?.actions ?? []
    else if (step.f === "unless" && a.op === "counter-card") list = a.unless?.optional_payment.actions ?? []
    else return []
  }
  return list
}
