import { Ajv } from "ajv"
import { Arbitrary, Either, FastCheck as fc, JSONSchema, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { ContentFile } from "../../../src/composition/schema/Package.js"

fc.configureGlobal({ baseSize: "xsmall" })

type Json = null | boolean | number | string | Array<Json> | { [k: string]: Json }

/** Every location in a JSON tree: a parent container and a key. */
const locations = (v: Json, out: Array<{ parent: Array<Json> | { [k: string]: Json }; key: string | number }> = []) => {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push({ parent: v, key: i }), locations(x, out)))
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.push({ parent: v, key: k })
      locations(x, out)
    }
  }
  return out
}

const replacements: ReadonlyArray<Json> = [
  null,
  true,
  -1,
  1.5,
  2_000_000_000_000,
  "",
  "not an id!",
  "x".repeat(130),
  [],
  {},
  "DAMAGE"
]

/** A valid content file, or one mutated at a random place in a random way. */
const candidate = fc
  .tuple(
    Arbitrary.make(ContentFile),
    fc.nat(),
    fc.nat({ max: 3 }),
    fc.nat({ max: replacements.length - 1 }),
    fc.boolean()
  )
  .map(([valid, where, how, which, mutate]) => {
    const value = JSON.parse(JSON.stringify(valid)) as Json
    if (!mutate) return value
    const locs = locations(value)
    const loc = locs[where % Math.max(locs.length, 1)]
    if (loc === undefined) return { ...(value as object), unexpected: 1 } as Json
    const parent = loc.parent as Record<string | number, Json>
    if (how === 0 && !Array.isArray(loc.parent)) delete parent[loc.key]
    else if (how === 1 && !Array.isArray(loc.parent)) parent["unexpectedKey"] = 1
    else parent[loc.key] = replacements[which] as Json
    return value
  })

describe("the Effect decoder and Ajv on the exported JSON Schema agree", () => {
  it("on 10,000 generated valid and mutated content files", () => {
    const ajv = new Ajv({ allErrors: false, strict: false })
    const validate = ajv.compile(JSONSchema.make(ContentFile))
    const decode = ParseResult.decodeUnknownEither(ContentFile, { onExcessProperty: "error" })
    let valid = 0
    let invalid = 0
    fc.assert(
      fc.property(candidate, (value) => {
        const effectOk = Either.isRight(decode(value))
        const ajvOk = validate(value)
        if (effectOk) valid++
        else invalid++
        expect({ value, effectOk }).toEqual({ value, effectOk: ajvOk })
      }),
      { numRuns: 10_000, seed: 20261129 }
    )
    // Both sides of the agreement are exercised.
    expect(valid).toBeGreaterThan(2000)
    expect(invalid).toBeGreaterThan(2000)
    expect(Schema.is(ContentFile)({})).toBe(true)
  })
})
