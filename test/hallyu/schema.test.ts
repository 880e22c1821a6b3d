import AjvModule from "ajv"
import { FastCheck as fc, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { explainCard, findCard, renderExplanation } from "../../src/hallyu/Explain.js"
import {
  Action,
  actionArbitrary,
  Card,
  cardArbitrary,
  deckArbitrary,
  deckJsonSchema,
  StarterDeck
} from "../../src/hallyu/Schema.js"
import { realDeck, realDoc } from "./fixtures.js"

const law = <A, I>(name: string, schema: Schema.Schema<A, I, never>, arb: fc.Arbitrary<A>, numRuns: number) =>
  it(`${name}: generated values pass Schema.is and survive encode → decode`, () => {
    const is = Schema.is(schema)
    const encode = Schema.encodeSync(schema)
    const decode = Schema.decodeUnknownSync(schema)
    fc.assert(
      fc.property(arb, (a) => {
        expect(is(a)).toBe(true)
        expect(decode(JSON.parse(JSON.stringify(encode(a))))).toEqual(a)
      }),
      { numRuns, seed: 20261129 }
    )
  })

describe("Schema laws", () => {
  // Recursive action lists grow fast at fast-check's default size; small values find the same shape bugs.
  beforeAll(() => fc.configureGlobal({ ...fc.readConfigureGlobal(), baseSize: "xsmall" }))
  afterAll(() => fc.resetConfigureGlobal())
  law("Action", Action, actionArbitrary(), 200)
  law("Card", Card, cardArbitrary(), 100)
  law("StarterDeck", StarterDeck, deckArbitrary(), 50)

  it("the real deck round-trips", () => {
    const deck = realDeck()
    expect(Schema.decodeUnknownSync(StarterDeck)(Schema.encodeSync(StarterDeck)(deck))).toEqual(deck)
  })
})

describe("JSON Schema", () => {
  it("is derived from the Schemas and accepts the real deck (ajv)", () => {
    const js = deckJsonSchema()
    expect(js.$schema).toContain("json-schema.org")
    // ajv is CommonJS: under NodeNext its default export is the module object.
    const Ajv = AjvModule.default
    const ajv = new Ajv({ strict: false, allErrors: true })
    const validate = ajv.compile(js)
    expect(validate(realDoc.value), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...(realDoc.value as object), manifest_version: 2 })).toBe(false)
  })
})

describe("hhx explain", () => {
  it("renders every card's records beside its printed text", () => {
    const deck = realDeck()
    for (const c of deck.cards) {
      const x = explainCard(c)
      expect(x.effects.map((e) => e.printed).join(" ")).toBe(c.rules_text)
      for (const e of x.effects) expect(e.generated.length).toBeGreaterThan(10)
    }
    const rumor = findCard(deck, "hhx-proto-014")
    expect(rumor?.name).toBe("Dating Rumor Check")
    const text = renderExplanation(explainCard(rumor as Card))
    expect(text).toContain("rules_text: Choose one — Draw a card; or prevent 3 damage that would be dealt to you.")
    expect(text).toContain("windows: main, damage-pending-to-controller")
    expect(text).toContain("[only if damage is pending to you]")
    expect(findCard(deck, "hhx.proto.card.009")?.code).toBe("HHX-PROTO-009")
    expect(findCard(deck, "HHX-PROTO-999")).toBeUndefined()
  })
})
