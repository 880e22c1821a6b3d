/**
 * Resolution (RULES.md §5, §7, §8): applying a legal action to a draft, then
 * the resolution loop over the work stack (turn steps, the spotlight,
 * effects and their action lists, casting and settling, damage, windows)
 * and the trigger queue, until the next decision or the end of the game.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { budgetExceeded, spend } from "../../kernel/Budget.js"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import type { Action, EffectRecord } from "../Schema.js"
import { SCANDAL } from "../Vocabulary.js"
import { finishDamage, startDamage } from "./Damage.js"
import {
  Draft,
  NO_PATH,
  type StepName,
  W_ACTS,
  W_DEAL,
  W_DMGFIN,
  W_EFFECT,
  W_RESOLVE,
  W_SETTLE,
  W_SPOT,
  W_STEP,
  W_WINDOW
} from "./Draft.js"
import { emit, EV_CARD_CAST, EV_TURN_END, EV_TURN_START } from "./Events.js"
import { effectsForWindow, hasCastAction } from "./LegalActions.js"
import { exec } from "./Operations.js"
import {
  cardOfInst,
  costOfCard,
  effectOf,
  groupCards,
  holds,
  isPending,
  other,
  ownerOf,
  removeAt,
  resolveList,
  tonesOf
} from "./Reading.js"
import type { Runtime } from "./Runtime.js"
import type { CostChange, Decision, Frame, GameAction, GameState, Seat, ToneChange, Work } from "./State.js"
import type { OperationTally } from "./Tally.js"
import { counterCard, draw, gainResource, settle } from "./Zones.js"

/** The work items of a turn's start (§5); a stack, so the last item runs first. */
export const turnStartWork: ReadonlyArray<Work> = [
  { w: "step", s: "draw" },
  { w: "step", s: "turn-start" },
  { w: "spot", i: 0 },
  { w: "step", s: "start" }
]

/** Pushes the work of a turn's start (`turnStartWork`). */
const pushTurnStart = (d: Draft): void => {
  d.pushStep("draw")
  d.pushStep("turn-start")
  d.pushSpot(0)
  d.pushStep("start")
}

/** The `main` decisions (immutable, so shared: one allocation less per decision). */
const MAIN: readonly [Decision, Decision] = [{ d: "main", player: 0 }, { d: "main", player: 1 }]

export const applyLegal = (
  c: Runtime,
  s: GameState,
  a: GameAction,
  ops: OperationTally | null
): Either.Either<GameState, Diagnostic> => {
  const d = new Draft(c, s)
  d.ops = ops
  const bad = applyOn(d, a)
  return bad === null ? Either.right(d.finish()) : Either.left(bad)
}

/**
 * Applies a legal action to a draft holding the state it was enumerated on, and resolves (the draft
 * is left unfinished); the diagnostic when the resolution budget runs out.
 */
export const applyOn = (d: Draft, a: GameAction): Diagnostic | null => {
  const c = d.c
  const dec = d.s.decision as Decision // legal actions exist only under a decision
  d.s.decision = null
  d.s.ply = d.s.ply + 1
  switch (a.kind) {
    case "end-turn":
      d.pushStep("cleanup")
      d.pushStep("turn-end")
      break
    case "pass":
      d.pop() // the window item on top
      break
    case "cast": {
      const inst = a.inst as string // cast actions carry their card
      const win = dec.d === "window" ? dec.win : "main"
      castCard(d, inst, a.player, a.targets, win, dec.d === "window" ? dec.about : null)
      break
    }
    case "activate": {
      const inst = a.inst as string // activate actions carry their card
      const card = cardOfInst(c, d.s, inst)
      const ei = a.effect ?? 0
      const e = card.def.effects[ei] as EffectRecord
      const f: Frame = a.targets === null
        ? c.memo.frame(inst, card.index, ei, a.player)
        : { src: inst, card: card.index, eff: ei, ctrl: a.player, tg: a.targets, pend: null, each: null }
      d.use(c.memo.useKey(inst, ei))
      if (e.activation_cost !== undefined) exec(d, e.activation_cost, f, [], -1)
      d.pushEffect(f, false)
      break
    }
    case "choose":
      if (dec.d === "choose") {
        d.pushActs(dec.f, [...dec.path, { i: dec.i, f: "options", o: a.choice ?? 0 }], 0)
      }
      break
    case "optional":
      if (dec.d === "optional" && a.choice === 1) d.pushEffect(dec.f, true)
      break
    case "pay":
      if (dec.d === "pay") {
        if (a.choice === 1) {
          d.pushActs(dec.f, [...dec.path, { i: dec.i, f: "unless", o: 0 }], 0)
        } else counterCard(d, dec.target)
      }
      break
    case "redirect":
      if (dec.d === "redirect") {
        const o = dec.options[a.choice ?? 0]
        if (o !== undefined) d.setTargets(dec.pend, { ...(d.s.castTargets[dec.pend] ?? {}), [o.key]: o.to })
      }
      break
  }
  return run(d) ? null : budgetExceeded(d.budget, "resolution steps of one action", a.id)
}

