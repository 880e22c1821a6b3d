import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect, it as vit } from "vitest"
import { CardExecutor } from "../../../src/composition/executor/CardExecutor.js"
import { executeSequence } from "../../../src/composition/executor/Execute.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"

import { baseRuntime, char, combat, compile, dmg } from "./helpers.js"

const rt = baseRuntime()
const state = combat(char("hero", "ally", 50), char("a", "enemy", 30), char("ko", "enemy", 0, { maxHp: 10 }))
const strike = compile(rt, [dmg("strike", 6)])
const layer = CardExecutor.layer(rt)

describe("failures discard the whole transaction", () => {
  const cases: Array<[string, Parameters<typeof executeSequence>[1], Parameters<typeof executeSequence>[3], string]> = [
    ["unknown actor", strike, { actorId: "nobody", targetIds: ["a"] }, "unknown_character"],
    ["no actor", strike, { actorId: "", targetIds: ["a"] }, "actor_defeated"],
    ["unknown target", strike, { actorId: "hero", targetIds: ["zz"] }, "unknown_character"],
    ["defeated target", strike, { actorId: "hero", targetIds: ["ko"] }, "invalid_target"],
    ["target chosen twice", strike, { actorId: "hero", targetIds: ["a", "a"] }, "invalid_target"],
    ["missing target", strike, { actorId: "hero", targetIds: [] }, "invalid_target"],
    // The first two impacts change HP, the third attempt passes the budget: nothing may survive.
    [
      "budget",
      compile(rt, [dmg("strike", 1, { repeat: 3 })]),
      { actorId: "hero", targetIds: ["a"], budget: 2 },
      "budget_exceeded"
    ],
    ["draw without a random source", compile(rt, [dmg("strike", 1, { chance: 0.5 })]), {
      actorId: "hero",
      targetIds: ["a"]
    }, "rng_mismatch"],
    [
      "replay with a wrong input",
      compile(rt, [dmg("strike", 1, { chance: 0.5 })]),
      { actorId: "hero", targetIds: ["a"], replay: [{ nodeId: "other", purpose: "chance", value: 0.1 }] },
      "rng_mismatch"
    ],
    [
      "replay with inputs left over",
      compile(rt, [dmg("strike", 1, { chance: 0.5 })]),
      {
        actorId: "hero",
        targetIds: ["a"],
        replay: [
          { nodeId: "strike", purpose: "chance", value: 0.1 },
          { nodeId: "strike", purpose: "chance", value: 0.1 }
        ]
      },
      "rng_mismatch"
    ]
  ]
  for (const [name, card, request, code] of cases) {
    vit(`${name} → ${code}, original state object returned`, () => {
      const before = canonicalJson(state)
      const r = executeSequence(rt, card, state, request)
      expect(r.ok).toBe(false)
      if (r.ok) return
      expect(r.diagnostic.code).toBe(code)
      expect(r.state).toBe(state)
      expect(canonicalJson(state)).toBe(before)
    })
  }

  vit("a replayed pick outside the candidates is rng_mismatch", () => {
    const zap = compile(rt, [dmg("zap", 1, { target: "RANDOM_ENEMY" })])
    const two = combat(char("hero", "ally", 50), char("a", "enemy", 30), char("b", "enemy", 30))
    const r = executeSequence(rt, zap, two, {
      actorId: "hero",
      targetIds: [],
      replay: [{ nodeId: "zap", purpose: "pick", value: 2 }]
    })
    expect(r.ok ? "ok" : r.diagnostic.code).toBe("rng_mismatch")
    const good = executeSequence(rt, zap, two, {
      actorId: "hero",
      targetIds: [],
      replay: [{ nodeId: "zap", purpose: "pick", value: 1 }]
    })
    expect(good.ok && good.result.state.characters[2]?.hp).toBe(29)
  })

  vit("the default budget is 4,096 node attempts: 16 × 16 × 16 + the parents passes it", () => {
    const deep = compile(rt, [
      dmg("a", 0, { repeat: 16, children: [dmg("b", 0, { repeat: 16, children: [dmg("c", 0, { repeat: 16 })] })] })
    ])
    const big = combat(char("hero", "ally", 50), char("t", "enemy", 30))
    const r = executeSequence(rt, deep, big, { actorId: "hero", targetIds: ["t"] })
    expect(r.ok ? "ok" : [r.diagnostic.code, r.diagnostic.details?.limit]).toEqual(["budget_exceeded", 4096])
    const fits = compile(rt, [
      dmg("a", 0, { repeat: 16, children: [dmg("b", 0, { repeat: 16, children: [dmg("c", 0, { repeat: 14 })] })] })
    ])
    const ok = executeSequence(rt, fits, big, { actorId: "hero", targetIds: ["t"] })
    expect(ok.ok && ok.result.budgetUsed).toBe(16 + 16 * 16 + 16 * 16 * 14)
  })

  vit("a defeated actor cannot play", () => {
    const s = combat(char("hero", "ally", 0, { maxHp: 50 }), char("a", "enemy", 30))
    const r = executeSequence(rt, strike, s, { actorId: "hero", targetIds: ["a"] })
    expect(r.ok ? "ok" : r.diagnostic.code).toBe("actor_defeated")
  })

  vit("a status unknown to the catalog fails with unknown_reference after changing nothing", () => {
    const s = combat(
      char("hero", "ally", 50, { statuses: [{ statusId: "mystery", stacks: 1, payload: {}, ticks: 0 }] }),
      char("a", "enemy", 30)
    )
    const r = executeSequence(rt, strike, s, { actorId: "hero", targetIds: ["a"] })
    expect(r.ok ? "ok" : r.diagnostic.code).toBe("unknown_reference")
    expect(r.ok ? undefined : r.state).toBe(s)
  })

  vit("the budget is shared by roots and children; the exact budget passes", () => {
    const card = compile(rt, [
      dmg("strike", 1, { repeat: 2, children: [dmg("echo", 1)] }),
      dmg("tail", 1, { order: 20 })
    ])
    const exact = executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"], budget: 5 })
    expect(exact.ok && exact.result.budgetUsed).toBe(5)
    const short = executeSequence(rt, card, state, { actorId: "hero", targetIds: ["a"], budget: 4 })
    expect(short.ok ? "ok" : short.diagnostic.code).toBe("budget_exceeded")
  })

  vit("chance exactly 1 draws nothing; chance below 1 draws one float per attempt", () => {
    const sure = executeSequence(rt, strike, state, { actorId: "hero", targetIds: ["a"], seed: 1 })
    expect(sure.ok && sure.result.randomInputs).toEqual([])
    const maybe = compile(rt, [dmg("strike", 1, { chance: 0.999, repeat: 3 })])
    const r = executeSequence(rt, maybe, state, { actorId: "hero", targetIds: ["a"], seed: 1 })
    expect(r.ok && r.result.randomInputs.map((i) => i.purpose)).toEqual(["chance", "chance", "chance"])
  })

  vit("the same seed gives the same bytes; the rng state chains", () => {
    const card = compile(rt, [dmg("strike", 1, { chance: 0.5, repeat: 8, target: "RANDOM_ENEMY" })])
    const two = combat(char("hero", "ally", 50), char("a", "enemy", 30), char("b", "enemy", 30))
    const a = executeSequence(rt, card, two, { actorId: "hero", targetIds: [], seed: 42 })
    const b = executeSequence(rt, card, two, { actorId: "hero", targetIds: [], seed: 42 })
    expect(canonicalJson(a)).toBe(canonicalJson(b))
    if (!a.ok) throw new Error("expected ok")
    const c = executeSequence(rt, card, a.result.state, { actorId: "hero", targetIds: [], rng: a.result.rng })
    expect(c.ok).toBe(true)
  })
})

