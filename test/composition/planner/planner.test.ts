/**
 * The planner: every planning code, replacement position, changedComponentIds
 * (origin changes with equal payloads), sealing at apply time, and issue 9's
 * discovery and activity checks against the real base package and a store.
 */
import { Effect, Either } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { activeEntries, type CardLedger, emptyLedger } from "../../../src/composition/ledger/Ledger.js"
import { assess, changedComponentIds, discover, plan, resolveCurrent } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
import { PlanningCache } from "../../../src/composition/planner/PlanningCache.js"
import { resolveEffectiveCard } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Card } from "../../../src/composition/schema/Card.js"
import { LedgerStore, MAIN } from "../../../src/composition/store/LedgerStore.js"
import { BASE, open, request, runtimeOf, sqliteAt, tempDir } from "../store/support.js"
import { extendRuntime } from "./support.js"

let base: Runtime
let lab: Runtime

beforeAll(async () => {
  base = await runtimeOf(BASE)
  lab = extendRuntime(base)
})

/** Applies commands through the pure plan (a test ledger; the store is tested elsewhere). */
const build = (runtime: Runtime, cardId: string, upgrades: ReadonlyArray<string>, activity = "lab"): CardLedger => {
  let ledger = emptyLedger(cardId)
  for (const u of upgrades) {
    const p = plan({ runtime, ledger, command: { kind: "apply", upgradeId: u }, activity })
    if (p.change === undefined) throw new Error(`cannot apply ${u}: ${JSON.stringify(p.assessment.diagnostics)}`)
    ledger = p.change.ledger
  }
  return ledger
}

const codes = (r: { diagnostics: ReadonlyArray<{ code: string }> }) => r.diagnostics.map((d) => d.code)

describe("planning codes", () => {
  it("unknown card, transformation and entry", () => {
    expect(codes(assess(lab, emptyLedger("no_card"), { kind: "apply", upgradeId: "core.sharpened_strike" }, "lab")))
      .toEqual(["unknown_card"])
    expect(codes(assess(lab, emptyLedger("basic_attack"), { kind: "apply", upgradeId: "nope" }, "lab"))).toEqual([
      "unknown_transformation"
    ])
    expect(codes(assess(lab, emptyLedger("basic_attack"), { kind: "remove", entryId: "e1" }, "lab"))).toEqual([
      "entry_not_found"
    ])
    expect(
      codes(
        assess(
          lab,
          emptyLedger("basic_attack"),
          { kind: "replace", entryId: "e1", upgradeId: "core.sharpened_strike" },
          "lab"
        )
      )
    ).toEqual([
      "entry_not_found"
    ])
  })

  it("eligibility, slot capacity, maxPerCard and exclusions both ways", () => {
    expect(codes(assess(lab, emptyLedger("heal"), { kind: "apply", upgradeId: "core.sharpened_strike" }, "lab")))
      .toEqual(["not_eligible"])
    const ember = build(lab, "basic_attack", ["core.ember.affinity"])
    const full = assess(lab, ember, { kind: "apply", upgradeId: "test.alt_affinity" }, "lab")
    expect(codes(full)).toEqual(["slot_full"])
    expect(full.diagnostics[0]?.details).toMatchObject({ limit: 1, actual: 1 })
    const twice = build(lab, "basic_attack", ["core.sharpened_strike", "core.sharpened_strike"])
    // refinement capacity 2 and maxPerCard 2: both limits are reached
    expect(codes(assess(lab, twice, { kind: "apply", upgradeId: "core.sharpened_strike" }, "lab"))).toEqual([
      "slot_full",
      "max_per_card"
    ])
    const sharp = build(lab, "basic_attack", ["core.sharpened_strike"])
    expect(codes(assess(lab, sharp, { kind: "apply", upgradeId: "test.rival" }, "lab"))).toEqual([
      "excluded_transformation"
    ])
    const rival = build(lab, "basic_attack", ["test.rival"])
    expect(codes(assess(lab, rival, { kind: "apply", upgradeId: "core.sharpened_strike" }, "lab"))).toEqual([
      "excluded_transformation"
    ])
  })

  it("requirements on the complete candidate, and a removal that breaks another entry", () => {
    expect(codes(assess(lab, emptyLedger("basic_attack"), { kind: "apply", upgradeId: "test.blocked" }, "lab")))
      .toEqual(["missing_tag"])
    expect(codes(assess(lab, emptyLedger("basic_attack"), { kind: "apply", upgradeId: "test.needs_ember" }, "lab")))
      .toEqual(["missing_tag"])
    const both = build(lab, "basic_attack", ["core.ember.affinity", "test.needs_ember"])
    const r = assess(lab, both, { kind: "remove", entryId: "e1" }, "lab")
    expect(codes(r)).toEqual(["dependency_violation"])
    expect(r.diagnostics[0]?.transformationId).toBe("test.needs_ember")
    expect(assess(lab, both, { kind: "remove", entryId: "e2" }, "lab").isCompatible).toBe(true)
  })

  it("activity authorization (issue 9): by ID, by category, undeclared activity", () => {
    const ledger = emptyLedger("basic_attack")
    const ember = { kind: "apply", upgradeId: "core.ember.affinity" } as const
    expect(assess(base, ledger, ember, "scenario").isCompatible).toBe(true)
    expect(assess(base, ledger, ember, "canonical_command").isCompatible).toBe(true)
    expect(codes(assess(base, ledger, ember, "journey_opportunity"))).toEqual(["not_authorized"])
    expect(codes(assess(base, ledger, ember, "no_such_activity"))).toEqual(["not_authorized"])
    expect(assess(lab, ledger, ember, "lab").isCompatible).toBe(true) // by category
    // removing an entry needs the activity to authorize its transformation too
    const applied = build(base, "basic_attack", ["core.ember.affinity"], "scenario")
    expect(codes(assess(base, applied, { kind: "remove", entryId: "e1" }, "journey_opportunity"))).toEqual([
      "not_authorized"
    ])
  })
})

