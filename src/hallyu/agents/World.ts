/**
 * Determinization: a whole game state consistent with what one seat knows,
 * built from that seat's knowledge and the agent's own RNG only.
 *
 * Every card instance belongs to its owner's zones for the whole game (§1.2),
 * and the instance IDs are public (they are numbered in deck-list order), so
 * the cards a seat cannot see are exactly its owner's instances outside the
 * zones the view shows. A world deals them:
 *
 * - the seat's own unseen instances to its own deck (its hand is known);
 * - the opponent's unseen instances to the opponent's hand and deck, with the
 *   sizes the view gives;
 * - every card the seat knows the place of (`PublicTable.pinned`: a card a
 *   `look-at-top` showed it, followed through public moves) stays there;
 * - the rest in an order drawn from the agent's RNG.
 *
 * The world's RNG state and seed come from the agent's RNG too, never from
 * the true state (whose RNG would tell future shuffles). The public parts
 * (resources, public zones, counters, the work stack, the pending decision,
 * this turn's records) come from the view and the public table.
 *
 * @since 0.1.0
 */
import type { RngStream } from "../../kernel/Rng.js"
import type { GameState, PlayerState, Seat } from "../engine/State.js"
import type { PlayerView, PublicTable } from "../engine/View.js"

/** Instances of each seat, in ID order (cached by the `cardOf` record, which every game of a lineup shares). */
const instancesMemo = new WeakMap<object, readonly [ReadonlyArray<string>, ReadonlyArray<string>]>()

export const instancesOf = (
  cardOf: Readonly<Record<string, number>>
): readonly [ReadonlyArray<string>, ReadonlyArray<string>] => {
  const hit = instancesMemo.get(cardOf)
  if (hit !== undefined) return hit
  const a: Array<string> = []
  const b: Array<string> = []
  for (const k of Object.keys(cardOf)) (k.startsWith("p0-") ? a : b).push(k)
  const out = [a, b] as const
  instancesMemo.set(cardOf, out)
  return out
}

/** What a world is built from: the seat's view and public table (a fair agent's knowledge). */
export interface WorldSource {
  readonly seat: Seat
  readonly view: PlayerView
  readonly table: PublicTable
}

/** Fisher–Yates on `xs[from..]` in place, with the agent's RNG. */
const shuffleFrom = (xs: Array<string>, from: number, rng: RngStream): void => {
  for (let i = xs.length - 1; i > from; i--) {
    const j = from + rng.int(i - from + 1)
    const t = xs[i] as string
    xs[i] = xs[j] as string
    xs[j] = t
  }
}

interface SeatDeal {
  /** The seat's unseen, unpinned instances (shuffled into a copy per world). */
  readonly free: ReadonlyArray<string>
  /** The hand's known part: the seat's own hand, or the opponent's pinned cards. */
  readonly hand: ReadonlyArray<string>
  readonly handSize: number
  readonly deckSize: number
  /** Deck positions known (pinned), by index. */
  readonly pins: ReadonlyArray<readonly [number, string]>
}

/** What every world of a source shares: per seat, the cards to deal and the places known. */
const prepare = (src: WorldSource): readonly [SeatDeal, SeatDeal] => {
  const me = src.seat
  const insts = instancesOf(src.table.cardOf)
  const out: Array<SeatDeal> = []
  for (let seat = 0 as Seat; seat <= 1; seat = (seat + 1) as Seat) {
    const sv = src.view.seats[seat]
    const visible = new Set<string>()
    for (const x of sv.stage) visible.add(x)
    for (const x of sv.archive) visible.add(x)
    for (const x of sv.pending) visible.add(x)
    const hand = seat === me ? (sv.hand ?? []) : src.table.pinned.hand
    for (const x of hand) visible.add(x)
    const pins = src.table.pinned.deck[seat].filter((p) => p[0] < sv.deckSize)
    for (const p of pins) visible.add(p[1])
    const free: Array<string> = []
    for (const x of insts[seat] as ReadonlyArray<string>) if (!visible.has(x)) free.push(x)
    out.push({ free, hand, handSize: seat === me ? hand.length : sv.handSize, deckSize: sv.deckSize, pins })
  }
  return out as unknown as readonly [SeatDeal, SeatDeal] // two seats were prepared above
}

/** One seat's hidden cards in one world: the free cards shuffled, the known ones in place. */
const dealSeat = (d: SeatDeal, rng: RngStream): { deck: Array<string>; hand: Array<string> } => {
  const free = d.free.slice()
  shuffleFrom(free, 0, rng)
  let k = 0
  const hand = d.hand.slice()
  while (hand.length < d.handSize && k < free.length) hand.push(free[k++] as string)
  const deck = new Array<string>(d.deckSize)
  if (d.pins.length === 0) { for (let i = 0; i < d.deckSize; i++) deck[i] = free[k++] ?? "" }
  else {
    const taken = new Array<boolean>(d.deckSize).fill(false)
    for (const [at, inst] of d.pins) {
      deck[at] = inst
      taken[at] = true
    }
    for (let i = 0; i < d.deckSize; i++) if (!taken[i]) deck[i] = free[k++] ?? ""
  }
  return { deck, hand }
}

/** One world consistent with the source, its hidden parts drawn from `rng`. */
export const determinize = (src: WorldSource, rng: RngStream): GameState => samplerOf(src)(rng)

/** The worlds of a source: what they share is prepared once, each call deals one world from `rng`. */
export const samplerOf = (src: WorldSource): (rng: RngStream) => GameState => {
  const prepared = prepare(src)
  return (rng) => world(src, [dealSeat(prepared[0], rng), dealSeat(prepared[1], rng)], rng)
}

const world = (
  src: WorldSource,
  dealt: readonly [{ deck: Array<string>; hand: Array<string> }, { deck: Array<string>; hand: Array<string> }],
  rng: RngStream
): GameState => {
  const v = src.view
  const t = src.table
  const player = (seat: Seat): PlayerState => {
    const sv = v.seats[seat]
    return {
      composure: sv.composure,
      fandom: sv.fandom,
      trend: sv.trend,
      deck: dealt[seat].deck,
      hand: dealt[seat].hand,
      stage: sv.stage,
      archive: sv.archive,
      pending: sv.pending
    }
  }
  const s0 = rng.nextUint32()
  return {
    format: "hhx-state/1",
    deckHash: t.deckHash,
    seed: "world",
    // Never all zero (xoshiro's one forbidden state).
    rng: { s: [s0 === 0 ? 1 : s0, rng.nextUint32(), rng.nextUint32(), rng.nextUint32()] },
    cardOf: t.cardOf,
    turn: v.turn,
    active: v.active,
    first: t.first,
    players: [player(0), player(1)],
    counters: v.counters,
    toneChanges: t.toneChanges,
    costChanges: t.costChanges,
    damage: t.damage,
    castTargets: t.castTargets,
    cast: t.cast,
    events: t.events,
    uses: t.uses,
    looks: t.looks,
    work: t.work,
    queue: t.queue,
    decision: t.decision,
    result: v.result,
    ply: t.ply
  }
}
