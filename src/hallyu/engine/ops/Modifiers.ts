/**
 * Temporary modifiers (RULES.md §10, §11): `change-tone` and `modify-cost`, recorded with their duration and expired at the end of the turn or at the start of the controller's next turn.
 *
 * @since 0.1.0
 */
import type { Draft } from "../Draft.js"
import type { Op } from "../Operations.js"
import { cardsOf, tonesOf, zoneOf } from "../Reading.js"
import type { CostChange, Frame, GameState } from "../State.js"

/** `change-tone`. */
export const changeToneOp = (d: Draft, a: Op<"change-tone">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const until = a.duration === "until-your-next-turn" ? "until-your-next-turn" : "end-of-turn"
  for (const inst of cardsOf(c, s, f, a.card)) {
    if (zoneOf(d.s, inst) !== "stage" || !tonesOf(c, d.s, inst).includes(a.from)) continue
    d.s.toneChanges = [...d.s.toneChanges, { inst, from: a.from, to: a.to, ctrl: f.ctrl, until }]
  }
}

/** `modify-cost`. */
export const modifyCostOp = (d: Draft, a: Op<"modify-cost">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  if (typeof a.amount !== "number" || a.duration === "while-source-active") return
  const until = a.duration
  const change: CostChange = typeof a.card === "object" && "group" in a.card
    ? { ctrl: f.ctrl, group: a.card.group, inst: null, amount: a.amount, until }
    : { ctrl: f.ctrl, group: null, inst: cardsOf(c, s, f, a.card)[0] ?? "", amount: a.amount, until }
  d.s.costChanges = [...d.s.costChanges, change]
}
