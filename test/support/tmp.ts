/**
 * Test support: temporary folders with files, and positions of text in them.
 * Every folder made here is scoped: removed when the test that made it ends
 * (or, when made while a file's suites are collected, after that file).
 */
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, onTestFinished } from "vitest"
import { getCurrentTest } from "vitest/suite"

const remove = (dir: string): void => rmSync(dir, { recursive: true, force: true })

/** A new empty temporary folder, removed after the current test (or after the file, outside a test). */
export const tempDir = (prefix = "cardfx-"): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  if (getCurrentTest() !== undefined) onTestFinished(() => remove(dir))
  else afterAll(() => remove(dir))
  return dir
}

/** A temporary folder as a scoped resource (for `it.scoped`/`Effect.scoped`): removed when the scope closes. */
export const scopedTempDir = (prefix = "cardfx-") =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (dir) => Effect.sync(() => remove(dir))
  )

/** Writes files (relative path → text or bytes) under a new temporary folder ({@link tempDir}); returns the folder. */
export const writeTree = (files: Readonly<Record<string, string | Uint8Array>>): string => {
  const root = tempDir()
  for (const [name, content] of Object.entries(files)) {
    const full = join(root, name)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
  }
  return root
}

/** 1-based line and column of the first occurrence of `needle` in `text` (or of its `nth` occurrence). */
export const positionOf = (text: string, needle: string, nth = 0): { line: number; column: number } => {
  let at = -1
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1)
    if (at < 0) throw new Error(`"${needle}" not found`)
  }
  const before = text.slice(0, at)
  const line = before.split("\n").length
  return { line, column: at - before.lastIndexOf("\n") }
}
