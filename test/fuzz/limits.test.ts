/**
 * Every documented limit (every entry of `Limits`) has a walker in
 * `cardfx/testing`; each walker's at-limit cases are accepted by the stage
 * that enforces the limit and each past-limit case produces its documented
 * code (with the numbers in `details` where the stage reports them).
 */
import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { Limits } from "../../src/kernel/Limits.js"
import { limitCoverage, runWalkerCase, walkers } from "../../src/testing/limits.js"

const runs = (name: string): number =>
  name === "input bytes"
    ? 2
    : name === "expansions per card" || name === "generated-node budget" || name === "sequence node budget"
    ? 4
    : 10

describe("limit walkers cover every documented limit", () => {
  it("every Limits entry is walked by at least one walker", () => {
    const coverage = limitCoverage()
    expect(Object.keys(coverage).sort()).toEqual(Object.keys(Limits).sort())
    for (const [key, names] of Object.entries(coverage)) expect(names.length, key).toBeGreaterThan(0)
  })

  it("the documented code of each walker", () => {
    expect(Object.fromEntries(walkers.map((w) => [w.name, w.code]))).toEqual({
      "rules per transformation": "rule_limit",
      "members per bundle": "member_limit",
      "expansions per card": "expansion_limit",
      "symbols per list": "list_limit",
      "characters per symbol": "symbol_limit",
      "generated-node budget": "node_budget",
      "effect depth": "nesting_limit",
      repeat: "repeat_limit",
      "matches per rule": "match_limit",
      "namespace length": "invalid_id",
      "order range": "order_overflow",
      "authored ID length": "invalid_id",
      "order range (minimum)": "order_overflow",
      "expansion ID (namespace + _ + 16 hex)": "invalid_id",
      "sequence node budget": "budget_exceeded",
      "request ID length": "invalid_id",
      "input depth": "depth_limit",
      "input bytes": "file_too_large",
      "locale tag length": "invalid_id",
      "names per locale table": "name_limit",
      "display text length": "text_limit"
    })
  })
})

describe.each(walkers.map((w) => [w.name, w] as const))("%s", (_name, w) => {
  it(`at the limit (${w.limit}): accepted`, () => {
    fc.assert(
      fc.property(w.atLimit as fc.Arbitrary<unknown>, (c) => {
        const r = runWalkerCase(w, c as Parameters<typeof runWalkerCase>[1])
        if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left.map((d) => [d.code, d.message, d.details])))
      }),
      { numRuns: runs(w.name), seed: 8 }
    )
  })

  it(`one past the limit: ${w.code}`, () => {
    fc.assert(
      fc.property(w.pastLimit as fc.Arbitrary<unknown>, (c) => {
        const r = runWalkerCase(w, c as Parameters<typeof runWalkerCase>[1])
        expect(Either.isLeft(r)).toBe(true)
        if (Either.isRight(r)) return
        const d = r.left.find((x) => x.code === w.code)
        expect(d, JSON.stringify(r.left)).toBeDefined()
        // The stages that report numbers report the limit walked (order_overflow reports the bound of the range it checks).
        const limit = d?.details?.limit
        if (limit !== undefined && w.name !== "order range (minimum)") expect(limit).toBe(w.limit)
      }),
      { numRuns: runs(w.name), seed: 8 }
    )
  })
})
