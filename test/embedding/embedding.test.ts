/**
 * The embedding example: cardfx used as a dependency, through its public
 * entry points only (`cardfx`, `cardfx/engine`, `cardfx/testing` — resolved by package
 * self-reference through package.json's `exports` to the built dist/, with
 * dist/*.d.ts as the types). It builds the live layer over data/ and a
 * temporary SQLite file; assesses and applies core.ember.affinity to
 * basic_attack through the planner; resolves and executes the card; validates
 * the Hallyu Hex deck and plays 100 seeded games; and runs a property test
 * with the kit.
 */
import { Cardfx, Catalog, DiagnosticCode, Hallyu, LedgerStore, type Plan } from "cardfx"
import { Executor, Planner, Resolver } from "cardfx/engine"
import { publishContent, validCompositionContent, walkers } from "cardfx/testing"
import type { Layer } from "effect"
import { Effect, Either, FastCheck as fc } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const dir = mkdtempSync(join(tmpdir(), "cardfx-embedding-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every cardfx service: packages from data/, the ledger store in a temporary SQLite file. */
const CardfxLayer = Cardfx.CardfxLive({ packages: ["data/heroscript.base"], store: join(dir, "ledger.db") })

const run = <A, E>(program: Effect.Effect<A, E, Layer.Layer.Success<typeof CardfxLayer>>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.provide(program, CardfxLayer)))

const instance = { branch: LedgerStore.MAIN, instanceId: "hero.basic_attack", cardId: "basic_attack" }
const applyEmber: Plan.LedgerCommand = { kind: "apply", upgradeId: "core.ember.affinity" }

const combat: Executor.CombatState = {
  turn: 1,
  activeSide: "ally",
  characters: [
    { characterId: "hero", side: "ally", hp: 30, maxHp: 40, statuses: [], attributes: {}, relics: [], buffs: [] },
    { characterId: "slime", side: "enemy", hp: 30, maxHp: 30, statuses: [], attributes: {}, relics: [], buffs: [] }
  ]
}

describe("embedding cardfx as a typed service layer", () => {
  it("assesses and applies core.ember.affinity through the planner, resolves and executes the card", async () => {
    const result = await run(
      Effect.gen(function*() {
        const { runtime } = yield* Catalog.Catalog
        const planner = yield* Planner.CardTransformationPlanner

        // Assess is a pure query over the stored instance; apply persists the very same plan.
        const assessment = yield* planner.assessStored(runtime, instance, applyEmber, "scenario")
        const outcome = yield* planner.apply(runtime, {
          commandId: "embedding-1",
          ...instance,
          expectedRevision: assessment.revision,
          activity: "scenario",
          command: applyEmber
        })

        // Read the sealed ledger back and resolve the effective card.
        const stored = yield* (yield* LedgerStore.LedgerStore).read(
          LedgerStore.MAIN,
          instance.instanceId,
          instance.cardId
        )
        const baseCard = runtime.cards.get("basic_attack")
        if (baseCard === undefined) return yield* Effect.dieMessage("basic_attack is not published")
        const effective = yield* (yield* Resolver.CardResolver).resolve({
          baseCard,
          ledger: stored.ledger,
          statuses: runtime.statuses
        })

        // Play it: the executor works against the same catalog.
        const played = yield* (yield* Executor.CardExecutor).play(effective, combat, {
          actorId: "hero",
          targetIds: ["slime"],
          seed: 1
        })

        // A stale expectedRevision is a typed error in the error channel.
        const stale = yield* Effect.flip(
          planner.apply(runtime, {
            commandId: "embedding-2",
            ...instance,
            expectedRevision: 0,
            activity: "scenario",
            command: applyEmber
          })
        )
        return { assessment, outcome, stored, effective, played, stale }
      })
    )

    expect(result.assessment.isCompatible).toBe(true)
    expect(result.assessment.changedComponentIds.length).toBeGreaterThan(0)
    expect(result.outcome.status).toBe("applied")
    expect(result.stored.revision).toBe(1)
    expect(result.outcome.fingerprint).toBe(result.effective.fingerprint)

    const strike = result.effective.components.find((c) => c.componentId === "strike")
    expect(strike?.effect.type).toBe("DAMAGE")
    const burn = strike?.children?.[0]
    expect(burn?.effect).toMatchObject({ type: "APPLY_STATUS", statusId: "burning", stacks: 1, duration: 3 })
    expect(result.effective.compositionTrace[0]).toMatchObject({
      transformationId: "core.ember.affinity",
      ruleId: "ember.damage"
    })

    const slime = result.played.state.characters.find((c) => c.characterId === "slime")
    expect(slime?.hp).toBeLessThan(30)
    expect(slime?.statuses.map((s) => s.statusId)).toContain("burning")

    expect(result.stale._tag).toBe(DiagnosticCode.DiagnosticCodeTable[result.stale.code].tag)
    expect(result.stale.code).toBe("revision_conflict")
  })

  it("validates the Hallyu Hex deck and plays 100 seeded games", async () => {
    const deckFile = "data/hallyu-hex/starter-deck.v0.json"
    const { validation, summary, again } = await run(
      Effect.gen(function*() {
        const hhx = yield* Hallyu.HallyuHex
        const validation = yield* hhx.validateFile(deckFile)
        const engine = yield* hhx.engine(deckFile)
        // The per-game loop is pure (no Effect per action): simulate returns Either.
        return {
          validation,
          summary: Hallyu.simulate(engine, { games: 100, seed: 2026 }),
          again: Hallyu.simulate(engine, { games: 100, seed: 2026 })
        }
      })
    )
    expect(validation.diagnostics.filter((d) => d.severity === "error")).toEqual([])
    expect(Either.isRight(summary)).toBe(true)
    if (Either.isLeft(summary)) return
    expect(summary.right.games).toBe(100)
    expect(summary.right.reasons.unfinished).toBe(0)
    expect(summary.right.winsBySeat["0"] + summary.right.winsBySeat["1"] + summary.right.winsBySeat.draw).toBe(100)
    // Seeded: the same seed gives the same games.
    expect(JSON.stringify(again)).toBe(JSON.stringify(summary))
  })

  it("a bad package folder fails the layer with a typed error", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.scoped(
        Effect.provide(
          Catalog.Catalog,
          Cardfx.CardfxLive({ packages: [join(dir, "missing")], store: join(dir, "other.db") })
        )
      )
    )
    expect(exit._tag).toBe("Failure")
    if (exit._tag === "Failure" && exit.cause._tag === "Fail") expect(exit.cause.error.code).toBe("file_unreadable")
  })
})

describe("a property test with cardfx/testing", () => {
  it("generated valid content always publishes", () => {
    fc.assert(
      fc.property(validCompositionContent, (content) => publishContent(content).runtime !== undefined),
      { numRuns: 50, seed: 1 }
    )
  })

  it("every limit walker's past-the-limit case carries its documented code", () => {
    for (const w of walkers.filter((x) => x.name !== "input bytes")) {
      fc.assert(
        fc.property(w.pastLimit as fc.Arbitrary<never>, (c) => {
          const r = (w.run as (c: never) => Either.Either<unknown, ReadonlyArray<{ readonly code: string }>>)(c)
          return Either.isLeft(r) && r.left.some((d) => d.code === w.code)
        }),
        { numRuns: 2, seed: 3 }
      )
    }
  })
})
