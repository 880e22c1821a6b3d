import { describe, expect, it } from "vitest"
import { Either, FastCheck as fc } from "effect"
import { parseJson } from "../../src/kernel/Json.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { deckArbitrary } from "../../src/hallyu/Schema.js"
import { deckText, setAt } from "./fixtures.js"

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }

/** Every JSON pointer of a value. */
const pointers = (v: Json, base = ""): Array<string> => {
  if (v === null || typeof v !== "object") return []
  const keys = Array.isArray(v) ? v.map((_, i) => String(i)) : Object.keys(v)
  return keys.flatMap((k) => {
    const p = `${base}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`
    const child = (Array.isArray(v) ? v[Number(k)] : v[k]) as Json
    return [p, ...pointers(child, p)]
  })
}

const validateText = (text: string) => {
  const doc = parseJson(text, { file: "deck.json" })
  return Either.isLeft(doc) ? { diagnostics: [doc.left], deck: undefined } : validateDeck(doc.right)
}

describe("the validator is total", () => {
  const all = pointers(JSON.parse(deckText) as Json)
  it("any one value of the real deck replaced by any JSON value: diagnostics, never an exception; a deck only without errors", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: all.length - 1 }), fc.jsonValue({ maxDepth: 2 }), (k, value) => {
        const copy = JSON.parse(deckText) as Json
        setAt(copy, all[k] as string, value as Json)
        const r = validateText(JSON.stringify(copy, null, 2))
        const errors = r.diagnostics.filter((d) => d.severity === "error")
        expect(r.deck === undefined).toBe(errors.length > 0)
        for (const d of r.diagnostics) {
          expect(typeof d.path).toBe("string")
          expect(d.line).toBeGreaterThanOrEqual(1)
        }
      }),
      { numRuns: 150, seed: 7 }
    )
  })

  it("decks generated from the Schema validate without exceptions", () => {
    fc.configureGlobal({ ...fc.readConfigureGlobal(), baseSize: "xsmall" })
    try {
      fc.assert(
        fc.property(deckArbitrary(), (deck) => {
          const r = validateText(JSON.stringify(deck))
          expect(Array.isArray(r.diagnostics)).toBe(true)
        }),
        { numRuns: 50, seed: 11 }
      )
    } finally {
      fc.resetConfigureGlobal()
    }
  })
})
