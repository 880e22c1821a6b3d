/**
 * README snippets, compiled (by `tsc --noEmit -p .` and by the embedding
 * type-check against dist/*.d.ts) and run here, so they cannot rot. Each
 * snippet is a whole file under test/embedding/snippets/ that imports only
 * public entry points. README.md shows each one verbatim inside
 *
 *   <!-- snippet: test/embedding/snippets/<name>.ts -->
 *   ```ts
 *   ...the file...
 *   ```
 *
 * test/embedding/README-sections.md is the text to paste (checked here to
 * hold every snippet verbatim); the last test checks README.md shows every
 * snippet byte for byte, with no stale marker.
 */
import { Effect } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { serveBin } from "../support/served.js"
import { tempDir } from "../support/tmp.js"
import { validate } from "./snippets/batch-validation.js"
import { upgradeOverHttp } from "./snippets/client.js"
import { layer, upgradeAndPlay } from "./snippets/embedding.js"

const SNIPPETS = ["embedding", "batch-validation", "generative-testing", "client"] as const

// Made while the file's suites are collected: removed after the file (test/support/tmp.ts).
const dir = tempDir("cardfx-snippets-")

describe("README: embedding", () => {
  it("upgrades, resolves and plays a card through the live layer", async () => {
    const r = await Effect.runPromise(Effect.scoped(Effect.provide(upgradeAndPlay, layer(join(dir, "ledger.db")))))
    expect("fingerprint" in r && r.fingerprint.length).toBe(64)
    expect("events" in r && r.events.some((e) => e.type === "statusApplied")).toBe(true)
  })
})

describe("README: batch validation", () => {
  it("data/ validates with no error; a broken file is reported with its code and position", async () => {
    const ok = await validate(["data"])
    expect(ok.errors).toEqual([])
    expect(ok.files).toBeGreaterThan(5)
    const pkg = join(dir, "broken")
    mkdirSync(pkg, { recursive: true })
    writeFileSync(
      join(pkg, "manifest.json"),
      JSON.stringify({ packageId: "broken", version: "1.0.0", engineVersion: 17 })
    )
    writeFileSync(join(pkg, "cards.json"), "{ \"cards\": [ { \"cardId\": \"x\", \"cost\": 1, \"cost\": 2 } ] }")
    const bad = await validate([pkg])
    expect(bad.errors.some((e) => / duplicate_key /.test(e))).toBe(true)
  })
})

describe("README: generative testing", async () => {
  // The snippet's property tests register here.
  await import("./snippets/generative-testing.js")
})

describe("README: serving, the typed client", () => {
  it("assesses, applies and gets a typed 404 from a server on an ephemeral port", async () => {
    const s = await serveBin([
      "--package",
      "data/heroscript.base",
      "--store",
      join(tempDir("cardfx-snippet-serve-"), "ledger.db")
    ])
    try {
      expect(await Effect.runPromise(upgradeOverHttp(s.url, "hero-1"))).toEqual({
        compatible: true,
        status: "applied",
        revision: 1,
        missing: "unknown_card"
      })
    } finally {
      await s.kill()
    }
  })
})

describe("README carries the snippets verbatim", () => {
  const block = (name: string): string => {
    const file = `test/embedding/snippets/${name}.ts`
    return `<!-- snippet: ${file} -->\n\`\`\`ts\n${readFileSync(file, "utf8")}\`\`\``
  }
  it("test/embedding/README-sections.md (the text to paste) shows every snippet byte for byte", () => {
    const sections = readFileSync("test/embedding/README-sections.md", "utf8")
    for (const name of SNIPPETS) expect(sections.includes(block(name)), name).toBe(true)
  })

  it("every snippet appears in README.md byte for byte, after its marker", () => {
    const readme = readFileSync("README.md", "utf8")
    for (const name of SNIPPETS) {
      expect(readme.includes(block(name)), `README.md must show snippets/${name}.ts verbatim after its marker`).toBe(
        true
      )
    }
    // No stale marker: every snippet marker in README.md names a snippet of this list.
    const markers = [...readme.matchAll(/<!-- snippet: test\/embedding\/snippets\/([\w-]+)\.ts -->/g)].map((m) => m[1])
    expect([...markers].sort()).toEqual([...SNIPPETS].sort())
  })
})
