/**
 * Issue 41's authoring details, through `cardfx validate` (in process, as the
 * bin runs it): "did you mean" for a misspelled property, enum member and ID
 * (edit distance); messages in plain grammar (`expected ..., got ...`);
 * `unknown_field` located at the key in every format (human, json, github,
 * sarif); `missing_display_name` for a card, status or transformation that
 * has no text in a locale its package ships; and the runtime's own display
 * keys for statuses and transformations (`GET /v1/runtime`'s `nameKeys`).
 */
import { Either } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import { decodePackage } from "../../src/composition/ContentPackage.js"
import { publish } from "../../src/composition/Publication.js"
import { plainMessage } from "../../src/kernel/Decode.js"
import { parseJson } from "../../src/kernel/Json.js"
import { closest, editDistance } from "../../src/kernel/Suggest.js"
import { runtimeInfo } from "../../src/services/ContentCatalog.js"
import { runArgs } from "../support/cli.js"
import { writeTree } from "../support/tmp.js"

const root = rootCommand(commands)
const cardfx = (...args: ReadonlyArray<string>) => runArgs(root, args)

interface Report {
  readonly ok: boolean
  readonly diagnostics: ReadonlyArray<{
    code: string
    message: string
    severity: string
    file?: string
    path?: string
    line?: number
    column?: number
  }>
}

const validateJson = async (...paths: ReadonlyArray<string>) => {
  const r = await cardfx("validate", ...paths, "--format", "json")
  return { code: r.code, report: JSON.parse(r.out) as Report }
}

const MANIFEST = JSON.stringify({ packageId: "p", version: "1.0.0", engineVersion: 17 })
const card = (extra: Record<string, unknown> = {}) => ({
  cardId: "strike",
  cost: 1,
  tags: [],
  metadata: { nameKey: "card.strike.name", artKey: "art.card.strike" },
  components: [],
  ...extra
})

describe("did you mean", () => {
  it("the edit distance counts a swap of neighbours as one; a far word has no suggestion", () => {
    expect(editDistance("cost", "cots")).toBe(1)
    expect(editDistance("kitten", "sitting")).toBe(3)
    expect(closest("basic_atack", ["heal", "basic_attack", "twin_strike"])).toBe("basic_attack")
    expect(closest("zzz", ["heal", "basic_attack"])).toBeUndefined()
    // Ties go to the ordinal first, whatever the candidates' order.
    expect(closest("ab", ["ac", "aa"])).toBe("aa")
    expect(closest("ab", ["aa", "ac"])).toBe("aa")
  })

  it("a misspelled property: unknown_field suggests the declared key", async () => {
    const { cost: _cost, ...noCost } = card()
    const dir = writeTree({
      "pkg/manifest.json": MANIFEST,
      "pkg/cards.json": JSON.stringify({ cards: [{ ...noCost, cots: 1 }] })
    })
    const { code, report } = await validateJson(dir)
    expect(code).toBe(1)
    const unknown = report.diagnostics.find((d) => d.code === "unknown_field")
    expect(unknown?.message).toBe(`unknown field "cots"; did you mean "cost"?`)
  })

  it("a misspelled enum member and a misspelled card ID in a scenario", async () => {
    const dir = writeTree({})
    const scenario = JSON.parse(readFileSync("data/scenarios/ember-affinity.scenario.json", "utf8")) as {
      packages: Array<string>
      steps: Array<Record<string, unknown>>
    }
    scenario.packages = [join(process.cwd(), "data/heroscript.base")]
    const enumFile = join(dir, "enum.scenario.json")
    const idFile = join(dir, "id.scenario.json")
    writeFileSync(
      enumFile,
      JSON.stringify({ ...scenario, state: { turn: 1, activeSide: "aly", characters: [] }, steps: [] })
    )
    writeFileSync(
      idFile,
      JSON.stringify({ ...scenario, steps: [{ op: "play", actor: "hero", card: "basic_atack", targets: ["slime"] }] })
    )
    const e = await validateJson(enumFile)
    expect(e.report.diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining(`did you mean "ally"?`))
    const i = await validateJson(idFile)
    expect(i.report.diagnostics.find((d) => d.code === "unknown_card")?.message).toBe(
      `no card "basic_atack" is published by the scenario's packages; did you mean "basic_attack"?`
    )
  })

  it("a misspelled reference inside a package (unknown_reference) suggests the declared ID", async () => {
    const dir = writeTree({
      "pkg/manifest.json": MANIFEST,
      "pkg/cards.json": JSON.stringify({
        cards: [card({
          components: [{
            type: "effect",
            componentId: "hit",
            order: 10,
            effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "posion", stacks: 1 }
          }]
        })],
        statuses: [{
          statusId: "poison",
          stacking: "add",
          maxStacks: 9,
          durationRule: "refresh",
          defaultDuration: 3
        }]
      })
    })
    const { report } = await validateJson(dir)
    const ref = report.diagnostics.find((d) => d.code === "unknown_reference")
    expect(ref?.message, JSON.stringify(report.diagnostics)).toContain(`did you mean "poison"?`)
  })
})

