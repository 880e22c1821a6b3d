import { Arbitrary, Either, Schema } from "effect"
import * as fc from "effect/FastCheck"
import { describe, expect, it } from "vitest"
import { CombatState, StatusInstance } from "../../../src/composition/executor/CombatState.js"
import { ExecutorEvent, SequenceResult } from "../../../src/composition/executor/Events.js"
import { executeSequence } from "../../../src/composition/executor/Execute.js"
import { Scenario } from "../../../src/composition/scenario/Scenario.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"
import { baseRuntime, char, combat, compile, dmg } from "./helpers.js"

const law = <A, I>(name: string, schema: Schema.Schema<A, I, never>, numRuns = 50) =>
  it(`${name}: generated values pass Schema.is and survive encode → decode`, () => {
    const is = Schema.is(schema)
    const encode = Schema.encodeEither(schema)
    const decode = Schema.decodeUnknownEither(schema)
    fc.assert(
      fc.property(Arbitrary.make(schema), (a) => {
        expect(is(a)).toBe(true)
        const e = encode(a)
        expect(Either.isRight(e)).toBe(true)
        if (Either.isLeft(e)) return
        const d = decode(JSON.parse(JSON.stringify(e.right)))
        // Canonical bytes are the contract (JSON has no -0: canonical form writes it as 0).
        expect(Either.isRight(d) && canonicalJson(d.right)).toBe(canonicalJson(a))
      }),
      { numRuns, seed: 7 }
    )
  })

describe("schema laws", () => {
  law("StatusInstance", StatusInstance)
  law("CombatState", CombatState, 30)
  law("ExecutorEvent", ExecutorEvent)
  law("Scenario", Scenario, 20)

  it("an executed result is a SequenceResult and a CombatState (the filters hold)", () => {
    const rt = baseRuntime()
    const s = combat(char("hero", "ally", 10), char("a", "enemy", 10))
    const r = executeSequence(rt, compile(rt, [dmg("hit", 3)]), s, { actorId: "hero", targetIds: ["a"] })
    expect(r.ok && Schema.is(SequenceResult)(r.result)).toBe(true)
    expect(Schema.is(CombatState)({ ...s, characters: [char("x", "ally", 10), char("x", "enemy", 10)] })).toBe(false)
    expect(Schema.is(CombatState)({ ...s, characters: [{ ...char("x", "ally", 10), hp: 11 }] })).toBe(false)
  })
})
