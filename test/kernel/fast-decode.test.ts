/**
 * The compiled valid path (src/kernel/FastDecode.ts) against Effect's
 * decoder, over values generated from the content Schemas and the same
 * values broken at a random place: a value the compiled path gives is the
 * decoder's value to the byte (key order included), `NO` only where the
 * decoder fails. And `makeDecoder`, which decodes only the failing elements
 * of a failing document again, reports exactly the diagnostics of the whole
 * document decoded again.
 */
import type { Schema } from "effect"
import { Either, FastCheck as fc, ParseResult, type SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { CardLedger } from "../../src/composition/ledger/Ledger.js"
import { Scenario } from "../../src/composition/scenario/Scenario.js"
import { Card } from "../../src/composition/schema/Card.js"
import { ContentFile, Manifest } from "../../src/composition/schema/Package.js"
import { Status } from "../../src/composition/schema/Status.js"
import { Transformation } from "../../src/composition/schema/Transformation.js"
import { Card as HallyuCard, StarterDeck } from "../../src/hallyu/Schema.js"
import { issuesToDiagnostics, makeDecoder } from "../../src/kernel/Decode.js"
import * as FastDecode from "../../src/kernel/FastDecode.js"
import { arbitraryOf } from "../../src/services/fuzz/Arbitraries.js"

const options: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** Every place in a value: its path. */
const places = (
  v: unknown,
  path: ReadonlyArray<string | number> = [],
  out: Array<ReadonlyArray<string | number>> = []
) => {
  out.push(path)
  if (Array.isArray(v)) v.forEach((x, i) => places(x, [...path, i], out))
  else if (typeof v === "object" && v !== null) { for (const [k, x] of Object.entries(v)) places(x, [...path, k], out) }
  return out
}

type Change = { readonly kind: "replace"; readonly with: Json } | { readonly kind: "delete" } | {
  readonly kind: "add"
  readonly key: string
  readonly with: Json
}

/** `v` with one change at `path` (a copy; JSON round trip first, as the parser gives plain data). */
const changed = (v: unknown, path: ReadonlyArray<string | number>, change: Change): unknown => {
  const at = (x: unknown, i: number): unknown => {
    if (i === path.length) {
      if (change.kind === "replace") return change.with
      if (change.kind === "add" && typeof x === "object" && x !== null && !Array.isArray(x)) {
        return { ...x, [change.key]: change.with }
      }
      return x
    }
    const seg = path[i]
    if (Array.isArray(x)) {
      if (i === path.length - 1 && change.kind === "delete") return x.filter((_, j) => j !== seg)
      return x.map((y, j) => (j === seg ? at(y, i + 1) : y))
    }
    if (typeof x === "object" && x !== null) {
      const out: Record<string, unknown> = {}
      for (const [k, y] of Object.entries(x)) {
        if (k === seg && i === path.length - 1 && change.kind === "delete") continue
        out[k] = k === seg ? at(y, i + 1) : y
      }
      return out
    }
    return x
  }
  return at(v, 0)
}

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), with: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }),
  fc.record({ kind: fc.constant("delete" as const) }),
  fc.record({
    kind: fc.constant("add" as const),
    key: fc.constantFrom("extra", "type", "id", "cardId", "amount", "kind"),
    with: fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>
  })
)

/** A generated value, broken or not: the value, and where and how it is broken. */
const valuesOf = <A, I>(schema: Schema.Schema<A, I, never>) =>
  fc.tuple(arbitraryOf(schema), fc.nat(), changeArb, fc.boolean()).map(([value, at, change, broken]) => {
    const plain: unknown = JSON.parse(JSON.stringify(value))
    if (!broken) return plain
    const all = places(plain)
    return changed(plain, all[at % all.length] ?? [], change)
  })

