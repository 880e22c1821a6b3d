import { Compiler, DiagnosticCode } from "cardfx"
import { cardArbitrary, publishContent, runFuzz, validCompositionContent, walkers } from "cardfx/testing"
import { Either, FastCheck as fc } from "effect"
import { expect, it } from "vitest"

it("the compiler never throws on Schema-shaped cards; every rejection is a table code", () => {
  fc.assert(
    fc.property(cardArbitrary(), (card) => {
      const r = Compiler.compileContainer(card, { statuses: new Map() })
      return Either.isRight(r) || r.left.every((d) => DiagnosticCode.isDiagnosticCode(d.code))
    }),
    { numRuns: 200 }
  )
})

it("generated valid content publishes", () => {
  fc.assert(fc.property(validCompositionContent, (c) => publishContent(c).runtime !== undefined), { numRuns: 50 })
})

it("every limit: exactly at it is accepted, one past it fails with its code", () => {
  for (const w of walkers.filter((w) => w.name !== "input bytes")) {
    const run = w.run as (c: unknown) => Either.Either<unknown, ReadonlyArray<{ readonly code: string }>>
    fc.assert(fc.property(w.atLimit as fc.Arbitrary<unknown>, (c) => Either.isRight(run(c))), { numRuns: 2 })
    fc.assert(
      fc.property(w.pastLimit as fc.Arbitrary<unknown>, (c) => {
        const r = run(c)
        return Either.isLeft(r) && r.left.some((d) => d.code === w.code)
      }),
      { numRuns: 2 }
    )
  }
})

it("fuzz: compile → resolve → execute never throws (the CLI: cardfx fuzz --runs 100000 --seed N)", () => {
  const report = runFuzz({ seed: 1, runs: 20 })
  expect(report.ok).toBe(true)
})
