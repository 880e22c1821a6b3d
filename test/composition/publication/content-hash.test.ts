/**
 * Issue 12.3: the runtime content hash is canonical by ID. `heroscript.base`
 * rewritten into another layout (each definition in its own file, files
 * renamed and nested, sections split across files, section arrays reversed,
 * keys reordered, `$schema` lines added, a locale table split one name per
 * file) publishes with the same pin; any change to one definition's content
 * (a display name's text included) changes it.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { packageContentDocument } from "../../../src/composition/Publication.js"
import { contentSections } from "../../../src/composition/schema/Package.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"
import { BASE, load, loadAndPublish } from "../../support/content.js"
import { writeTree } from "../../support/tmp.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

const readJson = (file: string): Record<string, Json> => JSON.parse(readFileSync(file, "utf8")) as Record<string, Json>

/** Every definition of the package, as [section, definition]. */
const definitions = (): Array<readonly [string, Json]> => {
  const out: Array<readonly [string, Json]> = []
  for (const f of readdirSync(BASE).filter((x) => x.endsWith(".json") && x !== "manifest.json").sort()) {
    for (const [section, xs] of Object.entries(readJson(join(BASE, f)))) {
      if (Array.isArray(xs)) { for (const x of xs as ReadonlyArray<Json>) out.push([section, x]) }
    }
  }
  return out
}

/** Object keys in reverse order, recursively (content is the same; JSON text differs). */
const reverseKeys = (v: Json): Json =>
  Array.isArray(v)
    ? (v as ReadonlyArray<Json>).map(reverseKeys)
    : v !== null && typeof v === "object"
    ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]))
    : v

const manifest = readFileSync(join(BASE, "manifest.json"), "utf8")
const dirs: Array<string> = []
const tree = (files: Readonly<Record<string, string>>): string => {
  const d = writeTree({ "manifest.json": manifest, ...files })
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** One file per definition, in nested folders named unlike the original, definitions in reverse order. */
const onePerFile = (defs: ReadonlyArray<readonly [string, Json]>): Record<string, string> => {
  const files: Record<string, string> = {}
  ;[...defs].reverse().forEach(([section, x], i) => {
    files[`z-${section}/${String(99 - i).padStart(3, "0")}-def.json`] = JSON.stringify(
      { $schema: "https://example.invalid/content.json", [section]: [reverseKeys(x)] },
      null,
      i % 2 === 0 ? 2 : 0
    )
  })
  return files
}

/** Two files, sections split across them the other way round, arrays reversed. */
const twoFiles = (defs: ReadonlyArray<readonly [string, Json]>): Record<string, string> => {
  const a: Record<string, Array<Json>> = {}
  const b: Record<string, Array<Json>> = {}
  defs.forEach(([section, x], i) => {
    const into = i % 2 === 0 ? a : b
    ;(into[section] ??= []).unshift(x)
  })
  return { "all/first.json": JSON.stringify(a), "all/deeper/second.json": JSON.stringify(b) }
}

/** One file per definition, and each locale table split into one file per name. */
const namesSplit = (defs: ReadonlyArray<readonly [string, Json]>): Record<string, string> => {
  const files = onePerFile(defs.filter(([section]) => section !== "locales"))
  defs.filter(([section]) => section === "locales").forEach(([, table], i) => {
    const t = table as { readonly locale: string; readonly names: Readonly<Record<string, string>> }
    Object.entries(t.names).reverse().forEach(([key, text], j) => {
      files[`names/${i}/${j}.json`] = JSON.stringify({ locales: [{ locale: t.locale, names: { [key]: text } }] })
    })
  })
  return files
}

const pinOf = async (dir: string) => {
  const r = await loadAndPublish(dir)
  expect(r.diagnostics, JSON.stringify(r.diagnostics)).toEqual([])
  const pin = r.runtime?.pin
  if (pin === undefined) throw new Error("no runtime")
  return pin
}

describe("the runtime content hash is canonical by ID (issue 12.3)", () => {
  it("a pure re-layout of heroscript.base changes nothing", async () => {
    const original = await pinOf(BASE)
    const defs = definitions()
    expect(defs.length).toBeGreaterThan(15)
    expect(await pinOf(tree(onePerFile(defs)))).toEqual(original)
    expect(await pinOf(tree(twoFiles(defs)))).toEqual(original)
    expect(await pinOf(tree(namesSplit(defs)))).toEqual(original)
  })

  it("any change to one definition's content changes the hash", async () => {
    const original = await pinOf(BASE)
    const defs = definitions()
    const hashes = new Set<string>([original.packages[0]?.contentHash ?? ""])
    // Each change is in a different section; each must give a new hash.
    const changes: ReadonlyArray<(section: string, x: Json) => Json | undefined> = [
      (
        s,
        x
      ) => (s === "cards" && (x as { cardId: string }).cardId === "basic_attack"
        ? { ...(x as object), cost: 9 }
        : undefined),
      (
        s,
        x
      ) => (s === "statuses" && (x as { statusId: string }).statusId === "burning"
        ? { ...(x as object), defaultDuration: 7 }
        : undefined),
      (s, x) =>
        s === "transformations" && (x as { upgradeId: string }).upgradeId === "core.ember.affinity"
          ? { ...(x as object), maxPerCard: 1, category: "Other" }
          : undefined,
      // Names are content: a display text changed changes the hash.
      (s, x) => {
        if (s !== "locales") return undefined
        const t = x as { readonly locale: string; readonly names: Readonly<Record<string, string>> }
        return { ...t, names: { ...t.names, "card.heal.name": "Mend" } }
      }
    ]
    for (const change of changes) {
      let changed = 0
      const edited = defs.map(([s, x]): readonly [string, Json] => {
        const y = change(s, x)
        if (y === undefined) return [s, x]
        changed++
        return [s, y]
      })
      expect(changed).toBe(1)
      const pin = await pinOf(tree(onePerFile(edited)))
      const h = pin.packages[0]?.contentHash ?? ""
      expect(hashes.has(h), "a content change kept a hash already seen").toBe(false)
      hashes.add(h)
    }
  })

  it("the hashed document holds engine version, package ID and version, and every definition in ordinal ID order", async () => {
    const [loaded] = await load(BASE)
    if (loaded?.package === undefined) throw new Error("not loaded")
    const doc = packageContentDocument(loaded.package) as {
      engineVersion: number
      packageId: string
      version: string
      definitions: Record<string, ReadonlyArray<Record<string, string>>>
    }
    expect([doc.engineVersion, doc.packageId, doc.version]).toEqual([17, "heroscript.base", "1.0.0"])
    const idKey: Record<string, string> = {
      cards: "cardId",
      statuses: "statusId",
      relics: "relicId",
      buffs: "buffId",
      attributes: "attributeId",
      bundles: "bundleId",
      transformations: "upgradeId",
      slots: "slotId",
      activities: "activityId",
      locales: "locale"
    }
    let total = 0
    for (const section of contentSections) {
      const ids = (doc.definitions[section] ?? []).map((x) => x[idKey[section] as string] as string)
      expect(ids, section).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      total += ids.length
    }
    expect(total).toBe(definitions().length)
    expect(canonicalJson(doc)).not.toContain("$schema")
  })
})
