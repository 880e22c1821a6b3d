import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { deckArbitrary } from "../../src/hallyu/Schema.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { isDiagnosticCode } from "../../src/kernel/DiagnosticCode.js"
import { locate, makeLocator, parseJson } from "../../src/kernel/Json.js"
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

/** Whether a JSON pointer names a value that exists in `root`. */
const exists = (root: unknown, pointer: string): boolean => {
  let cur: unknown = root
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~")
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, seg)) return false
    cur = (cur as Record<string, unknown>)[seg]
  }
  return true
}

/**
 * What every validation must satisfy, whatever the input: a deck exactly when
 * there is no error; each diagnostic a code of the table, at a pointer that
 * exists in the document, located where `locate` puts that pointer; no line
 * twice; the same diagnostics when run again.
 */
const checkTotal = (text: string): void => {
  const doc = parseJson(text, { file: "deck.json" })
  if (Either.isLeft(doc)) {
    expect(isDiagnosticCode(doc.left.code)).toBe(true)
    return
  }
  const r = validateDeck(doc.right)
  const errors = r.diagnostics.filter((d) => d.severity === "error")
  expect(r.deck === undefined, JSON.stringify(r.diagnostics.slice(0, 3))).toBe(errors.length > 0)
  for (const d of r.diagnostics) {
    expect(isDiagnosticCode(d.code)).toBe(true)
    expect(d.file).toBe("deck.json")
    expect(typeof d.path === "string" && exists(doc.right.value, d.path), `${d.code} at ${d.path}`).toBe(true)
    // An unknown field is located at its key (where the mistake is typed), every other diagnostic at its value.
    const at = d.code === "unknown_field"
      ? makeLocator(doc.right.text).locateKey(d.path ?? "")
      : locate(doc.right, d.path ?? "")
    expect([d.line, d.column]).toEqual(Object.values(at))
  }
  const lines = r.diagnostics.map((d) => `${d.code} ${d.path} ${d.message}`)
  expect(new Set(lines).size).toBe(lines.length)
  expect(validateDeck(doc.right).diagnostics).toEqual(r.diagnostics)
}

describe("the validator is total", () => {
  const all = pointers(JSON.parse(deckText) as Json)

  it.prop(
    "any one value of the real deck replaced by any JSON value: located diagnostics, never an exception; a deck only without errors",
    [fc.integer({ min: 0, max: all.length - 1 }), fc.jsonValue({ maxDepth: 2 })],
    ([k, value]) => {
      const copy = JSON.parse(deckText) as Json
      setAt(copy, all[k] as string, value as Json)
      checkTotal(JSON.stringify(copy, null, 2))
    },
    { fastCheck: { numRuns: 150, seed: 7 } }
  )

  it("a replaced value that breaks the deck is always reported (the real deck itself validates)", () => {
    const copy = JSON.parse(deckText) as Json
    setAt(copy, "/cards/0/cost", "two")
    const doc = parseJson(JSON.stringify(copy, null, 2), { file: "deck.json" })
    expect(Either.isRight(doc) && validateDeck(doc.right).diagnostics.map((d) => [d.code, d.path])).toEqual([[
      "schema_invalid",
      "/cards/0/cost"
    ]])
  })

  it("decks generated from the Schema: located diagnostics, never an exception", () => {
    // Schema-derived decks are deep: keep them small (a global fast-check setting, restored after).
    fc.configureGlobal({ ...fc.readConfigureGlobal(), baseSize: "xsmall" })
    try {
      fc.assert(fc.property(deckArbitrary(), (deck) => checkTotal(JSON.stringify(deck, null, 1))), {
        numRuns: 50,
        seed: 11
      })
    } finally {
      fc.resetConfigureGlobal()
    }
  })
})
