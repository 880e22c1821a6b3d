/**
 * The scopes, ember and residual through real effective cards: content
 * published from packages, ledgers sealed and resolved by the common
 * resolver, executed by the pure core with the real bucket pipeline.
 */
import { Either } from "effect"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { EffectiveCardDefinition } from "../../../src/composition/Effective.js"
import { renderBreakdown } from "../../../src/composition/executor/Buckets.js"
import type { CombatState } from "../../../src/composition/executor/CombatState.js"
import type { ExecutorEvent, SequenceResult } from "../../../src/composition/executor/Events.js"
import { executeSequence, type SequenceRequest } from "../../../src/composition/executor/Execute.js"
import { endTurn, startTurn } from "../../../src/composition/executor/Statuses.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { resolveLedgerCard } from "../../../src/composition/scenario/Runner.js"
import { basePackageDir, baseRuntime, char, combat, residualRuntime, runtimeOf } from "./helpers.js"

const effective = (rt: Runtime, cardId: string, upgrades: Array<string>): EffectiveCardDefinition => {
  const r = resolveLedgerCard(rt, cardId, upgrades)
  if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const play = (
  rt: Runtime,
  card: EffectiveCardDefinition,
  state: CombatState,
  request: SequenceRequest
): SequenceResult => {
  const o = executeSequence(rt, card.compiled, state, request)
  if (!o.ok) throw new Error(`${o.diagnostic.code}: ${o.diagnostic.message}`)
  return o.result
}

const flow = (events: ReadonlyArray<ExecutorEvent>): Array<string> =>
  events.flatMap((e) =>
    e.type === "impact" || e.type === "statusApplied"
      ? [`${e.nodeId.replace(/_[0-9a-f]{16}/, "")}>${e.targetId}`]
      : e.type === "skip"
      ? [`skip:${e.nodeId.replace(/_[0-9a-f]{16}/, "")}:${e.reason}`]
      : []
  )

const scopesRuntime = () => runtimeOf(basePackageDir, join(import.meta.dirname, "fixtures/scopes-package"))

describe("scopes with real effective cards", () => {
  const rt = scopesRuntime()
  const state = combat(char("hero", "ally", 30, { maxHp: 40 }), char("a", "enemy", 100), char("b", "enemy", 100))

  it("AfterImpact (ember) runs on every impact of a repeated root", () => {
    const card = effective(rt, "twin_strike", ["core.ember.affinity"])
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["a"] })
    expect(flow(r.events)).toEqual(["twin>a", "ember.burn>a", "twin>a", "ember.burn>a"])
    expect(r.state.characters[1]?.statuses).toEqual([{
      statusId: "burning",
      stacks: 2,
      remaining: 3,
      payload: {},
      ticks: 0
    }])
  })

  it("AfterImpact runs once per chosen target", () => {
    const card = effective(rt, "basic_attack", ["core.ember.affinity"])
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["b", "a"] })
    expect(flow(r.events)).toEqual(["strike>b", "ember.burn>b", "strike>a", "ember.burn>a"])
  })

  it("BeforeImpact runs before the resolution and the impact reads it", () => {
    const card = effective(rt, "twin_strike", ["test.before"])
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["a"] })
    expect(flow(r.events)).toEqual(["before.expose>a", "twin>a", "before.expose>a", "twin>a"])
    const impacts = r.events.filter((e) => e.type === "impact")
    expect(impacts.map((e) => e.type === "impact" && renderBreakdown(e.base, e.contributions, e.amount))).toEqual([
      "4 base ×1.5 vulnerable → 6",
      "4 base ×1.5 vulnerable → 6"
    ])
  })

  it("OncePerProc is attempted once per parent proc; a failed chance reserves it", () => {
    const card = effective(rt, "twin_strike", ["test.once"])
    const echo = card.compiled.roots[0]?.children[0]?.componentId ?? ""
    const failing = play(rt, card, state, {
      actorId: "hero",
      targetIds: ["a"],
      replay: [{ nodeId: echo, purpose: "chance", value: 0.75 }]
    })
    expect(flow(failing.events)).toEqual(["twin>a", "skip:once.echo:chance", "twin>a"])
    const passing = play(rt, card, state, {
      actorId: "hero",
      targetIds: ["a"],
      replay: [{ nodeId: echo, purpose: "chance", value: 0.25 }]
    })
    expect(flow(passing.events)).toEqual(["twin>a", "once.echo>a", "twin>a"])
  })

  it("BeforeSequence / AfterSequence run once per rule, not per target", () => {
    const card = effective(rt, "basic_attack", ["test.sequence"])
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["a", "b"] })
    expect(flow(r.events)).toEqual(["pre.rally>hero", "strike>a", "strike>b", "post.rally>hero"])
  })
})

