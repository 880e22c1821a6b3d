import { Either } from "effect"
import { describe, expect, it } from "vitest"
import type { Action, EffectRecord } from "../../src/hallyu/Schema.js"
import { isDeckDocument, validateDeck } from "../../src/hallyu/Validate.js"
import { EFFECT_KINDS, OPERATIONS } from "../../src/hallyu/Vocabulary.js"
import type { Diagnostic } from "../../src/kernel/Diagnostic.js"
import { errorFromDiagnostic } from "../../src/kernel/Errors.js"
import { locate, parseJson } from "../../src/kernel/Json.js"
import { type Edit, getAt, mutated, realDeck, realDoc, realJson } from "./fixtures.js"

describe("the real starter deck", () => {
  it("validates with no diagnostics and is recognised as a deck", () => {
    const v = validateDeck(realDoc)
    expect(v.diagnostics).toEqual([])
    expect(v.deck?.cards).toHaveLength(24)
    expect(isDeckDocument(realDoc.value)).toBe(true)
    expect(isDeckDocument({ manifest: {} })).toBe(false)
    expect(isDeckDocument([])).toBe(false)
  })

  it("accepts an optional top-level $schema string", () => {
    expect(mutated(["/$schema", "./hallyu-hex-deck.schema.json"]).result.diagnostics).toEqual([])
    expect(mutated(["/$schema", 3]).result.diagnostics.map((d) => [d.code, d.path])).toEqual([[
      "schema_invalid",
      "/$schema"
    ]])
  })

  it("has the versions, 24 cards HHX-PROTO-001..024 with card-scoped effect IDs and the text link", () => {
    const deck = realDeck()
    expect(deck.manifest_version).toBe("0.2.0")
    expect(deck.rules.version).toBe("0.2.0")
    expect(deck.effect_schema.version).toBe("0.1.0")
    deck.cards.forEach((c, i) => {
      expect(c.code).toBe(`HHX-PROTO-${String(i + 1).padStart(3, "0")}`)
      c.effects.forEach((e, j) => expect(e.id).toBe(`${c.code}-E${j + 1}`))
      expect(c.effects.map((e) => e.text).join(" ")).toBe(c.rules_text)
    })
    for (const d of deck.decks) expect(d.cards.reduce((n, e) => n + e.count, 0)).toBe(30)
  })

  it("covers every kind, operation, nested form, the count expression, `all`, for_each, limit, optional, activation_cost and the extra window", () => {
    const deck = realDeck()
    const kinds = new Set<string>()
    const ops = new Set<string>()
    const nested = new Set<string>()
    const features = new Set<string>()
    const walk = (a: Action): void => {
      ops.add(a.op)
      if (typeof (a as { amount?: unknown }).amount === "object") features.add("count-expression")
      if ((a as { amount?: unknown }).amount === "all") features.add(`all:${a.op}`)
      if (a.op === "choose-one") {
        nested.add("choose-one.options")
        a.options.forEach((o) => o.actions.forEach(walk))
      }
      if (a.op === "deal-damage" && a.on_prevented !== undefined) {
        if (a.on_prevented.replace) nested.add("deal-damage.on_prevented(replace)")
        a.on_prevented.actions.forEach(walk)
      }
      if (a.op === "counter-card" && a.unless !== undefined) {
        nested.add("counter-card.unless.optional_payment")
        a.unless.optional_payment.actions.forEach(walk)
      }
    }
    const byName = new Map<string, EffectRecord>()
    for (const c of deck.cards) {
      for (const e of c.effects) {
        byName.set(`${c.name}/${e.id}`, e)
        kinds.add(e.kind)
        if (e.for_each !== undefined) features.add("for_each")
        if (e.limit !== undefined) features.add("limit")
        if (e.optional === true) features.add("optional")
        if (e.activation_cost !== undefined) {
          features.add("activation_cost")
          walk(e.activation_cost)
        }
        for (const w of e.play_windows ?? []) if (w !== "main") features.add(`play_window:${w}`)
        e.actions.forEach(walk)
      }
    }
    expect([...kinds].sort()).toEqual(Object.keys(EFFECT_KINDS).sort())
    expect(kinds.size).toBe(7)
    expect([...ops].sort()).toEqual(Object.keys(OPERATIONS).sort())
    expect(ops.size).toBe(16)
    expect([...nested].sort()).toEqual([
      "choose-one.options",
      "counter-card.unless.optional_payment",
      "deal-damage.on_prevented(replace)"
    ])
    expect([...features].sort()).toEqual([
      "activation_cost",
      "all:prevent-damage",
      "count-expression",
      "for_each",
      "limit",
      "optional",
      "play_window:damage-pending-to-controller"
    ])
    const rumor = deck.cards.find((c) => c.name === "Dating Rumor Check")
    expect(rumor?.effects[0]?.play_windows).toEqual(["main", "damage-pending-to-controller"])
    const choose = rumor?.effects[0]?.actions[0]
    expect(choose?.op).toBe("choose-one")
    if (choose?.op === "choose-one") {
      expect(choose.options.map((o) => [o.actions[0]?.op, o.condition?.fact ?? null])).toEqual([
        ["draw", null],
        ["prevent-damage", "damage-pending@1"]
      ])
    }
    const teaser = deck.cards.find((c) => c.name === "Countdown Teaser Room")
    expect(teaser?.effects.some((e) => e.actions.some((a) => a.op === "add-counter" && a.counter === "teaser"))).toBe(
      true
    )
    expect(Object.keys(deck.effect_schema.counters).sort()).toEqual(["scandal", "teaser"])
  })
})

