/**
 * Issue 12.2: a wrong type is a schema error, never a limit. For EVERY limit
 * code of the table (`limitCodes`, the rows that name a `Limits` entry):
 *
 * - a value of the wrong type (or an unknown enum member) at the place the
 *   limit is checked decodes to `schema_invalid` only, whose message names the
 *   JSON pointer and the expected type;
 * - the well-typed value one past the limit gives the limit code with
 *   `details.limit` and `details.actual`: through Schema decoding where the
 *   Schema carries the limit, otherwise through the limit walker of the stage
 *   that enforces it (parser, compiler, resolver, executor).
 *
 * The rows are keyed by code, and a test checks that every limit code has a
 * row: a new limit code in the table without a row here fails.
 */
import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { ContentFile } from "../../../src/composition/schema/Package.js"
import { makeDecoder } from "../../../src/kernel/Decode.js"
import type { Diagnostic } from "../../../src/kernel/Diagnostic.js"
import { type DiagnosticCode, limitCodes, limitOf } from "../../../src/kernel/DiagnosticCode.js"
import { Limits } from "../../../src/kernel/Limits.js"
import { runWalkerCase, walkers } from "../../../src/testing/limits.js"

const decode = makeDecoder(ContentFile)

/** A valid content file: every place a row writes to exists. */
const baseDocument = () => ({
  cards: [
    {
      cardId: "c",
      cost: 1,
      tags: ["t"],
      metadata: { nameKey: "n", artKey: "a" },
      components: [{
        type: "effect",
        componentId: "strike",
        order: 0,
        effect: { type: "DAMAGE", target: "TARGET", amount: 1 }
      }]
    }
  ],
  statuses: [{
    statusId: "s",
    stacking: "add",
    durationRule: "refresh",
    payloadParameters: [{ parameterId: "p", unit: "hp", profile: "staged", stages: [0.5] }]
  }],
  bundles: [
    {
      bundleId: "b",
      components: [
        {
          type: "effect",
          componentId: "m",
          order: 0,
          effect: {
            type: "APPLY_STATUS",
            target: "TARGET",
            statusId: "s",
            payloadBindings: [{ parameterId: "p", cardEffectComponentId: "strike" }]
          }
        }
      ]
    }
  ],
  locales: [{ locale: "en", names: { "card.c.name": "C" } }],
  transformations: [
    {
      upgradeId: "u",
      category: "Test",
      compositionRules: [{
        ruleId: "r",
        priority: 0,
        namespace: "ns",
        bundleId: "b",
        scope: "AfterImpact",
        selector: { effectTypes: ["DAMAGE"] }
      }]
    }
  ]
})

/** The base document with `value` written at a JSON pointer ("" replaces the whole document). */
const at = (pointer: string, value: unknown): unknown => {
  if (pointer === "") return value
  const doc: unknown = baseDocument()
  const keys = pointer.split("/").slice(1)
  let node = doc as Record<string, unknown>
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>
  node[keys[keys.length - 1] as string] = value
  return doc
}

const decoded = (pointer: string, value: unknown): ReadonlyArray<Diagnostic> => {
  const r = decode(at(pointer, value))
  return Either.isLeft(r) ? r.left : []
}

const symbols = (n: number, prefix = "s"): Array<string> => Array.from({ length: n }, (_, i) => `${prefix}${i}`)
const rules = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ({ ruleId: `r${i}`, priority: 0, namespace: "ns", bundleId: "b", scope: "AfterImpact" })
  )
const members = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ({
      type: "effect",
      componentId: `m${i}`,
      order: i,
      effect: { type: "DAMAGE", target: "TARGET", amount: 1 }
    })
  )

/** One place a limit is checked: wrong-typed values there, and how the value one past the limit is produced. */
interface Row {
  readonly place: string
  /** Values of the wrong type (or unknown enum members) at `place`. */
  readonly wrong: ReadonlyArray<unknown>
  /**
   * One past the limit: a well-typed value at `place`, decoded, with the
   * `details` expected; or "walker" when the limit is enforced by a later
   * stage (its limit walker builds the case).
   */
  readonly past: { readonly value: unknown; readonly limit: number; readonly actual: number } | "walker"
}