describe("messages in plain grammar", () => {
  it("the decoder's words become `expected ..., got ...`", () => {
    expect(plainMessage("Expected An integer in 0..1000000., actual -1")).toBe(
      "expected an integer in 0..1000000, got -1"
    )
    expect(plainMessage(`Expected "play", actual "plya"`)).toBe(`expected "play", got "plya"`)
    expect(plainMessage("ASCII only")).toBe("ASCII only")
  })

  it("validate says so: no `Expected`, no `actual`", async () => {
    const dir = writeTree({
      "pkg/manifest.json": MANIFEST,
      "pkg/cards.json": JSON.stringify({ cards: [card({ cost: -1 })] })
    })
    const { report } = await validateJson(dir)
    const cost = report.diagnostics.find((d) => d.path === "/cards/0/cost")
    expect(cost?.message).toMatch(/^at \/cards\/0\/cost: expected .*, got -1$/)
    for (const d of report.diagnostics) {
      expect(d.message).not.toMatch(/Expected |, actual /)
    }
  })
})

describe("unknown_field is located at the key, in every format", () => {
  const text = `{\n  "cards": [\n    { "cardId": "a", "cost": 1, "tags": [], "colour": "red",\n` +
    `      "metadata": { "nameKey": "n", "artKey": "a" }, "components": [] }\n  ]\n}\n`
  const line = 3
  const column = `    { "cardId": "a", "cost": 1, "tags": [], `.length + 1
  const make = () => writeTree({ "pkg/manifest.json": MANIFEST, "pkg/cards.json": text })

  it("json: the key's line and column", async () => {
    const { report } = await validateJson(make())
    const d = report.diagnostics.find((x) => x.code === "unknown_field")
    expect(d).toMatchObject({ line, column, path: "/cards/0/colour" })
  })

  it("human, github and sarif: the key's line and column", async () => {
    const dir = make()
    const file = join(dir, "pkg/cards.json")
    const human = await cardfx("validate", dir)
    expect(human.err).toContain(`${file}:${line}:${column} unknown_field`)
    const github = await cardfx("validate", dir, "--format", "github")
    expect(github.out).toContain(`line=${line},col=${column},title=unknown_field`)
    const sarif = await cardfx("validate", dir, "--format", "sarif")
    const log = JSON.parse(sarif.out) as {
      runs: Array<{
        results: Array<
          {
            ruleId: string
            locations: Array<{ physicalLocation: { region: { startLine: number; startColumn: number } } }>
          }
        >
      }>
    }
    const result = log.runs[0]?.results.find((x) => x.ruleId === "unknown_field")
    expect(result?.locations[0]?.physicalLocation.region).toMatchObject({ startLine: line, startColumn: column })
  })
})

describe("display names", () => {
  const statuses = [{
    statusId: "poison",
    metadata: { nameKey: "status.poison.name", artKey: "art.status.poison" },
    stacking: "add",
    maxStacks: 9,
    durationRule: "refresh",
    defaultDuration: 3
  }, { statusId: "bleed", stacking: "add", maxStacks: 9, durationRule: "refresh", defaultDuration: 3 }]

  it("a card with no display name in a locale its package ships is a warning (missing_display_name); exit 0", async () => {
    const dir = writeTree({
      "pkg/manifest.json": MANIFEST,
      "pkg/cards.json": JSON.stringify({ cards: [card()], statuses }),
      "pkg/locales.json": JSON.stringify({
        locales: [{ locale: "en", names: { "status.poison.name": "Poison", "status.bleed.name": "Bleed" } }]
      })
    })
    const { code, report } = await validateJson(dir)
    expect(code).toBe(0)
    expect(report.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ["missing_display_name", "warning", "/cards/0/metadata/nameKey"]
    ])
    expect(report.diagnostics[0]?.message).toContain(`"card.strike.name"`)
    const human = await cardfx("validate", dir)
    expect(human.out.trim()).toBe("ok: 3 file(s), 0 error(s), 1 warning(s)")
  })

  it("a package that ships no names is not warned about", async () => {
    const dir = writeTree({ "pkg/manifest.json": MANIFEST, "pkg/cards.json": JSON.stringify({ cards: [card()] }) })
    const { code, report } = await validateJson(dir)
    expect(code).toBe(0)
    expect(report.diagnostics).toEqual([])
  })

  it("the runtime serves each card's, status's and transformation's own display key (nameKeys)", () => {
    const doc = (file: string, text: string) => {
      const d = parseJson(text, { file })
      if (Either.isLeft(d)) throw new Error(d.left.message)
      return d.right
    }
    const decoded = decodePackage("pkg", doc("pkg/manifest.json", MANIFEST), [
      doc("pkg/cards.json", JSON.stringify({ cards: [card()], statuses }))
    ])
    if (decoded.package === undefined) throw new Error(JSON.stringify(decoded.diagnostics))
    const runtime = publish([decoded.package]).runtime
    if (runtime === undefined) throw new Error("no runtime")
    expect(runtimeInfo(runtime).nameKeys).toEqual({
      cards: { strike: "card.strike.name" },
      // Its own nameKey when it has metadata; else the key clients used to derive.
      statuses: { bleed: "status.bleed.name", poison: "status.poison.name" },
      transformations: {}
    })
  })
})
