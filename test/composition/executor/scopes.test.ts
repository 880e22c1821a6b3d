import { describe, expect, it } from "vitest"
import type { ExecutorEvent, SequenceResult } from "../../../src/composition/executor/Events.js"
import { executeSequence, type SequenceOutcome } from "../../../src/composition/executor/Execute.js"
import type { EffectComponent } from "../../../src/composition/schema/Card.js"
import { baseRuntime, char, combat, compile, component, type ComponentExtra, dmg } from "./helpers.js"

const rt = baseRuntime()

const ok = (o: SequenceOutcome): SequenceResult => {
  if (!o.ok) throw new Error(`expected success, got ${o.diagnostic.code}: ${o.diagnostic.message}`)
  return o.result
}

const impactsOf = (events: ReadonlyArray<ExecutorEvent>, nodeId: string) =>
  events.filter((e) => (e.type === "impact" || e.type === "statusApplied") && e.nodeId === nodeId)

const order = (events: ReadonlyArray<ExecutorEvent>): Array<string> =>
  events.flatMap((e) => (e.type === "impact" || e.type === "statusApplied" ? [`${e.nodeId}>${e.targetId}`] : []))

const applyStatus = (componentId: string, statusId: string, extra: ComponentExtra = {}): EffectComponent =>
  component(componentId, { type: "APPLY_STATUS", statusId, stacks: 1 }, extra)

const state = combat(char("hero", "ally", 50), char("a", "enemy", 100), char("b", "enemy", 100))

describe("AfterImpact (AfterParentImpact + PerImpact)", () => {
  it("runs after every successful impact, including repeats and multiple targets", () => {
    const card = compile(rt, [dmg("hit", 5, { target: "ALL_ENEMIES", repeat: 3, children: [dmg("echo", 1)] })])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: [] }))
    expect(impactsOf(r.events, "echo")).toHaveLength(6)
    expect(order(r.events)).toEqual([
      "hit>a",
      "echo>a",
      "hit>a",
      "echo>a",
      "hit>a",
      "echo>a",
      "hit>b",
      "echo>b",
      "hit>b",
      "echo>b",
      "hit>b",
      "echo>b"
    ])
    expect(r.budgetUsed).toBe(12)
  })

  it("does not run for a parent skipped by condition or chance", () => {
    const card = compile(rt, [
      {
        ...dmg("hit", 5, { children: [dmg("echo", 1)] }),
        effect: {
          type: "DAMAGE",
          target: "TARGET",
          amount: 5,
          conditions: [{ fact: "target.hasStatus", statusId: "weak" }]
        }
      } as EffectComponent,
      dmg("never", 5, { chance: 0, children: [dmg("echo2", 1)] })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    expect(impactsOf(r.events, "echo")).toHaveLength(0)
    expect(impactsOf(r.events, "echo2")).toHaveLength(0)
    expect(r.events).toEqual([
      { type: "skip", nodeId: "hit", targetId: "a", reason: "condition", fact: "target.hasStatus" },
      { type: "skip", nodeId: "never", targetId: "a", reason: "chance" }
    ])
    expect(r.state).toBe(state)
  })

  it("a zero-change impact is still an impact and runs its children", () => {
    const armored = combat(char("hero", "ally", 50), char("a", "enemy", 100, { attributes: { armor: 10 } }))
    const card = compile(rt, [dmg("hit", 5, { children: [dmg("echo", 0)] })])
    const r = ok(executeSequence(rt, card, armored, { actorId: "hero", targetIds: ["a"] }))
    const hit = r.events[0]
    expect(hit).toMatchObject({ type: "impact", nodeId: "hit", amount: 0, hpBefore: 100, hpAfter: 100 })
    expect(impactsOf(r.events, "echo")).toHaveLength(1)
  })
})

