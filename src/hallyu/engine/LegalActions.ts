/**
 * Legal actions (RULES.md §5.2, §7, §8): what the player to act may declare
 * under the pending decision, in ordinal order of the action IDs, and
 * `explain`'s typed reason why any other action is not legal.
 *
 * @since 0.1.0
 */
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { Action, EffectRecord } from "../Schema.js"
import { type CompiledCard, effectsCastIn } from "./Compiled.js"
import {
  amountOf,
  anyInGroup,
  cardOfInst,
  cardsOf,
  costOf,
  costOfCard,
  effectOf,
  enumerationStatics,
  groupCards,
  holds,
  playerSeats,
  resolveList,
  type StaticSource
} from "./Reading.js"
import { type Runtime, setupSlot } from "./Runtime.js"
import type { CostChange, Decision, Frame, GameAction, GameState, Seat } from "./State.js"
import { hasTargetChoice, pushTargeted, targetChoices } from "./Targets.js"

/** Why an action is not legal now. */
export type IllegalReason =
  | "game-over"
  | "not-your-decision"
  | "wrong-window"
  | "not-in-hand"
  | "not-on-stage"
  | "not-enough-fandom"
  | "cannot-pay-activation-cost"
  | "limit-reached"
  | "no-legal-target"
  | "illegal-target"
  | "condition-false"
  | "for-each-empty"
  | "no-such-option"
  | "unknown-action"

export type Explanation = { readonly legal: true } | {
  readonly legal: false
  readonly reason: IllegalReason
  readonly message: string
}

const byId = (a: GameAction, b: GameAction): number => compareOrdinal(a.id, b.id)

/**
 * Stable ordinal sort by ID (the order `sort(byId)` gives). Offers are a
 * handful of actions, mostly in order already: an insertion sort with direct
 * string comparison beats the comparator calls of `Array.prototype.sort`.
 */
const sortById = (xs: Array<GameAction>): Array<GameAction> => {
  if (xs.length > 32) return xs.sort(byId)
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] as GameAction
    const id = x.id
    let j = i - 1
    while (j >= 0 && (xs[j] as GameAction).id > id) {
      xs[j + 1] = xs[j] as GameAction
      j--
    }
    xs[j + 1] = x
  }
  return xs
}
/** The sort key of the end of the turn and of the pass: after every activation and cast. */
const LAST_KEY = 2000

/**
 * `sortById` of the offers of a `main` or `window` decision: activations, casts, then the end of the
 * turn or the pass. Enumeration writes each offer's key beside it in `keys`, a number that orders
 * it as its ID does wherever the numbers differ: its kind (`activate:` < `cast:` < `end-turn`,
 * `pass`), then its instance's `setupSlot` (setup names have one length, so ordinal order of the
 * names is the order of the slots). Only offers of one instance tie, and their IDs are compared.
 * String comparisons were most of the sort. Offers of other instance names (key -1: states built by
 * hand) are sorted by `sortById`.
 */
const sortOffers = (xs: Array<GameAction>, keys: Array<number>): Array<GameAction> => {
  const n = xs.length
  if (n > 32) return xs.sort(byId)
  for (let i = 0; i < n; i++) if ((keys[i] as number) < 0) return sortById(xs)
  for (let i = 1; i < n; i++) {
    const x = xs[i] as GameAction
    const k = keys[i] as number
    let j = i - 1
    while (j >= 0 && ((keys[j] as number) > k || ((keys[j] as number) === k && (xs[j] as GameAction).id > x.id))) {
      xs[j + 1] = xs[j] as GameAction
      keys[j + 1] = keys[j] as number
      j--
    }
    xs[j + 1] = x
    keys[j + 1] = k
  }
  return xs
}

export const effectsForWindow = (card: CompiledCard, win: string): ReadonlyArray<number> =>
  win === "main" ? card.onResolve : (card.windowEffects.get(win) ?? effectsCastIn(card.def, card.onResolve, win))

