/**
 * Properties: on generated ledgers (built through the store), Assess says
 * compatible exactly when the apply command succeeds, with the same
 * diagnostics and changedComponentIds; and discovery says compatible exactly
 * when applying the offer in that activity succeeds (each offer tried on its
 * own branch forked from the card's current state).
 */
import { Effect } from "effect"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { assess, discover, type LedgerCommand } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { type CommandOutcome, LedgerStore, MAIN } from "../../../src/composition/store/LedgerStore.js"
import { BASE, open, runtimeOf } from "../store/support.js"
import { extendRuntime } from "./support.js"

let lab: Runtime
beforeAll(async () => {
  lab = extendRuntime(await runtimeOf(BASE))
})

const CARDS = ["basic_attack", "heal", "twin_strike"]
const ACTIVITIES = ["lab", "scenario", "canonical_command", "journey_opportunity"]
const UPGRADES = [
  "core.ember.affinity",
  "core.sharpened_strike",
  "test.needs_ember",
  "test.rival",
  "test.blocked",
  "test.alt_affinity",
  "nope"
]

const commandArb = fc.oneof(
  {
    arbitrary: fc.constantFrom(...UPGRADES).map((upgradeId): LedgerCommand => ({ kind: "apply", upgradeId })),
    weight: 4
  },
  {
    arbitrary: fc.integer({ min: 1, max: 5 }).map((n): LedgerCommand => ({ kind: "remove", entryId: `e${n}` })),
    weight: 2
  },
  {
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(...UPGRADES)).map((
      [n, upgradeId]
    ): LedgerCommand => ({ kind: "replace", entryId: `e${n}`, upgradeId })),
    weight: 1
  }
)

const caseArb = fc.record({
  cardId: fc.constantFrom(...CARDS),
  prior: fc.array(fc.tuple(commandArb, fc.constantFrom(...ACTIVITIES)), { maxLength: 6 }),
  command: commandArb,
  activity: fc.constantFrom(...ACTIVITIES)
})

const services = Effect.all({ store: LedgerStore, planner: CardTransformationPlanner })

/** Runs the prior commands through the store; returns the card's state after them. */
const seed = (cardId: string, prior: ReadonlyArray<readonly [LedgerCommand, string]>) =>
  Effect.gen(function*() {
    const { store, planner } = yield* services
    let k = 0
    for (const [command, activity] of prior) {
      const s = yield* store.read(MAIN, cardId, cardId)
      yield* planner.execute(lab, {
        commandId: `p${k++}`,
        branch: MAIN,
        instanceId: cardId,
        cardId,
        expectedRevision: s.revision,
        activity,
        command
      })
    }
    return yield* store.read(MAIN, cardId, cardId)
  })

let agreements = { compatible: 0, incompatible: 0 }

describe("assess vs apply", () => {
  it("agree on every generated case", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ cardId, prior, command, activity }) => {
        const rt = open(LedgerStore.layerMemory)
        try {
          const [assessment, outcome] = await rt.runPromise(
            Effect.gen(function*() {
              const state = yield* seed(cardId, prior)
              const a = assess(lab, state.ledger, command, activity)
              const { planner } = yield* services
              const o: CommandOutcome = yield* planner.execute(lab, {
                commandId: "final",
                branch: MAIN,
                instanceId: cardId,
                cardId,
                expectedRevision: state.revision,
                activity,
                command
              })
              return [a, o] as const
            })
          )
          expect(assessment.isCompatible).toBe(outcome.status === "applied")
          expect(outcome.diagnostics).toEqual(assessment.diagnostics)
          if (outcome.status === "applied") {
            expect(outcome.changedComponentIds).toEqual(assessment.changedComponentIds)
            agreements.compatible++
          } else agreements.incompatible++
        } finally {
          await rt.dispose()
        }
      }),
      { numRuns: 150, seed: 9 }
    )
    // both sides of the equivalence are exercised
    expect(agreements.compatible).toBeGreaterThan(15)
    expect(agreements.incompatible).toBeGreaterThan(15)
  }, 120_000)
})

describe("discover vs apply (issue 9)", () => {
  it("discovery says compatible exactly when the apply command in that activity succeeds", async () => {
    agreements = { compatible: 0, incompatible: 0 }
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ cardId, prior, activity }) => {
        const rt = open(LedgerStore.layerMemory)
        try {
          await rt.runPromise(
            Effect.gen(function*() {
              const state = yield* seed(cardId, prior)
              const { store, planner } = yield* services
              const d = discover(lab, state.ledger, activity)
              expect(d.offers.map((o) => o.upgradeId)).toEqual(
                [...lab.transformations.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
              )
              for (const offer of d.offers) {
                const branch = `try-${offer.upgradeId}`
                yield* store.fork(branch)
                const o = yield* planner.execute(lab, {
                  commandId: `offer-${offer.upgradeId}`,
                  branch,
                  instanceId: cardId,
                  cardId,
                  expectedRevision: state.revision,
                  activity,
                  command: { kind: "apply", upgradeId: offer.upgradeId }
                })
                expect([offer.upgradeId, offer.assessment.isCompatible]).toEqual([
                  offer.upgradeId,
                  o.status === "applied"
                ])
                expect(o.diagnostics).toEqual(offer.assessment.diagnostics)
                if (o.status === "applied") agreements.compatible++
                else agreements.incompatible++
              }
            })
          )
        } finally {
          await rt.dispose()
        }
      }),
      { numRuns: 60, seed: 11 }
    )
    expect(agreements.compatible).toBeGreaterThan(15)
    expect(agreements.incompatible).toBeGreaterThan(15)
  }, 120_000)
})
