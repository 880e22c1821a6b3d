/**
 * `--format sarif` of `cardfx validate` and `cardfx ledger check`, validated
 * against the official SARIF 2.1.0 JSON Schema (test/fixtures/sarif, a copy
 * from the OASIS SARIF TC repository) by `@hyperjump/json-schema` (the
 * schema is draft-04). One rule per diagnostic code with its help text; one
 * result per diagnostic, at the diagnostic's file, line and column.
 */
import type { Json } from "@hyperjump/json-pointer"
import "@hyperjump/json-schema/draft-04"
import { registerSchema, validate } from "@hyperjump/json-schema/draft-2020-12"
import { cpSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import { codeHelpUri, howToFix } from "../../src/kernel/CodeHelp.js"
import { diagnosticCodes, DiagnosticCodeTable } from "../../src/kernel/DiagnosticCode.js"
import { runArgs } from "../support/cli.js"
import { breakStrike, editCards } from "../support/content.js"
import { tempDir, writeTree } from "../support/tmp.js"

const SARIF_ID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
const root = rootCommand(commands)
const cardfx = (...args: ReadonlyArray<string>) => runArgs(root, args)

interface SarifLog {
  readonly version: string
  readonly runs: ReadonlyArray<{
    readonly tool: {
      readonly driver: {
        readonly name: string
        readonly rules: ReadonlyArray<
          { id: string; help: { text: string }; helpUri?: string; shortDescription: { text: string } }
        >
      }
    }
    readonly results: ReadonlyArray<{
      ruleId: string
      ruleIndex: number
      level: string
      message: { text: string }
      locations?: ReadonlyArray<{
        physicalLocation?: {
          artifactLocation: { uri: string; uriBaseId?: string }
          region?: { startLine: number; startColumn?: number; endLine?: number; endColumn?: number }
        }
        logicalLocations?: ReadonlyArray<{ fullyQualifiedName: string; kind: string }>
      }>
    }>
    readonly originalUriBaseIds?: Record<string, { uri: string }>
  }>
}

const conforms = async (log: unknown): Promise<void> => {
  const out = await validate(SARIF_ID, log as Json, "DETAILED")
  const errors = out.valid ? [] : out.errors
  expect(JSON.stringify((errors ?? []).slice(0, 3))).toBe("[]")
  expect(out.valid).toBe(true)
}

beforeAll(() => {
  const schema = JSON.parse(readFileSync("test/fixtures/sarif/sarif-schema-2.1.0.json", "utf8")) as Parameters<
    typeof registerSchema
  >[0]
  registerSchema(schema, SARIF_ID)
})

describe("cardfx validate --format sarif", () => {
  it("the official schema rejects a log that is not SARIF (the check bites)", async () => {
    expect((await validate(SARIF_ID, { version: "2.1.0" })).valid).toBe(false)
    expect((await validate(SARIF_ID, { version: "2.0.0", runs: [] })).valid).toBe(false)
    expect((await validate(SARIF_ID, { version: "2.1.0", runs: [{ tool: { driver: {} } }] })).valid).toBe(false)
  })

  it("is a SARIF 2.1.0 log (official schema) with one rule per code and one result per diagnostic", async () => {
    const dir = writeTree({
      "broken.json": "{ \"scenario\": 1, ",
      "notes.txt": "not JSON",
      "pkg/manifest.json": JSON.stringify({ packageId: "p", version: "1.0.0", engineVersion: 17 }),
      "pkg/cards.json": "{\n  \"cards\": [\n    { \"cardId\": \"a\", \"cost\": -1, \"colour\": \"red\" }\n  ]\n}\n"
    })
    const json = await cardfx("validate", dir, "--format", "json")
    const diagnostics = (JSON.parse(json.out) as { diagnostics: Array<{ code: string; line?: number }> }).diagnostics
    expect(diagnostics.length).toBeGreaterThanOrEqual(3)
    const r = await cardfx("validate", dir, "--format", "sarif")
    expect(r.code).toBe(1)
    const log = JSON.parse(r.out) as SarifLog
    await conforms(log)
    expect(log.version).toBe("2.1.0")
    const run = log.runs[0]
    expect(run?.tool.driver.name).toBe("cardfx")
    expect(run?.tool.driver.rules.map((x) => x.id)).toEqual(diagnosticCodes)
    for (const rule of run?.tool.driver.rules ?? []) {
      const entry = DiagnosticCodeTable[rule.id as keyof typeof DiagnosticCodeTable]
      expect(rule.shortDescription.text).toBe(entry.meaning)
      expect(rule.help.text).toContain(entry.meaning)
      // A written help text per code (how to fix it) and a link to its entry in docs/codes.md.
      expect(rule.help.text).toContain(`How to fix: ${howToFix(rule.id as keyof typeof DiagnosticCodeTable)}`)
      expect(rule.helpUri).toBe(codeHelpUri(rule.id as keyof typeof DiagnosticCodeTable))
    }
    expect(new Set(run?.tool.driver.rules.map((x) => x.help.text)).size).toBe(diagnosticCodes.length)
    expect(run?.results.map((x) => x.ruleId)).toEqual(diagnostics.map((d) => d.code))
    for (const result of run?.results ?? []) expect(run?.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId)
    const cost = run?.results.find((x) => x.message.text.includes("/cards/0/cost"))
    expect(cost?.level).toBe("error")
    expect(cost?.locations?.[0]?.physicalLocation?.artifactLocation.uri).toBe(`file://${dir}/pkg/cards.json`)
    expect(cost?.locations?.[0]?.physicalLocation?.region?.startLine).toBe(3)
    // The region ends where the value ends: `-1` is two characters.
    const region = cost?.locations?.[0]?.physicalLocation?.region
    expect(region?.endLine).toBe(3)
    expect((region?.endColumn ?? 0) - (region?.startColumn ?? 0)).toBe(2)
    // An unknown field's region is its key.
    const colour = run?.results.find((x) => x.ruleId === "unknown_field")?.locations?.[0]?.physicalLocation?.region
    const line3 = "    { \"cardId\": \"a\", \"cost\": -1, \"colour\": \"red\" }"
    expect(colour?.startColumn).toBe(line3.indexOf("\"colour\"") + 1)
    expect((colour?.endColumn ?? 0) - (colour?.startColumn ?? 0)).toBe("\"colour\"".length)
    for (const result of run?.results ?? []) {
      const r = result.locations?.[0]?.physicalLocation?.region
      if (r !== undefined) expect(r.endLine !== undefined && r.endColumn !== undefined, JSON.stringify(r)).toBe(true)
    }
    expect(cost?.locations?.[0]?.logicalLocations?.[0]).toEqual({
      fullyQualifiedName: "/cards/0/cost",
      kind: "element"
    })
  })

  it("a file under the working folder is a relative URI with uriBaseId %SRCROOT%, declared in originalUriBaseIds", async () => {
    // package.json is JSON of no kind cardfx knows: one unclassified_file result, in the working folder.
    const r = await cardfx("validate", "package.json", "--format", "sarif")
    expect(r.code).toBe(1)
    const log = JSON.parse(r.out) as SarifLog
    await conforms(log)
    const location = log.runs[0]?.results[0]?.locations?.[0]?.physicalLocation
    expect(location?.artifactLocation).toEqual({ uri: "package.json", uriBaseId: "%SRCROOT%" })
    expect(log.runs[0]?.originalUriBaseIds?.["%SRCROOT%"]?.uri).toBe(`${pathToFileURL(process.cwd()).href}/`)
    expect(location?.region?.endLine).toBe(1)
  })

  it("a clean run is a log with no results (the shipped data/)", async () => {
    const r = await cardfx("validate", "data", "--format", "sarif")
    expect(r.code).toBe(0)
    const log = JSON.parse(r.out) as SarifLog
    await conforms(log)
    expect(log.runs[0]?.results).toEqual([])
  })
})

describe("cardfx ledger check --format sarif", () => {
  it("lists each instance that would break as a result with its branch, instance and card", async () => {
    const dir = tempDir("cardfx-sarif-ledger-")
    const pkg = join(dir, "heroscript.base")
    cpSync("data/heroscript.base", pkg, { recursive: true })
    const store = join(dir, "ledgers.sqlite")
    const applied = await cardfx(
      "ledger",
      "apply",
      "core.ember.affinity",
      "--package",
      pkg,
      "--card",
      "basic_attack",
      "--store",
      store
    )
    expect(applied.code, applied.all).toBe(0)
    const clean = await cardfx("ledger", "check", "--package", pkg, "--store", store, "--format", "sarif")
    expect(clean.code).toBe(0)
    await conforms(JSON.parse(clean.out))
    // basic_attack's strike stops being DAMAGE: the sealed ember rules match nothing.
    editCards(pkg, breakStrike)
    const broken = await cardfx("ledger", "check", "--package", pkg, "--store", store, "--format", "sarif")
    expect(broken.code).toBe(1)
    const log = JSON.parse(broken.out) as SarifLog
    await conforms(log)
    const results = log.runs[0]?.results ?? []
    expect(results.map((x) => x.ruleId)).toEqual(["no_matching_rule"])
    const names = results[0]?.locations?.[0]?.logicalLocations?.map((l) => l.fullyQualifiedName) ?? []
    expect(names[0]).toBe("main")
    expect(names[2]).toBe("basic_attack")
  })
})
