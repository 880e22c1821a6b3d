/**
 * The seed's composition contract on real content: core.ember.affinity on
 * basic_attack and heal, residual_affinity after a numeric upgrade, scopes and
 * their lowering, expansion order and identities, selection over structural
 * roots only, capabilities.
 */
import { Either } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { sealById } from "../../../src/composition/BundleCompiler.js"
import type { CompiledNode } from "../../../src/composition/Compiled.js"
import type { EffectiveCardDefinition } from "../../../src/composition/Effective.js"
import { executeSequence } from "../../../src/composition/executor/Execute.js"
import { anchorHash, expansionId, sequenceAnchorId } from "../../../src/composition/Expansion.js"
import { resolveEffectiveCard } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Transformation } from "../../../src/composition/schema/Transformation.js"
import { sha256Hex } from "../../../src/kernel/Canonical.js"
import { char, combat } from "../executor/helpers.js"
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

let base: Runtime
let full: Runtime
let scopes: Runtime
beforeAll(async () => {
  base = await runtimeOf(BASE)
  full = await runtimeOf(BASE, RESIDUAL, NUMERIC)
  scopes = overlay(full, decodeOverlay(readFixture("test/fixtures/resolver/scopes.json")))
})

const resolve = (
  rt: Runtime,
  cardId: string,
  upgrades: ReadonlyArray<string | Transformation>
): EffectiveCardDefinition =>
  right(
    resolveEffectiveCard({
      baseCard: card(rt, cardId),
      ledger: ledgerWith(rt, cardId, upgrades),
      statuses: rt.statuses
    })
  )

const root = (e: EffectiveCardDefinition, id: string): CompiledNode => {
  const r = e.compiled.roots.find((x) => x.componentId === id)
  if (r === undefined) throw new Error(`no root ${id}`)
  return r
}

describe("core.ember.affinity", () => {
  it("on basic_attack: a DAMAGE root with a burning child (stacks 1, duration 3, target.alive); cost unchanged", () => {
    const e = resolve(base, "basic_attack", ["core.ember.affinity"])
    expect(e.compiled.roots).toHaveLength(1)
    const strike = root(e, "strike")
    expect(strike.effect.type).toBe("DAMAGE")
    expect(strike.children).toHaveLength(1)
    const burn = strike.children[0] as CompiledNode
    expect(burn.effect).toMatchObject({
      type: "APPLY_STATUS",
      statusId: "burning",
      stacks: 1,
      duration: 3,
      target: "TARGET"
    })
    expect(burn.effect.conditions).toEqual([{ fact: "target.alive" }])
    expect(burn.childTiming).toBe("AfterParentImpact")
    expect(burn.executionScope).toBe("PerImpact")
    expect(e.cost).toBe(card(base, "basic_attack").cost)
    expect(e.tags).toContain("ember_affinity")
  })

  it("the burning child is skipped when the impact defeated the target", () => {
    const e = resolve(base, "basic_attack", ["core.ember.affinity"])
    const state = combat(char("hero", "ally", 30), char("weak", "enemy", 4), char("tough", "enemy", 50))
    const killed = executeSequence(base, e.compiled, state, { actorId: "hero", targetIds: ["weak"] })
    const survived = executeSequence(base, e.compiled, state, { actorId: "hero", targetIds: ["tough"] })
    if (!killed.ok || !survived.ok) throw new Error("execution failed")
    expect(killed.result.events.some((x) => x.type === "skip" && x.reason === "condition")).toBe(true)
    expect(killed.result.state.characters[1]?.statuses).toEqual([])
    expect(survived.result.state.characters[2]?.statuses.map((s) => [s.statusId, s.stacks, s.remaining])).toEqual([[
      "burning",
      1,
      3
    ]])
  })

  it("on heal: a regeneration child on SELF; cost unchanged", () => {
    const e = resolve(base, "heal", ["core.ember.affinity"])
    const mend = root(e, "mend")
    expect(mend.effect.type).toBe("HEAL")
    expect(mend.children.map((c) => [c.effect.statusId, c.effect.target, c.effect.stacks, c.effect.duration])).toEqual([
      ["regeneration", "SELF", 1, 3]
    ])
    expect(e.cost).toBe(card(base, "heal").cost)
  })

  it("the trace names transformation, rule, bundle, scope, anchor and members", () => {
    const e = resolve(base, "basic_attack", ["core.ember.affinity"])
    const x = expansionId("ember", "strike")
    expect(e.compositionTrace).toEqual([
      {
        entryId: "e1",
        transformationId: "core.ember.affinity",
        ruleId: "ember.damage",
        bundleId: "ember.burning",
        scope: "AfterImpact",
        anchorId: "strike",
        expansionId: x,
        memberIds: [`${x}.burn`]
      }
    ])
    const h = resolve(base, "heal", ["core.ember.affinity"])
    expect(h.compositionTrace.map((t) => [t.ruleId, t.bundleId, t.anchorId])).toEqual([[
      "ember.heal",
      "ember.regeneration",
      "mend"
    ]])
  })

  it("capabilities are declared capabilityIds ∪ effect.<TYPE> of roots (children's types are not capabilities)", () => {
    const e = resolve(base, "basic_attack", ["core.ember.affinity"])
    expect(e.capabilities).toEqual(["behavior.single_target", "effect.DAMAGE"])
  })

  it("components stay in authoring shape: the anchor keeps its fields and gains the member as a child", () => {
    const e = resolve(base, "basic_attack", ["core.ember.affinity"])
    const strike = e.components[0]
    expect(strike?.componentId).toBe("strike")
    expect(strike?.effect).toEqual(card(base, "basic_attack").components[0]?.effect)
    expect(strike?.children?.map((c) => c.componentId)).toEqual([`${expansionId("ember", "strike")}.burn`])
  })
})

