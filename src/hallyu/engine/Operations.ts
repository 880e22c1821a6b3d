/**
 * The 16 operations (RULES.md §10), dispatched by name to their families in
 * `ops/`: counters, resources and draws, decks and zones, temporary
 * modifiers, choices and pending cards, damage.
 *
 * @since 0.1.0
 */
import type { Action } from "../Schema.js"
import type { Draft } from "./Draft.js"
import { addCounterOp, moveCounterOp, removeCounterOp } from "./ops/Counters.js"
import { dealDamageOp, preventDamageOp } from "./ops/Damage.js"
import { lookAtTopOp, moveTopToBottomOp, returnCardOp } from "./ops/Decks.js"
import { changeToneOp, modifyCostOp } from "./ops/Modifiers.js"
import { drawOp, gainResourceOp, loseResourceOp } from "./ops/Resources.js"
import { chooseOneOp, counterCardOp, redirectTargetOp } from "./ops/Stack.js"
import type { Frame, PathStep } from "./State.js"
import { countOp } from "./Tally.js"

/** The action record of one operation. */
export type Op<K extends Action["op"]> = Extract<Action, { readonly op: K }>

/** Executes one action of the effect in frame `f`, at `path`/`i` in its action lists (-1: outside them). */
export const exec = (d: Draft, a: Action, f: Frame, path: ReadonlyArray<PathStep>, i: number): void => {
  if (d.ops !== null) countOp(d.ops, a.op)
  switch (a.op) {
    case "add-counter":
      return addCounterOp(d, a, f)
    case "remove-counter":
      return removeCounterOp(d, a, f)
    case "move-counter":
      return moveCounterOp(d, a, f)
    case "change-tone":
      return changeToneOp(d, a, f)
    case "choose-one":
      return chooseOneOp(d, a, f, path, i)
    case "counter-card":
      return counterCardOp(d, a, f, path, i)
    case "deal-damage":
      return dealDamageOp(d, a, f, path, i)
    case "draw":
      return drawOp(d, a, f)
    case "gain-resource":
      return gainResourceOp(d, a, f)
    case "lose-resource":
      return loseResourceOp(d, a, f)
    case "look-at-top":
      return lookAtTopOp(d, a, f)
    case "modify-cost":
      return modifyCostOp(d, a, f)
    case "move-top-to-bottom":
      return moveTopToBottomOp(d, a, f)
    case "prevent-damage":
      return preventDamageOp(d, a, f)
    case "redirect-target":
      return redirectTargetOp(d, a, f)
    case "return-card":
      return returnCardOp(d, a, f)
  }
}
