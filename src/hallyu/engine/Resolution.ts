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
import { Draft } from "./Draft.js"
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
  resolveList,
  tonesOf
} from "./Reading.js"
import type { Runtime } from "./Runtime.js"
import type { CastRecord, CostChange, Decision, Frame, GameAction, GameState, Seat, ToneChange, Work } from "./State.js"
import type { OperationTally } from "./Tally.js"
import { counterCard, draw, gainResource, settle } from "./Zones.js"

/** The work items of a turn's start (§5); a stack, so the last item runs first. */
export const turnStartWork: ReadonlyArray<Work> = [
  { w: "step", s: "draw" },
  { w: "step", s: "turn-start" },
  { w: "spot", i: 0 },
  { w: "step", s: "start" }
]

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
      d.work.push({ w: "step", s: "cleanup" }, { w: "step", s: "turn-end" })
      break
    case "pass":
      d.work.pop() // the window item on top
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
      const f: Frame = { src: inst, card: card.index, eff: ei, ctrl: a.player, tg: a.targets, pend: null, each: null }
      d.use(c.memo.useKey(inst, ei))
      if (e.activation_cost !== undefined) exec(d, e.activation_cost, f, [], -1)
      d.work.push({ w: "effect", f, ok: false })
      break
    }
    case "choose":
      if (dec.d === "choose") {
        d.work.push({ w: "acts", f: dec.f, path: [...dec.path, { i: dec.i, f: "options", o: a.choice ?? 0 }], i: 0 })
      }
      break
    case "optional":
      if (dec.d === "optional" && a.choice === 1) d.work.push({ w: "effect", f: dec.f, ok: true })
      break
    case "pay":
      if (dec.d === "pay") {
        if (a.choice === 1) {
          d.work.push({ w: "acts", f: dec.f, path: [...dec.path, { i: dec.i, f: "unless", o: 0 }], i: 0 })
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
  hand.splice(hand.indexOf(inst), 1)
  d.zone(seat, "pending").push(inst)
  if (targets !== null) d.setTargets(inst, targets)
  const rec: CastRecord = { inst, seat, type: card.def.type, tones: tonesOf(c, d.s, inst), tags: card.def.tags }
  d.addCast(rec)
  if (win === "main") {
    d.work.push({ w: "resolve", inst, win: null, about: null }, {
      w: "window",
      win: "card-pending-to-opponent",
      player: other(seat),
      about: inst
    })
  } else {
    d.work.push({ w: "resolve", inst, win, about })
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
      d.work.length = 0
      d.queue = []
      d.s.decision = null
      return true
    }
    if (d.s.decision !== null) return true
    if (d.queue !== null && d.queue.length > 0) {
      for (let i = d.queue.length - 1; i >= 0; i--) d.work.push({ w: "effect", f: d.queue[i] as Frame, ok: false })
      d.queue = []
      continue
    }
    const top = d.work[d.work.length - 1]
    if (top === undefined) {
      d.s.decision = { d: "main", player: d.s.active }
      return true
    }
    const s = d.s as GameState
    switch (top.w) {
      case "step":
        d.work.pop()
        step(d, top.s)
        break
      case "spot": {
        const stage = s.players[s.active].stage
        if (top.i >= stage.length) {
          d.work.pop()
          break
        }
        d.work[d.work.length - 1] = { w: "spot", i: top.i + 1 }
        const inst = stage[top.i] as string
        const card = cardOfInst(c, s, inst)
        if (card.isStar) {
          const gain = (card.def.buzz ?? 0) - (s.counters[inst]?.[SCANDAL] ?? 0)
          if (gain > 0) gainResource(d, s.active, "trend", gain)
        }
        break
      }
      case "effect": {
        d.work.pop()
        const e = effectOf(c, top.f)
        if (!holds(c, s, e.condition, top.f)) break
        if (e.optional === true && !top.ok) {
          d.s.decision = { d: "optional", player: top.f.ctrl, f: top.f }
          break
        }
        if (e.for_each !== undefined) {
          const xs = groupCards(c, s, top.f.ctrl, e.for_each)
          for (let k = xs.length - 1; k >= 0; k--) {
            d.work.push({ w: "acts", f: { ...top.f, each: xs[k] as string }, path: [], i: 0 })
          }
        } else d.work.push({ w: "acts", f: top.f, path: [], i: 0 })
        break
      }
      case "acts": {
        const list = resolveList(effectOf(c, top.f), top.path)
        if (top.i >= list.length) {
          d.work.pop()
          break
        }
        d.work[d.work.length - 1] = { w: "acts", f: top.f, path: top.path, i: top.i + 1 }
        const a = list[top.i] as Action
        if (holds(c, s, a.condition, top.f)) exec(d, a, top.f, top.path, top.i)
        break
      }
      case "resolve": {
        d.work.pop()
        if (!isPending(s, top.inst)) break
        const card = cardOfInst(c, s, top.inst)
        const owner = ownerOf(top.inst)
        d.work.push({ w: "settle", inst: top.inst })
        const effects = effectsForWindow(card, top.win ?? "main")
        const tg = s.castTargets[top.inst] ?? null
        for (let k = effects.length - 1; k >= 0; k--) {
          d.work.push({
            w: "effect",
            f: {
              src: top.inst,
              card: card.index,
              eff: effects[k] as number,
              ctrl: owner,
              tg,
              pend: top.about,
              each: null
            },
            ok: false
          })
        }
        break
      }
      case "settle":
        d.work.pop()
        settle(d, top.inst)
        break
      case "deal":
        d.work.pop()
        startDamage(d, top.f, top.path, top.i, top.seat, top.n)
        break
      case "dmgfin":
        d.work.pop()
        finishDamage(d, top.f, top.path, top.i)
        break
      case "window": {
        if (top.about !== null && !isPending(s, top.about)) {
          d.work.pop()
          break
        }
        if (top.win === "damage-pending-to-controller") {
          const dmg = s.damage[s.damage.length - 1]
          if (dmg === undefined || dmg.target !== top.player || dmg.amount - dmg.prevented <= 0) {
            d.work.pop()
            break
          }
        }
        if (!hasCastAction(c, s, top.player, top.win, top.about, d.staticsOf)) {
          d.work.pop() // a window with nothing to declare is skipped (§8.1)
          break
        }
        d.s.decision = { d: "window", player: top.player, win: top.win, about: top.about }
        break
      }
    }
  }
}

const step = (d: Draft, which: "start" | "turn-start" | "draw" | "turn-end" | "cleanup"): void => {
  const s = d.s
  const active = s.active
  switch (which) {
    case "start":
      expire(d, (x) => x.until === "until-your-next-turn" && x.ctrl === active)
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
      expire(d, (x) => x.until === "end-of-turn")
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
      d.work.push(...turnStartWork)
      break
    }
  }
}

const expire = (d: Draft, pred: (x: ToneChange | CostChange) => boolean): void => {
  if (d.s.toneChanges.some(pred)) d.s.toneChanges = d.s.toneChanges.filter((x) => !pred(x))
  if (d.s.costChanges.some(pred)) d.s.costChanges = d.s.costChanges.filter((x) => !pred(x))
}