describe("residual_affinity (parameterized bundle)", () => {
  it("binds potency to basic_attack's base AFTER a numeric upgrade in an earlier entry", () => {
    const e = resolve(full, "basic_attack", ["test.heavy_strike", "residual_affinity"])
    expect(root(e, "strike").effect.amount).toBe(10)
    const residual = root(e, "strike").children[0] as CompiledNode
    expect(residual.effect.statusId).toBe("residual_status")
    expect(residual.effect.payload).toEqual({ potency: 10 })
    expect(residual.effect.payloadSources).toEqual({ potency: "strike" })
  })

  it("a numeric upgrade in a LATER entry is already in the base when bindings resolve", () => {
    const e = resolve(full, "basic_attack", ["residual_affinity", "test.heavy_strike"])
    expect((root(e, "strike").children[0] as CompiledNode).effect.payload).toEqual({ potency: 10 })
  })

  it("the bound external ID keeps its own ID; the member is renamed", () => {
    const e = resolve(full, "basic_attack", ["residual_affinity"])
    const member = e.components[0]?.children?.[0]
    expect(member?.componentId).toBe(`${expansionId("residual", "strike")}.residual`)
    expect(member?.effect.type === "APPLY_STATUS" && member.effect.payloadBindings).toEqual([
      { parameterId: "potency", cardEffectComponentId: "strike" }
    ])
    expect((root(e, "strike").children[0] as CompiledNode).effect.payload).toEqual({ potency: 6 })
  })

  it("the sealed entry is closed: no template parameter is left", () => {
    const sealed = right(sealById(full, "residual_affinity"))
    const member = sealed.closedCompositionRules[0]?.bundle.components[0]
    expect(sealed.closedCompositionRules[0]?.bundle.effectComponentParameters).toBeUndefined()
    expect(member?.effect.type === "APPLY_STATUS" && member.effect.payloadBindings?.[0]?.cardEffectComponentId).toBe(
      "$anchor"
    )
  })
})

