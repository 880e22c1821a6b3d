import { Either } from "effect"
import { expect } from "vitest"
import { type Engine, makeEngine } from "../../src/hallyu/engine/Engine.js"
import type { GameState, PlayerState, Seat } from "../../src/hallyu/engine/State.js"
import { realDeck } from "./fixtures.js"

export const engine: Engine = (() => {
  const e = makeEngine(realDeck())
  if (Either.isLeft(e)) throw new Error(e.left.message)
  return e.right
})()

const indexOfCode = (e: Engine, code: string): number => {
  const i = e.deck.cards.findIndex((c) => c.code === code || c.code === `HHX-PROTO-${code}`)
  if (i < 0) throw new Error(`no card ${code}`)
  return i
}

export interface SeatSpec {
  readonly hand?: ReadonlyArray<string>
  readonly stage?: ReadonlyArray<string>
  readonly deck?: ReadonlyArray<string>
  readonly archive?: ReadonlyArray<string>
  readonly composure?: number
  readonly fandom?: number
  readonly trend?: number
}

/**
 * A crafted position from the real deck: card codes (or their last three
 * digits) per zone. Instances are named `p<seat>-<zone letter><n>`, e.g.
 * `p0-h1` is seat 0's first hand card. Stars on the stage carry their
 * printed starting Scandal. Seat `active` is in its main window.
 */
export interface CraftSpec {
  readonly active?: Seat
  readonly turn?: number
  readonly p0?: SeatSpec
  readonly p1?: SeatSpec
}

export const craft = (spec: CraftSpec): GameState => craftFor(engine, spec)

/** `craft` for any engine's deck (decks built for a test). */
export const craftFor = (engine: Engine, spec: CraftSpec): GameState => {
  const base = engine.newGame({ seed: "craft" })
  if (Either.isLeft(base)) throw new Error(base.left.message)
  const cardOf: Record<string, number> = {}
  const counters: Record<string, Record<string, number>> = {}
  const seat = (n: Seat, s: SeatSpec = {}): PlayerState => {
    const zone = (letter: string, codes: ReadonlyArray<string> = []): Array<string> =>
      codes.map((code, k) => {
        const inst = `p${n}-${letter}${k + 1}`
        cardOf[inst] = indexOfCode(engine, code)
        const def = engine.deck.cards[cardOf[inst] as number]
        if (letter === "s" && def?.type === "star" && (def.starting_scandal ?? 0) > 0) {
          counters[inst] = { scandal: def.starting_scandal ?? 0 }
        }
        return inst
      })
    return {
      composure: s.composure ?? 20,
      fandom: s.fandom ?? 10,
      trend: s.trend ?? 0,
      deck: zone("d", s.deck ?? ["001", "022", "020", "014", "007"]),
      hand: zone("h", s.hand),
      stage: zone("s", s.stage),
      archive: zone("a", s.archive),
      pending: []
    }
  }
  const active = spec.active ?? 0
  return {
    ...base.right,
    cardOf,
    turn: spec.turn ?? 3,
    active,
    first: 0,
    players: [seat(0, spec.p0), seat(1, spec.p1)],
    counters,
    work: [],
    queue: [],
    decision: { d: "main", player: active },
    result: null
  }
}

export const ids = (s: GameState, e: Engine = engine): Array<string> => e.legalActions(s).map((a) => a.id)

/** Applies actions by ID, failing the test on an illegal one. */
export const play = (s: GameState, ...actions: ReadonlyArray<string>): GameState => playOn(engine, s, ...actions)

/** `play` on any engine. */
export const playOn = (engine: Engine, s: GameState, ...actions: ReadonlyArray<string>): GameState => {
  let cur = s
  for (const a of actions) {
    const r = engine.apply(cur, a)
    if (Either.isLeft(r)) {
      expect.fail(`${a} is not legal: ${r.left.message}; legal: ${ids(cur, engine).join(" ")}`)
      return cur
    }
    cur = r.right
  }
  return cur
}

export const eventCount = (s: GameState, event: string, seat: Seat): number => {
  const i = engine.compiled.eventIndex.get(event) ?? -1
  return s.events[i * 2 + seat] ?? 0
}

export const scandal = (s: GameState, inst: string): number => s.counters[inst]?.["scandal"] ?? 0