const rows: { readonly [C in DiagnosticCode]?: ReadonlyArray<Row> } = {
  file_too_large: [{ place: "", wrong: ["a string, not a content file", 5, []], past: "walker" }],
  depth_limit: [{ place: "", wrong: [[[[["deep but not an object"]]]]], past: "walker" }],
  symbol_limit: [
    { place: "/cards/0/tags/0", wrong: [5, null, ["t"]], past: { value: "x".repeat(129), limit: 128, actual: 129 } },
    {
      place: "/bundles/0/components/0/effect/payloadBindings/0/cardEffectComponentId",
      wrong: [5, true],
      past: { value: "x".repeat(129), limit: 128, actual: 129 }
    }
  ],
  list_limit: [
    { place: "/cards/0/tags", wrong: ["ember", 3, {}], past: { value: symbols(65), limit: 64, actual: 65 } },
    {
      place: "/transformations/0/compositionRules/0/selector/effectTypes",
      wrong: ["DAMAGE", ["NOT_AN_EFFECT"], [5]],
      past: { value: Array.from({ length: 65 }, () => "DAMAGE"), limit: 64, actual: 65 }
    }
  ],
  rule_limit: [{
    place: "/transformations/0/compositionRules",
    wrong: [{}, "r", [5]],
    past: { value: rules(33), limit: 32, actual: 33 }
  }],
  member_limit: [{
    place: "/bundles/0/components",
    wrong: ["m", {}],
    past: { value: members(65), limit: 64, actual: 65 }
  }],
  name_limit: [{
    place: "/locales/0/names",
    wrong: [[], "names", { "card.c.name": 5 }],
    past: {
      value: Object.fromEntries(Array.from({ length: 4097 }, (_, i) => [`k${i}`, "K"])),
      limit: 4096,
      actual: 4097
    }
  }],
  text_limit: [{
    place: "/locales/0/names/card.c.name",
    wrong: [5, null, ["C"]],
    past: { value: "x".repeat(201), limit: 200, actual: 201 }
  }],
  repeat_limit: [
    {
      place: "/cards/0/components/0/effect/repeat",
      wrong: [2.5, "2", null],
      past: { value: 17, limit: 16, actual: 17 }
    },
    { place: "/cards/0/components/0/effect/repeat", wrong: [], past: { value: 0, limit: 1, actual: 0 } }
  ],
  order_overflow: [
    {
      place: "/cards/0/components/0/order",
      wrong: ["ten", 1.5, []],
      past: { value: Limits.orderMax + 1, limit: Limits.orderMax, actual: Limits.orderMax + 1 }
    },
    {
      place: "/cards/0/components/0/order",
      wrong: [],
      past: { value: Limits.orderMin - 1, limit: Limits.orderMin, actual: Limits.orderMin - 1 }
    }
  ],
  nesting_limit: [{ place: "/cards/0/components/0/children", wrong: ["child", 5, [5]], past: "walker" }],
  node_budget: [{ place: "/cards/0/components", wrong: [{}, "x"], past: "walker" }],
  match_limit: [{
    place: "/transformations/0/compositionRules/0/selector",
    wrong: ["DAMAGE", { effectTypes: "DAMAGE" }],
    past: "walker"
  }],
  expansion_limit: [{ place: "/transformations/0/compositionRules", wrong: ["rules"], past: "walker" }],
  budget_exceeded: [{ place: "/cards/0/components/0/effect/repeat", wrong: ["16", 16.5], past: "walker" }]
}

describe("limit codes: wrong type → schema_invalid, one past the limit → the limit code (issue 12.2)", () => {
  it("the table has limit codes, and every one has a row here", () => {
    expect(limitCodes.length).toBeGreaterThan(10)
    for (const code of limitCodes) expect(rows[code], `no row for limit code ${code}`).toBeDefined()
    for (const code of Object.keys(rows)) expect(limitCodes, `${code} is not a limit code of the table`).toContain(code)
  })

  it("the base document decodes", () => {
    expect(decoded("/cards/0/cost", 1)).toEqual([])
  })

  for (const code of limitCodes) {
    for (const [i, row] of (rows[code] ?? []).entries()) {
      describe(`${code} at ${row.place === "" ? "the document" : row.place}${i > 0 ? ` (${i + 1})` : ""}`, () => {
        for (const value of row.wrong) {
          it(`${JSON.stringify(value)} is schema_invalid with the pointer and the expected type`, () => {
            const ds = decoded(row.place, value)
            expect(ds.length, "the wrong-typed value was accepted").toBeGreaterThan(0)
            for (const d of ds) {
              expect(d.code).toBe("schema_invalid")
              expect(d.path?.startsWith(row.place)).toBe(true)
              expect(d.message).toContain(`at ${d.path === "" ? "/" : d.path}:`)
              expect(d.message).toMatch(/expected .*, got /)
              expect(d.details).toBeUndefined()
            }
          })
        }

        const past = row.past
        if (past === "walker") {
          it("one past the limit (its stage's walker) gives the code with details.limit and details.actual", () => {
            const ws = walkers.filter((w) => w.code === code)
            expect(ws.length, `no walker for ${code}`).toBeGreaterThan(0)
            for (const w of ws) {
              const [c] = fc.sample(w.pastLimit as fc.Arbitrary<unknown>, { seed: 12, numRuns: 1 })
              const r = runWalkerCase(w, c as never)
              if (Either.isRight(r)) throw new Error(`${w.name}: one past the limit was accepted`)
              const d = r.left.find((x) => x.code === code)
              expect(d, JSON.stringify(r.left)).toBeDefined()
              expect(d?.details?.limit).toBe(w.limit)
              expect(d?.details?.actual).toBe(w.limit + 1)
            }
          })
        } else {
          it(`${JSON.stringify(past.value).slice(0, 40)} (one past) gives ${code} with details`, () => {
            const ds = decoded(row.place, past.value)
            expect(ds.map((d) => [d.code, d.path])).toEqual([[code, row.place]])
            expect(ds[0]?.details).toEqual({ limit: past.limit, actual: past.actual })
          })
        }
      })
    }
  }

  it("the limit of each decoded row is the Limits entry the table names", () => {
    for (const code of limitCodes) {
      const key = limitOf(code)
      expect(key, code).toBeDefined()
      for (const row of rows[code] ?? []) {
        if (row.past !== "walker" && code !== "repeat_limit" && code !== "order_overflow") {
          expect(row.past.limit, code).toBe(Limits[key as keyof typeof Limits])
        }
      }
    }
  })
})