describe("bindings point at structural components only (issue 12.1)", () => {
  // t.gen adds a DAMAGE member under strike; t.bind binds residual.template's
  // `base` explicitly to that generated member's ID.
  const generatedId = () => `${expansionId("gen", "strike")}.extra`
  const content = () =>
    decodeOverlay({
      bundles: [
        {
          bundleId: "b.extra",
          components: [{
            type: "effect",
            componentId: "extra",
            order: 0,
            effect: { type: "DAMAGE", target: "TARGET", amount: 4 }
          }]
        }
      ],
      transformations: [
        {
          upgradeId: "t.gen",
          category: "Test",
          compositionRules: [
            {
              ruleId: "gen",
              priority: 0,
              namespace: "gen",
              bundleId: "b.extra",
              scope: "AfterImpact",
              selector: { effectTypes: ["DAMAGE"] }
            }
          ]
        },
        {
          upgradeId: "t.bind",
          category: "Test",
          compositionRules: [
            {
              ruleId: "bind",
              priority: 0,
              namespace: "bind",
              bundleId: "residual.template",
              scope: "AfterSequence",
              effectBindings: { base: generatedId() }
            }
          ]
        }
      ]
    })

  for (const order of [["t.gen", "t.bind"], ["t.bind", "t.gen"]] as const) {
    it(`naming a member generated by another expansion is invalid_binding (ledger order ${order.join(", ")})`, () => {
      const rt = overlay(full, content())
      const r = resolveEffectiveCard({
        baseCard: card(rt, "basic_attack"),
        ledger: ledgerWith(rt, "basic_attack", order),
        statuses: rt.statuses
      })
      if (Either.isRight(r)) throw new Error("expected invalid_binding, the binding was accepted")
      expect(r.left.map((d) => [d.code, d.transformationId, d.ruleId, d.subject])).toEqual([
        ["invalid_binding", "t.bind", "bind", generatedId()]
      ])
    })
  }

  it("the same binding naming the structural component is accepted", () => {
    const rt = overlay(full, content())
    const t = rt.transformations.get("t.bind") as Transformation
    const fixed: Transformation = {
      ...t,
      compositionRules: (t.compositionRules ?? []).map((r) => ({ ...r, effectBindings: { base: "strike" } }))
    }
    const e = resolve(rt, "basic_attack", ["t.gen", fixed])
    expect(e.compiled.roots.at(-1)?.effect.payload).toEqual({ potency: 6 })
  })
})

