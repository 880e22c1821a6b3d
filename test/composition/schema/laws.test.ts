import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Bundle } from "../../../src/composition/schema/Bundle.js"
import { Card, EffectComponent } from "../../../src/composition/schema/Card.js"
import { Attribute, Buff, Relic } from "../../../src/composition/schema/Modifier.js"
import { Activity, ContentFile, Manifest, Slot } from "../../../src/composition/schema/Package.js"
import { Status } from "../../../src/composition/schema/Status.js"
import { Patch, Requirements, Transformation } from "../../../src/composition/schema/Transformation.js"

const schemas = {
  Card,
  EffectComponent,
  Status,
  Relic,
  Buff,
  Attribute,
  Bundle,
  Requirements,
  Patch,
  Transformation,
  Manifest,
  Slot,
  Activity,
  ContentFile
} as const

// Content arbitraries are recursive (components → children); keep generated trees small.
fc.configureGlobal({ baseSize: "xsmall" })

describe("Schema laws (composition content)", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    const s = schema as Schema.Schema<unknown, unknown>
    const is = Schema.is(s)
    const encode = Schema.encodeSync(s)
    const decode = Schema.decodeUnknownSync(s, { onExcessProperty: "error" })
    it(`${name}: generated values are valid and round-trip through encode/decode`, () => {
      fc.assert(
        fc.property(Arbitrary.make(s), (value) => {
          expect(is(value)).toBe(true)
          expect(decode(encode(value))).toEqual(value)
        }),
        { numRuns: name === "ContentFile" ? 15 : 50, seed: 17 }
      )
    })
  }
})
