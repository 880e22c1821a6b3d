/**
 * Damage and prevention (RULES.md §6): a damage event is pending while the
 * replacement effects apply (the damaged player's first) and the
 * `damage-pending-to-controller` window is open; then what was not prevented
 * is dealt, and `on_prevented` actions run (instead of the damage when
 * `replace` is true).
 *
 * @since 0.1.0
 */
import type { EffectRecord } from "../Schema.js"
import type { Draft } from "./Draft.js"
import { emit, EV_DAMAGE_DEALT, EV_DAMAGE_PENDING, EV_DAMAGE_PREVENTED } from "./Events.js"
import { exec } from "./Operations.js"
import { BOTH, cardOfInst, effectOf, holds, resolveList } from "./Reading.js"
import type { Frame, PathStep, Seat } from "./State.js"

export const startDamage = (
  d: Draft,
  f: Frame,
  path: ReadonlyArray<PathStep>,
  i: number,
  seat: Seat,
  n: number
): void => {
  const c = d.c
  d.s.damage = [...d.s.damage, { target: seat, source: f.src, amount: n, prevented: 0 }]
  d.pushDmgfin(f, path, i)
  d.pushWindow("damage-pending-to-controller", seat, null)
  emit(d, EV_DAMAGE_PENDING, seat, f.src)
  if (d.s.result !== null) return
  // Replacement effects apply before the damage happens, the damaged player's first (§6.2).
  const holders = BOTH[seat] // the damaged player first, then the other
  for (let h = 0; h < 2; h++) {
    const holder = holders[h] as Seat
    const stage = d.players[holder].stage
    for (let k = 0; k < stage.length; k++) {
      const src = stage[k] as string
      const card = cardOfInst(c, d.s, src)
      for (const ei of card.replacement) {
        const e = card.def.effects[ei] as EffectRecord
        const t = e.trigger
        if (t === undefined || t.event !== "damage-pending") continue
        if (t.player === "self" ? seat !== holder : t.player === "opponent" ? seat === holder : false) continue
        const key = c.memo.useKey(src, ei)
        if (e.limit !== undefined && (d.s.uses[key] ?? 0) >= e.limit.count) continue
        const rf = c.memo.frame(src, card.index, ei, holder)
        if (!holds(c, d.s, e.condition, rf)) continue
        d.use(key)
        for (const a of e.actions) if (holds(c, d.s, a.condition, rf)) exec(d, a, rf, [], -1)
      }
    }
  }
}

export const finishDamage = (d: Draft, f: Frame, path: ReadonlyArray<PathStep>, i: number): void => {
  const dmg = d.s.damage[d.s.damage.length - 1]
  if (dmg === undefined) return
  d.s.damage = d.s.damage.slice(0, -1)
  const a = resolveList(effectOf(d.c, f), path)[i]
  const onPrevented = a?.op === "deal-damage" ? a.on_prevented : undefined
  const remaining = dmg.amount - dmg.prevented
  const onPath: ReadonlyArray<PathStep> = [...path, { i, f: "on_prevented", o: 0 }]
  if (dmg.prevented > 0) {
    emit(d, EV_DAMAGE_PREVENTED, dmg.target, dmg.source)
    if (d.s.result !== null) return
  }
  if (dmg.prevented > 0 && onPrevented !== undefined && onPrevented.replace) {
    d.pushActs(f, onPath, 0)
    return
  }
  if (remaining > 0) {
    const p = d.player(dmg.target)
    p.composure = Math.max(0, p.composure - remaining)
    emit(d, EV_DAMAGE_DEALT, dmg.target, dmg.source)
    if (d.s.result !== null) return
  }
  if (dmg.prevented > 0 && onPrevented !== undefined) d.pushActs(f, onPath, 0)
}
