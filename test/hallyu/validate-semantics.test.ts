/**
 * Issue 12, points 4–6: play windows, missing operation fields at every
 * nesting depth (one diagnostic per mistake), and records that can never run.
 * Each case asserts the *whole* diagnostic list, so an extra line for the
 * same mistake fails the test.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { makeEngine } from "../../src/hallyu/engine/Engine.js"
import { StarterDeck } from "../../src/hallyu/Schema.js"
import { makeDecoder } from "../../src/kernel/Decode.js"
import type { DiagnosticCode } from "../../src/kernel/DiagnosticCode.js"
import { type Edit, mutated, realJson, setAt } from "./fixtures.js"

const C = (card: number): string => `/cards/${card - 1}`

interface Case {
  readonly name: string
  readonly edits: ReadonlyArray<Edit>
  readonly code: DiagnosticCode
  readonly path: string
  /** Text the message must contain (the field it names, the reason). */
  readonly message?: string
}

/** Exactly one diagnostic, with this code, path and message. */
const expectOnly = (c: Case): void => {
  const { result } = mutated(...c.edits)
  expect(result.deck).toBeUndefined()
  expect(result.diagnostics.map((d) => [d.code, d.path]), JSON.stringify(result.diagnostics, null, 1)).toEqual([[
    c.code,
    c.path
  ]])
  if (c.message !== undefined) expect(result.diagnostics[0]?.message).toContain(c.message)
}

describe("play windows (issue 12 point 4)", () => {
  const pw = `${C(14)}/effects/0/play_windows`
  it.each<Case>([
    {
      name: "a declared response window that is not a play window",
      edits: [[`${pw}/1`, "card-pending-to-opponent"]],
      code: "unknown_window",
      path: `${pw}/1`,
      message: "card-pending-to-opponent"
    },
    {
      name: "the same, first in the list",
      edits: [[pw, ["card-pending-to-opponent", "main"]]],
      code: "unknown_window",
      path: `${pw}/0`
    },
    { name: "an undeclared window", edits: [[`${pw}/1`, "after-party"]], code: "unknown_window", path: `${pw}/1` }
  ])("$name → $code", expectOnly)

  it("main and damage-pending-to-controller stay valid", () => {
    expect(mutated([pw, ["main"]]).result.diagnostics).toEqual([])
    expect(mutated([pw, ["damage-pending-to-controller"]]).result.diagnostics).toEqual([])
  })

  it("the engine never sees such a deck: it accepts only what the validator returned", () => {
    const copy = realJson()
    setAt(copy, `${pw}/1`, "card-pending-to-opponent")
    const decoded = makeDecoder(StarterDeck)(copy)
    expect(Either.isRight(decoded)).toBe(true)
    if (Either.isRight(decoded)) {
      const engine = makeEngine(decoded.right)
      expect(Either.isLeft(engine)).toBe(true)
    }
  })
})

