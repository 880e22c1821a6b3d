/** Test support: temporary folders with files, and positions of text in them. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

/** Writes files (relative path → text or bytes) under a new temporary folder; returns the folder. */
export const writeTree = (files: Readonly<Record<string, string | Uint8Array>>): string => {
  const root = mkdtempSync(join(tmpdir(), "cardfx-"))
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