describe("CardExecutor service", () => {
  it.effect("play succeeds with the pure core's result", () =>
    Effect.gen(function*() {
      const ex = yield* CardExecutor
      const r = yield* ex.play(strike, state, { actorId: "hero", targetIds: ["a"] })
      const pure = executeSequence(rt, strike, state, { actorId: "hero", targetIds: ["a"] })
      expect(pure.ok && canonicalJson(pure.result)).toBe(canonicalJson(r))
      expect(r.state.characters[1]?.hp).toBe(24)
    }).pipe(Effect.provide(layer)))

  it.effect("play fails with the kernel's tagged errors", () =>
    Effect.gen(function*() {
      const ex = yield* CardExecutor
      const e1 = yield* Effect.flip(ex.play(strike, state, { actorId: "hero", targetIds: ["ko"] }))
      expect(e1._tag).toBe("InvalidTarget")
      expect(e1.code).toBe("invalid_target")
      const e2 = yield* Effect.flip(ex.play(strike, state, { actorId: "ghost", targetIds: ["a"] }))
      expect(e2._tag).toBe("UnknownCharacter")
      const e3 = yield* Effect.flip(
        ex.play(compile(rt, [dmg("s", 1, { repeat: 5 })]), state, { actorId: "hero", targetIds: ["a"], budget: 3 })
      )
      expect(e3._tag).toBe("BudgetExceeded")
      const e4 = yield* Effect.flip(
        ex.playBatch(strike, state, [{ actorId: "hero", targetIds: ["a"] }, { actorId: "hero", targetIds: [] }])
      )
      expect(e4._tag).toBe("InvalidTarget")
    }).pipe(Effect.provide(layer)))

  it.effect("playBatch runs each request against the same state; turns through the service", () =>
    Effect.gen(function*() {
      const ex = yield* CardExecutor
      const rs = yield* ex.playBatch(strike, state, [
        { actorId: "hero", targetIds: ["a"] },
        { actorId: "hero", targetIds: ["a"] }
      ])
      expect(rs.map((r) => r.state.characters[1]?.hp)).toEqual([24, 24])
      const t = yield* ex.startTurn(state, "enemy")
      expect(t.state.turn).toBe(2)
      expect(t.state.activeSide).toBe("enemy")
      const withStatus = combat(
        char("hero", "ally", 50, { statuses: [{ statusId: "ghost_status", stacks: 1, payload: {}, ticks: 0 }] })
      )
      const e = yield* Effect.flip(ex.endTurn(withStatus, "ally"))
      expect(e._tag).toBe("UnknownReference")
    }).pipe(Effect.provide(layer)))
})