/** Whether a card may be cast in `win` at all (§7.1). */
const castsIn = (
  card: CompiledCard,
  win: string
): boolean => (win === "main" ? card.castInMain : card.castWindows.includes(win))

/**
 * The sum of the positive (`sign` 1) or negative (`sign` -1) numeric cost changes that `statics` and
 * the temporary cost changes could apply to any card. A cost is printed (floored at 0) plus the
 * changes that apply, floored at 0 after each (§8.5), so it lies between `printed + negative sum`
 * (and 0) and `printed + positive sum`: when both sides of the Fandom check agree, the exact cost
 * is not needed.
 */
const costSlack = (s: GameState, statics: ReadonlyArray<StaticSource>, sign: 1 | -1): number => {
  let n = 0
  for (let k = 0; k < statics.length; k++) {
    const { card, frames } = statics[k] as StaticSource
    for (let j = 0; j < frames.length; j++) {
      const actions = (card.def.effects[(frames[j] as Frame).eff] as EffectRecord).actions
      for (let q = 0; q < actions.length; q++) {
        const a = actions[q] as Action
        if (a.op === "modify-cost" && typeof a.amount === "number" && a.amount * sign > 0) n += a.amount
      }
    }
  }
  const changes = s.costChanges
  for (let k = 0; k < changes.length; k++) {
    const m = (changes[k] as CostChange).amount
    if (m * sign > 0) n += m
  }
  return n
}

/**
 * Whether a hand card that may be cast in `win` passes the cost and response-condition checks (§7.2).
 * `up` and `down`: the `costSlack` bounds of the state's cost changes.
 */
const castable = (
  c: Runtime,
  s: GameState,
  seat: Seat,
  inst: string,
  card: CompiledCard,
  win: string,
  about: string | null,
  statics: ReadonlyArray<StaticSource>,
  fandom: number,
  up: number,
  down: number
): boolean => {
  const printed = card.def.cost < 0 ? 0 : card.def.cost
  // The exact cost only when the bounds leave the check open (most cards: no change could matter).
  if (
    printed + up > fandom &&
    (Math.max(0, printed + down) > fandom || costOfCard(c, s, inst, card, statics) > fandom)
  ) return false
  if (card.response) {
    const effects = effectsForWindow(card, win)
    let ok = false
    for (let q = 0; q < effects.length; q++) {
      const ei = effects[q] as number
      const e = card.def.effects[ei]
      // The frame only when there is a condition to read it (an allocation per check otherwise).
      if (
        e?.kind === "response" &&
        (e.condition === undefined || holds(
          c,
          s,
          e.condition,
          about === null
            ? c.memo.frame(inst, card.index, ei, seat)
            : c.memo.responseFrame(inst, card.index, ei, seat, about)
        ))
      ) {
        ok = true
        break
      }
    }
    if (!ok) return false
  }
  return true
}

const castActions = (
  c: Runtime,
  s: GameState,
  seat: Seat,
  win: string,
  about: string | null,
  out: Array<GameAction>,
  staticsOf: StaticsOf,
  keys: Array<number>
): void => {
  const p = s.players[seat]
  const hand = p.hand
  if (hand.length === 0) return
  let statics: ReadonlyArray<StaticSource> | null = null // only needed once a card may be cast in `win`
  let up = 0
  let down = 0
  for (let k = 0; k < hand.length; k++) {
    const inst = hand[k] as string
    const slot = setupSlot(inst) // parsed once for the card, its sort key and its action
    const card = c.memo.cardAt(s.cardOf, inst, slot)
    if (!castsIn(card, win)) continue
    if (statics === null) {
      statics = staticsOf(c, s)
      if (statics.length > 0 || s.costChanges.length > 0) {
        up = costSlack(s, statics, 1)
        down = costSlack(s, statics, -1)
      }
    }
    if (!castable(c, s, seat, inst, card, win, about, statics, p.fandom, up, down)) continue
    // The sort key of this card's offers (see `sortOffers`), written beside them.
    const key = slot < 0 ? -1 : 1000 + slot
    if (!card.hasTargets) {
      keys[out.length] = key
      out.push(c.memo.untargetedCastAt(seat, inst, slot))
      continue
    }
    const before = out.length
    pushTargeted(
      c,
      s,
      card,
      effectsForWindow(card, win),
      win,
      seat,
      inst,
      null,
      out
    )
    for (let q = before; q < out.length; q++) keys[q] = key
  }
}

