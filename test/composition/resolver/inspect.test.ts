/** `cardfx inspect`: the effective card, its trace and fingerprint, human and JSON; errors as diagnostics + exit codes. */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { inspectCommand } from "../../../src/cli/inspect.js"
import { runCli } from "../../support/cli.js"
import { BASE, ledgerWith, NUMERIC, RESIDUAL, runtimeOf } from "./support.js"

const cli = async (...args: Array<string>) => {
  const r = await runCli(inspectCommand, ...args)
  return { code: r.code, out: r.all }
}

describe("cardfx inspect", () => {
  it("--format json prints one document with effectiveBase, trace, fingerprint and origins", async () => {
    const r = await cli(
      "--package",
      BASE,
      "--package",
      NUMERIC,
      "--card",
      "basic_attack",
      "--with",
      "test.heavy_strike",
      "--with",
      "core.ember.affinity",
      "--format",
      "json"
    )
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as {
      ok: boolean
      inspection: {
        effectiveBase: {
          fingerprint: string
          cost: number
          compositionTrace: Array<{ ruleId: string; anchorId: string }>
        }
        ledger: { entries: Array<{ entryId: string; upgradeId: string }> }
        origins: Record<string, string>
      }
    }
    expect(doc.ok).toBe(true)
    expect(doc.inspection.effectiveBase.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(doc.inspection.effectiveBase.compositionTrace.map((t) => [t.ruleId, t.anchorId])).toEqual([[
      "ember.damage",
      "strike"
    ]])
    expect(doc.inspection.ledger.entries.map((e) => [e.entryId, e.upgradeId])).toEqual([
      ["e1", "test.heavy_strike"],
      ["e2", "core.ember.affinity"]
    ])
    expect(Object.values(doc.inspection.origins).sort()).toEqual(["base+patch:e1", "rule:e2/ember.damage"])
  })

  it("the human view shows which ledger entry and rule produced each component", async () => {
    const r = await cli("--package", BASE, "--card", "basic_attack", "--with", "core.ember.affinity")
    expect(r.code).toBe(0)
    expect(r.out).toContain("strike: DAMAGE 6 → TARGET  ← base")
    expect(r.out).toMatch(
      /ember_[0-9a-f]{16}\.burn: APPLY_STATUS burning stacks 1 duration 3 → TARGET \(if target\.alive\) \{AfterParentImpact, PerImpact\}  ← from e1 core\.ember\.affinity \/ rule ember\.damage \(bundle ember\.burning, AfterImpact, anchor strike\)/
    )
    expect(r.out).toMatch(/fingerprint: [0-9a-f]{64}/)
  })

  it("--ledger FILE starts from a sealed ledger; a tampered ledger is rejected (exit 1)", async () => {
    const rt = await runtimeOf(BASE, RESIDUAL, NUMERIC)
    const ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike"])
    const dir = mkdtempSync(join(tmpdir(), "cardfx-inspect-"))
    const file = join(dir, "ledger.json")
    writeFileSync(file, JSON.stringify(ledger))
    const ok = await cli(
      "--package",
      BASE,
      "--package",
      RESIDUAL,
      "--package",
      NUMERIC,
      "--card",
      "basic_attack",
      "--ledger",
      file,
      "--with",
      "residual_affinity",
      "--format",
      "json"
    )
    expect(ok.code).toBe(0)
    const doc = JSON.parse(ok.out) as {
      inspection: {
        effectiveBase: { compiled: { roots: Array<{ children: Array<{ effect: { payload: unknown } }> }> } }
      }
    }
    expect(doc.inspection.effectiveBase.compiled.roots[0]?.children[0]?.effect.payload).toEqual({ potency: 10 })

    const tampered = JSON.parse(JSON.stringify(ledger)) as { entries: Array<{ patches: Array<{ value: number }> }> }
    ;(tampered.entries[0]?.patches[0] as { value: number }).value = 99
    writeFileSync(file, JSON.stringify(tampered))
    const bad = await cli(
      "--package",
      BASE,
      "--package",
      NUMERIC,
      "--card",
      "basic_attack",
      "--ledger",
      file,
      "--format",
      "json"
    )
    expect(bad.code).toBe(1)
    expect((JSON.parse(bad.out) as { diagnostics: Array<{ code: string }> }).diagnostics.map((d) => d.code)).toEqual([
      "unsealed_definition"
    ])
  })

  it("composition failures are diagnostics with exit 1; an unknown card too", async () => {
    const r = await cli("--package", BASE, "--card", "expose", "--with", "core.ember.affinity", "--format", "json")
    expect(r.code).toBe(1)
    expect((JSON.parse(r.out) as { diagnostics: Array<{ code: string }> }).diagnostics.map((d) => d.code)).toEqual([
      "no_matching_rule"
    ])
    const u = await cli("--package", BASE, "--card", "nope")
    expect(u.code).toBe(1)
    expect(u.out).toContain("unknown_card")
  })

  it("a missing --card is a usage error", async () => {
    const r = await cli("--package", BASE)
    expect(r.code).toBe(2)
  })
})
