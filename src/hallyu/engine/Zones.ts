/**
 * Zone moves (RULES.md §1.3): leaving the stage clears counters and tone
 * changes, leaving pending clears chosen targets; a resolved card settles on
 * the stage or in the archive (§7.3); countering and the scandal check (§10);
 * resources with their caps (§2) and draws with the empty-deck rule (§10).
 *
 * @since 0.1.0
 */
import { SCANDAL, type ZoneName } from "../Vocabulary.js"
import type { Draft, MPlayer } from "./Draft.js"
import {
  emit,
  EV_CARD_ARCHIVED,
  EV_CARD_COUNTERED,
  EV_CARD_DRAWN,
  EV_CARD_ENTERED,
  EV_CARD_RESOLVED,
  EV_DRAW_FAILED,
  EV_RESOURCE_GAINED,
  EV_RESOURCE_LOST
} from "./Events.js"
import { cardOfInst, isPending, ownerOf, removeAt, zoneArray } from "./Reading.js"
import type { GameState, PlayerState, Seat } from "./State.js"

const leaveStage = (d: Draft, inst: string): void => {
  d.clearCounters(inst)
  if (d.s.toneChanges.some((t) => t.inst === inst)) d.s.toneChanges = d.s.toneChanges.filter((t) => t.inst !== inst)
}

export const move = (d: Draft, inst: string, from: ZoneName, to: ZoneName): boolean => {
  const seat = ownerOf(inst)
  if (!zoneArray(d.players[seat], from).includes(inst)) return false
  const src = d.zone(seat, from)
  removeAt(src, src.indexOf(inst))
  d.zone(seat, to).push(inst)
  if (from === "stage") leaveStage(d, inst)
  if (from === "pending") d.setTargets(inst, null)
  return true
}

export const settle = (d: Draft, inst: string): void => {
  const s = d.s as GameState
  if (!isPending(s, inst)) return
  const c = d.c
  const card = cardOfInst(c, s, inst)
  const seat = ownerOf(inst)
  if (card.persistent) {
    move(d, inst, "pending", "stage")
    if (card.isStar && (card.def.starting_scandal ?? 0) > 0) d.counters(inst)[SCANDAL] = card.def.starting_scandal ?? 0
    // The card's own on-enter effects resolve first, then what its events triggered (§7.3).
    const onEnter = card.onEnter
    for (let k = 0; k < onEnter.length; k++) d.enqueue(c.memo.frame(inst, card.index, onEnter[k] as number, seat))
    emit(d, EV_CARD_RESOLVED, seat, inst)
    if (d.s.result !== null) return
    emit(d, EV_CARD_ENTERED, seat, inst)
    scandalCheck(d, inst)
  } else {
    move(d, inst, "pending", "archive")
    emit(d, EV_CARD_RESOLVED, seat, inst)
  }
}

export const counterCard = (d: Draft, inst: string): void => {
  if (move(d, inst, "pending", "archive")) emit(d, EV_CARD_COUNTERED, ownerOf(inst), inst)
}

/** A Star with `scandal_break` or more scandal counters is archived (§10). */
export const scandalCheck = (d: Draft, inst: string): void => {
  if (d.s.result !== null) return
  const card = cardOfInst(d.c, d.s, inst)
  if (!card.isStar || (d.s.counters[inst]?.[SCANDAL] ?? 0) < d.c.params.scandal_break) return
  if (move(d, inst, "stage", "archive")) emit(d, EV_CARD_ARCHIVED, ownerOf(inst), inst)
}

// ------------------------------------------------------------------ resources and draws

const RES_CAP = (d: Draft, r: "composure" | "fandom" | "trend"): number =>
  r === "fandom" ? d.c.params.fandom_cap : r === "trend" ? d.c.params.trend_cap : d.c.params.starting_composure

/** A resource by name, with named property accesses (a computed key is a megamorphic keyed access). */
const resourceOf = (
  p: PlayerState,
  r: "composure" | "fandom" | "trend"
): number => (r === "fandom" ? p.fandom : r === "trend" ? p.trend : p.composure)

const setResource = (p: MPlayer, r: "composure" | "fandom" | "trend", v: number): void => {
  if (r === "fandom") p.fandom = v
  else if (r === "trend") p.trend = v
  else p.composure = v
}

export const gainResource = (d: Draft, seat: Seat, r: "composure" | "fandom" | "trend", n: number): void => {
  const cur = resourceOf(d.players[seat], r)
  const k = Math.min(n, RES_CAP(d, r) - cur)
  if (k <= 0) return
  setResource(d.player(seat), r, cur + k)
  emit(d, EV_RESOURCE_GAINED, seat, null)
}

export const loseResource = (d: Draft, seat: Seat, r: "composure" | "fandom" | "trend", n: number): void => {
  const cur = resourceOf(d.players[seat], r)
  const k = Math.min(n, cur)
  if (k <= 0) return
  setResource(d.player(seat), r, cur - k)
  emit(d, EV_RESOURCE_LOST, seat, null)
}

export const draw = (d: Draft, seat: Seat, n: number): void => {
  for (let k = 0; k < n && d.s.result === null; k++) {
    const deck = d.players[seat].deck
    if (deck.length === 0) {
      // Empty-deck rule (§10): each failed draw loses Composure; it is not damage.
      emit(d, EV_DRAW_FAILED, seat, null)
      if (d.s.result === null) loseResource(d, seat, "composure", d.c.params.empty_deck_composure_loss)
    } else {
      const inst = deck[0] as string
      d.zone(seat, "deck").shift()
      d.zone(seat, "hand").push(inst)
      emit(d, EV_CARD_DRAWN, seat, null)
    }
  }
}
