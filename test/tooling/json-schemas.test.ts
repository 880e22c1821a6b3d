/**
 * The JSON Schemas `cardfx schema` writes, read by two third-party
 * implementations nobody here wrote: Ajv 2020 in strict mode and
 * `@hyperjump/json-schema` (draft 2020-12, spec-faithful). Every schema
 * compiles under both, every shipped data file is valid under both (through
 * its own `$schema`), the copies shipped in data/schemas are current, every
 * property and definition has a description, and a mutation table shows the
 * JSON Schema verdict agreeing with `cardfx validate`, except the rules a
 * JSON Schema cannot express (listed as `crossReference`).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import type { Json } from "@hyperjump/json-pointer"
import { registerSchema, validate as hyperValidate } from "@hyperjump/json-schema/draft-2020-12"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { documentKinds } from "../../src/services/DocumentKinds.js"
import {
  describeAt,
  DRAFT_2020_12,
  type JsonSchemaDocument,
  jsonSchemaId,
  jsonSchemas,
  undocumented
} from "../../src/services/JsonSchemas.js"
import { validatePaths } from "../../src/services/Validation.js"

const schemas = jsonSchemas()
const ajvWarnings: Array<unknown> = []
const ajv = new Ajv2020({
  strict: true,
  allErrors: true,
  logger: {
    log: () => {},
    warn: (...w: Array<unknown>) => ajvWarnings.push(w),
    error: (...w: Array<unknown>) => ajvWarnings.push(w)
  }
})
for (const s of Object.values(schemas)) ajv.addSchema(s)

const jsonFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? jsonFiles(p) : name.endsWith(".json") ? [p] : []
  })

/** Both validators' verdicts on one value against the schema with `$id`. */
const verdicts = async (id: string, value: unknown): Promise<{ ajv: boolean; hyperjump: boolean }> => {
  const check = ajv.getSchema(id)
  if (check === undefined) throw new Error(`Ajv has no schema ${id}`)
  const h = await hyperValidate(id, value as Json)
  return { ajv: check(value) === true, hyperjump: h.valid }
}

beforeAll(() => {
  for (const s of Object.values(schemas)) {
    registerSchema(s as Parameters<typeof registerSchema>[0])
  }
})

