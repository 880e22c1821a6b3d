/**
 * Hot reload: a compatible content change (a card's cost, its display name)
 * is switched to with no failed request during the switch; an incompatible
 * one is rejected (409 `reload_rejected`) with each broken instance listed
 * and the old runtime still served; `cardfx ledger check` agrees with the
 * server on both.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ReloadReport } from "../../src/api/Documents.js"
import { checkCommand } from "../../src/cli/ledger-check.js"
import { runCli } from "../support/cli.js"
import { breakStrike, editCards } from "../support/content.js"
import { errorOf, freshStore, PACKAGE, type Running, startServer } from "./support.js"

/** The first command of a new instance: core.ember.affinity applied to its card. */
const applyEmber = (s: Running, instanceId: string, commandId: string, cardId: string) =>
  s.client.instances.command({
    path: { instanceId },
    payload: { commandId, cardId, expectedRevision: 0, command: { kind: "apply", upgradeId: "core.ember.affinity" } }
  })

describe("hot reload", () => {
  let s: Running
  let pkg: string
  let store: string
  beforeAll(async () => {
    pkg = join(mkdtempSync(join(tmpdir(), "cardfx-reload-")), "heroscript.base")
    cpSync(PACKAGE, pkg, { recursive: true })
    store = freshStore("sqlite").store
    s = await startServer({ store, packages: [pkg] })
    await s.run(applyEmber(s, "hero-1", "c1", "basic_attack"))
  })
  afterAll(() => s.close())

  it("switches to a compatible change with no failed request during the switch", async () => {
    const before = await s.run(s.client.runtime.runtime())
    expect(before.locales[0]?.names["card.basic_attack.name"]).toBe("Basic Attack")
    editCards(pkg, (cards) => cards.map((c) => (c.cardId === "basic_attack" ? { ...c, cost: 2 } : c)))
    // Names are content: a renamed card is served after the reload.
    const names = join(pkg, "locales.en.json")
    writeFileSync(names, readFileSync(names, "utf8").replace("\"Basic Attack\"", "\"Jab\""))
    const offline = await runCli(checkCommand, "--package", pkg, "--store", store, "--format", "json")
    expect(offline.code).toBe(0)
    expect((JSON.parse(offline.out) as ReloadReport).broken).toEqual([])
    const load = Array.from({ length: 40 }, () =>
      fetch(`${s.url}/v1/assess`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.sharpened_strike" } })
      }).then((r) => r.status))
    const report = await s.run(s.client.admin.reload())
    expect(new Set(await Promise.all(load))).toEqual(new Set([200]))
    expect(report.switched).toBe(true)
    expect(report.checked).toBe(1)
    // hero-1 was written after the start check: its first verdict is computed now
    expect(report.recomposed).toBe(1)
    const after = await s.run(s.client.runtime.runtime())
    expect(after.contentHash).not.toBe(before.contentHash)
    expect(report.runtime.contentHash).toBe(after.contentHash)
    expect(after.locales[0]?.names["card.basic_attack.name"]).toBe("Jab")
    const card = await s.run(s.client.cards.effective({ path: { cardId: "basic_attack" }, urlParams: {} }))
    expect(card.inspection.effectiveBase.cost).toBe(2)
  })

  it("is incremental: an instance whose ledger and card are unchanged is not recomposed", async () => {
    // heal changes; hero-1 (basic_attack) does not use it
    editCards(pkg, (cards) => cards.map((c) => (c.cardId === "heal" ? { ...c, cost: 3 } : c)))
    const untouched = await s.run(s.client.admin.reload())
    expect([untouched.switched, untouched.checked, untouched.recomposed]).toEqual([true, 1, 0])
    // a new ledger (hero-2, a heal) is composed; hero-1 is not
    await s.run(applyEmber(s, "hero-2", "c2", "heal"))
    const fresh = await s.run(s.client.admin.reload())
    expect([fresh.switched, fresh.checked, fresh.recomposed]).toEqual([true, 2, 1])
    // heal changes again: hero-2 is recomposed, hero-1 still not
    editCards(pkg, (cards) => cards.map((c) => (c.cardId === "heal" ? { ...c, cost: 1 } : c)))
    const changed = await s.run(s.client.admin.reload())
    expect([changed.switched, changed.checked, changed.recomposed]).toEqual([true, 2, 1])
  })

  it("rejects an incompatible change, lists the broken instance and keeps the old runtime; ledger check agrees", async () => {
    const before = await s.run(s.client.runtime.runtime())
    // basic_attack's strike stops being a DAMAGE (or HEAL) effect: the sealed ember rules match nothing
    editCards(pkg, breakStrike)
    const e = await errorOf(s.client.admin.reload())
    expect(e._tag).toBe("Conflict")
    expect(e.code).toBe("reload_rejected")
    const listed = e.diagnostics.slice(1).map((
      d
    ) => [d.details?.["branch"], d.details?.["instanceId"], d.details?.["cardId"], d.code])
    expect(listed).toEqual([["main", "hero-1", "basic_attack", "no_matching_rule"]])
    expect((await s.run(s.client.runtime.runtime())).contentHash).toBe(before.contentHash)
    expect((await s.run(s.client.cards.list())).cards.map((c) => c.cardId)).toContain("basic_attack")
    const offline = await runCli(checkCommand, "--package", pkg, "--store", store, "--format", "json")
    expect(offline.code).toBe(1)
    const broken = (JSON.parse(offline.out) as ReloadReport).broken.map((
      b
    ) => [b.branch, b.instanceId, b.cardId, b.code])
    expect(broken).toEqual(listed)
  })

  it("a content file that does not parse is 422 reload_invalid naming it relative to its package, not the request's 400", async () => {
    const names = join(pkg, "locales.en.json")
    const kept = readFileSync(names, "utf8")
    writeFileSync(names, "{ not json")
    try {
      const r = await fetch(`${s.url}/v1/admin/reload`, { method: "POST" })
      expect(r.status).toBe(422)
      const body = await r.text()
      const e = JSON.parse(body) as { code: string; diagnostics: Array<{ code: string; file?: string }> }
      expect(e.code).toBe("reload_invalid")
      expect(e.diagnostics[0]?.file).toBe("heroscript.base/locales.en.json")
      expect(e.diagnostics.map((d) => d.code)).toContain("json_syntax")
      // No absolute path of the server's.
      expect(body).not.toContain(pkg)
    } finally {
      writeFileSync(names, kept)
    }
  })
})
