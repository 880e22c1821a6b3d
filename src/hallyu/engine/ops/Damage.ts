/**
 * Damage operations (RULES.md §6, §10): `deal-damage` schedules one damage event per damaged player; `prevent-damage` reduces the newest pending damage to a player.
 *
 * @since 0.1.0
 */
import type { Draft } from "../Draft.js"
import type { Op } from "../Operations.js"
import { amountOf, matches, playerSeats } from "../Reading.js"
import type { Frame, GameState, PathStep, PendingDamage, Seat } from "../State.js"

/** `deal-damage`. */
export const dealDamageOp = (
  d: Draft,
  a: Op<"deal-damage">,
  f: Frame,
  path: ReadonlyArray<PathStep>,
  i: number
): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  if (n <= 0) return
  const seats = playerSeats(s, f, a.player)
  for (let k = seats.length - 1; k >= 0; k--) d.pushDeal(f, path, i, seats[k] as Seat, n)
}

/** `prevent-damage`. */
export const preventDamageOp = (d: Draft, a: Op<"prevent-damage">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  for (const seat of playerSeats(s, f, a.player)) {
    let k = d.s.damage.length - 1
    while (k >= 0 && (d.s.damage[k] as PendingDamage).target !== seat) k--
    if (k < 0) continue
    const dmg = d.s.damage[k] as PendingDamage
    if (a.source !== undefined && !matches(c, d.s, dmg.source, a.source)) continue
    const n = a.amount === "all" ? dmg.amount : amountOf(s, a.amount, f, c)
    const prevented = Math.min(dmg.amount, dmg.prevented + n)
    if (prevented === dmg.prevented) continue
    const next = d.s.damage.slice()
    next[k] = { ...dmg, prevented }
    d.s.damage = next
  }
}
