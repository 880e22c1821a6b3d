/**
 * Which diagnostic codes the suite produces. Every passing assertion whose
 * subject (the *actual* value, what the code under test returned) is a
 * cardfx tagged error, a diagnostic, or a value holding them (an array, an
 * `Either`, an `Exit`, a result object) — or the `code`/`_tag` read from one,
 * or command output holding diagnostics (JSON `"code"` members, human lines) —
 * records that code. Each test file writes what it observed to
 * `CODES_DIR/<file>.json`; after a full run the global teardown checks that
 * every code of `src/kernel/DiagnosticCode.ts` was observed.
 *
 * Files that assert the table itself (iterating every code) are excluded:
 * they would observe every code without producing any.
 */
import { createHash } from "node:crypto"
import { join, relative } from "node:path"
import { DiagnosticCodeTable, isDiagnosticCode } from "../../src/kernel/DiagnosticCode.js"

export const CODES_DIR = "node_modules/.cache/cardfx-codes"

/** Test files that enumerate the table: what they assert proves nothing about production. */
export const TABLE_FILES: ReadonlyArray<string> = [
  "test/kernel/diagnostic-table.test.ts",
  "test/embedding/public-surface.test.ts"
]

const TAGS: ReadonlyMap<string, string> = new Map(Object.entries(DiagnosticCodeTable).map(([code, e]) => [e.tag, code]))

/** The codes a produced value carries: itself (a code or a tag string), or any error/diagnostic inside it (depth ≤ 4). */
export const codesIn = (value: unknown, out: Set<string> = new Set(), depth = 0): Set<string> => {
  if (depth > 4 || value === null || value === undefined) return out
  if (typeof value === "string") {
    if (isDiagnosticCode(value)) out.add(value)
    else if (TAGS.has(value)) out.add(TAGS.get(value) as string)
    // Command output: diagnostics as JSON (`"code": "x"`) or as human lines (`file:line:col x message`, `<input> x message`).
    else if (value.length > 20) {
      for (const m of value.matchAll(/"code"\s*:\s*"([a-z0-9_]+)"/g)) if (isDiagnosticCode(m[1])) out.add(m[1])
      // ... and the CLI's one-line errors (`cardfx simulate: usage_error ...`, `cardfx: internal_error ...`).
      for (
        const m of value.matchAll(/(?:^|\s)(?:\S+:\d+:\d+|<input>|\S+\.json|cardfx(?: [a-z-]+)*:) ([a-z0-9_]+)\b/g)
      ) {
        if (isDiagnosticCode(m[1])) out.add(m[1])
      }
    }
    return out
  }
  if (typeof value !== "object") return out
  if (Array.isArray(value)) {
    for (const x of value.slice(0, 1000)) codesIn(x, out, depth + 1)
    return out
  }
  const o = value as Record<string, unknown>
  // A diagnostic or a tagged error: its code is what was produced.
  if (isDiagnosticCode(o["code"]) && (typeof o["message"] === "string" || typeof o["_tag"] === "string")) {
    out.add(o["code"])
  }
  for (
    const key of ["left", "right", "error", "cause", "diagnostics", "errors", "failure", "value", "result", "issues"]
  ) {
    if (key in o) codesIn(o[key], out, depth + 1)
  }
  return out
}

/** The record file of one test file (stable name, no separators). */
export const recordFile = (testPath: string): string =>
  join(CODES_DIR, `${createHash("sha256").update(relative(process.cwd(), testPath)).digest("hex").slice(0, 16)}.json`)
