/**
 * The ledger as the one authority: order, replacement, removal checks, seal
 * immutability (the current catalog is never read again for sealed rules),
 * hot reload of a base card, admission of sealed content only.
 */
import { Either, Schema } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { seal, sealById } from "../../../src/composition/BundleCompiler.js"
import {
  activeEntries,
  appendEntry,
  CardLedger,
  computeSealHash,
  emptyLedger,
  replaceEntry,
  verifyLedger
} from "../../../src/composition/ledger/Ledger.js"
import { checkRemoval, resolveEffectiveCard } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Card } from "../../../src/composition/schema/Card.js"
import {
  BASE,
  card,
  decodeOverlay,
  ledgerWith,
  NUMERIC,
  overlay,
  readFixture,
  RESIDUAL,
  right,
  runtimeOf
} from "./support.js"

let rt: Runtime
beforeAll(async () => {
  const full = await runtimeOf(BASE, RESIDUAL, NUMERIC)
  rt = overlay(
    overlay(full, decodeOverlay(readFixture("test/fixtures/resolver/scopes.json"))),
    decodeOverlay(readFixture("test/fixtures/resolver/ledger.json"))
  )
})

const at = (step: number) => ({ revision: step, sequence: 1, step })

describe("ledger order and replacement", () => {
  it("entries expand in ledger order", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.first", "t.second"])
    const e = right(resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }))
    expect(e.compositionTrace.map((t) => t.transformationId)).toEqual(["t.first", "t.second"])
  })

  it("a replacement keeps the replaced entry's position in the expansion order", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.first", "t.second"])
    const replaced = right(
      replaceEntry(ledger, "e1", right(sealById(rt, "t.first_v2")), { entryId: "e3", captured: at(3) })
    )
    expect(activeEntries(replaced).map((x) => [x.entryId, x.position])).toEqual([["e3", 0], ["e2", 1]])
    expect(replaced.entries.find((x) => x.entryId === "e1")?.state).toBe("removed")
    expect(replaced.entries.find((x) => x.entryId === "e3")?.replaces).toBe("e1")
    const e = right(
      resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger: replaced, statuses: rt.statuses })
    )
    expect(e.compositionTrace.map((t) => [t.entryId, t.transformationId])).toEqual([["e3", "t.first_v2"], [
      "e2",
      "t.second"
    ]])
  })

  it("a replacement keeps its position for BeforeSequence roots too (ranks follow expansion order)", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.before_first", "t.before_second"])
    const replaced = right(
      replaceEntry(ledger, "e1", right(sealById(rt, "t.before_first")), { entryId: "e9", captured: at(9) })
    )
    const e = right(
      resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger: replaced, statuses: rt.statuses })
    )
    expect(e.compiled.roots.map((r) => r.componentId.split("_")[0])).toEqual(["bf", "bs", "strike"])
  })

  it("ledger commands count revisions and capture revision/sequence/step", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.first", "t.second"])
    expect(ledger.revision).toBe(2)
    expect(ledger.entries.map((x) => x.captured)).toEqual([
      { revision: 0, sequence: 0, step: 1 },
      { revision: 1, sequence: 0, step: 2 }
    ])
    expect(Either.isLeft(appendEntry(ledger, right(sealById(rt, "t.first")), { entryId: "e1", captured: at(3) }))).toBe(
      true
    )
  })
})

describe("checkRemoval", () => {
  it("rejects removing an entry another entry's requirements depend on", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.charge", "t.discharge"])
    const r = checkRemoval(ledger, "e1", { baseCard: card(rt, "basic_attack"), statuses: rt.statuses })
    expect(Either.isLeft(r) && r.left.map((d) => [d.code, d.transformationId, d.subject, d.details?.cause])).toEqual([
      ["dependency_violation", "t.discharge", "e1", "missing_tag"]
    ])
  })

  it("accepts removing the dependent entry, or an entry nothing depends on", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["t.charge", "t.discharge", "t.unrelated"])
    const ctx = { baseCard: card(rt, "basic_attack"), statuses: rt.statuses }
    const r = right(checkRemoval(ledger, "e2", ctx))
    expect(activeEntries(r).map((x) => x.entryId)).toEqual(["e1", "e3"])
    expect(Either.isRight(checkRemoval(ledger, "e3", ctx))).toBe(true)
  })
})

