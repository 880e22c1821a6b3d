import { describe, expect, it } from "vitest"
import { FastCheck as fc } from "effect"
import { canonicalJson, canonicalJsonEither, hashCanonical, sha256Hex } from "../../src/kernel/Canonical.js"
import { compareOrdinal } from "../../src/kernel/Ordinal.js"

/** The reference: a deep copy with keys inserted in ordinal order, through JSON.stringify. */
const sortedCopy = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortedCopy)
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort(compareOrdinal)) {
      // defineProperty, so a generated "__proto__" key stays a key.
      Object.defineProperty(out, k, { value: sortedCopy((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return v
}

describe("canonical JSON", () => {
  it("equals JSON.stringify of the key-sorted value, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // JSON.stringify writes -0 as 0 too; integer-like keys are the only reordering JSON.stringify does on its own.
        const hasIndexKeys = JSON.stringify(v).match(/"\d+":/) !== null
        if (!hasIndexKeys) expect(canonicalJson(v)).toBe(JSON.stringify(sortedCopy(v)))
      }),
      { numRuns: 1000, seed: 7 }
    )
  })

  it("ignores key order and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], c: undefined })).toBe('{"a":[true,null,"x"],"b":1}')
    expect(canonicalJson({ B: 1, a: 2, _: 3 })).toBe('{"B":1,"_":3,"a":2}')
    expect(hashCanonical({ x: 1, y: 2 })).toBe(hashCanonical({ y: 2, x: 1 }))
    expect(canonicalJson(-0)).toBe("0")
  })

  it("rejects non-finite numbers and undefined in arrays, naming the path", () => {
    expect(canonicalJsonEither({ a: [1, Infinity] })).toEqual({
      ok: false,
      error: { _tag: "NotCanonical", path: "/a/1", reason: "non-finite number Infinity" }
    })
    expect(canonicalJsonEither([undefined])).toMatchObject({ ok: false, error: { path: "/0" } })
    expect(canonicalJson({ n: NaN })).toBe('{"$notCanonical":"/n"}')
  })

  it("hashes with sha256 over UTF-8", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })
})
