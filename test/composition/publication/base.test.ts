import { describe, expect, it } from "vitest"
import { BASE, loadAndPublish, RESIDUAL } from "../../support/content.js"

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
