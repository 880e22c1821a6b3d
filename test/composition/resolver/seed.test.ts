/**
 * Sentences of the seed not covered elsewhere, one test each: ordinal
 * comparison, selection of roots only, contextual sources outside selection,
 * no placeholders in the persisted card, namespace + hash within the common
 * limit, authoring `closedCompositionRules` ignored, Schema laws of the
 * effective card.
 */
import { Either, Schema } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { seal, sealById } from "../../../src/composition/BundleCompiler.js"
import { CardInspection, EffectiveCardDefinition } from "../../../src/composition/Effective.js"
import { expansionId } from "../../../src/composition/Expansion.js"
import { CardLedger, LedgerEntry } from "../../../src/composition/ledger/Ledger.js"
import { resolveEffectiveCard } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Status } from "../../../src/composition/schema/Status.js"
import type { Transformation } from "../../../src/composition/schema/Transformation.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"
import { Limits } from "../../../src/kernel/Limits.js"
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
  rt = overlay(
    await runtimeOf(BASE, RESIDUAL, NUMERIC),
    decodeOverlay(readFixture("test/fixtures/resolver/scopes.json"))
  )
})

const attempt = (cardId: string, ts: ReadonlyArray<string | Transformation>) =>
  resolveEffectiveCard({ baseCard: card(rt, cardId), ledger: ledgerWith(rt, cardId, ts), statuses: rt.statuses })
const codes = (r: ReturnType<typeof attempt>) => (Either.isLeft(r) ? r.left.map((d) => d.code) : [])

const rules = (upgradeId: string, rule: Record<string, unknown>): Transformation =>
  ({
    upgradeId,
    category: "Test",
    compositionRules: [{
      ruleId: "r",
      priority: 0,
      namespace: "ns",
      bundleId: "b.apply",
      scope: "AfterImpact",
      ...rule
    }]
  }) as Transformation

describe("the seed, sentence by sentence", () => {
  it("tags are compared ordinally (case-sensitive)", () => {
    const t: Transformation = { upgradeId: "t.case", category: "Test", requirements: { requiredTags: ["Basic"] } }
    expect(codes(attempt("basic_attack", [t]))).toEqual(["missing_tag"])
  })

  it("component identities are compared ordinally (case-sensitive)", () => {
    expect(codes(attempt("basic_attack", [rules("t.ids", { selector: { componentIds: ["Strike"] } })]))).toEqual([
      "no_matching_rule"
    ])
  })

  it("capabilities are compared ordinally (case-sensitive)", () => {
    const t: Transformation = {
      upgradeId: "t.cap",
      category: "Test",
      requirements: { requiredCapabilities: ["effect.damage"] }
    }
    expect(codes(attempt("basic_attack", [t]))).toEqual(["missing_capability"])
  })

  it("the selector does not select children", () => {
    expect(codes(attempt("parent_with_child", [rules("t.child", { selector: { componentIds: ["existing"] } })])))
      .toEqual(["no_matching_rule"])
  })

  it("a transformation without rules is never no_matching_rule", () => {
    expect(Either.isRight(attempt("expose", [{ upgradeId: "t.plain", category: "Test" }]))).toBe(true)
  })

  it("statuses, relics, buffs and attributes take no part in selection: extra contextual sources change nothing", () => {
    const before = right(attempt("basic_attack", ["core.ember.affinity"]))
    const extra: Status = {
      statusId: "zz_rage",
      stacking: "add",
      durationRule: "refresh",
      modifiers: [{ bucket: "multiplier", direction: "outgoing", effectTypes: ["DAMAGE"], value: 2 }]
    }
    const statuses = new Map([...rt.statuses, [extra.statusId, extra]])
    const after = right(
      resolveEffectiveCard({
        baseCard: card(rt, "basic_attack"),
        ledger: ledgerWith(rt, "basic_attack", ["core.ember.affinity"]),
        statuses
      })
    )
    expect(after.fingerprint).toBe(before.fingerprint)
  })

  it("template placeholders never enter the persisted card or the execution", () => {
    const e = right(attempt("basic_attack", ["residual_affinity"]))
    const bytes = canonicalJson(e)
    expect(bytes).not.toContain("\"$")
    const payloads = e.compiled.roots.flatMap((r) => r.children.map((c) => c.effect.payload))
    expect(payloads).toEqual([{ potency: 6 }])
  })

  it("a 47-character namespace + '_' + 16 hex characters respects the common 64-character limit", () => {
    const id = expansionId("n".repeat(Limits.namespaceLength), "strike")
    expect(id).toHaveLength(Limits.authoredIdLength)
    expect(id).toMatch(/^n{47}_[0-9a-f]{16}$/)
  })

  it("closedCompositionRules in authoring JSON is ignored: it can never inject rules", () => {
    const t = rt.transformations.get("core.sharpened_strike")
    if (t === undefined) throw new Error("fixture")
    const forged = {
      ...t,
      closedCompositionRules: [{ rule: { ruleId: "evil" }, bundle: { bundleId: "x", components: [] }, externalIds: [] }]
    }
    expect(right(seal(rt, forged)).sealHash).toBe(right(seal(rt, t)).sealHash)
    expect(right(seal(rt, forged)).closedCompositionRules).toEqual([])
  })

  it("AfterImpact does not force TARGET: the member's own target is kept", () => {
    const e = right(attempt("heal", ["core.ember.affinity"]))
    expect(e.compiled.roots[0]?.children[0]?.effect.target).toBe("SELF")
  })

  it("composition draws no RNG: a member with a chance keeps it as data for the executor", () => {
    const b = {
      bundleId: "b.maybe",
      components: [{
        type: "effect",
        componentId: "m",
        order: 0,
        effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "weak", chance: 0.5 }
      }]
    }
    const rt2 = overlay(rt, decodeOverlay({ bundles: [b] }))
    const t = rules("t.maybe", { bundleId: "b.maybe" })
    const r1 = right(
      resolveEffectiveCard({
        baseCard: card(rt2, "basic_attack"),
        ledger: ledgerWith(rt2, "basic_attack", [t]),
        statuses: rt2.statuses
      })
    )
    expect(r1.compiled.roots[0]?.children[0]?.effect.chance).toBe(0.5)
  })
})

describe("Schema laws", () => {
  it("an effective card is a valid EffectiveCardDefinition and survives a JSON round trip", () => {
    const e = right(attempt("basic_attack", ["test.heavy_strike", "core.ember.affinity", "residual_affinity"]))
    expect(Schema.is(EffectiveCardDefinition)(e)).toBe(true)
    const back = Schema.decodeUnknownSync(EffectiveCardDefinition)(
      JSON.parse(JSON.stringify(Schema.encodeSync(EffectiveCardDefinition)(e)))
    )
    expect(canonicalJson(back)).toBe(canonicalJson(e))
  })

  it("ledger entries and inspections round-trip through their Schemas", () => {
    const ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike", "core.ember.affinity"])
    for (const entry of ledger.entries) expect(Schema.is(LedgerEntry)(entry)).toBe(true)
    expect(Schema.decodeUnknownSync(CardLedger)(JSON.parse(JSON.stringify(ledger)))).toEqual(ledger)
    const effectiveBase = right(
      resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses })
    )
    expect(Schema.is(CardInspection)({ cardId: "basic_attack", ledger, effectiveBase })).toBe(true)
    expect(right(sealById(rt, "core.ember.affinity")).sealHash).toMatch(/^[0-9a-f]{64}$/)
  })
})