interface Case {
  readonly name: string
  readonly edits: ReadonlyArray<Edit>
  readonly code: Diagnostic["code"]
  readonly path: string
  readonly cardCode?: string
  readonly effectId?: string
}

const E = (card: number, effect: number): { cardCode: string; effectId: string } => {
  const code = `HHX-PROTO-${String(card).padStart(3, "0")}`
  return { cardCode: code, effectId: `${code}-E${effect}` }
}
const C = (card: number): string => `/cards/${card - 1}`

const cases: ReadonlyArray<Case> = [
  {
    name: "text link",
    edits: [[`${C(1)}/rules_text`, "When Rookie Vocalist Yuna enters the stage,  draw a card."]],
    code: "text_link_mismatch",
    path: `${C(1)}/rules_text`,
    cardCode: "HHX-PROTO-001"
  },
  {
    name: "text link (orphan clause)",
    edits: [[`${C(20)}/effects/1`, undefined]],
    code: "text_link_mismatch",
    path: `${C(20)}/rules_text`,
    cardCode: "HHX-PROTO-020"
  },
  {
    name: "unknown operation",
    edits: [[`${C(1)}/effects/0/actions/0/op`, "draw-cards"]],
    code: "unknown_operation",
    path: `${C(1)}/effects/0/actions/0/op`,
    ...E(1, 1)
  },
  {
    name: "unknown operation in choose-one options",
    edits: [[`${C(14)}/effects/0/actions/0/options/1/actions/0/op`, "prevent-all"]],
    code: "unknown_operation",
    path: `${C(14)}/effects/0/actions/0/options/1/actions/0/op`,
    ...E(14, 1)
  },
  {
    name: "unknown operation in on_prevented",
    edits: [[`${C(17)}/effects/0/actions/0/on_prevented/actions/0/op`, "lose-life"]],
    code: "unknown_operation",
    path: `${C(17)}/effects/0/actions/0/on_prevented/actions/0/op`,
    ...E(17, 1)
  },
  {
    name: "unknown operation in optional_payment",
    edits: [[`${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0/op`, "pay"]],
    code: "unknown_operation",
    path: `${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0/op`,
    ...E(18, 1)
  },
  {
    name: "unknown operation in the file vocabulary",
    edits: [["/effect_schema/operations/shuffle", { required_fields: [] }]],
    code: "unknown_operation",
    path: "/effect_schema/operations/shuffle"
  },
  {
    name: "static effect with a non-cost operation",
    edits: [[`${C(6)}/effects/0/actions/0`, { op: "draw", player: "self", amount: 1 }]],
    code: "unknown_operation",
    path: `${C(6)}/effects/0/actions/0/op`,
    ...E(6, 1)
  },
  {
    name: "missing operation field",
    edits: [[`${C(15)}/effects/0/actions/0/counter`, undefined]],
    code: "missing_field",
    path: `${C(15)}/effects/0/actions/0`,
    ...E(15, 1)
  },
  {
    name: "missing field in on_prevented",
    edits: [[`${C(17)}/effects/0/actions/0/on_prevented/actions/0/amount`, undefined]],
    code: "missing_field",
    path: `${C(17)}/effects/0/actions/0/on_prevented/actions/0`,
    ...E(17, 1)
  },
  {
    name: "missing field in optional_payment",
    edits: [[`${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0/resource`, undefined]],
    code: "missing_field",
    path: `${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0`,
    ...E(18, 1)
  },
  {
    name: "missing field in choose-one option",
    edits: [[`${C(14)}/effects/0/actions/0/options/0/actions/0/player`, undefined]],
    code: "missing_field",
    path: `${C(14)}/effects/0/actions/0/options/0/actions/0`,
    ...E(14, 1)
  },
  {
    name: "missing op",
    edits: [[`${C(22)}/effects/0/actions/0/op`, undefined]],
    code: "missing_field",
    path: `${C(22)}/effects/0/actions/0`,
    ...E(22, 1)
  },
  {
    name: "response without window",
    edits: [[`${C(18)}/effects/0/window`, undefined]],
    code: "missing_field",
    path: `${C(18)}/effects/0`,
    ...E(18, 1)
  },
  {
    name: "activated without activation_cost",
    edits: [[`${C(2)}/effects/0/activation_cost`, undefined]],
    code: "missing_field",
    path: `${C(2)}/effects/0`,
    ...E(2, 1)
  },
  {
    name: "missing effect_schema.version",
    edits: [["/effect_schema/version", undefined]],
    code: "missing_field",
    path: "/effect_schema"
  },
  {
    name: "unknown trigger event",
    edits: [[`${C(3)}/effects/0/trigger/event`, "card-casted"]],
    code: "unknown_event",
    path: `${C(3)}/effects/0/trigger/event`,
    ...E(3, 1)
  },
  {
    name: "unknown event in an event-count condition",
    edits: [[`${C(8)}/effects/1/condition/event`, "damage-taken"]],
    code: "unknown_event",
    path: `${C(8)}/effects/1/condition/event`,
    ...E(8, 2)
  },
  {
    name: "window opening on an undeclared event",
    edits: [["/effect_schema/windows/main/opens_on", "turn-begin"]],
    code: "unknown_event",
    path: "/effect_schema/windows/main/opens_on"
  },
  {
    name: "trigger event not declared by the file",
    edits: [["/effect_schema/events/0", "card-played"]],
    code: "unknown_event",
    path: "/effect_schema/events/0"
  },
  {
    name: "unknown fact",
    edits: [[`${C(22)}/effects/0/actions/1/condition/fact`, "controls@2"]],
    code: "unknown_fact",
    path: `${C(22)}/effects/0/actions/1/condition/fact`,
    ...E(22, 1)
  },
  {
    name: "unknown fact in a choose-one option",
    edits: [[`${C(14)}/effects/0/actions/0/options/1/condition/fact`, "damage-incoming@1"]],
    code: "unknown_fact",
    path: `${C(14)}/effects/0/actions/0/options/1/condition/fact`,
    ...E(14, 1)
  },
  {
    name: "unknown play window",
    edits: [[`${C(14)}/effects/0/play_windows/1`, "damage-pending"]],
    code: "unknown_window",
    path: `${C(14)}/effects/0/play_windows/1`,
    ...E(14, 1)
  },
  {
    name: "unknown response window",
    edits: [[`${C(19)}/effects/0/window`, "damage-window"]],
    code: "unknown_window",
    path: `${C(19)}/effects/0/window`,
    ...E(19, 1)
  },
  {
    name: "`all` outside damage prevention",
    edits: [[`${C(17)}/effects/0/actions/0/amount`, "all"]],
    code: "invalid_amount",
    path: `${C(17)}/effects/0/actions/0/amount`,
    ...E(17, 1)
  },
  {
    name: "`all` in a nested action",
    edits: [[`${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0/amount`, "all"]],
    code: "invalid_amount",
    path: `${C(18)}/effects/0/actions/0/unless/optional_payment/actions/0/amount`,
    ...E(18, 1)
  },
  {
    name: "unknown count expression",
    edits: [[`${C(21)}/effects/0/actions/0/amount/count`, "cards-drawn"]],
    code: "invalid_amount",
    path: `${C(21)}/effects/0/actions/0/amount/count`,
    ...E(21, 1)
  },
  {
    name: "zero amount",
    edits: [[`${C(1)}/effects/0/actions/0/amount`, 0]],
    code: "invalid_amount",
    path: `${C(1)}/effects/0/actions/0/amount`,
    ...E(1, 1)
  },
  {
    name: "duplicate card code",
    edits: [[`${C(2)}/code`, "HHX-PROTO-001"]],
    code: "duplicate_id",
    path: `${C(2)}/code`,
    cardCode: "HHX-PROTO-001"
  },
  {
    name: "duplicate card ID",
    edits: [[`${C(3)}/id`, "hhx.proto.card.001"]],
    code: "duplicate_id",
    path: `${C(3)}/id`,
    cardCode: "HHX-PROTO-003"
  },
  {
    name: "duplicate effect ID",
    edits: [[`${C(5)}/effects/1/id`, "HHX-PROTO-005-E1"]],
    code: "duplicate_id",
    path: `${C(5)}/effects/1/id`,
    ...E(5, 1)
  },
  { name: "duplicate tag", edits: [["/tags/1/id", "hhx.proto.idol"]], code: "duplicate_id", path: "/tags/1/id" },
  {
    name: "duplicate target ID",
    edits: [[`${C(16)}/effects/0/targets/1/id`, "t1"]],
    code: "duplicate_id",
    path: `${C(16)}/effects/0/targets/1/id`,
    ...E(16, 1)
  },
  {
    name: "effect ID out of order",
    edits: [[`${C(5)}/effects/1/id`, "HHX-PROTO-005-E3"]],
    code: "effect_id_mismatch",
    path: `${C(5)}/effects/1/id`,
    cardCode: "HHX-PROTO-005",
    effectId: "HHX-PROTO-005-E3"
  },
  {
    name: "effect ID of another card",
    edits: [[`${C(9)}/effects/0/id`, "HHX-PROTO-010-E1"]],
    code: "effect_id_mismatch",
    path: `${C(9)}/effects/0/id`,
    cardCode: "HHX-PROTO-009",
    effectId: "HHX-PROTO-010-E1"
  },
  {
    name: "unsupported manifest_version",
    edits: [["/manifest_version", "0.3.0"]],
    code: "unsupported_version",
    path: "/manifest_version"
  },
  {
    name: "unsupported rules.version",
    edits: [["/rules/version", "0.1.0"]],
    code: "unsupported_version",
    path: "/rules/version"
  },
  {
    name: "unsupported effect_schema.version",
    edits: [["/effect_schema/version", "0.2.0"]],
    code: "unsupported_version",
    path: "/effect_schema/version"
  },
  {
    name: "undeclared tag",
    edits: [[`${C(4)}/tags/1`, "hhx.proto.legend"]],
    code: "unknown_reference",
    path: `${C(4)}/tags/1`,
    cardCode: "HHX-PROTO-004"
  },
  {
    name: "undeclared counter",
    edits: [[`${C(9)}/effects/1/actions/0/counter`, "hype"]],
    code: "unknown_reference",
    path: `${C(9)}/effects/1/actions/0/counter`,
    ...E(9, 2)
  },
  {
    name: "undeclared counter in an activation cost",
    edits: [[`${C(9)}/effects/2/activation_cost/counter`, "teasers"]],
    code: "unknown_reference",
    path: `${C(9)}/effects/2/activation_cost/counter`,
    ...E(9, 3)
  },
  {
    name: "undeclared zone",
    edits: [[`${C(23)}/effects/0/actions/0/to_zone`, "dorm"]],
    code: "unknown_reference",
    path: `${C(23)}/effects/0/actions/0/to_zone`,
    ...E(23, 1)
  },
  {
    name: "undeclared target",
    edits: [[`${C(16)}/effects/0/actions/0/to/target`, "t3"]],
    code: "unknown_reference",
    path: `${C(16)}/effects/0/actions/0/to/target`,
    ...E(16, 1)
  },
  {
    name: "undeclared tone in a filter",
    edits: [[`${C(10)}/effects/0/trigger/filter/tone`, "retro"]],
    code: "unknown_reference",
    path: `${C(10)}/effects/0/trigger/filter/tone`,
    ...E(10, 1)
  },
  {
    name: "each without for_each",
    edits: [[`${C(12)}/effects/0/for_each`, undefined]],
    code: "unknown_reference",
    path: `${C(12)}/effects/0/actions/0/card`,
    ...E(12, 1)
  },
  {
    name: "deck lists an unknown card",
    edits: [["/decks/0/cards/0/card", "hhx.proto.card.099"]],
    code: "unknown_reference",
    path: "/decks/0/cards/0/card"
  },
  {
    name: "tag outside the namespace",
    edits: [["/tags/0/id", "hhx.other.idol"]],
    code: "invalid_id",
    path: "/tags/0/id"
  },
  {
    name: "upper-case counter identifier",
    edits: [["/effect_schema/counters/Hype", { version: 1, display_name: "Hype", origin: "x" }]],
    code: "invalid_id",
    path: "/effect_schema/counters/Hype"
  },
  {
    name: "wrong value type",
    edits: [[`${C(1)}/cost`, "2"]],
    code: "schema_invalid",
    path: `${C(1)}/cost`,
    cardCode: "HHX-PROTO-001"
  },
  {
    name: "wrong type deep in an effect",
    edits: [[`${C(12)}/effects/0/limit/per`, "game"]],
    code: "schema_invalid",
    path: `${C(12)}/effects/0/limit/per`,
    ...E(12, 1)
  },
  {
    name: "field not allowed on the kind",
    edits: [[`${C(15)}/effects/0/window`, "card-pending-to-opponent"]],
    code: "schema_invalid",
    path: `${C(15)}/effects/0/window`,
    ...E(15, 1)
  },
  {
    name: "unknown field on a card",
    edits: [[`${C(1)}/power`, 3]],
    code: "unknown_field",
    path: `${C(1)}/power`,
    cardCode: "HHX-PROTO-001"
  },
  {
    name: "unknown field on an action",
    edits: [[`${C(1)}/effects/0/actions/0/cards`, 1]],
    code: "unknown_field",
    path: `${C(1)}/effects/0/actions/0/cards`,
    ...E(1, 1)
  }
]

