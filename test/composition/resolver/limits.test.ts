/**
 * Generative limit tests: every limit walker (src/composition/testing/limits.ts)
 * builds cases exactly at the limit, which compose, and one past it, which
 * fail with the limit's own code and the numbers in `details`.
 */
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { limitWalkers, runLimitCase } from "../../../src/composition/testing/limits.js"
import { Limits } from "../../../src/kernel/Limits.js"

const runs = (name: string): number => (name === "expansions per card" || name === "generated-node budget" ? 6 : 15)

describe("limit walkers", () => {
  it("cover every limit the issue names", () => {
    expect(limitWalkers.map((w) => [w.name, w.code, w.limit])).toEqual([
      ["rules per transformation", "rule_limit", 32],
      ["members per bundle", "member_limit", 64],
      ["expansions per card", "expansion_limit", 256],
      ["symbols per list", "list_limit", 64],
      ["characters per symbol", "symbol_limit", 128],
      ["generated-node budget", "node_budget", 4096],
      ["effect depth", "nesting_limit", 8],
      ["repeat", "repeat_limit", 16],
      ["matches per rule", "match_limit", 64],
      ["namespace length", "invalid_id", 47],
      ["order range", "order_overflow", Limits.orderMax]
    ])
  })

  for (const w of limitWalkers) {
    describe(w.name, () => {
      it(`exactly at the limit (${w.limit}) composes`, () => {
        fc.assert(
          fc.property(w.atLimit, (c) => {
            const r = runLimitCase(c)
            if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left))
          }),
          { numRuns: runs(w.name) }
        )
      })

      it(`one past the limit fails with ${w.code} and the numbers in details`, () => {
        fc.assert(
          fc.property(w.pastLimit, (c) => {
            const r = runLimitCase(c)
            expect(Either.isLeft(r)).toBe(true)
            if (Either.isRight(r)) return
            const d = r.left.find((x) => x.code === w.code)
            expect(d, JSON.stringify(r.left)).toBeDefined()
            expect(r.left.map((x) => x.code).every((code) => code === w.code)).toBe(true)
            expect(d?.details?.limit).toBe(w.limit)
            expect(d?.details?.actual).toBe(w.limit + 1)
          }),
          { numRuns: runs(w.name) }
        )
      })
    })
  }
})
