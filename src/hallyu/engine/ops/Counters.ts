/**
 * Counter operations (RULES.md §10): `add-counter`, `remove-counter`, `move-counter`. Counters live only on stage cards; a Star that reaches `scandal_break` scandal counters is archived.
 *
 * @since 0.1.0
 */
import { SCANDAL } from "../../Vocabulary.js"
import type { Draft } from "../Draft.js"
import { emit, EV_COUNTER_ADDED, EV_COUNTER_REMOVED } from "../Events.js"
import type { Op } from "../Operations.js"
import { amountOf, cardsOf, ownerOf, zoneOf } from "../Reading.js"
import type { Frame, GameState } from "../State.js"
import { scandalCheck } from "../Zones.js"

/** `add-counter`. */
export const addCounterOp = (d: Draft, a: Op<"add-counter">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  if (n <= 0) return
  for (const inst of cardsOf(c, s, f, a.card)) {
    if (d.s.result !== null || zoneOf(d.s, inst) !== "stage") continue
    const cs = d.counters(inst)
    cs[a.counter] = (cs[a.counter] ?? 0) + n
    emit(d, EV_COUNTER_ADDED, ownerOf(inst), inst)
    if (a.counter === SCANDAL) scandalCheck(d, inst)
  }
}

/** `remove-counter`. */
export const removeCounterOp = (d: Draft, a: Op<"remove-counter">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  for (const inst of cardsOf(c, s, f, a.card)) {
    const have = d.s.counters[inst]?.[a.counter] ?? 0
    const k = Math.min(n, have)
    if (k <= 0 || d.s.result !== null) continue
    const cs = d.counters(inst)
    if (have - k === 0) delete cs[a.counter]
    else cs[a.counter] = have - k
    d.pruneCounters(inst)
    emit(d, EV_COUNTER_REMOVED, ownerOf(inst), inst)
  }
}

/** `move-counter`. */
export const moveCounterOp = (d: Draft, a: Op<"move-counter">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const from = cardsOf(c, s, f, a.from)[0]
  const to = cardsOf(c, s, f, a.to)[0]
  if (from === undefined || to === undefined || from === to) return
  if (zoneOf(s, from) !== "stage" || zoneOf(s, to) !== "stage") return
  const have = s.counters[from]?.[a.counter] ?? 0
  const k = Math.min(amountOf(s, a.amount, f, c), have)
  if (k <= 0) return
  const fc = d.counters(from)
  if (have - k === 0) delete fc[a.counter]
  else fc[a.counter] = have - k
  d.pruneCounters(from)
  emit(d, EV_COUNTER_REMOVED, ownerOf(from), from)
  if (d.s.result !== null) return
  const tc = d.counters(to)
  tc[a.counter] = (tc[a.counter] ?? 0) + k
  emit(d, EV_COUNTER_ADDED, ownerOf(to), to)
  if (a.counter === SCANDAL) scandalCheck(d, to)
}