/** The Schemas, how many values each, and whether it is mirrored (a scenario holds nodes FastDecode does not mirror). */
const schemas: ReadonlyArray<readonly [string, Schema.Schema.AnyNoContext, number, boolean]> = [
  ["ContentFile", ContentFile, 60, true],
  ["Manifest", Manifest, 200, true],
  ["Card", Card, 200, true],
  ["Status", Status, 200, true],
  ["Transformation", Transformation, 200, true],
  ["CardLedger", CardLedger, 100, true],
  ["Scenario", Scenario, 100, false],
  ["Hallyu Hex card", HallyuCard, 200, true],
  ["Hallyu Hex deck", StarterDeck, 30, true]
]

describe("the compiled valid path of a decode", () => {
  for (const [name, schema, runs, mirrored] of schemas) {
    if (!mirrored) continue
    it(`${name}: the decoder's value to the byte, or NO only where the decoder fails`, () => {
      const fast = FastDecode.compile(schema.ast, options)
      if (fast === undefined) throw new Error(`${name} is not mirrored`)
      const decode = ParseResult.decodeUnknownEither(schema, options)
      let values = 0
      let refused = 0
      fc.assert(
        fc.property(valuesOf(schema), (v) => {
          const answer = fast(v)
          const slow = decode(v)
          if (FastDecode.isValue(answer)) {
            values++
            expect(Either.isRight(slow)).toBe(true)
            if (Either.isRight(slow)) {
              expect(JSON.stringify(answer)).toBe(JSON.stringify(slow.right))
              expect(answer).toStrictEqual(slow.right)
            }
          } else if (answer === FastDecode.NO) {
            refused++
            expect(Either.isLeft(slow)).toBe(true)
          }
        }),
        { numRuns: runs, seed: 23 }
      )
      // Both kinds of answer were exercised.
      expect(values).toBeGreaterThan(0)
      expect(refused).toBeGreaterThan(0)
    })
  }

  it("mirrors the content Schemas, and compiles nothing for a Schema it does not mirror", () => {
    for (const [name, schema, , mirrored] of schemas) {
      expect([name, FastDecode.compile(schema.ast, options) !== undefined]).toEqual([name, mirrored])
    }
  })

  it("a failing document's diagnostics are the whole decode's, failing elements decoded alone or not", () => {
    const decoder = makeDecoder(ContentFile)
    const decode = ParseResult.decodeUnknownEither(ContentFile, options)
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), changeArb), { minLength: 1, maxLength: 4 }),
        arbitraryOf(ContentFile),
        (changes, value) => {
          let v: unknown = JSON.parse(JSON.stringify(value))
          for (const [at, change] of changes) {
            const all = places(v)
            v = changed(v, all[at % all.length] ?? [], change)
          }
          const text = JSON.stringify(v, null, 1)
          const doc = { text, file: "content.json" }
          const slow = decode(v)
          const got = decoder(v, doc)
          if (Either.isRight(slow)) {
            expect(Either.isRight(got)).toBe(true)
            return
          }
          expect(got).toStrictEqual(Either.left(issuesToDiagnostics(slow.left, doc)))
        }
      ),
      { numRuns: 150, seed: 29 }
    )
  })

  it("decodes a package with failing cards by those cards alone, with the whole decode's diagnostics", () => {
    const cards = Array.from({ length: 30 }, (_, i) => ({
      cardId: i % 7 === 3 ? `bad card ${i}` : `card_${i}`,
      cost: i % 3,
      components: []
    }))
    const v = { cards, statuses: [{ nope: 1 }] }
    const doc = { text: JSON.stringify(v, null, 1), file: "content.json" }
    const slow = ParseResult.decodeUnknownEither(ContentFile, options)(v)
    expect(Either.isLeft(slow)).toBe(true)
    if (Either.isLeft(slow)) {
      const got = makeDecoder(ContentFile)(v, doc)
      expect(got).toStrictEqual(Either.left(issuesToDiagnostics(slow.left, doc)))
      expect(Either.isLeft(got) ? got.left.length : 0).toBeGreaterThan(4)
    }
  })
})