const castCard = (
  d: Draft,
  inst: string,
  seat: Seat,
  targets: Readonly<Record<string, string>> | null,
  win: string,
  about: string | null
): void => {
  const c = d.c
  const card = cardOfInst(c, d.s, inst)
  // Targets were chosen with the action (§7.2 step 1); now pay the cost (step 2).
  const cost = costOfCard(c, d.s, inst, card, d.staticsOf())
  const p = d.player(seat)
  p.fandom -= cost
  const hand = d.zone(seat, "hand")
  removeAt(hand, hand.indexOf(inst))
  d.zone(seat, "pending").push(inst)
  if (targets !== null) d.setTargets(inst, targets)
  d.addCast(c.memo.castRecord(inst, seat, card.def.type, tonesOf(c, d.s, inst), card.def.tags))
  if (win === "main") {
    d.pushResolve(inst, null, null)
    d.pushWindow("card-pending-to-opponent", other(seat), inst)
  } else {
    d.pushResolve(inst, win, about)
  }
  emit(d, EV_CARD_CAST, seat, inst)
}
// ------------------------------------------------------------------ the resolution loop

/**
 * Resolves until a decision or the end of the game. Every loop step spends
 * one unit of the draft's budget, so a deck whose effects trigger each other
 * forever ends in `budget_exceeded` instead of hanging; false then.
 */
export const run = (d: Draft): boolean => {
  const c = d.c
  for (;;) {
    if (!spend(d.budget)) return false
    if (d.s.result !== null) {
      // The rest of the current action, effect, trigger and window is abandoned (§3.4).
      d.clearWork()
      d.queue = []
      d.s.decision = null
      return true
    }
    if (d.s.decision !== null) return true
    if (d.queue !== null && d.queue.length > 0) {
      // The last queued ends deepest, so the first resolves first. The queue is the draft's own copy
      // (see `enqueue`): emptied in place by the pops.
      for (let f = d.queue.pop(); f !== undefined; f = d.queue.pop()) d.pushEffect(f, false)
      continue
    }
    const top = d.top()
    if (top === undefined) {
      d.s.decision = MAIN[d.s.active]
      return true
    }
    const s = d.s as GameState
    // A job is reused by the next push: each case reads what it needs before it pushes.
    switch (top.w) {
      case W_STEP:
        d.pop()
        step(d, top.s)
        break
      case W_SPOT: {
        const stage = s.players[s.active].stage
        const i = top.i
        if (i >= stage.length) {
          d.pop()
          break
        }
        top.i = i + 1
        const inst = stage[i] as string
        const card = cardOfInst(c, s, inst)
        if (card.isStar) {
          const gain = (card.def.buzz ?? 0) - (s.counters[inst]?.[SCANDAL] ?? 0)
          if (gain > 0) gainResource(d, s.active, "trend", gain)
        }
        break
      }
      case W_EFFECT: {
        d.pop()
        const f = top.f as Frame // effect jobs carry their frame
        const e = effectOf(c, f)
        if (!holds(c, s, e.condition, f)) break
        if (e.optional === true && !top.ok) {
          d.s.decision = { d: "optional", player: f.ctrl, f }
          break
        }
        if (e.for_each !== undefined) {
          const xs = groupCards(c, s, f.ctrl, e.for_each)
          for (let k = xs.length - 1; k >= 0; k--) d.pushActs({ ...f, each: xs[k] as string }, NO_PATH, 0)
        } else d.pushActs(f, NO_PATH, 0)
        break
      }
      case W_ACTS: {
        const f = top.f as Frame // acts jobs carry their frame
        const path = top.path
        const i = top.i
        const list = resolveList(effectOf(c, f), path)
        if (i >= list.length) {
          d.pop()
          break
        }
        top.i = i + 1
        const a = list[i] as Action
        if (holds(c, s, a.condition, f)) exec(d, a, f, path, i)
        break
      }
      case W_RESOLVE: {
        d.pop()
        const inst = top.inst
        const win = top.win
        const about = top.about
        if (!isPending(s, inst)) break
        const card = cardOfInst(c, s, inst)
        const owner = ownerOf(inst)
        d.pushSettle(inst)
        const effects = effectsForWindow(card, win ?? "main")
        const tg = s.castTargets[inst] ?? null
        for (let k = effects.length - 1; k >= 0; k--) {
          const eff = effects[k] as number
          d.pushEffect(
            tg === null && about === null
              ? c.memo.frame(inst, card.index, eff, owner)
              : { src: inst, card: card.index, eff, ctrl: owner, tg, pend: about, each: null },
            false
          )
        }
        break
      }
      case W_SETTLE:
        d.pop()
        settle(d, top.inst)
        break
      case W_DEAL: {
        d.pop()
        startDamage(d, top.f as Frame, top.path, top.i, top.seat, top.n) // deal jobs carry their frame
        break
      }
      case W_DMGFIN:
        d.pop()
        finishDamage(d, top.f as Frame, top.path, top.i) // dmgfin jobs carry their frame
        break
      case W_WINDOW: {
        const about = top.about
        const win = top.win as string // window jobs carry their window
        const player = top.seat
        if (about !== null && !isPending(s, about)) {
          d.pop()
          break
        }
        if (win === "damage-pending-to-controller") {
          const dmg = s.damage[s.damage.length - 1]
          if (dmg === undefined || dmg.target !== player || dmg.amount - dmg.prevented <= 0) {
            d.pop()
            break
          }
        }
        if (!hasCastAction(c, s, player, win, about, d.staticsOf)) {
          d.pop() // a window with nothing to declare is skipped (§8.1)
          break
        }
        d.s.decision = { d: "window", player, win, about }
        break
      }
    }
  }
}