/** Whether `castActions` would offer anything (a window with nothing to declare is skipped). */
export const hasCastAction = (
  c: Runtime,
  s: GameState,
  seat: Seat,
  win: string,
  about: string | null,
  staticsOf: StaticsOf
): boolean => {
  const p = s.players[seat]
  const hand = p.hand
  if (hand.length === 0) return false
  let statics: ReadonlyArray<StaticSource> | null = null // only needed once a card may be cast in `win`
  let up = 0
  let down = 0
  for (let k = 0; k < hand.length; k++) {
    const inst = hand[k] as string
    const card = cardOfInst(c, s, inst)
    if (!castsIn(card, win)) continue
    if (statics === null) {
      statics = staticsOf(c, s)
      if (statics.length > 0 || s.costChanges.length > 0) {
        up = costSlack(s, statics, 1)
        down = costSlack(s, statics, -1)
      }
    }
    if (!castable(c, s, seat, inst, card, win, about, statics, p.fandom, up, down)) continue
    if (hasTargetChoice(c, s, card, effectsForWindow(card, win), win, seat)) return true
  }
  return false
}

export const canPayActivation = (c: Runtime, s: GameState, f: Frame, a: Action | undefined): boolean => {
  if (a === undefined) return true
  if (a.op === "remove-counter") {
    const n = amountOf(s, a.amount, f, c)
    // The source itself (most costs) read directly: `cardsOf` builds a list, and `every` a closure.
    if (a.card === "self") return (s.counters[f.src]?.[a.counter] ?? 0) >= n
    const xs = cardsOf(c, s, f, a.card)
    if (xs.length === 0) return false
    for (let k = 0; k < xs.length; k++) if (!((s.counters[xs[k] as string]?.[a.counter] ?? 0) >= n)) return false
    return true
  }
  if (a.op === "lose-resource") {
    const n = amountOf(s, a.amount, f, c)
    const r = a.resource
    // Named loads and a loop: this runs for every activated effect on every enumeration.
    const seats = playerSeats(s, f, a.player)
    for (let k = 0; k < seats.length; k++) {
      const p = s.players[seats[k] as Seat]
      const have = r === "fandom" ? p.fandom : r === "trend" ? p.trend : r === "composure" ? p.composure : Number.NaN
      if (!(have >= n)) return false
    }
    return true
  }
  return false
}

const activateActions = (
  c: Runtime,
  s: GameState,
  seat: Seat,
  out: Array<GameAction>,
  keys: Array<number>
): void => {
  const stage = s.players[seat].stage
  for (let k = 0; k < stage.length; k++) {
    const inst = stage[k] as string
    // The sort key of this card's offers (see `sortOffers`), written beside them.
    const key = setupSlot(inst)
    const card = c.memo.cardAt(s.cardOf, inst, key)
    if (card.activated.length === 0) continue
    const activated = card.activated
    for (let q = 0; q < activated.length; q++) {
      const ei = activated[q] as number
      const e = card.def.effects[ei] as EffectRecord
      if (e.limit !== undefined && (s.uses[c.memo.useKey(inst, ei)] ?? 0) >= e.limit.count) continue
      if (e.condition !== undefined || e.activation_cost !== undefined) {
        // The frame only when a condition or a cost reads it (the memo's shared frame: no allocation).
        const f = c.memo.frame(inst, card.index, ei, seat)
        if (!holds(c, s, e.condition, f)) continue
        if (e.for_each !== undefined && !anyInGroup(c, s, seat, e.for_each)) continue
        if (!canPayActivation(c, s, f, e.activation_cost)) continue
      } else if (e.for_each !== undefined && !anyInGroup(c, s, seat, e.for_each)) continue
      if (e.targets === undefined || e.targets.length === 0) {
        keys[out.length] = key
        out.push(c.memo.untargetedActivation(seat, inst, ei))
        continue
      }
      const before = out.length
      pushTargeted(
        c,
        s,
        card,
        card.single[ei] as ReadonlyArray<number>,
        ei,
        seat,
        inst,
        ei,
        out
      )
      for (let q = before; q < out.length; q++) keys[q] = key
    }
  }
}