describe("missing operation fields are missing_field at every depth, once (issue 12 point 5)", () => {
  const a17 = `${C(17)}/effects/0/actions/0`
  const a18 = `${C(18)}/effects/0/actions/0`
  const a14 = `${C(14)}/effects/0/actions/0`
  it.each<Case>([
    {
      name: "top level",
      edits: [[`${a17}/amount`, undefined]],
      code: "missing_field",
      path: a17,
      message: "missing field `amount`"
    },
    {
      name: "top level, activation cost",
      edits: [[`${C(9)}/effects/2/activation_cost/counter`, undefined]],
      code: "missing_field",
      path: `${C(9)}/effects/2/activation_cost`,
      message: "missing field `counter`"
    },
    {
      name: "on_prevented.replace",
      edits: [[`${a17}/on_prevented/replace`, undefined]],
      code: "missing_field",
      path: `${a17}/on_prevented`,
      message: "missing field `replace`"
    },
    {
      name: "on_prevented.actions",
      edits: [[`${a17}/on_prevented/actions`, undefined]],
      code: "missing_field",
      path: `${a17}/on_prevented`,
      message: "missing field `actions`"
    },
    {
      name: "an action in on_prevented",
      edits: [[`${a17}/on_prevented/actions/0/resource`, undefined]],
      code: "missing_field",
      path: `${a17}/on_prevented/actions/0`,
      message: "missing field `resource`"
    },
    {
      name: "choose-one options[].label",
      edits: [[`${a14}/options/1/label`, undefined]],
      code: "missing_field",
      path: `${a14}/options/1`,
      message: "missing field `label`"
    },
    {
      name: "choose-one options[].actions",
      edits: [[`${a14}/options/0/actions`, undefined]],
      code: "missing_field",
      path: `${a14}/options/0`,
      message: "missing field `actions`"
    },
    {
      name: "an action in a choose-one option",
      edits: [[`${a14}/options/0/actions/0/amount`, undefined]],
      code: "missing_field",
      path: `${a14}/options/0/actions/0`,
      message: "missing field `amount`"
    },
    {
      name: "unless.optional_payment",
      edits: [[`${a18}/unless/optional_payment`, undefined]],
      code: "missing_field",
      path: `${a18}/unless`,
      message: "missing field `optional_payment`"
    },
    {
      name: "optional_payment.player",
      edits: [[`${a18}/unless/optional_payment/player`, undefined]],
      code: "missing_field",
      path: `${a18}/unless/optional_payment`,
      message: "missing field `player`"
    },
    {
      name: "optional_payment.actions",
      edits: [[`${a18}/unless/optional_payment/actions`, undefined]],
      code: "missing_field",
      path: `${a18}/unless/optional_payment`,
      message: "missing field `actions`"
    },
    {
      name: "an action in optional_payment",
      edits: [[`${a18}/unless/optional_payment/actions/0/player`, undefined]],
      code: "missing_field",
      path: `${a18}/unless/optional_payment/actions/0`,
      message: "missing field `player`"
    },
    {
      name: "a count expression's field",
      edits: [[`${C(21)}/effects/0/actions/0/amount/period`, undefined]],
      code: "missing_field",
      path: `${C(21)}/effects/0/actions/0/amount`,
      message: "missing field `period`"
    },
    {
      name: "a condition's fact field",
      edits: [[`${a14}/options/1/condition/player`, undefined]],
      code: "missing_field",
      path: `${a14}/options/1/condition`,
      message: "missing field `player`"
    },
    {
      name: "a card field",
      edits: [[`${C(1)}/cost`, undefined]],
      code: "missing_field",
      path: C(1),
      message: "missing field `cost`"
    }
  ])("$name", expectOnly)

  it("a count expression filtered by `counter` is one unknown_field, no schema_invalid", () => {
    expectOnly({
      name: "counter filter",
      edits: [[`${C(21)}/effects/0/actions/0/amount/filter`, { counter: "teaser" }]],
      code: "unknown_field",
      path: `${C(21)}/effects/0/actions/0/amount/filter/counter`
    })
  })
})

describe("records that can never run are rejected (issue 12 point 6)", () => {
  it.each<Case>([
    {
      name: "an on-enter effect on a Moment",
      edits: [[`${C(17)}/effects/0/kind`, "on-enter"]],
      code: "unreachable_effect",
      path: `${C(17)}/effects/0/kind`,
      message: "moment"
    },
    {
      name: "an activated effect on a Moment",
      edits: [
        [`${C(21)}/effects/0/kind`, "activated"],
        [`${C(21)}/effects/0/activation_cost`, { op: "lose-resource", player: "self", resource: "fandom", amount: 1 }]
      ],
      code: "unreachable_effect",
      path: `${C(21)}/effects/0/kind`
    },
    {
      name: "a pending-card selector in a response to the damage window",
      edits: [[`${C(19)}/effects/0/actions/2`, {
        op: "return-card",
        card: "pending-card",
        from_zone: "pending",
        to_zone: "hand"
      }]],
      code: "unknown_reference",
      path: `${C(19)}/effects/0/actions/2/card`,
      message: "damage-pending-to-controller"
    },
    {
      name: "a pending-card selector in a condition of a damage-window response",
      edits: [[`${C(19)}/effects/0/condition`, {
        fact: "counters@1",
        card: "pending-card",
        counter: "scandal",
        compare: "gte",
        value: 1
      }]],
      code: "unknown_reference",
      path: `${C(19)}/effects/0/condition/card`
    },
    { name: "a deck file with no deck lists", edits: [["/decks", []]], code: "no_deck_list", path: "/decks" }
  ])("$name → $code", expectOnly)

  it("on-enter and activated stay valid on Stars and Venues; pending-card stays valid in the card window", () => {
    expect(mutated().result.diagnostics).toEqual([])
    expect(
      mutated([`${C(24)}/effects/0/actions/1`, {
        op: "return-card",
        card: "pending-card",
        from_zone: "pending",
        to_zone: "hand"
      }]).result.diagnostics.filter(
        (d) => d.code !== "text_link_mismatch"
      )
    ).toEqual([])
  })
})
