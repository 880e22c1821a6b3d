/**
 * `cardfx init [DIR]`: a content package that `cardfx validate DIR` passes
 * straight away, with `$schema` in every file and editor settings; and the
 * JSON Schemas `cardfx schema` writes are recognized wherever they are, even
 * inside a package folder.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import { VSCODE_EXTENSION_ID } from "../../src/services/Scaffold.js"
import { runArgs } from "../support/cli.js"
import { tempDir } from "../support/tmp.js"

const root = rootCommand(commands)
const cardfx = (...args: ReadonlyArray<string>) => runArgs(root, args)

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? filesUnder(p) : [p]
  })

describe("cardfx init", () => {
  it("scaffolds a package, a scenario, the schemas and .vscode; validate passes at once and the scenario runs", async () => {
    const dir = join(tempDir("cardfx-init-"), "My Cards")
    const r = await cardfx("init", dir, "--format", "json")
    expect(r.code, r.all).toBe(0)
    const written = (JSON.parse(r.out) as { files: Array<string> }).files
    expect(written.map((f) => f.slice(dir.length + 1)).sort()).toEqual([
      ".vscode/extensions.json",
      ".vscode/settings.json",
      "README.md",
      "cards.json",
      "locales.en.json",
      "manifest.json",
      "scenarios/first.scenario.json",
      "schemas/content.schema.json",
      "schemas/hallyu-hex-deck.schema.json",
      "schemas/manifest.schema.json",
      "schemas/scenario.schema.json",
      "statuses.json",
      "transformations.json"
    ])
    const v = await cardfx("validate", dir, "--format", "json")
    expect(JSON.parse(v.out)).toMatchObject({ ok: true, diagnostics: [] })
    expect(v.code).toBe(0)
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { packageId: string }
    expect(manifest.packageId).toBe("my-cards")
    const run = await cardfx("run", join(dir, "scenarios/first.scenario.json"))
    expect(run.code, run.all).toBe(0)
    expect(run.out).toContain("poison")

    // Every content file names its schema, which is there and accepts it.
    const ajv = new Ajv2020({ strict: true })
    for (const f of filesUnder(dir).filter((f) => f.endsWith(".json") && !f.includes("/schemas/"))) {
      if (f.includes("/.vscode/")) continue
      const value = JSON.parse(readFileSync(f, "utf8")) as { $schema: string }
      const schemaFile = resolve(dirname(f), value.$schema)
      expect(existsSync(schemaFile), f).toBe(true)
      const check = ajv.getSchema(schemaFile) ?? ajv.addSchema(JSON.parse(readFileSync(schemaFile, "utf8")), schemaFile)
        .getSchema(schemaFile)
      expect(check?.(value), `${f}: ${JSON.stringify(check?.errors)}`).toBe(true)
    }

    // The editor: schemas mapped, the extension recommended (the one editors/vscode builds).
    const settings = JSON.parse(readFileSync(join(dir, ".vscode/settings.json"), "utf8")) as {
      "json.schemas": Array<{ fileMatch: Array<string>; url: string }>
    }
    for (const s of settings["json.schemas"]) expect(existsSync(join(dir, s.url))).toBe(true)
    const ext = JSON.parse(readFileSync(join(dir, ".vscode/extensions.json"), "utf8")) as {
      recommendations: Array<string>
    }
    const pkg = JSON.parse(readFileSync("editors/vscode/package.json", "utf8")) as { publisher: string; name: string }
    expect(ext.recommendations).toEqual([VSCODE_EXTENSION_ID])
    expect(VSCODE_EXTENSION_ID).toBe(`${pkg.publisher}.${pkg.name}`)
  })

  it("init DIR writes the package into DIR with .vscode/ in DIR (where the editor opens it), not DIR/content/", async () => {
    const base = tempDir("cardfx-init-")
    const dir = join(base, "content")
    expect((await cardfx("init", dir)).code).toBe(0)
    expect(existsSync(join(dir, "manifest.json"))).toBe(true)
    expect(existsSync(join(dir, ".vscode/settings.json"))).toBe(true)
    expect(existsSync(join(dir, "content"))).toBe(false)
    expect(existsSync(join(base, ".vscode"))).toBe(false)
    // The scenario inside the package folder is a scenario (not content), and it names DIR.
    const scenario = JSON.parse(readFileSync(join(dir, "scenarios/first.scenario.json"), "utf8")) as {
      packages: Array<string>
    }
    expect(resolve(dir, "scenarios", scenario.packages[0] ?? "")).toBe(resolve(dir))
    const v = await cardfx("validate", dir, "--format", "json")
    expect(JSON.parse(v.out)).toMatchObject({ ok: true, diagnostics: [] })
    // Every file's $schema resolves from where it is.
    for (const f of filesUnder(dir).filter((f) => f.endsWith(".json") && !f.includes("/.vscode/"))) {
      const value = JSON.parse(readFileSync(f, "utf8")) as { $schema?: string }
      if (value.$schema !== undefined && !value.$schema.startsWith("http")) {
        expect(existsSync(resolve(dirname(f), value.$schema)), f).toBe(true)
      }
    }
  })

  it("writes only new files: a second init changes nothing and says which file is in the way", async () => {
    const dir = tempDir("cardfx-init-")
    expect((await cardfx("init", dir)).code).toBe(0)
    const before = filesUnder(dir).map((f) => [f, readFileSync(f, "utf8")])
    const again = await cardfx("init", dir)
    expect(again.code).toBe(1)
    expect(again.err).toContain("file_unwritable")
    expect(again.err).toContain("already exists")
    expect(filesUnder(dir).map((f) => [f, readFileSync(f, "utf8")])).toEqual(before)
  })

  it("validate recognizes the schemas cardfx schema writes inside a package folder (not content, no unknown_field)", async () => {
    const dir = tempDir("cardfx-init-")
    expect((await cardfx("init", dir)).code).toBe(0)
    expect((await cardfx("schema", "--out", join(dir, "schemas2"))).code).toBe(0)
    const v = await cardfx("validate", dir, "--format", "json")
    expect(JSON.parse(v.out)).toMatchObject({ ok: true, diagnostics: [] })
  })
})