const simple = (id: string, player: Seat, kind: GameAction["kind"], choice: number | null): GameAction => ({
  id,
  player,
  kind,
  inst: null,
  effect: null,
  targets: null,
  choice
})

const END_TURN: ReadonlyArray<GameAction> = [
  simple("end-turn", 0, "end-turn", null),
  simple("end-turn", 1, "end-turn", null)
]
const PASS: ReadonlyArray<GameAction> = [simple("pass", 0, "pass", null), simple("pass", 1, "pass", null)]

/** Where enumeration gets the static sources of a state (a memo of them). */
export type StaticsOf = (c: Runtime, s: GameState) => ReadonlyArray<StaticSource>

/**
 * The legal actions of a state. `staticsOf` defaults to the memo for finished, immutable states;
 * a playout enumerating its live draft passes its own (see `Playout.ts`), and an empty array of its
 * own as `out` (filled and returned: one array per game instead of one per enumeration).
 */
export const enumerate = (
  c: Runtime,
  s: GameState,
  staticsOf: StaticsOf = enumerationStatics,
  out: Array<GameAction> = []
): ReadonlyArray<GameAction> => {
  const d = s.decision
  if (s.result !== null || d === null) return out
  const keys = c.memo.sortKeys // the sort keys of the offers, by index (see `sortOffers`)
  switch (d.d) {
    case "main":
      // IDs are unique, so the sorted list does not depend on this order; activations first and the
      // end of the turn last are where `activate:` < `cast:` < `end-turn` puts them (less sorting).
      activateActions(c, s, d.player, out, keys)
      castActions(c, s, d.player, "main", null, out, staticsOf, keys)
      keys[out.length] = LAST_KEY
      out.push(END_TURN[d.player] as GameAction)
      break
    case "window":
      castActions(c, s, d.player, d.win, d.about, out, staticsOf, keys)
      keys[out.length] = LAST_KEY
      out.push(PASS[d.player] as GameAction)
      break
    case "choose": {
      const a = resolveList(effectOf(c, d.f), d.path)[d.i]
      for (const o of d.options) {
        const label = a?.op === "choose-one" ? (a.options[o]?.label ?? String(o)) : String(o)
        out.push(simple(`choose:${label}`, d.player, "choose", o))
      }
      break
    }
    case "optional":
      out.push(simple("optional:no", d.player, "optional", 0), simple("optional:yes", d.player, "optional", 1))
      break
    case "pay":
      out.push(simple("pay:no", d.player, "pay", 0), simple("pay:yes", d.player, "pay", 1))
      break
    case "redirect":
      d.options.forEach((o, k) => out.push(simple(`redirect:${o.key}=${o.to}`, d.player, "redirect", k)))
      break
  }
  if (out.length <= 1) return out
  return d.d === "main" || d.d === "window" ? sortOffers(out, keys) : sortById(out)
}
// ------------------------------------------------------------------ explain (typed reasons)

const no = (reason: IllegalReason, message: string): Explanation => ({ legal: false, reason, message })