const step = (d: Draft, which: StepName): void => {
  const s = d.s
  const active = s.active
  switch (which) {
    case "start":
      expire(d, "until-your-next-turn", active)
      gainResource(d, active, "fandom", d.c.params.fandom_per_turn)
      break
    case "turn-start":
      emit(d, EV_TURN_START, active, null)
      break
    case "draw":
      if (!(s.turn === 1 && active === s.first)) draw(d, active, 1)
      break
    case "turn-end":
      emit(d, EV_TURN_END, active, null)
      break
    case "cleanup": {
      expire(d, "end-of-turn", null)
      d.resetTurn()
      if (s.turn >= d.c.params.turn_limit) {
        const a = s.players[0]
        const b = s.players[1]
        const winner: Seat | null = a.trend !== b.trend
          ? (a.trend > b.trend ? 0 : 1)
          : a.composure !== b.composure
          ? (a.composure > b.composure ? 0 : 1)
          : null
        d.s.result = { winner, reason: "turn-limit" }
        return
      }
      d.s.turn = s.turn + 1
      d.s.active = other(active)
      pushTurnStart(d)
      break
    }
  }
}

/** Whether a modifier ends now: its duration is `until` and, when `ctrl` is a seat, that seat controls it. */
const ends = (x: ToneChange | CostChange, until: ToneChange["until"], ctrl: Seat | null): boolean =>
  x.until === until && (ctrl === null || x.ctrl === ctrl)

/**
 * Drops the tone and cost changes that end now (arrays replaced, never mutated: states share them).
 * Loops with the duration as arguments, not a predicate closure: this runs at every turn's start and
 * end, and the lists are almost always empty.
 */
const expire = (d: Draft, until: ToneChange["until"], ctrl: Seat | null): void => {
  const tones = d.s.toneChanges
  for (let k = 0; k < tones.length; k++) {
    if (ends(tones[k] as ToneChange, until, ctrl)) {
      d.s.toneChanges = kept(tones, until, ctrl)
      break
    }
  }
  const costs = d.s.costChanges
  for (let k = 0; k < costs.length; k++) {
    if (ends(costs[k] as CostChange, until, ctrl)) {
      d.s.costChanges = kept(costs, until, ctrl)
      break
    }
  }
}

/** The modifiers that do not end now, in order (a new array: `filter` without its closure). */
const kept = <X extends ToneChange | CostChange>(
  xs: ReadonlyArray<X>,
  until: X["until"],
  ctrl: Seat | null
): Array<X> => {
  const out: Array<X> = []
  for (let k = 0; k < xs.length; k++) if (!ends(xs[k] as X, until, ctrl)) out.push(xs[k] as X)
  return out
}
