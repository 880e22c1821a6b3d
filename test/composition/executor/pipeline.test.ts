import { describe, expect, it } from "vitest"
import type { CompiledEffect } from "../../../src/composition/Compiled.js"
import {
  applyBuckets,
  type ExecutorLookups,
  renderBreakdown,
  resolveAmount
} from "../../../src/composition/executor/Buckets.js"
import type { StatusInstance } from "../../../src/composition/executor/CombatState.js"
import { applyStatus, endTurn, startTurn, tickIntensity } from "../../../src/composition/executor/Statuses.js"
import type { Status } from "../../../src/composition/schema/Status.js"
import { baseRuntime, char, combat } from "./helpers.js"

const rt = baseRuntime()

const resolved = (
  lookups: ExecutorLookups,
  type: "DAMAGE" | "HEAL",
  base: number,
  actor: ReturnType<typeof char>,
  target: ReturnType<typeof char>
) => {
  const r = resolveAmount(lookups, type, base, actor, target)
  if ("code" in r) throw new Error(r.message)
  return { ...r, text: renderBreakdown(base, r.contributions, r.amount) }
}

describe("bucket pipeline", () => {
  it("base → flat → percent → multipliers → clamp → floor, in (bucket, source kind, source ID) order", () => {
    const actor = char("hero", "ally", 40, {
      attributes: { strength: 2 },
      relics: ["whetstone"],
      buffs: ["battle_hymn"],
      statuses: [
        { statusId: "weak", stacks: 1, payload: {}, ticks: 0 },
        { statusId: "empowered", stacks: 2, payload: {}, ticks: 0 }
      ]
    })
    const target = char("slime", "enemy", 40, {
      attributes: { armor: 1 },
      statuses: [{ statusId: "vulnerable", stacks: 3, payload: {}, ticks: 0 }]
    })
    const r = resolved(rt, "DAMAGE", 9, actor, target)
    // (9 + 1 whetstone + 2 strength - 1 armor) × (1 + (20 + 25)/100) × 0.75 × 1.5 = 11 × 1.45 × 1.125 = 17.94 → 17
    expect(r.text).toBe(
      "9 base +1 whetstone -1 armor +2 strength +20% empowered +25% battle_hymn ×1.5 vulnerable ×0.75 weak → 17"
    )
    expect(r.amount).toBe(17)
    // The order does not depend on the order the state lists its sources in.
    const shuffled = { ...actor, statuses: [...actor.statuses].reverse(), attributes: { strength: 2 } }
    expect(resolved(rt, "DAMAGE", 9, shuffled, target).text).toBe(r.text)
  })

  it("only modifiers of the impact's effect type and direction count", () => {
    const actor = char("hero", "ally", 40, {
      attributes: { strength: 5, armor: 5 },
      statuses: [{ statusId: "vulnerable", stacks: 1, payload: {}, ticks: 0 }]
    })
    const target = char("ally2", "ally", 10, { maxHp: 40, attributes: { strength: 5 } })
    expect(resolved(rt, "HEAL", 5, actor, target).text).toBe("5 base → 5")
    expect(resolved(rt, "DAMAGE", 5, actor, target).text).toBe("5 base +5 strength → 10")
  })

  it("clamps at 0 and floors with a tolerance for binary rounding", () => {
    const target = char("tank", "enemy", 40, { attributes: { armor: 20 } })
    expect(resolved(rt, "DAMAGE", 6, char("hero", "ally", 1), target).amount).toBe(0)
    const c = (bucket: "flat" | "percent" | "multiplier", value: number) => ({
      bucket,
      source: "buff" as const,
      sourceId: "x",
      holderId: "h",
      direction: "outgoing" as const,
      value
    })
    expect(applyBuckets(20, [c("multiplier", 1.15)])).toBe(23)
    expect(applyBuckets(20, [c("percent", 15)])).toBe(23)
    expect(applyBuckets(10, [c("multiplier", 1.15)])).toBe(11)
    expect(applyBuckets(3, [c("flat", -10)])).toBe(0)
  })

  it("a multiplier scaled perStack is raised to the power of the stacks; once applies once", () => {
    const lookups: ExecutorLookups = {
      ...rt,
      statuses: new Map([
        ...rt.statuses,
        [
          "frail",
          {
            statusId: "frail",
            stacking: "add",
            durationRule: "add",
            modifiers: [{
              bucket: "multiplier",
              direction: "incoming",
              effectTypes: ["DAMAGE"],
              value: 2,
              scaling: "perStack"
            }]
          } satisfies Status
        ]
      ])
    }
    const target = char("t", "enemy", 40, {
      statuses: [
        { statusId: "frail", stacks: 3, payload: {}, ticks: 0 },
        { statusId: "vulnerable", stacks: 3, payload: {}, ticks: 0 }
      ]
    })
    expect(resolved(lookups, "DAMAGE", 1, char("a", "ally", 1), target).text).toBe(
      "1 base ×8 frail ×1.5 vulnerable → 12"
    )
  })

  it("a source missing from the catalog is unknown_reference", () => {
    const r = resolveAmount(rt, "DAMAGE", 1, char("a", "ally", 1, { relics: ["nope"] }), char("b", "enemy", 1))
    expect("code" in r && r.code).toBe("unknown_reference")
  })
})

const effect = (
  statusId: string,
  stacks: number,
  duration = 0,
  payload: Record<string, number> = {}
): CompiledEffect => ({
  type: "APPLY_STATUS",
  target: "TARGET",
  amount: 0,
  statusId,
  stacks,
  duration,
  payload,
  payloadSources: {},
  chance: 1,
  repeat: 1,
  conditions: [],
  tags: []
})