describe("every validator code, from a mutated copy of the real deck", () => {
  it.each(cases)("$code: $name", (c) => {
    const { doc, result } = mutated(...c.edits)
    expect(result.deck).toBeUndefined()
    const found = result.diagnostics.filter((d) => d.code === c.code && d.path === c.path)
    expect(found, JSON.stringify(result.diagnostics, null, 1)).toHaveLength(1)
    const d = found[0] as Diagnostic
    expect(d.file).toBe("data/hallyu-hex/starter-deck.v0.json")
    expect(d.cardCode).toBe(c.cardCode)
    expect(d.effectId).toBe(c.effectId)
    // An unknown field is located at its key.
    const { line, column } = c.code === "unknown_field" ? doc.locator.locateKey(c.path) : locate(doc, c.path)
    expect(line).toBeGreaterThan(1)
    expect([d.line, d.column]).toEqual([line, column])
    // One mistake, one report: nothing else is reported at or under the same path.
    const under = result.diagnostics.filter((x) =>
      x !== d && (x.path === c.path || (x.path ?? "").startsWith(c.path + "/"))
    )
    expect(under).toEqual([])
  })

  it("reports problems in several cards at once", () => {
    const { result } = mutated([`${C(1)}/cost`, "x"], [`${C(3)}/effects/0/trigger/event`, "nope"], [
      `${C(24)}/effects/0/actions/0/op`,
      "spin"
    ])
    expect(result.diagnostics.map((d) => [d.code, d.cardCode])).toEqual([
      ["schema_invalid", "HHX-PROTO-001"],
      ["unknown_event", "HHX-PROTO-003"],
      ["unknown_operation", "HHX-PROTO-024"]
    ])
  })

  it("each mutation case leaves the other 23 cards decodable", () => {
    const json = realJson()
    expect(getAt(json, "/cards/0/code")).toBe("HHX-PROTO-001")
  })
})

