/**
 * Generated-vocabulary fuzzing in CI: a fixed seed and a small budget (the
 * whole file stays well under 15 s). Run longer from the command line:
 * `npx cardfx fuzz --runs 100000 --seed N` (exit 1 and a minimal case when a
 * property fails).
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect, Either, FastCheck as fc } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { fuzzCommand } from "../../src/cli/fuzz.js"
import { type DecodedPackage, loadPackage } from "../../src/composition/ContentPackage.js"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { parseJson } from "../../src/kernel/Json.js"
import { isTypedDiagnostic, renderFuzzReport, runFuzz, UntypedRejection } from "../../src/testing/fuzz.js"
import { validCompositionContent } from "../../src/testing/valid.js"
import { runCli } from "../support/cli.js"

/** The CI seed and budget. */
const SEED = 20261129
const RUNS = 60

const starterDeck = (): StarterDeck => {
  const doc = parseJson(readFileSync("data/hallyu-hex/starter-deck.v0.json"), { file: "starter-deck.v0.json" })
  if (Either.isLeft(doc)) throw new Error(doc.left.message)
  const v = validateDeck(doc.right)
  if (v.deck === undefined) throw new Error(JSON.stringify(v.diagnostics))
  return v.deck
}

const basePackages = async (): Promise<ReadonlyArray<DecodedPackage>> => {
  const loaded = await Effect.runPromise(Effect.provide(loadPackage("data/heroscript.base"), NodeFileSystem.layer))
  if (loaded.package === undefined) throw new Error(JSON.stringify(loaded.diagnostics))
  return [loaded.package]
}

describe("fuzz (fixed seed, small budget)", () => {
  it("every property holds: nothing throws, every rejection is a typed diagnostic", async () => {
    const report = runFuzz({ seed: SEED, runs: RUNS, deck: starterDeck(), packages: await basePackages() })
    // The rendered report carries any failure's minimal case, seed and path.
    expect(report.ok, renderFuzzReport(report)).toBe(true)
    expect(report.properties.map((p) => [p.name, p.runs])).toEqual([
      ["composition.valid", RUNS],
      ["composition.catalog", RUNS],
      ["composition.shapes", RUNS],
      ["hallyu.valid", RUNS],
      ["hallyu.shapes", RUNS]
    ])
    // The shape properties really meet rejections (the fuzz is not vacuous), all from the table.
    expect(Object.keys(report.codes).length).toBeGreaterThan(3)
  })

  it("the same seed gives the same report", () => {
    const a = runFuzz({ seed: 7, runs: 10 })
    const b = runFuzz({ seed: 7, runs: 10 })
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  })

  it("a failing property shrinks to a minimal reproduction (fast-check shrinking over the valid generator)", () => {
    const details = fc.check(
      fc.property(
        validCompositionContent,
        (c) => c.card.components.every((x) => x.effect.type === "APPLY_STATUS" || x.effect.amount < 15)
      ),
      { seed: SEED, numRuns: 500 }
    )
    expect(details.failed).toBe(true)
    const [minimal] = details.counterexample ?? []
    const roots = minimal?.card.components ?? []
    // Shrunk: at most two childless roots, the failing amount exactly at the boundary.
    expect(roots.length).toBeLessThanOrEqual(2)
    expect(roots.every((r) => r.children === undefined)).toBe(true)
    expect(roots.map((r) => (r.effect.type === "APPLY_STATUS" ? 0 : r.effect.amount)).filter((a) => a >= 15)).toEqual([
      15
    ])
    // The printed seed + path replay exactly the minimal case.
    const replayed = fc.check(
      fc.property(
        validCompositionContent,
        (c) => c.card.components.every((x) => x.effect.type === "APPLY_STATUS" || x.effect.amount < 15)
      ),
      { seed: SEED, path: details.counterexamplePath ?? "" }
    )
    expect(JSON.stringify(replayed.counterexample)).toBe(JSON.stringify(details.counterexample))
    expect(minimal?.transformations).toHaveLength(1)
  })

  it("a rejection outside the table is caught as untyped", () => {
    expect(isTypedDiagnostic({ code: "rule_limit", severity: "error", message: "m" })).toBe(true)
    expect(isTypedDiagnostic({ code: "made_up", severity: "error", message: "m" })).toBe(false)
    expect(isTypedDiagnostic(new Error("boom"))).toBe(false)
    expect(new UntypedRejection("stage", { code: "made_up" }).message).toContain("not a typed diagnostic")
  })
})

const cli = (...args: Array<string>) => runCli(fuzzCommand, ...args)

describe("cardfx fuzz", () => {
  it("--format json prints one report document; exit 0 when every property holds", async () => {
    const r = await cli("--runs", "5", "--seed", "3", "--format", "json")
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as { ok: boolean; seed: number; runs: number; properties: Array<{ name: string }> }
    expect(report.ok).toBe(true)
    expect(report.seed).toBe(3)
    expect(report.properties.map((p) => p.name)).toEqual([
      "composition.valid",
      "composition.catalog",
      "composition.shapes",
      "hallyu.valid",
      "hallyu.shapes"
    ])
  })

  it("human output names every property; a bad budget is a usage error (exit 2)", async () => {
    const r = await cli("--runs", "3")
    expect(r.code).toBe(0)
    expect(r.out).toContain("ok   hallyu.valid")
    expect((await cli("--runs", "0")).code).toBe(2)
  })

  it("--only selects properties by prefix", async () => {
    const r = await cli("--runs", "3", "--only", "hallyu", "--format", "json")
    expect(r.code).toBe(0)
    expect((JSON.parse(r.out) as { properties: Array<{ name: string }> }).properties.map((p) => p.name)).toEqual([
      "hallyu.valid",
      "hallyu.shapes"
    ])
  })
})