describe("ember on basic_attack", () => {
  const rt = baseRuntime()
  const card = effective(rt, "basic_attack", ["core.ember.affinity"])

  it("a lethal hit applies no burning (skip)", () => {
    const state = combat(char("hero", "ally", 30), char("slime", "enemy", 6, { maxHp: 20 }))
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["slime"] })
    expect(flow(r.events)).toEqual(["strike>slime", "skip:ember.burn:condition"])
    expect(r.state.characters[1]).toMatchObject({ hp: 0, statuses: [] })
  })

  it("a non-lethal hit applies 1 stack for 3 turns; burning ticks at the holder's turn start with the status formula", () => {
    const state = combat(char("hero", "ally", 30), char("slime", "enemy", 20))
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["slime"] })
    expect(r.state.characters[1]).toMatchObject({
      hp: 14,
      statuses: [{ statusId: "burning", stacks: 1, remaining: 3, ticks: 0 }]
    })
    let s = r.state
    const hp: Array<number> = []
    for (let turn = 0; turn < 4; turn++) {
      const start = startTurn(rt, s, "enemy")
      if (!start.ok) throw new Error(start.diagnostic.message)
      const end = endTurn(rt, start.result.state, "enemy")
      if (!end.ok) throw new Error(end.diagnostic.message)
      s = end.result.state
      hp.push(s.characters[1]?.hp ?? -1)
    }
    // perStack formula: 0 + 2 × 1 stack = 2 per tick, three ticks, then expired.
    expect(hp).toEqual([12, 10, 8, 8])
    expect(s.characters[1]?.statuses).toEqual([])
    // The ally's own turns do not tick the enemy's burning.
    const ally = startTurn(rt, r.state, "ally")
    expect(ally.ok && ally.result.state.characters[1]?.hp).toBe(14)
  })
})

describe("residual through the real bucket pipeline", () => {
  const rt = residualRuntime()
  const card = effective(rt, "basic_attack", ["core.sharpened_strike", "residual_affinity"])

  it("potency equals the upgraded base (9), not the scaled damage (16)", () => {
    const state = combat(
      char("hero", "ally", 40, { attributes: { strength: 2 } }),
      char("slime", "enemy", 60, {
        statuses: [{ statusId: "vulnerable", stacks: 1, remaining: 1, payload: {}, ticks: 0 }]
      })
    )
    const r = play(rt, card, state, { actorId: "hero", targetIds: ["slime"] })
    const impact = r.events[0]
    if (impact?.type !== "impact") throw new Error("expected an impact first")
    expect(renderBreakdown(impact.base, impact.contributions, impact.amount)).toBe(
      "9 base +2 strength ×1.5 vulnerable → 16"
    )
    expect(impact.contributions).toEqual([
      { bucket: "flat", source: "attribute", sourceId: "strength", holderId: "hero", direction: "outgoing", value: 2 },
      {
        bucket: "multiplier",
        source: "status",
        sourceId: "vulnerable",
        holderId: "slime",
        direction: "incoming",
        value: 1.5
      }
    ])
    const applied = r.events[1]
    expect(applied).toMatchObject({ type: "statusApplied", statusId: "residual_status", payload: { potency: 9 } })
    const held = r.state.characters[1]?.statuses.find((s) => s.statusId === "residual_status")
    expect(held?.payload).toEqual({ potency: 9 })
    // Staged profile: 9 × 0.5 → 4, then 9 × 0.25 → 2.
    const t1 = startTurn(rt, r.state, "enemy")
    if (!t1.ok) throw new Error(t1.diagnostic.message)
    const e1 = endTurn(rt, t1.result.state, "enemy")
    if (!e1.ok) throw new Error(e1.diagnostic.message)
    const t2 = startTurn(rt, e1.result.state, "enemy")
    if (!t2.ok) throw new Error(t2.diagnostic.message)
    const ticks = [...t1.result.events, ...t2.result.events].filter((e) => e.type === "tick")
    expect(ticks.map((t) => t.type === "tick" && t.intensity)).toEqual([4, 2])
  })
})