describe("hostile deck files", () => {
  const head = "{\"manifest_version\": \"0.2.0\", \"effect_schema\": {\"version\": \"0.1.0\"}"
  const inputs: ReadonlyArray<readonly [string, string, string]> = [
    ["prototype key", `${head}, "cards": [{"__proto__": {"cost": 0}}]}`, "forbidden_key"],
    ["duplicate key", `${head}, "manifest_version": "0.3.0"}`, "duplicate_key"],
    ["deep nesting", `${head}, "cards": ${"[".repeat(5000)}${"]".repeat(5000)}}`, "depth_limit"],
    ["2^53+1", `${head}, "cards": [{"cost": 9007199254740993}]}`, "unsafe_number"],
    ["empty file", "  \n ", "empty_file"]
  ]
  it.each(inputs)("%s gives one typed diagnostic", (_name, text, code) => {
    const r = parseJson(text, { file: "deck.json" })
    expect(Either.isLeft(r)).toBe(true)
    if (Either.isLeft(r)) {
      expect(r.left.code).toBe(code)
      expect(r.left.file).toBe("deck.json")
      expect(errorFromDiagnostic(r.left).code).toBe(code)
    }
  })

  it("a JSON value that is not an object is one schema_invalid", () => {
    const r = parseJson("[1, 2]", { file: "deck.json" })
    if (Either.isRight(r)) expect(validateDeck(r.right).diagnostics.map((d) => d.code)).toEqual(["schema_invalid"])
  })
})
