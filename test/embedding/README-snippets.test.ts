/**
 * The snippets of the README and docs/, compiled (by `tsc --noEmit -p .` and
 * by the embedding type-check against dist/*.d.ts) and run here, so they
 * cannot rot. Each snippet is a whole file under test/embedding/snippets/
 * that imports only public entry points, shown verbatim in its page
 * (`HOMES`) inside
 *
 *   <!-- snippet: test/embedding/snippets/<name>.ts -->
 *   ```ts
 *   ...the file...
 *   ```
 *
 * The last tests check each page shows its snippets byte for byte, and that
 * no page (README.md, docs/*.md) carries a stale or misplaced marker.
 */
import { Effect } from "effect"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { serveBin } from "../support/served.js"
import { tempDir } from "../support/tmp.js"
import { validate } from "./snippets/batch-validation.js"
import { upgradeOverHttp } from "./snippets/client.js"

/** Where each snippet is shown: the README's quick starts, the rest in docs/. */
const HOMES = {
  embedding: "README.md",
  client: "README.md",
  "batch-validation": "docs/embedding.md",
  "generative-testing": "docs/embedding.md"
} as const
const SNIPPETS = Object.keys(HOMES) as ReadonlyArray<keyof typeof HOMES>

// Made while the file's suites are collected: removed after the file (test/support/tmp.ts).
const dir = tempDir("cardfx-snippets-")

// The embedding snippet is a whole program: importing it runs its last line, `main(".cardfx/ledger.db")`, relative to
// the working directory — here a temporary folder (vitest runs each file in a forked process, one file at a time,
// so nothing else reads the working directory meanwhile). What it printed is kept.
const printed: Array<string> = []
const { main } = await (async () => {
  const cwd = process.cwd()
  const log = console.log
  process.chdir(dir)
  console.log = (...args: Array<unknown>) => printed.push(args.join(" "))
  try {
    return await import("./snippets/embedding.js")
  } finally {
    console.log = log
    process.chdir(cwd)
  }
})()

describe("README: embedding", () => {
  // Every error is handled, the layer's included: nothing is left in the error channel (checked by tsc).
  const handled: (store: string) => Effect.Effect<unknown, never, never> = main

  it("its own run upgraded the stored card; run again on the same store, it answers the same", async () => {
    expect(printed).toHaveLength(1)
    const first: unknown = JSON.parse(printed[0] ?? "null")
    expect(first).toEqual({
      revision: 1,
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      upgrades: ["core.ember.affinity"]
    })
    // The second run finds the upgrade stored: no command, no CommandConflict, the same card read.
    const second = await Effect.runPromise(handled(join(dir, ".cardfx/ledger.db")))
    expect(JSON.parse(JSON.stringify(second))).toEqual(first)
  })

  it("a store that cannot be opened is an answer with its code, not a rejected promise", async () => {
    const notAFolder = join(dir, "file")
    writeFileSync(notAFolder, "")
    const r = await Effect.runPromise(main(join(notAFolder, "ledger.db")))
    expect(r).toMatchObject({ failed: "store_unavailable" })
  })
})

describe("docs/embedding.md: batch validation", () => {
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

describe("docs/embedding.md: generative testing", async () => {
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

describe("the README and docs/ carry the snippets verbatim", () => {
  const block = (name: string): string => {
    const file = `test/embedding/snippets/${name}.ts`
    return `<!-- snippet: ${file} -->\n\`\`\`ts\n${readFileSync(file, "utf8")}\`\`\``
  }
  const pages = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)]

  it("every snippet appears in its page byte for byte, after its marker", () => {
    for (const name of SNIPPETS) {
      const page = HOMES[name]
      expect(readFileSync(page, "utf8").includes(block(name)), `${page} must show snippets/${name}.ts verbatim`).toBe(
        true
      )
    }
  })

  it("no stale or misplaced marker: each page's markers are exactly the snippets it is the home of", () => {
    for (const page of pages) {
      const markers = [
        ...readFileSync(page, "utf8").matchAll(/<!-- snippet: test\/embedding\/snippets\/([\w-]+)\.ts -->/g)
      ]
        .map((m) => m[1])
      const expected = SNIPPETS.filter((name) => HOMES[name] === page)
      expect({ page, markers: [...markers].sort() }).toEqual({ page, markers: [...expected].sort() })
    }
  })
})