describe("sealed rules never read the current catalog", () => {
  it("mutating or removing the catalog bundle and transformation after sealing changes nothing", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["core.ember.affinity"])
    const before = right(resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }))
    const burning = rt.bundles.get("ember.burning")
    if (burning === undefined) throw new Error("fixture")
    const mutated: Runtime = {
      ...rt,
      bundles: new Map([
        ...[...rt.bundles].filter(([id]) => id !== "ember.burning"),
        ["ember.regeneration", { ...burning, bundleId: "ember.regeneration" }]
      ]),
      transformations: new Map([...rt.transformations].filter(([id]) => id !== "core.ember.affinity"))
    }
    // The mutation is real: sealing again in the mutated runtime fails.
    expect(Either.isLeft(sealById(mutated, "core.ember.affinity"))).toBe(true)
    const after = right(
      resolveEffectiveCard({ baseCard: card(mutated, "basic_attack"), ledger, statuses: mutated.statuses })
    )
    expect(after.fingerprint).toBe(before.fingerprint)
    expect(after.components).toEqual(before.components)
  })

  it("a ledger reloaded from JSON (process restart) resolves to the same bytes", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike", "core.ember.affinity", "residual_affinity"])
    const reloaded = right(verifyLedger(Schema.decodeUnknownSync(CardLedger)(JSON.parse(JSON.stringify(ledger)))))
    const a = right(resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }))
    const b = right(
      resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger: reloaded, statuses: rt.statuses })
    )
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
  })

  it("an entry sealed by another engine version is refused at resolution (unsupported_version)", () => {
    const old: Runtime = { ...rt, pin: { ...rt.pin, engineVersion: 16 } }
    const ledger = ledgerWith(old, "basic_attack", ["core.ember.affinity"])
    const r = resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses })
    expect(Either.isLeft(r) && r.left.map((d) => [d.code, d.transformationId, d.details?.engineVersion])).toEqual([
      ["unsupported_version", "core.ember.affinity", 16]
    ])
  })

  it("the sealed entry records the runtime pin it was sealed in", () => {
    const sealed = right(sealById(rt, "core.ember.affinity"))
    expect(sealed.pin).toEqual(rt.pin)
    expect(sealed.pin.engineVersion).toBe(17)
  })
})

describe("hot reload of a base card", () => {
  it("recomposes the sealed ledger over the reloaded card", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike", "core.ember.affinity"])
    const base = card(rt, "basic_attack")
    const reloaded: Card = {
      ...base,
      components: base.components.map((c) =>
        c.effect.type === "DAMAGE" ? { ...c, effect: { ...c.effect, amount: 8 } } : c
      )
    }
    const before = right(resolveEffectiveCard({ baseCard: base, ledger, statuses: rt.statuses }))
    const after = right(resolveEffectiveCard({ baseCard: reloaded, ledger, statuses: rt.statuses }))
    expect(after.compiled.roots[0]?.effect.amount).toBe(12)
    expect(after.compositionTrace).toEqual(before.compositionTrace)
    expect(after.fingerprint).not.toBe(before.fingerprint)
  })

  it("a reload that no longer composes is a diagnostic, not a crash", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["core.ember.affinity"])
    const base = card(rt, "basic_attack")
    // The reloaded card lost its DAMAGE root: the affinity has rules but none applies.
    const reloaded: Card = {
      ...base,
      components: [{
        type: "effect",
        componentId: "mark",
        order: 1,
        effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "weak" }
      }]
    }
    const r = resolveEffectiveCard({ baseCard: reloaded, ledger, statuses: rt.statuses })
    expect(Either.isLeft(r) && r.left.map((d) => d.code)).toEqual(["no_matching_rule"])
  })
})

describe("admission: only sealed content enters the ledger", () => {
  it("an authoring transformation (even one claiming closedCompositionRules) is unsealed_definition", () => {
    const t = rt.transformations.get("core.ember.affinity")
    const forged = { ...t, closedCompositionRules: [] }
    for (const content of [t, forged]) {
      const r = appendEntry(emptyLedger("basic_attack"), content, { entryId: "e1", captured: at(1) })
      expect(Either.isLeft(r) && r.left.map((d) => d.code)).toEqual(["unsealed_definition"])
    }
  })

  it("a ledger file whose entry was edited after sealing fails verification", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike"])
    const json = JSON.parse(JSON.stringify(ledger)) as { entries: Array<{ patches: Array<{ value: number }> }> }
    const patch = json.entries[0]?.patches[0]
    if (patch === undefined) throw new Error("fixture")
    patch.value = 400
    const edited = Schema.decodeUnknownSync(CardLedger)(json)
    expect(Either.isLeft(verifyLedger(edited))).toBe(true)
  })

  it("a recomputed hash does not smuggle content past the limits: 33 captured rules are refused", () => {
    const sealed = right(sealById(rt, "core.ember.affinity"))
    const rule = sealed.closedCompositionRules[0]
    if (rule === undefined) throw new Error("fixture")
    const { sealHash: _hash, ...rest } = sealed
    const many = {
      ...rest,
      closedCompositionRules: Array.from(
        { length: 33 },
        (_, i) => ({ ...rule, rule: { ...rule.rule, ruleId: `r${i}` } })
      )
    }
    const forged = { ...many, sealHash: computeSealHash(many) }
    const r = appendEntry(emptyLedger("basic_attack"), forged, { entryId: "e1", captured: at(1) })
    expect(Either.isLeft(r) && r.left.map((d) => d.code)).toEqual(["unsealed_definition"])
  })

  it("seal captures rule + bundle immutably: the sealed bundle is a copy, members sorted", () => {
    const sealed = right(
      seal(rt, {
        upgradeId: "t.x",
        category: "Test",
        compositionRules: [{ ruleId: "n", priority: 0, namespace: "n", bundleId: "b.nested", scope: "AfterImpact" }]
      })
    )
    expect(sealed.closedCompositionRules[0]?.bundle.components.map((c) => c.componentId)).toEqual(["outer", "tail"])
    expect(sealed.closedCompositionRules[0]?.bundle).not.toBe(rt.bundles.get("b.nested"))
  })
})
