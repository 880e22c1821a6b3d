import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCommand } from "../../../src/cli/run.js"
import { runCli } from "../../support/cli.js"
import { repoRoot } from "./helpers.js"

/** Runs `cardfx run ARGS...`, capturing what it logs. */
const cli = async (...args: Array<string>) => {
  const r = await runCli(runCommand, ...args)
  return { code: r.code, out: r.all }
}

const ember = join(repoRoot, "data/scenarios/ember-affinity.scenario.json")

describe("cardfx run", () => {
  it("--format json prints one document; --times 3 reports the runs", async () => {
    const r = await cli(ember, "--times", "3", "--format", "json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as {
      ok: boolean
      runs: number
      report: { fingerprint: string; steps: Array<unknown> }
    }
    expect(doc.ok).toBe(true)
    expect(doc.runs).toBe(3)
    expect(doc.report.steps).toHaveLength(14)
    expect(doc.report.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it("human output shows the breakdown and the byte-identical check", async () => {
    const r = await cli(ember, "--times", "2")
    expect(r.code).toBe(0)
    expect(r.out).toContain("strike → slime DAMAGE 6 base +2 strength ×1.5 vulnerable → 12 (hp 30 → 18)")
    expect(r.out).toContain("2 runs, byte-identical")
  })

  it("a failing scenario exits 1 with diagnostics; --times 0 is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cardfx-run-"))
    const file = join(dir, "bad.scenario.json")
    writeFileSync(
      file,
      JSON.stringify({
        scenario: 1,
        packages: [join(repoRoot, "data/heroscript.base")],
        seed: 1,
        state: { turn: 1, activeSide: "ally", characters: [{ characterId: "hero", side: "ally", hp: 10, maxHp: 10 }] },
        steps: [{ op: "play", actor: "hero", card: "basic_attack", targets: [] }]
      })
    )
    const r = await cli(file, "--format", "json")
    expect(r.code).toBe(1)
    const doc = JSON.parse(r.out) as { ok: boolean; diagnostics: Array<{ code: string; path: string }> }
    expect(doc.ok).toBe(false)
    expect(doc.diagnostics.map((d) => [d.code, d.path])).toEqual([["invalid_target", "/steps/0"]])
    expect((await cli(ember, "--times", "0")).code).toBe(2)
  })
})
