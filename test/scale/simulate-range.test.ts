/** Chunked simulation: partials of any split, merged in game order, give the summary of one run, byte for byte. */
import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import {
  emptyPartial,
  mergeAllPartials,
  mergePartials,
  simulate,
  simulateRange,
  type SimulationPartial,
  summarize
} from "../../src/hallyu/engine/Simulate.js"
import { engine } from "../hallyu/engine-fixtures.js"

const GAMES = 60
const whole = simulate(engine, { games: GAMES, seed: 9 })

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`)
  return e.right
}

/** Partials for the ranges between consecutive cut points. */
const partials = (cuts: ReadonlyArray<number>): Array<SimulationPartial> => {
  const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), GAMES]
  const out: Array<SimulationPartial> = []
  for (let k = 0; k + 1 < points.length; k++) {
    out.push(right(simulateRange(engine, points[k] ?? 0, points[k + 1] ?? 0, { seed: 9 })))
  }
  return out
}

describe("simulateRange and mergePartials", () => {
  it("every split merged in game order gives the one-run summary's JSON", () => {
    const expected = JSON.stringify(right(whole))
    // Computed once per game range: the property draws splits over cached ranges.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: GAMES - 1 }), { maxLength: 6 }), (cuts) => {
        const merged = right(mergeAllPartials(9, 0, partials(cuts)))
        expect(JSON.stringify(summarize(merged))).toBe(expected)
      }),
      { numRuns: 8, seed: 16 }
    )
  })

  it("a split whose turn sum is not a multiple of the game count keeps the exact mean", () => {
    const s = right(whole)
    const merged = summarize(right(mergeAllPartials(9, 0, partials([7, 31, 32]))))
    expect(merged.turns.mean).toBe(s.turns.mean)
    expect(merged.games).toBe(GAMES)
    expect(merged.winsBySeat["0"] + merged.winsBySeat["1"] + merged.winsBySeat.draw).toBe(GAMES)
  })

  it("ranges that are not adjacent, or of another seed, do not merge", () => {
    const a = right(simulateRange(engine, 0, 3, { seed: 9 }))
    const c = right(simulateRange(engine, 4, 6, { seed: 9 }))
    const other = right(simulateRange(engine, 3, 5, { seed: 10 }))
    for (const bad of [mergePartials(a, c), mergePartials(a, other)]) {
      expect(Either.isLeft(bad)).toBe(true)
      if (Either.isLeft(bad)) expect(bad.left.code).toBe("simulation_split")
    }
  })

  it("the empty partial is the identity and summarizes to zero games", () => {
    const p = right(simulateRange(engine, 5, 9, { seed: "x" }))
    expect(right(mergePartials(emptyPartial("x", 5), p))).toEqual(p)
    expect(right(mergePartials(p, emptyPartial("x", 9)))).toEqual(p)
    expect(summarize(emptyPartial("x", 0)).turns).toEqual({ min: 0, mean: 0, max: 0 })
  })
})
