import { Either } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { Diagnostic } from "../../src/kernel/Diagnostic.js"
import { lineColumn, locate, makeLocator, parseJson } from "../../src/kernel/Json.js"

const fail = (input: string | Uint8Array): Diagnostic => {
  const r = parseJson(input, { file: "f.json" })
  if (Either.isRight(r)) throw new Error("expected a failure")
  return r.left
}

const timed = <A>(f: () => A): A => {
  const t0 = performance.now()
  const a = f()
  // The hostile suite promises each input finishes in well under a second.
  expect(performance.now() - t0).toBeLessThan(1000)
  return a
}

describe("hardened JSON input", () => {
  it("parses ordinary JSON like JSON.parse", () => {
    const text = "{\"a\":[1,2.5,-3e2,true,false,null,\"x\\n\\u00e9\"],\"b\":{\"c\":{}},\"d\":[]}"
    const r = parseJson(text)
    expect(Either.isRight(r) && r.right.value).toEqual(JSON.parse(text))
  })

  it.each(["__proto__", "constructor", "prototype"])("rejects the key %s and leaves Object.prototype clean", (key) => {
    const d = timed(() => fail(`{"ok":1,\n  "nested": {"${key}": {"polluted": true}}}`))
    expect(d).toMatchObject({ code: "forbidden_key", path: `/nested/${key}`, line: 2, column: 14, file: "f.json" })
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty("polluted")
  })

  it("rejects duplicate keys instead of keeping the last one", () => {
    const d = timed(() => fail("{\"cards\": [{\"cardId\": \"a\", \"cost\": 1, \"cost\": 2}]}"))
    expect(d).toMatchObject({ code: "duplicate_key", path: "/cards/0/cost", line: 1, column: 39 })
  })

  it.each([1e5, 1e6])("turns %d nesting levels into depth_limit, not a stack overflow", (n) => {
    const text = "[".repeat(n) + "]".repeat(n)
    const d = timed(() => fail(text))
    expect(d.code).toBe("depth_limit")
    expect(d.details).toEqual({ limit: 128, actual: 129 })
    expect(d.line).toBe(1)
    expect(d.column).toBe(129)
  })

  it("rejects 2^53+1 and 1e400", () => {
    expect(timed(() => fail("{\"n\": 9007199254740993}"))).toMatchObject({
      code: "unsafe_number",
      path: "/n",
      column: 7
    })
    expect(timed(() => fail("[1, 1e400]"))).toMatchObject({ code: "unsafe_number", path: "/1", column: 5 })
    expect(timed(() => fail("[-1e400]"))).toMatchObject({ code: "unsafe_number", path: "/0" })
    expect(timed(() => fail("[1.5e300]"))).toMatchObject({ code: "unsafe_number" })
  })

  it("rejects a 50 MB input before parsing it", () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x20)
    const d = timed(() => fail(big))
    expect(d).toMatchObject({ code: "file_too_large", path: "", line: 1, column: 1 })
    expect(d.details).toEqual({ size: 50 * 1024 * 1024, limit: 16 * 1024 * 1024, actual: 50 * 1024 * 1024 })
  })

  it("rejects invalid UTF-8 with the byte position", () => {
    const bytes = new Uint8Array([0x7b, 0x0a, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])
    expect(timed(() => fail(bytes))).toMatchObject({ code: "invalid_utf8", line: 2, column: 6 })
  })

  it("rejects an empty file and a blank one", () => {
    expect(fail("")).toMatchObject({ code: "empty_file", path: "", line: 1, column: 1 })
    expect(fail(new Uint8Array())).toMatchObject({ code: "empty_file" })
    expect(fail(" \n\t")).toMatchObject({ code: "empty_file" })
  })

  it("reports syntax errors with line and column", () => {
    expect(fail("{\n  \"a\": [1, 2,]\n}")).toMatchObject({ code: "json_syntax", path: "/a/2", line: 2, column: 14 })
    expect(fail("{\"a\": \"unterminated")).toMatchObject({ code: "json_syntax", path: "/a" })
    expect(fail("{} x")).toMatchObject({ code: "json_syntax", column: 4 })
    expect(fail("[\"\\x\"]")).toMatchObject({ code: "json_syntax" })
  })

  it("accepts a UTF-8 BOM", () => {
    const r = parseJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]))
    expect(Either.isRight(r)).toBe(true)
  })

  it("locates JSON pointers and falls back to the nearest ancestor", () => {
    const text = "{\n  \"cards\": [\n    {\"cardId\": \"x\",\n     \"cost\": 3}\n  ]\n}"
    expect(locate({ text }, "/cards/0/cost")).toEqual({ line: 4, column: 14 })
    expect(locate({ text }, "/cards/0/missing")).toEqual({ line: 3, column: 5 })
    expect(locate({ text }, "")).toEqual({ line: 1, column: 1 })
  })

  it("a locator belongs to its text: locating in several documents, interleaved, never mixes them up", () => {
    const a = "{\n  \"x\": {\n    \"y\": 1\n  }\n}"
    const b = "[\n\n\n  {\"x\": {\"y\": 2}}]"
    const la = makeLocator(a)
    const lb = makeLocator(b)
    expect(la.locate("/x/y")).toEqual({ line: 3, column: 10 })
    expect(lb.locate("/0/x/y")).toEqual({ line: 4, column: 15 })
    expect(la.locate("/x/y")).toEqual({ line: 3, column: 10 })
    expect(la.lineColumn(a.indexOf("1"))).toEqual(lineColumn(a, a.indexOf("1")))
    expect(lb.lineColumn(b.indexOf("2"))).toEqual({ line: 4, column: 15 })
    // A parsed document carries its own locator; `locate` uses it.
    const doc = parseJson(a)
    expect(Either.isRight(doc) && doc.right.locator.locate("/x")).toEqual({ line: 2, column: 8 })
    expect(Either.isRight(doc) && locate(doc.right, "/x/y")).toEqual({ line: 3, column: 10 })
  })
})

describe("the kernel keeps no hidden module-level mutable state", () => {
  // A module-level `let`/`var`, or a module-level Map/Set/array that a function may fill, is state shared by every
  // caller; constant lookup tables are typed `ReadonlySet`/`ReadonlyMap`.
  const files = readdirSync("src/kernel").filter((f) => f.endsWith(".ts"))
  it.each(files)("%s", (file) => {
    const text = readFileSync(join("src/kernel", file), "utf8")
    const topLevel = text.split("\n").filter((line) =>
      /^(export )?(let|var) /.test(line) ||
      /^(export )?const \w+(: (Map|Set|WeakMap|WeakSet)<[^=]+)? = new (Map|Set|WeakMap|WeakSet)\b/.test(line) ||
      /^(export )?const \w+(: [^=]+)? = \[\]/.test(line)
    )
    expect(topLevel).toEqual([])
  })
})