export const explainIllegal = (c: Runtime, s: GameState, a: GameAction | string): Explanation => {
  if (s.result !== null) return no("game-over", "the game is over")
  const d = s.decision
  if (d === null) return no("unknown-action", "no decision is pending")
  const id = typeof a === "string" ? a : a.id
  const player = typeof a === "string" ? d.player : a.player
  if (player !== d.player) return no("not-your-decision", `seat ${d.player} is to act, not seat ${player}`)
  const m = /^(cast|activate):(p[01]-[^:]+)(?::E(\d+))?/.exec(id)
  if (m === null) {
    const kind = id.split(":")[0] ?? ""
    const expected: Record<Decision["d"], ReadonlyArray<string>> = {
      main: ["end-turn"],
      window: ["pass"],
      choose: ["choose"],
      optional: ["optional"],
      pay: ["pay"],
      redirect: ["redirect"]
    }
    if (
      !(expected[d.d] ?? []).includes(kind) &&
      ["end-turn", "pass", "choose", "optional", "pay", "redirect"].includes(kind)
    ) {
      return no("wrong-window", `${kind} is not an answer to the pending ${d.d} decision`)
    }
    return no(kind === "choose" ? "condition-false" : "no-such-option", `${id} is not one of the offered answers`)
  }
  const inst = m[2] as string
  if (s.cardOf[inst] === undefined) return no("unknown-action", `no card instance ${inst}`)
  const card = cardOfInst(c, s, inst)
  const p = s.players[d.player]
  if (m[1] === "cast") {
    if (!p.hand.includes(inst)) return no("not-in-hand", `${inst} is not in seat ${d.player}'s hand`)
    const win = d.d === "main" ? "main" : d.d === "window" ? d.win : null
    if (win === null || !card.castWindows.includes(win)) {
      return no("wrong-window", `${card.def.code} may be cast only in ${card.castWindows.join(", ")}`)
    }
    const cost = costOf(c, s, inst)
    if (cost > p.fandom) {
      return no("not-enough-fandom", `${card.def.code} costs ${cost} Fandom; seat ${d.player} has ${p.fandom}`)
    }
    const effects = effectsForWindow(card, win)
    if (card.response) {
      const about = d.d === "window" ? d.about : null
      const ok = effects.some((ei) =>
        holds(c, s, card.def.effects[ei]?.condition, {
          src: inst,
          card: card.index,
          eff: ei,
          ctrl: d.player,
          tg: null,
          pend: about,
          each: null
        })
      )
      if (!ok) return no("condition-false", `the condition of ${card.def.code}'s response is false`)
    }
    const choices = targetChoices(c, s, card, effects, d.player)
    if (choices.length === 0) return no("no-legal-target", `${card.def.code} has a target with no legal choice`)
    return no("illegal-target", `the chosen targets of ${card.def.code} are not legal`)
  }
  const ei = Number(m[3] ?? "0") - 1
  const e = card.def.effects[ei]
  if (e === undefined || e.kind !== "activated") {
    return no("unknown-action", `${card.def.code} has no activated effect E${ei + 1}`)
  }
  if (d.d !== "main") return no("wrong-window", "effects are activated only in main")
  if (!p.stage.includes(inst)) return no("not-on-stage", `${inst} is not on seat ${d.player}'s stage`)
  if (e.limit !== undefined && (s.uses[`${inst}/${ei}`] ?? 0) >= e.limit.count) {
    return no("limit-reached", `${e.id} was used ${e.limit.count} time(s) this turn`)
  }
  const f: Frame = { src: inst, card: card.index, eff: ei, ctrl: d.player, tg: null, pend: null, each: null }
  if (!holds(c, s, e.condition, f)) return no("condition-false", `the condition of ${e.id} is false`)
  if (e.for_each !== undefined && groupCards(c, s, d.player, e.for_each).length === 0) {
    return no("for-each-empty", `${e.id} has no card to apply to`)
  }
  if (!canPayActivation(c, s, f, e.activation_cost)) {
    return no("cannot-pay-activation-cost", `the activation cost of ${e.id} cannot be paid`)
  }
  if (targetChoices(c, s, card, [ei], d.player).length === 0) {
    return no("no-legal-target", `${e.id} has a target with no legal choice`)
  }
  return no("illegal-target", `the chosen targets of ${e.id} are not legal`)
}