describe("scopes and their lowering", () => {
  it("BeforeSequence roots run before every structural root, AfterSequence roots after, each in expansion order", () => {
    const e = resolve(scopes, "basic_attack", ["t.sequences"])
    const ids = e.compiled.roots.map((r) => r.componentId.replace(/_[0-9a-f]{16}/, ""))
    // Rules by priority then ruleId: pre.b (priority 1) before pre.a (priority 2); post.a and post.b tie on priority → ruleId.
    expect(ids).toEqual(["preB.hit", "preA.hit", "strike", "postA.hit", "postB.hit"])
    const ranks = e.compiled.roots.map((r) => Math.sign(r.rank))
    expect(ranks).toEqual([-1, -1, 0, 1, 1])
  })

  it("a sequence scope without anchor uses <upgradeId>/<ruleId> as anchor ID and records anchorId null", () => {
    const e = resolve(scopes, "basic_attack", ["t.sequences"])
    const t = e.compositionTrace.find((x) => x.ruleId === "pre.a")
    expect(t?.anchorId).toBeNull()
    expect(t?.expansionId).toBe(
      `preA_${sha256Hex(JSON.stringify(sequenceAnchorId("t.sequences", "pre.a"))).slice(0, 16)}`
    )
    expect(anchorHash("t.sequences/pre.a")).toHaveLength(16)
  })

  it("a sequence expansion is one per rule, not per anchor", () => {
    const e = resolve(scopes, "twin_roots", ["t.sequences"])
    expect(e.compositionTrace.filter((t) => t.ruleId === "pre.a")).toHaveLength(1)
    expect(e.compiled.roots).toHaveLength(6)
  })

  it("AfterImpact children follow the anchor's existing children; BeforeImpact and OncePerProc set timing/scope", () => {
    const e = resolve(scopes, "parent_with_child", ["t.children"])
    const p = root(e, "parent")
    expect(p.children.map((c) => [c.componentId.replace(/_[0-9a-f]{16}/, ""), c.childTiming, c.executionScope]))
      .toEqual([
        ["existing", "AfterParentImpact", "PerImpact"],
        ["ai.hit", "AfterParentImpact", "PerImpact"],
        ["bi.hit", "BeforeParentImpact", "PerImpact"],
        ["op.hit", "AfterParentImpact", "OncePerParentProc"]
      ])
  })

  it("generated effects never feed the selection of other rules", () => {
    // t.sequences adds HEAL? No: it adds DAMAGE roots; t.select_damage selects DAMAGE roots and must see only `strike`.
    const e = resolve(scopes, "basic_attack", ["t.sequences", "t.select_damage"])
    const sel = e.compositionTrace.filter((t) => t.transformationId === "t.select_damage")
    expect(sel.map((t) => t.anchorId)).toEqual(["strike"])
  })

  it("selector: effectTypes, componentIds and requiredEffectTags combine with AND; empty lists do not restrict", () => {
    const e = resolve(scopes, "selector_card", ["t.selectors"])
    const by = (ruleId: string) => e.compositionTrace.filter((t) => t.ruleId === ruleId).map((t) => t.anchorId)
    expect(by("all")).toEqual(["a_heal", "b_melee", "c_ranged"])
    expect(by("empty_lists")).toEqual(["a_heal", "b_melee", "c_ranged"])
    expect(by("damage")).toEqual(["b_melee", "c_ranged"])
    expect(by("damage_melee")).toEqual(["b_melee"])
    expect(by("damage_ids")).toEqual(["c_ranged"])
    expect(by("damage_melee_ids")).toEqual([])
  })

  it("anchors are ordered by order then componentId; entries by ledger order; rules by priority then ruleId", () => {
    const e = resolve(scopes, "selector_card", ["t.selectors"])
    expect(e.compositionTrace.map((t) => t.ruleId)).toEqual([
      "all",
      "all",
      "all",
      "empty_lists",
      "empty_lists",
      "empty_lists",
      "damage",
      "damage",
      "damage_ids",
      "damage_melee"
    ])
  })

  it("members are renamed <expansionId>.<memberId>, nested local aliases too, and local bindings follow the rename", () => {
    const e = resolve(scopes, "basic_attack", ["t.nested"])
    const x = expansionId("nest", "strike")
    const member = e.components[0]?.children?.[0]
    expect(member?.componentId).toBe(`${x}.outer`)
    expect(member?.children?.[0]?.componentId).toBe(`${x}.inner`)
    expect(e.compositionTrace[0]?.memberIds).toEqual([`${x}.outer`, `${x}.inner`, `${x}.tail`])
    const tail = e.components[0]?.children?.[1]
    expect(tail?.effect.type === "APPLY_STATUS" && tail.effect.payloadBindings).toEqual([
      { parameterId: "potency", cardEffectComponentId: `${x}.outer` }
    ])
  })

  it("a sequence scope binding $anchor with exactly one match uses that anchor", () => {
    const e = resolve(scopes, "basic_attack", ["t.seq_anchor"])
    const t = e.compositionTrace[0]
    expect(t?.anchorId).toBe("strike")
    expect(t?.expansionId).toBe(expansionId("sa", "strike"))
    expect(e.compiled.roots.at(-1)?.effect.payload).toEqual({ potency: 6 })
  })
})
