import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { diagnostic } from "../../src/kernel/Diagnostic.js"
import { DiagnosticCodeTable, diagnosticCodes } from "../../src/kernel/DiagnosticCode.js"
import { diagnosticFromError, errorClassByCode, errorFromDiagnostic, isCardfxError } from "../../src/kernel/Errors.js"

const testSources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return testSources(full)
    return full.endsWith(".ts") && !full.endsWith("diagnostic-table.test.ts") ? [readFileSync(full, "utf8")] : []
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

  it("every code is asserted by at least one test (by code or by tag)", () => {
    const sources = testSources("test").join("\n")
    const unasserted = diagnosticCodes.filter(
      (code) => !sources.includes(`"${code}"`) && !sources.includes(`"${DiagnosticCodeTable[code].tag}"`)
    )
    expect(unasserted).toEqual([])
  })
})