const def = (over: Partial<Status>): Status => ({ statusId: "s", stacking: "add", durationRule: "refresh", ...over })

describe("status application", () => {
  const held: StatusInstance = { statusId: "s", stacks: 2, remaining: 2, payload: { p: 5 }, ticks: 1 }
  it("stacking rules, clamped to maxStacks", () => {
    expect(applyStatus(def({ stacking: "add", maxStacks: 3 }), held, effect("s", 2)).stacks).toBe(3)
    expect(applyStatus(def({ stacking: "replace" }), held, effect("s", 1)).stacks).toBe(1)
    expect(applyStatus(def({ stacking: "max" }), held, effect("s", 1)).stacks).toBe(2)
  })
  it("duration rules; the application's duration, else the default, else permanent", () => {
    expect(applyStatus(def({ durationRule: "refresh" }), held, effect("s", 1, 5)).remaining).toBe(5)
    expect(applyStatus(def({ durationRule: "add" }), held, effect("s", 1, 3)).remaining).toBe(5)
    expect(applyStatus(def({ durationRule: "max" }), held, effect("s", 1, 1)).remaining).toBe(2)
    expect(applyStatus(def({ durationRule: "keep" }), held, effect("s", 1, 9)).remaining).toBe(2)
    expect(applyStatus(def({ defaultDuration: 4 }), undefined, effect("s", 1)).remaining).toBe(4)
    expect(applyStatus(def({}), undefined, effect("s", 1))).toEqual({ statusId: "s", stacks: 1, payload: {}, ticks: 0 })
    expect(applyStatus(def({ durationRule: "add" }), held, effect("s", 1)).remaining).toBeUndefined()
  })
  it("payload: a rebinding replaces the bound values and restarts the profile; none keeps them", () => {
    expect(applyStatus(def({}), held, effect("s", 1, 1, { p: 9 }))).toMatchObject({ payload: { p: 9 }, ticks: 0 })
    expect(applyStatus(def({}), held, effect("s", 1, 1))).toMatchObject({ payload: { p: 5 }, ticks: 1 })
  })
  it("intensity formulas: constant, perStack, parameter (staged, percent of max HP, × stacks)", () => {
    const h = char("h", "enemy", 50, { maxHp: 200 })
    const inst = (stacks: number, ticks: number, payload: Record<string, number> = {}): StatusInstance => ({
      statusId: "s",
      stacks,
      payload,
      ticks
    })
    expect(
      tickIntensity(
        def({ tick: { timing: "TurnStart", effect: "DAMAGE", intensity: { kind: "constant", value: 3 } } }),
        inst(5, 0),
        h
      )
    ).toBe(3)
    expect(
      tickIntensity(
        def({ tick: { timing: "TurnStart", effect: "DAMAGE", intensity: { kind: "perStack", base: 1, perStack: 2 } } }),
        inst(3, 0),
        h
      )
    ).toBe(7)
    const staged = def({
      tick: {
        timing: "TurnStart",
        effect: "DAMAGE",
        intensity: { kind: "parameter", parameterId: "p", perStack: true }
      },
      payloadParameters: [{ parameterId: "p", unit: "percent", profile: "staged", stages: [1, 0.5] }]
    })
    // 10 % of 200 = 20, × stage, × 2 stacks
    expect([0, 1, 5].map((t) => tickIntensity(staged, inst(2, t, { p: 10 }), h))).toEqual([40, 20, 20])
  })
})

describe("turn operations", () => {
  it("startTurn increments the turn and activates the side; ticks only living holders of that side", () => {
    const s = combat(
      char("hero", "ally", 0, {
        maxHp: 10,
        statuses: [{ statusId: "burning", stacks: 1, remaining: 2, payload: {}, ticks: 0 }]
      }),
      char("slime", "enemy", 10, {
        statuses: [{ statusId: "burning", stacks: 2, remaining: 1, payload: {}, ticks: 0 }]
      })
    )
    const r = startTurn(rt, s, "enemy")
    if (!r.ok) throw new Error(r.diagnostic.message)
    expect(r.result.state).toMatchObject({ turn: 2, activeSide: "enemy" })
    expect(r.result.events).toEqual([
      { type: "turnStarted", side: "enemy", turn: 2 },
      {
        type: "tick",
        characterId: "slime",
        statusId: "burning",
        timing: "TurnStart",
        effect: "DAMAGE",
        intensity: 4,
        hpBefore: 10,
        hpAfter: 6
      }
    ])
    expect(r.result.state.characters[0]).toBe(s.characters[0])
    const a = startTurn(rt, s, "ally")
    expect(a.ok && a.result.events.filter((e) => e.type === "tick")).toEqual([])
  })

  it("endTurn counts durations down and removes expired statuses; regeneration heals up to max HP", () => {
    const s = combat(
      char("hero", "ally", 39, {
        maxHp: 40,
        statuses: [
          { statusId: "regeneration", stacks: 1, remaining: 1, payload: {}, ticks: 0 },
          { statusId: "vulnerable", stacks: 1, remaining: 2, payload: {}, ticks: 0 }
        ]
      })
    )
    const r = endTurn(rt, s, "ally")
    if (!r.ok) throw new Error(r.diagnostic.message)
    expect(r.result.state.characters[0]).toMatchObject({ hp: 40, statuses: [{ statusId: "vulnerable", remaining: 1 }] })
    expect(r.result.events.map((e) => e.type)).toEqual(["tick", "duration", "statusExpired", "duration", "turnEnded"])
    expect(r.result.state.turn).toBe(1)
  })
})
