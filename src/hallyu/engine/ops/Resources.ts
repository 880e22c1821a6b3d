/**
 * Resource and draw operations (RULES.md §2, §10): `gain-resource`, `lose-resource`, `draw` (the empty-deck rule is in `Zones.draw`).
 *
 * @since 0.1.0
 */
import type { Draft } from "../Draft.js"
import type { Op } from "../Operations.js"
import { amountOf, playerSeats } from "../Reading.js"
import type { Frame, GameState } from "../State.js"
import { draw, gainResource, loseResource } from "../Zones.js"

const RESOURCE = (
  r: string
): "composure" | "fandom" | "trend" => (r === "fandom" ? "fandom" : r === "trend" ? "trend" : "composure")

/** `gain-resource`. */
export const gainResourceOp = (d: Draft, a: Op<"gain-resource">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  for (const seat of playerSeats(s, f, a.player)) {
    if (d.s.result === null) gainResource(d, seat, RESOURCE(a.resource), n)
  }
}

/** `lose-resource`. */
export const loseResourceOp = (d: Draft, a: Op<"lose-resource">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  for (const seat of playerSeats(s, f, a.player)) {
    if (d.s.result === null) loseResource(d, seat, RESOURCE(a.resource), n)
  }
}

/** `draw`. */
export const drawOp = (d: Draft, a: Op<"draw">, f: Frame): void => {
  const c = d.c
  const s = d.s as GameState
  const n = amountOf(s, a.amount, f, c)
  for (const seat of playerSeats(s, f, a.player)) draw(d, seat, n)
}