describe("results", () => {
  it("replace keeps the position; captured revision/sequence/step are the basis", () => {
    const ledger = build(lab, "basic_attack", ["core.sharpened_strike", "core.ember.affinity"])
    const p = plan({
      runtime: lab,
      ledger,
      command: { kind: "replace", entryId: "e1", upgradeId: "test.rival" },
      activity: "lab"
    })
    expect(p.assessment.isCompatible).toBe(true)
    expect(p.assessment).toMatchObject({ revision: 2, step: 3 })
    const order = activeEntries(p.change?.ledger ?? ledger).map((e) => [e.entryId, e.upgradeId])
    expect(order).toEqual([
      ["e3", "test.rival"],
      ["e2", "core.ember.affinity"]
    ])
  })

  it("changedComponentIds: new members and their anchor; an equal payload whose origin changed", () => {
    const ledger = emptyLedger("basic_attack")
    const a = assess(base, ledger, { kind: "apply", upgradeId: "core.ember.affinity" }, "scenario")
    expect(a.changedComponentIds).toContain("strike")
    expect(a.changedComponentIds.some((id) => id.endsWith(".burn"))).toBe(true)
    expect(a.compositionTrace.length).toBe(1)
    // replacing the affinity by itself: same members, same payloads, but they now come from another entry
    const applied = build(base, "basic_attack", ["core.ember.affinity"], "scenario")
    const r = assess(base, applied, { kind: "replace", entryId: "e1", upgradeId: "core.ember.affinity" }, "scenario")
    expect(r.isCompatible).toBe(true)
    expect(r.changedComponentIds).toEqual(a.changedComponentIds)
    // a numeric upgrade changes the structural component only
    const s = assess(base, ledger, { kind: "apply", upgradeId: "core.sharpened_strike" }, "scenario")
    expect(s.changedComponentIds).toEqual(["strike"])
    expect(changedComponentIds(undefined, undefined)).toEqual([])
  })

  it("a ledger with no active entry shares its card's base resolution, the same value as its own", () => {
    const cache = new PlanningCache(base)
    const fresh = resolveCurrent(base, emptyLedger("basic_attack"), cache)
    // Another empty ledger of the card: the very same resolution object.
    expect(resolveCurrent(base, emptyLedger("basic_attack"), cache)).toBe(fresh)
    // Apply, then remove the only entry: the removal's candidate has a history but no active entry.
    const applied = plan({
      runtime: base,
      ledger: emptyLedger("basic_attack"),
      command: { kind: "apply", upgradeId: "core.sharpened_strike" },
      activity: "scenario",
      cache
    })
    const removedPlan = plan({
      runtime: base,
      ledger: applied.change?.ledger ?? emptyLedger("basic_attack"),
      command: { kind: "remove", entryId: "e1" },
      activity: "scenario",
      cache
    })
    const removed = removedPlan.change
    expect(removed?.ledger.entries.map((e) => e.state)).toEqual(["removed"])
    expect(removed?.effective).toBe(Either.getOrThrow(fresh))
    expect(removedPlan.assessment.changedComponentIds).toEqual(["strike"])
    // The same value a resolution of that ledger of its own makes (no cache shared), fingerprint included.
    const own = resolveEffectiveCard({
      baseCard: base.cards.get("basic_attack") as Card,
      ledger: removed?.ledger ?? emptyLedger("basic_attack"),
      statuses: base.statuses
    })
    expect(Either.getOrThrow(own)).toEqual(removed?.effective)
    // A ledger with an active entry is not given the base's.
    expect(applied.change?.effective.fingerprint).not.toBe(removed?.effective.fingerprint)
  })
  it("seals at apply time: the stored entry carries its closed rules, and replay ignores later catalog changes", async () => {
    const tmp = tempDir("seal")
    const file = `${tmp.dir}/l.db`
    const rt = sqliteAt(file)
    const outcome = await rt.runPromise(
      Effect.flatMap(
        CardTransformationPlanner,
        (p) => p.execute(base, request("s1", { kind: "apply", upgradeId: "core.ember.affinity" }, 0))
      )
    )
    const state = await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.read(MAIN, "basic_attack", "basic_attack")))
    const entry = state.ledger.entries[0]
    expect(entry?.closedCompositionRules.map((c) => c.bundle.bundleId)).toEqual(["ember.burning", "ember.regeneration"])
    expect(entry?.sealHash).toMatch(/^[0-9a-f]{64}$/)
    await rt.dispose()
    // the catalog's bundle changes afterwards: replay (which reads no catalog) still gives the stored fingerprint
    const bundle = base.bundles.get("ember.burning")
    expect(bundle).toBeDefined()
    const rt2 = open(LedgerStore.layerSqlite({ filename: file }))
    const steps = await rt2.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay()))
    expect(steps.map((s) => s.fingerprint)).toEqual([outcome.fingerprint])
    await rt2.dispose()
    tmp.cleanup()
  })
})

