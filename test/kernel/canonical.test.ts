import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, FastCheck as fc } from "effect"
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { canonicalJson, canonicalJsonEither, hashCanonical, sha256Hex } from "../../src/kernel/Canonical.js"
import { compareOrdinal } from "../../src/kernel/Ordinal.js"

/**
 * An independent oracle: keys sorted with the kernel's ordinal comparator,
 * members joined by hand, leaves through JSON.stringify. Unlike
 * `JSON.stringify` of a key-sorted copy it does not reorder integer-like keys,
 * so it applies to every JSON value and the property below always asserts.
 */
const oracle = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(oracle).join(",")}]`
  if (v !== null && typeof v === "object") {
    const record = v as Record<string, unknown>
    const members = Object.keys(record)
      .sort(compareOrdinal)
      .filter((k) => record[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${oracle(record[k])}`)
    return `{${members.join(",")}}`
  }
  return JSON.stringify(v)
}

describe("canonical JSON", () => {
  it.prop("equals the oracle and round-trips through JSON.parse, for any JSON value", [fc.jsonValue()], ([v]) => {
    const text = canonicalJson(v)
    expect(text).toBe(oracle(v))
    expect(canonicalJson(JSON.parse(text))).toBe(text)
  }, { fastCheck: { numRuns: 1000, seed: 7 } })

  it.prop("objects with integer-like keys keep ordinal key order (JSON.stringify would put them first)", [
    fc.dictionary(fc.oneof(fc.nat().map(String), fc.string()), fc.integer())
  ], ([o]) => {
    const keys = Object.keys(JSON.parse(canonicalJson(o)) as object)
    const written = [...canonicalJson(o).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) =>
      JSON.parse(`"${m[1] ?? ""}"`) as string
    )
    expect(written).toEqual([...keys].sort(compareOrdinal))
  }, { fastCheck: { numRuns: 300, seed: 3 } })

  it("ignores key order and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], c: undefined })).toBe("{\"a\":[true,null,\"x\"],\"b\":1}")
    expect(canonicalJson({ B: 1, a: 2, _: 3, "10": 4, "9": 5 })).toBe("{\"10\":4,\"9\":5,\"B\":1,\"_\":3,\"a\":2}")
    expect(hashCanonical({ x: 1, y: 2 })).toBe(hashCanonical({ y: 2, x: 1 }))
    expect(canonicalJson(-0)).toBe("0")
  })

  // RFC 8785 (JSON Canonicalization Scheme), https://www.rfc-editor.org/rfc/rfc8785
  describe("RFC 8785 known answers", () => {
    it("§3.2.2: the serialization example", () => {
      const input = JSON.parse(
        "{\"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001]," +
          "\"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\", \"literals\": [null, true, false]}"
      ) as unknown
      expect(canonicalJson(input)).toBe(
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
      )
    })

    it("§3.2.3: property sorting by UTF-16 code units", () => {
      const input = JSON.parse(
        "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\", \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\", \"1\": \"One\"," +
          "\"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\", \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}"
      ) as Record<string, string>
      const values = [...canonicalJson(input).matchAll(/:"([^"]*)"/g)].map((m) => m[1])
      expect(values).toEqual([
        "Carriage Return",
        "One",
        "Control",
        "Latin Small Letter O With Diaeresis",
        "Euro Sign",
        "Emoji: Grinning Face",
        "Hebrew Letter Dalet With Dagesh"
      ])
    })

    // Appendix B: IEEE 754 binary64 bit patterns and their canonical text.
    const numbers: ReadonlyArray<readonly [string, string]> = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"]
    ]
    const fromBits = (hex: string): number => {
      const view = new DataView(new ArrayBuffer(8))
      view.setBigUint64(0, BigInt(`0x${hex}`))
      return view.getFloat64(0)
    }
    it.each(numbers)("Appendix B: %s → %s", (bits, text) => {
      expect(canonicalJson(fromBits(bits))).toBe(text)
      expect(canonicalJson([fromBits(bits)])).toBe(`[${text}]`)
    })
    it.each(["7fffffffffffffff", "7ff0000000000000"])(
      "Appendix B: %s (NaN, Infinity) has no canonical form",
      (bits) => {
        expect(canonicalJsonEither(fromBits(bits))).toMatchObject({
          ok: false,
          error: { _tag: "NotCanonical", path: "" }
        })
      }
    )
  })

  it("canonicalJsonEither names the path of a value with no JSON form", () => {
    expect(canonicalJsonEither({ a: [1, Infinity] })).toEqual({
      ok: false,
      error: { _tag: "NotCanonical", path: "/a/1", reason: "non-finite number Infinity" }
    })
    expect(canonicalJsonEither([undefined])).toMatchObject({ ok: false, error: { path: "/0" } })
  })

  it("canonicalJson of NaN or Infinity is a defect naming the path, never a hashed marker", () => {
    expect(() => canonicalJson({ n: NaN })).toThrow(/\/n: non-finite number NaN/)
    expect(() => hashCanonical({ a: [1, -Infinity] })).toThrow(/\/a\/1/)
  })

  it.effect("inside an Effect, hashing a non-finite number dies (a defect, not a typed failure)", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Effect.sync(() => hashCanonical({ score: Number.NaN })))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))
})

describe("sha256", () => {
  // FIPS 180-2 / NIST CSRC example values.
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ],
    ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"]
  ])("sha256Hex of NIST example message %#", (message, digest) => {
    expect(sha256Hex(message)).toBe(digest)
  })

  it("hashes the UTF-8 bytes of a string", () => {
    expect(sha256Hex("€")).toBe(createHash("sha256").update(Uint8Array.from([0xe2, 0x82, 0xac])).digest("hex"))
  })

  const sources = (dir: string): Array<string> =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name)
      return statSync(full).isDirectory() ? sources(full) : full.endsWith(".ts") ? [full] : []
    })
  it("is computed in exactly one place: the kernel's sha256Hex", () => {
    const hashing = sources("src").filter((f) => /createHash\(|\bhash\(\s*["']sha256["']/.test(readFileSync(f, "utf8")))
    expect(hashing).toEqual([join("src", "kernel", "Canonical.ts")])
  })
})