describe("BeforeImpact (BeforeParentImpact)", () => {
  it("runs before the numeric resolution, and the impact reads the live state it changed", () => {
    const card = compile(rt, [
      dmg("hit", 6, {
        children: [applyStatus("expose", "vulnerable", { childTiming: "BeforeParentImpact" })]
      })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    expect(order(r.events)).toEqual(["expose>a", "hit>a"])
    expect(r.events[1]).toMatchObject({ type: "impact", base: 6, amount: 9, hpAfter: 91 })
    // Without the child the same hit does 6.
    const plain = ok(executeSequence(rt, compile(rt, [dmg("hit", 6)]), state, { actorId: "hero", targetIds: ["a"] }))
    expect(plain.events[0]).toMatchObject({ amount: 6 })
  })
})

describe("OncePerProc (OncePerParentProc)", () => {
  it("runs at most once per parent proc across repeats and targets", () => {
    const card = compile(rt, [
      dmg("hit", 5, {
        target: "ALL_ENEMIES",
        repeat: 2,
        children: [dmg("once", 1, { executionScope: "OncePerParentProc" })]
      })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: [] }))
    expect(order(r.events)).toEqual(["hit>a", "once>a", "hit>a", "hit>b", "hit>b"])
  })

  it("the first attempt reserves the scope even when its chance fails", () => {
    const card = compile(rt, [
      dmg("hit", 5, { repeat: 3, children: [dmg("once", 1, { executionScope: "OncePerParentProc", chance: 0.5 })] })
    ])
    // Replay forces the roll to fail; a second attempt would ask for another input and fail with rng_mismatch.
    const r = ok(
      executeSequence(rt, card, state, {
        actorId: "hero",
        targetIds: ["a"],
        replay: [{ nodeId: "once", purpose: "chance", value: 0.9 }]
      })
    )
    expect(r.events.filter((e) => e.type === "skip")).toEqual([{
      type: "skip",
      nodeId: "once",
      targetId: "a",
      reason: "chance"
    }])
    expect(impactsOf(r.events, "once")).toHaveLength(0)
    expect(impactsOf(r.events, "hit")).toHaveLength(3)
    // With a live seed there is exactly one draw, whatever it gives.
    const live = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"], seed: 3 }))
    expect(live.randomInputs).toHaveLength(1)
  })

  it("a failed condition reserves it too", () => {
    const once = {
      ...dmg("once", 1, { executionScope: "OncePerParentProc" }),
      effect: { type: "DAMAGE", target: "TARGET", amount: 1, conditions: [{ fact: "target.hpAtMost", value: 94 }] }
    } as EffectComponent
    const card = compile(rt, [dmg("hit", 5, { repeat: 3, children: [once] })])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    // After the first hit hp is 95 (not ≤ 94: reserved); after the second, 90 would pass, but the proc is taken.
    expect(impactsOf(r.events, "once")).toHaveLength(0)
    expect(r.events.filter((e) => e.type === "skip")).toHaveLength(1)
  })

  it("each proc of the parent has its own reservation (a child activated per impact is a new proc)", () => {
    const card = compile(rt, [
      dmg("hit", 5, {
        repeat: 2,
        children: [dmg("mid", 1, { repeat: 2, children: [dmg("leaf", 1, { executionScope: "OncePerParentProc" })] })]
      })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    expect(order(r.events)).toEqual(["hit>a", "mid>a", "leaf>a", "mid>a", "hit>a", "mid>a", "leaf>a", "mid>a"])
  })

  it("a BeforeParentImpact once-per-proc child runs before the first impact only", () => {
    const card = compile(rt, [
      dmg("hit", 6, {
        repeat: 2,
        children: [
          applyStatus("expose", "vulnerable", {
            childTiming: "BeforeParentImpact",
            executionScope: "OncePerParentProc"
          })
        ]
      })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    expect(order(r.events)).toEqual(["expose>a", "hit>a", "hit>a"])
  })
})

describe("sequence scopes (BeforeSequence / AfterSequence roots)", () => {
  it("run once per rule, in rank order, independent of the structural root's chance", () => {
    const ranks = new Map([
      ["pre", -1],
      ["post", 1]
    ])
    const card = compile(
      rt,
      [
        dmg("post", 2, { target: "SELF" }),
        dmg("strike", 6, { chance: 0 }),
        applyStatus("pre", "empowered", { target: "SELF" })
      ],
      { ranks }
    )
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a", "b"] }))
    expect(order(r.events)).toEqual(["pre>hero", "post>hero"])
    expect(r.events.filter((e) => e.type === "skip")).toEqual([
      { type: "skip", nodeId: "strike", targetId: "a", reason: "chance" },
      { type: "skip", nodeId: "strike", targetId: "b", reason: "chance" }
    ])
  })
})

describe("targets", () => {
  it("children's TARGET is the parent's impact target; SELF is the actor; ALL_ALLIES the living allies", () => {
    const team = combat(
      char("hero", "ally", 50),
      char("friend", "ally", 40),
      char("ko", "ally", 0, { maxHp: 10 }),
      char("a", "enemy", 100)
    )
    const card = compile(rt, [
      dmg("hit", 5, { children: [dmg("splash", 1), dmg("recoil", 1, { target: "SELF", order: 20 })] }),
      dmg("rally", 0, { target: "ALL_ALLIES", order: 20 })
    ])
    const r = ok(executeSequence(rt, card, team, { actorId: "hero", targetIds: ["a"] }))
    expect(order(r.events)).toEqual(["hit>a", "splash>a", "recoil>hero", "rally>hero", "rally>friend"])
  })

  it("RANDOM_ENEMY draws one pick per repeat among living enemies, recorded and replayable", () => {
    const card = compile(rt, [dmg("zap", 3, { target: "RANDOM_ENEMY", repeat: 4 })])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: [], seed: 11 }))
    expect(r.randomInputs.map((i) => i.purpose)).toEqual(["pick", "pick", "pick", "pick"])
    expect(r.events.filter((e) => e.type === "draw")).toHaveLength(4)
    const replayed = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: [], replay: r.randomInputs }))
    expect(replayed.state).toEqual(r.state)
    expect(replayed.fingerprint).toBe(r.fingerprint)
    // One living enemy: no draw.
    const solo = combat(char("hero", "ally", 50), char("a", "enemy", 100), char("b", "enemy", 0, { maxHp: 5 }))
    const s = ok(executeSequence(rt, card, solo, { actorId: "hero", targetIds: [] }))
    expect(s.randomInputs).toHaveLength(0)
    expect(impactsOf(s.events, "zap")).toHaveLength(4)
  })

  it("no living candidate is one no_target skip", () => {
    const alone = combat(char("hero", "ally", 50), char("b", "enemy", 0, { maxHp: 5 }))
    const card = compile(rt, [dmg("sweep", 3, { target: "ALL_ENEMIES" })])
    const r = ok(executeSequence(rt, card, alone, { actorId: "hero", targetIds: [] }))
    expect(r.events).toEqual([{ type: "skip", nodeId: "sweep", reason: "no_target" }])
  })

  it("an impact that defeats the target makes a later target.alive child skip", () => {
    const card = compile(rt, [
      dmg("hit", 200, {
        children: [
          {
            ...applyStatus("burn", "burning"),
            effect: {
              type: "APPLY_STATUS",
              target: "TARGET",
              statusId: "burning",
              stacks: 1,
              duration: 3,
              conditions: [{ fact: "target.alive" }]
            }
          } as EffectComponent
        ]
      })
    ])
    const r = ok(executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"] }))
    expect(r.events).toEqual([
      expect.objectContaining({ type: "impact", hpAfter: 0 }),
      { type: "defeated", characterId: "a" },
      { type: "skip", nodeId: "burn", targetId: "a", reason: "condition", fact: "target.alive" }
    ])
  })
})
