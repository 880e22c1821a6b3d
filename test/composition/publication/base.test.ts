import { describe, expect, it } from "vitest"
import { BASE, loadAndPublish, RESIDUAL } from "../../support/content.js"
import { positionOf, writeTree } from "../../support/tmp.js"

describe("publication of the bundled content", () => {
  it("publishes heroscript.base with no diagnostics", async () => {
    const r = await loadAndPublish(BASE)
    expect(r.loadDiagnostics).toEqual([])
    expect(r.diagnostics).toEqual([])
    expect(r.runtime?.pin.engineVersion).toBe(17)
    expect([...(r.runtime?.transformations.keys() ?? [])].sort()).toEqual([
      "core.ember.affinity",
      "core.sharpened_strike"
    ])
    expect(r.runtime?.slots.get("affinity")?.capacity).toBe(1)
    // Its display names (data/heroscript.base/locales.en.json).
    expect(r.runtime?.locales.map((l) => [l.locale, l.names.get("card.basic_attack.name")])).toEqual([
      ["en", "Basic Attack"]
    ])
  })

  it("publishes the residual extension with its dependency and pins both packages", async () => {
    const r = await loadAndPublish(BASE, RESIDUAL)
    expect(r.diagnostics).toEqual([])
    expect(r.runtime?.pin.packages.map((p) => p.packageId)).toEqual(["heroscript.base", "residual.extension"])
    expect(r.runtime?.pin.packages.every((p) => /^[0-9a-f]{64}$/.test(p.contentHash))).toBe(true)
    expect(r.runtime?.activities.get("scenario")?.authorizes.upgradeIds).toEqual([
      "core.ember.affinity",
      "core.sharpened_strike",
      "residual_affinity"
    ])
  })

  it("reports a missing dependency instead of guessing", async () => {
    const r = await loadAndPublish(RESIDUAL)
    expect(r.runtime).toBeUndefined()
    expect(r.diagnostics.map((d) => [d.code, d.path])).toContainEqual(["unknown_reference", "/dependencies/0"])
  })
})

describe("display names (the locales sections)", () => {
  /** A package on top of heroscript.base whose one file is `names`. */
  const extension = (names: string): string =>
    writeTree({
      "manifest.json": JSON.stringify({
        packageId: "names.extra",
        version: "1.0.0",
        engineVersion: 17,
        dependencies: ["heroscript.base"]
      }),
      "names.json": names
    })

  it("gathers the tables of every package: one per locale, in ordinal order, keys in ordinal order", async () => {
    const text = JSON.stringify({
      locales: [
        { locale: "pt-BR", names: { "card.heal.name": "Curar", "card.basic_attack.name": "Ataque Básico" } },
        // The same text a second time is no conflict.
        { locale: "en", names: { "card.basic_attack.name": "Basic Attack" } }
      ]
    })
    const r = await loadAndPublish(BASE, extension(text))
    expect(r.diagnostics).toEqual([])
    const locales = r.runtime?.locales ?? []
    expect(locales.map((l) => l.locale)).toEqual(["en", "pt-BR"])
    const en = locales[0]?.names ?? new Map<string, string>()
    expect(en.get("card.basic_attack.name")).toBe("Basic Attack")
    expect(en.get("upgrade.core.ember.affinity.name")).toBe("Ember affinity")
    expect([...en.keys()]).toEqual([...en.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect([...(locales[1]?.names ?? [])]).toEqual([
      ["card.basic_attack.name", "Ataque Básico"],
      ["card.heal.name", "Curar"]
    ])
  })

  it("a key given another text is duplicate_id at the later place, with file, line and column", async () => {
    const text = `{ "locales": [{ "locale": "en", "names": {\n  "card.heal.name": "Mend"\n} }] }`
    const dir = extension(text)
    const r = await loadAndPublish(BASE, dir)
    expect(r.runtime).toBeUndefined()
    expect(r.diagnostics).toHaveLength(1)
    const d = r.diagnostics[0]
    expect(d).toMatchObject({
      code: "duplicate_id",
      severity: "error",
      file: `${dir}/names.json`,
      path: "/locales/0/names/card.heal.name",
      subject: "card.heal.name",
      ...positionOf(text, `"Mend"`)
    })
    expect(d?.message).toBe(
      `name "card.heal.name" (en) is already "Heal" in ${BASE}/locales.en.json at /locales/0/names/card.heal.name`
    )
  })

  it("a key no display key of the content names is a warning (a typo names nothing); it still publishes", async () => {
    const text = `{ "locales": [{ "locale": "en", "names": { "card.basic_atack.name": "Jab" } }] }`
    const dir = extension(text)
    const r = await loadAndPublish(BASE, dir)
    expect(r.runtime?.locales[0]?.names.get("card.basic_atack.name")).toBe("Jab")
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.file, d.path, d.line])).toEqual([
      ["unknown_reference", "warning", `${dir}/names.json`, "/locales/0/names/card.basic_atack.name", 1]
    ])
  })
})
