/**
 * docs/codes.md is generated from the one code table (src/kernel/DiagnosticCode.ts)
 * and the written fixes (src/kernel/CodeHelp.ts): one entry per code with its
 * meaning, exit class, HTTP status and how to fix it. This test holds the file
 * to the table (`CARDFX_WRITE_CODES=1` rewrites it) and every code to a
 * written fix; SARIF's `helpUri` points at each entry's heading.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { codeHelpUri, codesMarkdown, hasWrittenFix } from "../../src/kernel/CodeHelp.js"
import { diagnosticCodes, exitClassOf, httpStatusOf } from "../../src/kernel/DiagnosticCode.js"

const FILE = "docs/codes.md"

describe("docs/codes.md", () => {
  it("is generated from the code table (CARDFX_WRITE_CODES=1 rewrites it)", () => {
    const expected = codesMarkdown(diagnosticCodes)
    if (process.env.CARDFX_WRITE_CODES === "1") writeFileSync(FILE, expected)
    expect(readFileSync(FILE, "utf8")).toBe(expected)
  })

  it("has one entry per code, with its exit class, HTTP status and a written fix", () => {
    const text = readFileSync(FILE, "utf8")
    const headings = text.split("\n").filter((l) => l.startsWith("## ")).map((l) => l.slice(3))
    expect(headings).toEqual(diagnosticCodes)
    for (const code of diagnosticCodes) {
      expect(hasWrittenFix(code), `${code} has no written fix in src/kernel/CodeHelp.ts`).toBe(true)
      const entry = text.slice(text.indexOf(`## ${code}\n`)).split("\n## ")[0] ?? ""
      expect(entry).toContain(`- Exit class: ${exitClassOf(code)} `)
      expect(entry).toContain(`- HTTP status: ${httpStatusOf(code)}`)
      expect(entry).toMatch(/- How to fix: \S/)
      // The heading is the anchor SARIF links to.
      expect(codeHelpUri(code).endsWith(`codes.md#${code}`)).toBe(true)
    }
  })
})
