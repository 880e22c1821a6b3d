/**
 * vitest setup file (runs before every test file): resets fast-check's global settings, and records the diagnostic
 * codes that passing assertions observe on produced values (see `codes.ts`).
 */
import * as fc from "fast-check"
import { mkdirSync, writeFileSync } from "node:fs"
import { relative } from "node:path"
import { afterAll, chai, expect } from "vitest"
import { CODES_DIR, codesIn, recordFile, TABLE_FILES } from "./codes.js"

// Test files share a worker's modules (isolate: false): a file's fast-check settings never reach the next file.
fc.resetConfigureGlobal()

// The sink of the current test file; the assertion hook is installed once per chai instance.
const sink = globalThis as { cardfxObservedCodes?: Set<string>; cardfxCodeHook?: boolean }
const observed = new Set<string>()
sink.cardfxObservedCodes = observed

if (sink.cardfxCodeHook !== true) {
  sink.cardfxCodeHook = true
  chai.use((c, utils) => {
    const assert = c.Assertion.prototype.assert
    c.Assertion.prototype.assert = function(this: Chai.AssertionStatic, ...args: Parameters<typeof assert>) {
      // Throws when the assertion fails: only passing assertions record.
      const r = assert.apply(this, args)
      const into = sink.cardfxObservedCodes
      if (into !== undefined) codesIn(utils.flag(this, "object"), into)
      return r
    }
    // Matchers that throw their own AssertionError (toMatchObject, toHaveProperty, ...) never call `assert`.
    const record = (self: object): void => {
      const into = sink.cardfxObservedCodes
      if (into !== undefined) codesIn(utils.flag(self, "object"), into)
    }
    for (const name of Object.getOwnPropertyNames(c.Assertion.prototype).filter((n) => /^to[A-Z]/.test(n))) {
      c.Assertion.overwriteMethod(
        name,
        (original: (...args: Array<unknown>) => unknown) =>
          function(this: object, ...args: Array<unknown>) {
            const r = original.apply(this, args)
            if (r instanceof Promise) return r.then((v) => (record(this), v))
            record(this)
            return r
          }
      )
    }
  })
}

afterAll(() => {
  const path = expect.getState().testPath
  if (path === undefined) return
  const file = relative(process.cwd(), path)
  mkdirSync(CODES_DIR, { recursive: true })
  const codes = TABLE_FILES.includes(file) ? [] : [...observed].sort()
  writeFileSync(recordFile(path), JSON.stringify({ file, codes }))
})
