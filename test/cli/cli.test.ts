/**
 * The `cardfx` binary as users and CI run it (the bundled bin in dist/, which
 * `npm ci` builds through `prepare`): output formats, exit codes, no stack traces.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runBin } from "../support/proc.js"
import { writeTree } from "../support/tmp.js"

const cardfx = async (...args: ReadonlyArray<string>) => {
  const r = await runBin(args)
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const noStackTrace = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/)

describe("cardfx validate", () => {
  it("validates the bundled content: JSON ok, exit 0", async () => {
    const r = await cardfx("validate", "data", "--format", "json")
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { ok: boolean; files: number; diagnostics: Array<unknown> }
    expect(Object.keys(out)).toEqual(["ok", "files", "diagnostics"])
    expect(out.ok).toBe(true)
    expect(out.files).toBeGreaterThanOrEqual(6)
    expect(out.diagnostics).toEqual([])
  })

  it("reports content errors in human, JSON and GitHub formats with exit 1", async () => {
    const root = writeTree({ "deck/other.json": `{\n  "x": 1,\n  "x": 2\n}` })
    const human = await cardfx("validate", root)
    expect(human.code).toBe(1)
    expect(human.stderr).toBe(`${root}/deck/other.json:3:3 duplicate_key the key "x" appears more than once (at /x)\n`)
    expect(human.stdout).toBe("failed: 1 file(s), 1 error(s), 0 warning(s)\n")
    const json = await cardfx("validate", root, "--format", "json")
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      files: 1,
      diagnostics: [
        {
          code: "duplicate_key",
          severity: "error",
          message: "the key \"x\" appears more than once",
          file: `${root}/deck/other.json`,
          path: "/x",
          line: 3,
          column: 3
        }
      ]
    })
    const gh = await cardfx("validate", root, "--format", "github")
    expect(gh.code).toBe(1)
    expect(gh.stdout.trim()).toBe(
      `::error file=${root}/deck/other.json,line=3,col=3,title=duplicate_key::duplicate_key the key "x" appears more than once (at /x)`
    )
    for (const r of [human, json, gh]) noStackTrace(r.stdout + r.stderr)
  })

  it("exits 2 on usage errors", async () => {
    for (
      const args of [["validate"], ["validate", "data", "--format", "xml"], ["validate", "--bogus"], [
        "no-such-command"
      ]]
    ) {
      const r = await cardfx(...args)
      expect({ args, code: r.code }).toEqual({ args, code: 2 })
      noStackTrace(r.stdout + r.stderr)
    }
    const negative = await cardfx("simulate", "--games", "-1", "--seed", "1")
    expect(negative.code).toBe(2)
    expect(negative.stderr).toContain("usage_error")
  })

  it("skips node_modules and dot-folders unless --include-hidden; recognizes the JSON Schemas cardfx schema writes", async () => {
    const root = writeTree({ "node_modules/x/bad.json": "{", ".git/bad.json": "{", "ok.md": "# doc" })
    expect((await cardfx("validate", root)).code).toBe(0)
    const hidden = await cardfx("validate", root, "--include-hidden", "--format", "json")
    expect(hidden.code).toBe(1)
    expect((JSON.parse(hidden.stdout) as { diagnostics: Array<unknown> }).diagnostics).toHaveLength(2)
    const out = mkdtempSync(join(tmpdir(), "cardfx-schema-"))
    expect((await cardfx("schema", "--out", out)).code).toBe(0)
    const v = await cardfx("validate", out, "--format", "json")
    expect(JSON.parse(v.stdout)).toEqual({ ok: true, files: 4, diagnostics: [] })
  })
})

describe("cardfx schema and start", () => {
  it("writes draft 2020-12 JSON Schemas for every format", async () => {
    const out = mkdtempSync(join(tmpdir(), "cardfx-schema-"))
    const r = await cardfx("schema", "--out", out)
    expect(r.code).toBe(0)
    expect(readdirSync(out).sort()).toEqual([
      "content.schema.json",
      "hallyu-hex-deck.schema.json",
      "manifest.schema.json",
      "scenario.schema.json"
    ])
    for (const f of readdirSync(out)) {
      const s = JSON.parse(readFileSync(join(out, f), "utf8")) as { $schema: string; $id: string }
      expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
      expect(s.$id).toBe(`https://cardfx.dev/schemas/${f}`)
      expect(JSON.stringify(s)).not.toContain("\"definitions\"")
      // Ajv2020 reads draft 2020-12; strict mode throws on any strict-mode problem instead of logging it.
      const warnings: Array<unknown> = []
      const ajv = new Ajv2020({
        strict: true,
        logger: {
          log: () => {},
          warn: (...w: Array<unknown>) => warnings.push(w),
          error: (...w: Array<unknown>) => warnings.push(w)
        }
      })
      expect(() => ajv.compile(s)).not.toThrow()
      expect({ f, warnings }).toEqual({ f, warnings: [] })
    }
  })

  it("start validates data/ and summarizes it", async () => {
    const r = await cardfx("start")
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("package heroscript.base@1.0.0 (engine 17)")
    expect(r.stdout).toMatch(/Hallyu Hex deck: \S*data\/hallyu-hex\/starter-deck\.v0\.json/)
    expect(r.stdout).toMatch(/ok: \d+ file\(s\) validated, 0 error\(s\)/)
  })
})
