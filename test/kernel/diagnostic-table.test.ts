import { Either } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { diagnostic } from "../../src/kernel/Diagnostic.js"
import { diagnosticCodes, DiagnosticCodeTable } from "../../src/kernel/DiagnosticCode.js"
import {
  diagnosticFromError,
  errorClassByCode,
  errorFromDiagnostic,
  errorFromDiagnostics,
  isCardfxError
} from "../../src/kernel/Errors.js"
import { unobservedCodes } from "../support/codes-global.js"
import { codesIn } from "../support/codes.js"

const made: Array<string> = []
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-codes-"))
  made.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the diagnostic table", () => {
  it("has one error class per code: its _tag is the table's tag, its code the code", () => {
    expect(Object.keys(errorClassByCode)).toEqual(diagnosticCodes)
    const tags = new Set<string>()
    for (const code of diagnosticCodes) {
      const e = new errorClassByCode[code]({ message: "m" })
      expect(e._tag).toBe(DiagnosticCodeTable[code].tag)
      expect(e.code).toBe(code)
      expect(e).toBeInstanceOf(Error)
      tags.add(e._tag)
    }
    expect(tags.size).toBe(diagnosticCodes.length)
  })

  it("lists every code once in source: its table row; the class, the map and the maker follow from it", () => {
    const table = readFileSync("src/kernel/DiagnosticCode.ts", "utf8")
    const model = [
      "src/kernel/Errors.ts",
      "src/kernel/ErrorChannel.ts",
      ...readdirSync("src/kernel/errors").map((f) => `src/kernel/errors/${f}`)
    ]
      .map((f) => readFileSync(f, "utf8"))
      .join("\n")
    for (const code of diagnosticCodes) {
      expect(table.match(new RegExp(`^\\s+${code}: \\{`, "gm")), code).toHaveLength(1)
      expect(model, code).not.toMatch(new RegExp(`\\b${code}\\b`))
      // Each class is named by its tag, and only there: the line `class X extends CodedError<X>()("X") {}`.
      const tag = DiagnosticCodeTable[code].tag
      expect(errorClassByCode[code].name).toBe(tag)
      expect(model.match(new RegExp(`\\bclass ${tag} extends CodedError<${tag}>\\(\\)\\("${tag}"\\) \\{\\}`, "g")), tag)
        .toHaveLength(1)
    }
  })

  it("a class made by CodedError carries its table code, its own diagnostic by default, and every given one", () => {
    const own = new errorClassByCode.unknown_card({ message: "no card x", subject: "x" })
    expect(own.diagnostics).toEqual([diagnostic("unknown_card", "no card x", { subject: "x" })])
    const also = diagnostic("slot_full", "full", {}, "warning")
    const both = errorFromDiagnostics(
      [diagnostic("unknown_card", "no card y"), also],
      diagnostic("internal_error", "x")
    )
    expect(both._tag).toBe("UnknownCard")
    expect(both.diagnostics).toHaveLength(2)
  })

  it("maps every diagnostic to its error and back, keeping every context field", () => {
    for (const code of diagnosticCodes) {
      const d = diagnostic(code, `a ${code}`, {
        file: "f.json",
        path: "/a/0",
        line: 3,
        column: 7,
        subject: "s",
        transformationId: "t",
        ruleId: "r",
        cardCode: "HHX-PROTO-001",
        effectId: "HHX-PROTO-001-E1",
        details: { limit: 64, actual: 65 }
      })
      const e = errorFromDiagnostic(d)
      expect(isCardfxError(e)).toBe(true)
      expect(e.code).toBe(code)
      expect(diagnosticFromError(e)).toEqual(d)
    }
    expect(isCardfxError(new Error("plain"))).toBe(false)
  })

  // Every code is *produced* by some test: test/support/codes-setup.ts records the codes passing assertions
  // observe on produced errors and diagnostics, and after a whole-suite run test/support/codes-global.ts fails
  // the run for any code no test observed. These tests check that machinery, so it cannot pass vacuously.
  it("the observed-codes check needs every test file's record and reports each unobserved code", () => {
    const dir = tmp()
    const files = ["test/a.test.ts", "test/b.test.ts"]
    writeFileSync(join(dir, "1.json"), JSON.stringify({ file: "test/a.test.ts", codes: diagnosticCodes.slice(0, 10) }))
    expect(unobservedCodes(dir, files)).toBeUndefined()
    writeFileSync(join(dir, "2.json"), JSON.stringify({ file: "test/b.test.ts", codes: diagnosticCodes.slice(11) }))
    expect(unobservedCodes(dir, files)).toEqual([diagnosticCodes[10]])
    writeFileSync(join(dir, "3.json"), JSON.stringify({ file: "test/b.test.ts", codes: [diagnosticCodes[10]] }))
    expect(unobservedCodes(dir, files)).toEqual([])
    expect(unobservedCodes(join(dir, "absent"), files)).toBeUndefined()
  })

  it("records codes from produced values only: errors, diagnostics, what holds them, and command output", () => {
    const d = diagnostic("unknown_card", "no card x", { file: "f.json", line: 1, column: 2 })
    expect([...codesIn(d)]).toEqual(["unknown_card"])
    expect([...codesIn(errorFromDiagnostic(diagnostic("slot_full", "m")))]).toEqual(["slot_full"])
    expect([...codesIn(Either.left([d]))]).toEqual(["unknown_card"])
    expect([...codesIn({ ok: false, diagnostics: [diagnostic("json_syntax", "m")] })]).toEqual(["json_syntax"])
    expect([...codesIn("InvalidId")]).toEqual(["invalid_id"])
    expect([...codesIn("[{\"code\": \"depth_limit\", \"message\": \"deep\"}]")]).toEqual(["depth_limit"])
    expect([...codesIn("deck.json:3:7 missing_field missing field `cost`\n")]).toEqual(["missing_field"])
    expect([...codesIn("the words unknown_card and slot_full in prose")]).toEqual([])
    expect([...codesIn({ code: "unknown_card" })]).toEqual([])
    expect([...codesIn(42)]).toEqual([])
  })
})