describe("discovery (issue 9)", () => {
  it("basic_attack in a scenario: ember compatible; after applying it, incompatible because the slot is full", async () => {
    const rt = open(LedgerStore.layerMemory)
    const ref = { branch: MAIN, instanceId: "basic_attack", cardId: "basic_attack" }
    const first = await rt.runPromise(
      Effect.flatMap(CardTransformationPlanner, (p) => p.discoverStored(base, ref, "scenario"))
    )
    expect(first.offers.map((o) => o.upgradeId)).toEqual(["core.ember.affinity", "core.sharpened_strike"])
    const ember0 = first.offers[0]
    expect(ember0?.assessment.isCompatible).toBe(true)
    expect(ember0?.assessment.changedComponentIds).toContain("strike")
    const applied = await rt.runPromise(
      Effect.flatMap(
        CardTransformationPlanner,
        (p) => p.apply(base, request("d1", { kind: "apply", upgradeId: "core.ember.affinity" }, 0))
      )
    )
    expect(applied.status).toBe("applied")
    const after = await rt.runPromise(
      Effect.flatMap(CardTransformationPlanner, (p) => p.discoverStored(base, ref, "scenario"))
    )
    const ember1 = after.offers.find((o) => o.upgradeId === "core.ember.affinity")
    expect(ember1?.assessment.isCompatible).toBe(false)
    expect(codes(ember1?.assessment ?? { diagnostics: [] })).toContain("slot_full")
    expect(after.offers.find((o) => o.upgradeId === "core.sharpened_strike")?.assessment.isCompatible).toBe(true)
    // another affinity item (lab runtime): incompatible for the same reason
    const labAfter = await rt.runPromise(
      Effect.flatMap(CardTransformationPlanner, (p) => p.discoverStored(lab, ref, "lab"))
    )
    expect(codes(labAfter.offers.find((o) => o.upgradeId === "test.alt_affinity")?.assessment ?? { diagnostics: [] }))
      .toEqual(["slot_full"])
    await rt.dispose()
  })

  it("in journey_opportunity nothing offers the ember affinity, the command is rejected and the store is unchanged", async () => {
    const tmp = tempDir("journey")
    const rt = sqliteAt(`${tmp.dir}/j.db`)
    const d = discover(base, emptyLedger("basic_attack"), "journey_opportunity")
    expect(codes(d.offers.find((o) => o.upgradeId === "core.ember.affinity")?.assessment ?? { diagnostics: [] }))
      .toEqual(["not_authorized"])
    const before = await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.dump(MAIN)))
    const r = request("j1", { kind: "apply", upgradeId: "core.ember.affinity" }, 0, { activity: "journey_opportunity" })
    const e = await rt.runPromise(Effect.flip(Effect.flatMap(CardTransformationPlanner, (p) => p.apply(base, r))))
    expect(e._tag).toBe("NotAuthorized")
    expect(await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.dump(MAIN)))).toBe(before)
    const again = await rt.runPromise(Effect.flip(Effect.flatMap(CardTransformationPlanner, (p) => p.apply(base, r))))
    expect(again._tag).toBe("NotAuthorized")
    expect(await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.dump(MAIN)))).toBe(before)
    await rt.dispose()
    tmp.cleanup()
  })

  it("is deterministic and ordered by upgradeId", () => {
    const ledger = build(lab, "basic_attack", ["core.sharpened_strike"])
    const a = discover(lab, ledger, "lab")
    const b = discover(lab, ledger, "lab")
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    const ids = a.offers.map((o) => o.upgradeId)
    expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)))
    expect(Either.isRight(Either.right(a))).toBe(true)
  })
})