describe("the JSON Schemas (draft 2020-12)", () => {
  it("declare draft 2020-12, an $id and $defs; no draft-07 `definitions`; no constraint beside a $ref", () => {
    for (const [name, s] of Object.entries(schemas)) {
      expect(s.$schema).toBe(DRAFT_2020_12)
      expect(s.$id).toBe(jsonSchemaId(name))
      expect(s.$defs).toBeTypeOf("object")
      const text = JSON.stringify(s)
      expect(text).not.toContain("\"definitions\"")
      const besideRef: Array<string> = []
      const walk = (node: unknown, path: string): void => {
        if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`))
        if (typeof node !== "object" || node === null) return
        const o = node as Record<string, unknown>
        if (typeof o.$ref === "string" && path !== "#") {
          const others = Object.keys(o).filter((k) =>
            !["$ref", "description", "title", "default", "examples"].includes(k)
          )
          if (others.length > 0) besideRef.push(`${path}: ${others.join(", ")}`)
        }
        for (const [k, v] of Object.entries(o)) if (k !== "enum" && k !== "const") walk(v, `${path}/${k}`)
      }
      walk(s, "#")
      expect({ name, besideRef }).toEqual({ name, besideRef: [] })
    }
  })

  it("compile under Ajv 2020 strict (no warning) and under @hyperjump/json-schema", async () => {
    for (const s of Object.values(schemas)) {
      expect(() => ajv.compile({ $ref: s.$id as string })).not.toThrow()
      // hyperjump compiles on first use; a schema it cannot read throws here.
      const compiled = await hyperValidate(s.$id as string)
      expect(typeof compiled).toBe("function")
    }
    expect(ajvWarnings).toEqual([])
  })

  it("describe every property and every definition (written once in the Schemas' annotations)", () => {
    let properties = 0
    const count = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(count)
      if (typeof node !== "object" || node === null) return
      for (const [k, v] of Object.entries(node)) {
        if (k === "properties" && typeof v === "object" && v !== null) properties += Object.keys(v).length
        if (k !== "enum" && k !== "const") count(v)
      }
    }
    for (const [name, s] of Object.entries(schemas)) {
      count(s)
      expect({ name, missing: undocumented(s) }).toEqual({ name, missing: [] })
    }
    expect(properties).toBeGreaterThan(400)
    // The same text is what an editor (and `cardfx lsp`) shows on hover.
    const content = schemas.content as JsonSchemaDocument
    expect(describeAt(content, ["cards", 0, "cost"])).toBe("The card's energy cost.")
    const damage = { cards: [{ components: [{ effect: { type: "DAMAGE", amount: 1 } }] }] }
    expect(describeAt(content, ["cards", 0, "components", 0, "effect", "amount"], damage)).toBe(
      "The base amount, before modifiers."
    )
  })

  it("the copies shipped in data/schemas are current (cardfx schema --out data/schemas)", () => {
    for (const [name, s] of Object.entries(schemas)) {
      expect(readFileSync(`data/schemas/${name}.schema.json`, "utf8")).toBe(JSON.stringify(s, null, 2) + "\n")
    }
    expect(readdirSync("data/schemas").sort()).toEqual(Object.keys(schemas).map((n) => `${n}.schema.json`).sort())
  })

  it("every shipped data file names its schema in $schema (inside data/) and is valid under both implementations", async () => {
    const files = jsonFiles("data").filter((f) => !f.startsWith("data/schemas/"))
    expect(files.length).toBeGreaterThanOrEqual(13)
    for (const file of files) {
      const value = JSON.parse(readFileSync(file, "utf8")) as { $schema?: string }
      expect(value.$schema, file).toBeTypeOf("string")
      const target = resolve(dirname(file), value.$schema ?? "")
      expect(relative(resolve("data/schemas"), target).startsWith(".."), file).toBe(false)
      expect(existsSync(target), file).toBe(true)
      const id = (JSON.parse(readFileSync(target, "utf8")) as { $id: string }).$id
      expect({ file, ...(await verdicts(id, value)) }).toEqual({ file, ajv: true, hyperjump: true })
    }
  })
})

// ---------------------------------------------------------------- the mutation table

type Doc = Record<string, unknown>
interface Mutation {
  readonly name: string
  /** Which shipped file is mutated (a copy, in a temporary folder). */
  readonly file: string
  readonly mutate: (doc: Doc) => void
  /** The JSON Schema verdict; `cardfx validate` agrees unless `crossReference` says why it cannot. */
  readonly valid: boolean
  /** A rule no JSON Schema expresses: the schema accepts the file, `cardfx validate` rejects it. */
  readonly crossReference?: string
}

const at = (doc: Doc, ...path: Array<string | number>): Doc => {
  let node: unknown = doc
  for (const p of path) node = (node as Record<string | number, unknown>)[p]
  return node as Doc
}
const CARDS = "data/heroscript.base/cards.json"
const STATUSES = "data/heroscript.base/statuses.json"
const TRANSFORMATIONS = "data/heroscript.base/transformations.json"
const MANIFEST = "data/heroscript.base/manifest.json"
const LOCALES = "data/heroscript.base/locales.en.json"
const SCENARIO = "data/scenarios/ember-affinity.scenario.json"
const DECK = "data/hallyu-hex/starter-deck.v0.json"

const mutations: ReadonlyArray<Mutation> = [
  { name: "unchanged card file", file: CARDS, mutate: () => {}, valid: true },
  { name: "missing field (cost)", file: CARDS, mutate: (d) => delete at(d, "cards", 0).cost, valid: false },
  { name: "wrong type (cost as a string)", file: CARDS, mutate: (d) => (at(d, "cards", 0).cost = "1"), valid: false },
  { name: "unknown property on a card", file: CARDS, mutate: (d) => (at(d, "cards", 0).colour = "red"), valid: false },
  { name: "unknown section", file: CARDS, mutate: (d) => (d.spells = []), valid: false },
  {
    name: "out of range (cost 1000001)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0).cost = 1_000_001),
    valid: false
  },
  { name: "out of range (cost -1)", file: CARDS, mutate: (d) => (at(d, "cards", 0).cost = -1), valid: false },
  { name: "not an integer (cost 1.5)", file: CARDS, mutate: (d) => (at(d, "cards", 0).cost = 1.5), valid: false },
  {
    name: "out of range (amount 1000001, behind a $ref)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0, "components", 0, "effect").amount = 1_000_001),
    valid: false
  },
  {
    name: "out of range (repeat 17)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0, "components", 0, "effect").repeat = 17),
    valid: false
  },
  {
    name: "out of range (chance 1.5)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0, "components", 0, "effect").chance = 1.5),
    valid: false
  },
  {
    name: "too long (a 65-character card ID)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0).cardId = "x".repeat(65)),
    valid: false
  },
  {
    name: "too long (65 tags)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0).tags = Array.from({ length: 65 }, (_, i) => `t${i}`)),
    valid: false
  },
  {
    name: "ID syntax (a space)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0).cardId = "basic attack"),
    valid: false
  },
  {
    name: "unknown enum value (target NOBODY)",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 0, "components", 0, "effect").target = "NOBODY"),
    valid: false
  },
  {
    name: "unknown status in APPLY_STATUS",
    file: CARDS,
    mutate: (
      d
    ) => (at(d, "cards", 0, "components", 0).effect = {
      type: "APPLY_STATUS",
      target: "TARGET",
      statusId: "no_such_status"
    }),
    valid: true,
    crossReference: "a reference to a status published by the loaded packages"
  },
  {
    name: "duplicate card ID",
    file: CARDS,
    mutate: (d) => (at(d, "cards", 1).cardId = at(d, "cards", 0).cardId),
    valid: true,
    crossReference: "IDs unique across the loaded packages"
  },
  {
    name: "out of range (maxStacks 0)",
    file: STATUSES,
    mutate: (d) => (at(d, "statuses", 0).maxStacks = 0),
    valid: false
  },
  {
    name: "unknown stacking rule",
    file: STATUSES,
    mutate: (d) => (at(d, "statuses", 0).stacking = "multiply"),
    valid: false
  },
  {
    name: "out of range (rule priority 1000001)",
    file: TRANSFORMATIONS,
    mutate: (d) => (at(d, "transformations", 0, "compositionRules", 0).priority = 1_000_001),
    valid: false
  },
  {
    name: "unknown bundle in a composition rule",
    file: TRANSFORMATIONS,
    mutate: (d) => (at(d, "transformations", 0, "compositionRules", 0).bundleId = "no.such.bundle"),
    valid: true,
    crossReference: "a reference to a bundle published by the loaded packages"
  },
  { name: "unchanged locale table", file: LOCALES, mutate: () => {}, valid: true },
  {
    name: "display text too long (201 characters)",
    file: LOCALES,
    mutate: (d) => (at(d, "locales", 0, "names")["card.heal.name"] = "x".repeat(201)),
    valid: false
  },
  {
    name: "display key syntax (a space)",
    file: LOCALES,
    mutate: (d) => (at(d, "locales", 0, "names")["card heal"] = "Heal"),
    valid: false
  },
  {
    name: "locale tag not BCP 47",
    file: LOCALES,
    mutate: (d) => (at(d, "locales", 0).locale = "English"),
    valid: false
  },
  {
    name: "a display name given two texts",
    file: LOCALES,
    mutate: (d) =>
      (at(d, "locales") as unknown as Array<Doc>).push({ locale: "en", names: { "card.heal.name": "Mend" } }),
    valid: true,
    crossReference: "one text per display name and locale across the loaded packages"
  },
  { name: "unsupported engineVersion", file: MANIFEST, mutate: (d) => (d.engineVersion = 16), valid: false },
  { name: "version not MAJOR.MINOR.PATCH", file: MANIFEST, mutate: (d) => (d.version = "1.0"), valid: false },
  { name: "manifest without packageId", file: MANIFEST, mutate: (d) => delete d.packageId, valid: false },
  { name: "unchanged scenario", file: SCENARIO, mutate: () => {}, valid: true },
  { name: "scenario without steps", file: SCENARIO, mutate: (d) => delete d.steps, valid: false },
  { name: "scenario seed -1", file: SCENARIO, mutate: (d) => (d.seed = -1), valid: false },
  { name: "maxHp 0", file: SCENARIO, mutate: (d) => (at(d, "state", "characters", 0).maxHp = 0), valid: false },
  { name: "unknown step op", file: SCENARIO, mutate: (d) => (at(d, "steps", 0).op = "fly"), valid: false },
  {
    name: "hp above maxHp",
    file: SCENARIO,
    mutate: (d) => (at(d, "state", "characters", 0).hp = 1000),
    valid: true,
    crossReference: "a comparison between two fields (hp ≤ maxHp)"
  },
  {
    name: "a step's actor is not a character",
    file: SCENARIO,
    mutate: (d) => (at(d, "steps", 0).actor = "nobody"),
    valid: true,
    crossReference: "a reference to a character of the initial state"
  },
  {
    name: "a step plays a card no package publishes",
    file: SCENARIO,
    mutate: (d) => (at(d, "steps", 0).card = "no_such_card"),
    valid: true,
    crossReference: "a reference to a card published by the scenario's packages"
  },
  { name: "unchanged deck", file: DECK, mutate: () => {}, valid: true },
  { name: "deck card cost as a string", file: DECK, mutate: (d) => (at(d, "cards", 0).cost = "2"), valid: false },
  { name: "deck: unknown top-level property", file: DECK, mutate: (d) => (d.extra = true), valid: false },
  {
    name: "deck: effect without actions",
    file: DECK,
    mutate: (d) => delete at(d, "cards", 0, "effects", 0).actions,
    valid: false
  },
  {
    name: "deck: trigger on an undeclared event",
    file: DECK,
    mutate: (d) => (at(d, "cards", 2, "effects", 0, "trigger").event = "no-such-event"),
    valid: true,
    crossReference: "a word of the file's declared vocabulary (effect_schema.events)"
  }
]

describe("the mutation table: the JSON Schema verdict agrees with cardfx validate", () => {
  const root = mkdtempSync(join(tmpdir(), "cardfx-mutations-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  /** A copy of data/ with one file mutated; scenario package paths stay relative (data/ stands alone). */
  const mutated = (m: Mutation, i: number): { dir: string; value: Doc } => {
    const dir = join(root, String(i))
    cpSync("data", dir, { recursive: true })
    const value = JSON.parse(readFileSync(m.file, "utf8")) as Doc
    m.mutate(value)
    writeFileSync(join(dir, relative("data", m.file)), JSON.stringify(value, null, 2))
    return { dir, value }
  }

  it.each(mutations.map((m, i) => [m.name, m, i] as const))("%s", async (_, m, i) => {
    const { dir, value } = mutated(m, i)
    const schemaFile = resolve(dirname(m.file), (value.$schema as string | undefined) ?? "")
    const id = (JSON.parse(readFileSync(schemaFile, "utf8")) as { $id: string }).$id
    const schema = await verdicts(id, value)
    const target = join(dir, relative("data", m.file))
    // The package a content file belongs to, or the standalone file.
    const path = m.file.startsWith("data/heroscript.base/") ? dirname(target) : target
    const extra = m.file.startsWith("data/heroscript.base/") ? [] : [join(dir, "heroscript.base")]
    const report = await Effect.runPromise(
      validatePaths([path, ...extra], documentKinds).pipe(Effect.provide(NodeContext.layer))
    )
    const errors = report.diagnostics.filter((d) => d.severity === "error")
    expect({ ajv: schema.ajv, hyperjump: schema.hyperjump }).toEqual({ ajv: m.valid, hyperjump: m.valid })
    const cardfxValid = errors.length === 0
    expect({ cardfx: cardfxValid, codes: errors.map((e) => e.code) }).toMatchObject({
      cardfx: m.crossReference === undefined ? m.valid : false
    })
  })

  it("lists the rules a JSON Schema cannot express", () => {
    expect([...new Set(mutations.flatMap((m) => m.crossReference ?? []))]).toEqual([
      "a reference to a status published by the loaded packages",
      "IDs unique across the loaded packages",
      "a reference to a bundle published by the loaded packages",
      "one text per display name and locale across the loaded packages",
      "a comparison between two fields (hp ≤ maxHp)",
      "a reference to a character of the initial state",
      "a reference to a card published by the scenario's packages",
      "a word of the file's declared vocabulary (effect_schema.events)"
    ])
  })
})
