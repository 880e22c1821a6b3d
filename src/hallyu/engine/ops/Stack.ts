/**
 * Operations on choices and pending cards (RULES.md §8, §10): `choose-one`, `counter-card` (with its `unless` payment), `redirect-target`.
 *
 * @since 0.1.0
 */
import { compareOrdinal } from "../../../kernel/Ordinal.js"
import type { Draft } from "../Draft.js"
import { canPayActivation } from "../LegalActions.js"
import type { Op } from "../Operations.js"
import { cardOfInst, cardsOf, groupCards, holds, ownerOf, playerSeats, specOf } from "../Reading.js"
import type { Frame, GameState, PathStep } from "../State.js"
import { counterCard } from "../Zones.js"

/** `choose-one`. */
export const chooseOneOp = (
  d: Draft,
  a: Op<"choose-one">,
  f: Frame,
  path: ReadonlyArray<PathStep>,
  i: number
): void => {
  const c = d.c
  const s = d.s as GameState
  const chooser = playerSeats(s, f, a.player)[0]
  if (chooser === undefined) return
  const legal: Array<number> = []
  a.options.forEach((o, k) => {
    if (holds(c, s, o.condition, f)) legal.push(k)
  })
  if (legal.length === 0) return
  if (legal.length === 1) {
    d.pushActs(f, [...path, { i, f: "options", o: legal[0] as number }], 0)
    return
  }
  d.s.decision = { d: "choose", player: chooser, f, path, i, options: legal }
}

/** `counter-card`. */
export const counterCardOp = (
  d: Draft,
  a: Op<"counter-card">,
  f: Frame,
  path: ReadonlyArray<PathStep>,
  i: number
): void => {
  const c = d.c
  const s = d.s as GameState
  const target = cardsOf(c, s, f, a.card)[0]
  if (target === undefined) return
  const pay = a.unless?.optional_payment
  if (pay !== undefined) {
    const payer = playerSeats(s, f, pay.player)[0]
    const pf: Frame = { ...f, pend: target }
    if (payer !== undefined && pay.actions.every((x) => canPayActivation(c, s, pf, x))) {
      d.s.decision = { d: "pay", player: payer, f: pf, path, i, target }
      return
    }
  }
  counterCard(d, target)
}

/** `redirect-target`. */
export const redirectTargetOp = (d: Draft, a: Op<"redirect-target">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const pend = cardsOf(c, s, f, a.source)[0]
  if (pend === undefined) return
  const tg = s.castTargets[pend]
  if (tg === undefined) return
  const pcard = cardOfInst(c, s, pend)
  const owner = ownerOf(pend)
  const options: Array<{ key: string; to: string }> = []
  for (const key of Object.keys(tg).sort(compareOrdinal)) {
    const spec = specOf(pcard, key)
    if (spec === undefined) continue
    const prefix = key.slice(0, key.indexOf("/") + 1)
    for (const cand of groupCards(c, s, owner, spec)) {
      let taken = false
      for (const k2 in tg) if (k2.startsWith(prefix) && tg[k2] === cand) taken = true
      if (!taken) options.push({ key, to: cand })
    }
  }
  if (options.length === 0) return
  if (options.length === 1) {
    const o = options[0] as { key: string; to: string }
    d.setTargets(pend, { ...tg, [o.key]: o.to })
    return
  }
  d.s.decision = { d: "redirect", player: f.ctrl, pend, options }
}
