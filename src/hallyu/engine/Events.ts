/**
 * Events (RULES.md §9) and the terminal check (§3): every event is counted
 * for its player, then the game-end conditions are checked, then the
 * triggered effects listening to it are queued (§8.3).
 *
 * @since 0.1.0
 */
import type { EffectRecord } from "../Schema.js"
import { type EventName, EVENTS } from "../Vocabulary.js"
import type { Draft } from "./Draft.js"
import { BOTH, cardOfInst, holds, matches } from "./Reading.js"
import type { GameResult, GameState, Seat } from "./State.js"

/** Event indexes (`compileDeck`'s `eventIndex` numbers the events in `EVENTS` order). */
const EV = Object.fromEntries(EVENTS.map((e, i) => [e, i])) as Readonly<Record<EventName, number>>
export const EV_TURN_START = EV["turn-start"]
export const EV_TURN_END = EV["turn-end"]
export const EV_CARD_CAST = EV["card-cast"]
export const EV_CARD_RESOLVED = EV["card-resolved"]
export const EV_CARD_ENTERED = EV["card-entered"]
export const EV_CARD_COUNTERED = EV["card-countered"]
export const EV_CARD_ARCHIVED = EV["card-archived"]
export const EV_CARD_DRAWN = EV["card-drawn"]
export const EV_DRAW_FAILED = EV["draw-failed"]
export const EV_DAMAGE_PENDING = EV["damage-pending"]
export const EV_DAMAGE_DEALT = EV["damage-dealt"]
export const EV_DAMAGE_PREVENTED = EV["damage-prevented"]
export const EV_COUNTER_ADDED = EV["counter-added"]
export const EV_COUNTER_REMOVED = EV["counter-removed"]
export const EV_RESOURCE_GAINED = EV["resource-gained"]
export const EV_RESOURCE_LOST = EV["resource-lost"]

/** Emits event number `ev` (an `EV_*` constant) for `seat`: counts it, checks the end of the game, offers triggers. */
export const emit = (d: Draft, ev: number, seat: Seat, inst: string | null): void => {
  const c = d.c
  d.bumpEvent(ev * 2 + seat)
  terminalCheck(d)
  const bit = 1 << ev
  if (d.s.result !== null || (d.listening() & bit) === 0) return
  const s = d.s as GameState
  const holders = BOTH[s.active]
  for (let h = 0; h < 2; h++) {
    const holder = holders[h] as Seat
    const stage = s.players[holder].stage
    for (let k = 0; k < stage.length; k++) {
      const src = stage[k] as string
      const card = cardOfInst(c, s, src)
      if ((card.triggerMask & bit) === 0) continue
      const listening = card.triggersOn[ev] as ReadonlyArray<number> // one list per event index
      for (let j = 0; j < listening.length; j++) {
        const ei = listening[j] as number
        const e = card.def.effects[ei] as EffectRecord
        const t = e.trigger
        if (t === undefined) continue
        if (t.player === "self" ? seat !== holder : t.player === "opponent" ? seat === holder : false) continue
        if (t.filter !== undefined && (inst === null || !matches(c, s, inst, t.filter))) continue
        const key = c.memo.useKey(src, ei)
        if (e.limit !== undefined && (s.uses[key] ?? 0) >= e.limit.count) continue
        const f = c.memo.frame(src, card.index, ei, holder)
        if (!holds(c, s, e.condition, f)) continue
        d.use(key)
        d.enqueue(f)
      }
    }
  }
}

export const terminalCheck = (d: Draft): void => {
  const a = d.s.players[0]
  const b = d.s.players[1]
  const cap = d.c.params.trend_cap
  const lostA = a.composure <= 0
  const lostB = b.composure <= 0
  let r: GameResult | null = null
  if (lostA || lostB) {
    r = lostA && lostB
      ? { winner: null, reason: "simultaneous" }
      : { winner: lostA ? 1 : 0, reason: "composure" }
  } else {
    const capA = a.trend >= cap
    const capB = b.trend >= cap
    if (capA || capB) {
      r = capA && capB
        ? { winner: null, reason: "simultaneous" }
        : { winner: capA ? 0 : 1, reason: "trend-cap" }
    }
  }
  if (r !== null) {
    d.s.result = r
    d.s.decision = null
  }
}
