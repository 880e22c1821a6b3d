/**
 * The workbench page in headless Chromium against the real `cardfx serve`
 * (the built bin, a fresh SQLite store): every view loads with no console
 * error and no failed request at 1280×800 and on a 390-px phone (screenshots
 * of each view at both sizes go to test/workbench/screenshots/, ignored by
 * git; scripts/screenshots.mjs copies them for docs/workbench.md); applying
 * core.ember.affinity redraws basic_attack with the burning child marked as
 * coming from that entry; an incompatible offer shows its code; the try-it
 * breakdown shows the numbers `cardfx run` shows; a Hallyu Hex game is played
 * to its end by clicking legal actions a seeded script chooses, and its log
 * replays on the server (and in `cardfx replay`) to the same fingerprints; a
 * disabled action shows its reason on focus. The server runs with
 * `--token-env`: the pages get the token in their tab's sessionStorage (as
 * the token field stores it), except one that has none: its change shows the
 * 401 diagnostic and where to enter the token, and is applied once it is
 * typed. Issue 26: at both sizes every view shows names (the served
 * content's, from `GET /v1/runtime`; the page bundles none) and costs, has no
 * input narrower than 40 px and no serious or critical axe violation; the
 * table shows one tooltip at a time, inside the viewport; an apply and a
 * preview show the before/after view with the changes marked; each step of
 * the seeded game has a log line in words; against another client the table
 * redraws from the event stream when seat 1 acts through the API.
 */
import { AxeBuilder } from "@axe-core/playwright"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TOKEN_KEY } from "../../src/page/model/Auth.js"
import { pick, seedOf } from "../../src/page/model/Chooser.js"
import {
  type Browser,
  browserAvailable,
  browserRequired,
  launch,
  type SizeName,
  skipBrowserReason,
  watch
} from "./browser.js"
import { serve, type Served } from "./server.js"

const SHOTS = "test/workbench/screenshots"
const TOKEN = "workbench-token"
const PACKAGES = ["data/heroscript.base", "test/fixtures/residual-extension"]
const VIEWS = [
  { name: "cards", ready: ".card-face .component" },
  { name: "try", ready: "form.try-form input[name=upgrade]" },
  { name: "table", ready: "form.new-game" },
  // Its run and plots are balance.test.ts's (which takes its screenshots); here the generic checks.
  { name: "balance", ready: "main[data-ready=true] form.balance-form" }
] as const

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]
  )

if (!browserAvailable && !browserRequired) {
  describe.skip(skipBrowserReason ?? "", () => {
    it("needs Chromium", () => undefined)
  })
}

/** Hovering one disabled action and focusing another shows one tooltip, inside the viewport. */
const noOverlappingTooltips = async (page: Page) => {
  const disabled = await page.$$("button[data-legal=false]")
  if (disabled.length === 0) return
  await disabled[0]?.hover()
  await disabled[disabled.length - 1]?.focus()
  const tips = await page.$$eval(
    "[role=tooltip]",
    (els) =>
      els.filter((e) => e.getClientRects().length > 0).map((e) => {
        const r = e.getBoundingClientRect()
        return { left: r.left, right: r.right }
      })
  )
  expect(tips).toHaveLength(1)
  const width = await page.evaluate("window.innerWidth") as number
  expect(tips[0]?.left).toBeGreaterThanOrEqual(0)
  expect(tips[0]?.right).toBeLessThanOrEqual(width)
  await page.keyboard.press("Escape")
}

/** axe over the page as it is: no violation of any impact. */
const noAxeViolations = async (page: Page, what: string) => {
  const axe = await new AxeBuilder({ page }).analyze()
  expect(axe.passes.length).toBeGreaterThan(0)
  expect(
    axe.violations.map((x) => `${x.impact ?? ""} ${x.id}: ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    what
  ).toEqual([])
}

/** Opens every disclosure (`details`) on the page. */
const openDisclosures = (page: Page) =>
  page.evaluate(`document.querySelectorAll("details").forEach((d) => { d.open = true })`)

/**
 * The engine's words visible on the page (its rendered text, `innerText`): the runtime's IDs (cards, transformations,
 * activities, statuses with an `_` or `.`), generated member IDs, fingerprints (12+ hex digits), Hallyu Hex instance
 * IDs (`p0-02`), engine operations (`APPLY_STATUS`) and ledger entry tags (`e1=`).
 */
const engineWordsShown = async (page: Page, ids: ReadonlyArray<string>): Promise<Array<string>> => {
  const text = await page.evaluate("document.body.innerText") as string
  const found = ids.filter((id) => /[._]/.test(id) && text.includes(id))
  for (
    const re of [/\b[a-z]+_[0-9a-f]{16}\b/, /\b[0-9a-f]{12,}\b/, /\bp[01]-\d\d\b/, /\b[A-Z]+_[A-Z_]+\b/, /\be\d+=/]
  ) {
    const m = re.exec(text)
    if (m !== null) found.push(m[0])
  }
  return found
}

describe.runIf(browserAvailable || browserRequired)("workbench in headless Chromium", () => {
  let server: Served | null = null
  const browsers: Partial<Record<SizeName, Browser>> = {}

  beforeAll(async () => {
    if (!browserAvailable) throw new Error(skipBrowserReason ?? "Chromium is missing")
    mkdirSync(SHOTS, { recursive: true })
    const t0 = Date.now()
    server = await serve(PACKAGES, { token: TOKEN })
    const t1 = Date.now()
    browsers.desktop = await launch("desktop")
    browsers.phone = await launch("phone")
    console.log(`workbench: server up in ${t1 - t0} ms, two Chromium profiles in ${Date.now() - t1} ms`)
  }, 300_000)

  afterAll(async () => {
    await browsers.desktop?.close()
    await browsers.phone?.close()
    await server?.stop()
  }, 60_000)

  /**
   * A fresh page (tab) on `view`; its sessionStorage holds the token unless `withToken` is false; `before`
   * runs on the page before it navigates (a route to intercept).
   */
  const open = async (size: SizeName, view: string, withToken = true, before?: (page: Page) => Promise<unknown>) => {
    const b = browsers[size]
    if (b === undefined || server === null) throw new Error("not started")
    const page = await b.context.newPage()
    if (before !== undefined) await before(page)
    // A script run in the page before its own (as text: the test's scope does not travel to the page).
    if (withToken) {
      await page.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(TOKEN)})`)
    }
    const problems = watch(page)
    await page.goto(`${server.origin}/#${view}`)
    await page.waitForSelector("main[data-ready=true]")
    return { page, problems }
  }

  it(
    "applying core.ember.affinity to basic_attack redraws the card with burning marked as coming from that entry",
    async () => {
      const { page, problems } = await open("desktop", "cards")
      await page.click("button[data-card=basic_attack]")
      await page.waitForSelector(".card-face[data-card-id=basic_attack]")
      expect(await page.$$(".component[data-origin-entry]:not([data-origin-entry=base])")).toHaveLength(0)
      await page.click("[data-offer=\"core.ember.affinity\"] button.apply")
      const burn = await page.waitForSelector(".component[data-component-id$=\".burn\"]")
      expect(await burn.getAttribute("data-origin-transformation")).toBe("core.ember.affinity")
      const entry = await burn.getAttribute("data-origin-entry")
      expect(entry).toMatch(/^e\d+$/)
      expect(await burn.getAttribute("data-changed")).toBe("true")
      // Under its anchor, in the tree: strike's children.
      expect(await page.$(".component[data-component-id=strike] .children .component[data-component-id$=\".burn\"]"))
        .not.toBeNull()
      expect(await burn.$eval(".origin", (e) => e.textContent)).toBe(
        `${entry} · core.ember.affinity / ember.damage (AfterImpact)`
      )
      expect(await burn.$eval(".summary", (e) => e.textContent)).toContain("APPLY_STATUS burning")
      // The card face: its name from the served locale table (the ID one hover away), cost, rules text from the effective card.
      expect(await page.textContent(".card-column > .card-face .card-name")).toBe("Basic Attack")
      expect(await page.getAttribute(".card-column > .card-face .card-name", "title")).toBe("basic_attack")
      expect(await page.getAttribute(".card-column > .card-face .cost", "data-cost")).toBe("1")
      expect(await page.$$eval(".card-column > .card-face .rules-line", (ls) => ls.map((l) => l.textContent))).toEqual([
        "Deal 6 damage to the target.",
        "After each impact: apply 1 Burning for 3 turns to the target if the target is alive."
      ])
      // The generated member is named by its origin, its ID on hover.
      expect(await burn.$eval(".component-name", (e) => [e.textContent, e.getAttribute("title")])).toEqual([
        "Ember affinity → burn",
        await burn.getAttribute("data-component-id")
      ])
      // Before / after: the new burn marked on the after card, the fingerprint change.
      const ba = await page.waitForSelector(".before-after")
      expect(await ba.$eval("h3", (e) => e.textContent)).toBe("Applied: Ember affinity")
      expect(await ba.$$eval("[data-diff-kind=added]", (els) => els.map((e) => e.textContent))).toEqual([
        "new: Ember affinity → burn"
      ])
      expect(await ba.$eval("[data-diff-field=tags]", (e) => e.textContent)).toBe(
        "tags: attack, basic → attack, basic, ember_affinity"
      )
      expect(await ba.$(".side.after .component.diff-added[data-component-id$=\".burn\"]")).not.toBeNull()
      expect(await ba.$(".side.before .component[data-component-id$=\".burn\"]")).toBeNull()
      const fpBefore = await ba.$eval(".fingerprint-change", (e) => e.getAttribute("data-fingerprint-before"))
      const fpAfter = await ba.$eval("[data-fingerprint-after]", (e) => e.getAttribute("data-fingerprint-after"))
      expect(fpBefore).toMatch(/^[0-9a-f]{64}$/)
      expect(fpAfter).toMatch(/^[0-9a-f]{64}$/)
      expect(fpAfter).not.toBe(fpBefore)
      // The ledger shows the entry, the history the command.
      expect(await page.textContent(`.ledger [data-entry="${entry}"]`)).toContain("core.ember.affinity")
      expect(await page.textContent(".history")).toContain("apply")
      // Once stored, the instance's branches are listed under its route (before, none was asked for: no 404).
      expect(await page.$$eval("select[aria-label=\"Switch branch\"] option", (os) => os.map((o) => o.textContent)))
        .toEqual(["main"])
      expect(problems.all).toEqual([])
      await page.close()
    },
    60_000
  )

  it("shows the display names the server serves (GET /v1/runtime's locales): the page bundles none", async () => {
    if (server === null) throw new Error("not started")
    const served = await (await fetch(`${server.origin}/v1/runtime`)).json() as {
      locales: Array<{ locale: string; names: Record<string, string> }>
    }
    expect(served.locales.find((l) => l.locale === "en")?.names["card.twin_strike.name"]).toBe("Twin Strike")
    // The same answer with one name changed on its way to the page: the page shows the changed one.
    // The page reads the runtime from its change stream (GET /v1/runtime/events): one event with the changed answer.
    const changed = structuredClone(served)
    for (const t of changed.locales) t.names["card.twin_strike.name"] = "Twin Strike (as served)"
    const { page, problems } = await open(
      "desktop",
      "cards",
      true,
      (p) =>
        p.route("**/v1/runtime/events", (route) =>
          route.fulfill({
            status: 200,
            contentType: "text/event-stream",
            body: `event: runtime\ndata: ${JSON.stringify({ runtime: changed, rejected: null })}\n\n`
          }))
    )
    await page.waitForSelector("button[data-card=twin_strike]")
    expect(await page.textContent("button[data-card=twin_strike]")).toContain("Twin Strike (as served)")
    expect(problems.all).toEqual([])
    await page.close()
    // No name of data/heroscript.base is in the page's code.
    for (const f of filesUnder("dist/page").filter((f) => /\.(js|html)$/.test(f))) {
      expect(readFileSync(f, "utf8"), f).not.toContain("Twin Strike")
    }
  })

  it("an incompatible offer shows its diagnostic code", async () => {
    // heal: ember is eligible for it, but journey_opportunity does not authorize ember (no instance touched: no slot taken).
    const { page, problems } = await open("desktop", "cards")
    await page.click("button[data-card=heal]")
    await page.waitForSelector(".card-face[data-card-id=heal]")
    // Activity is chosen from the runtime's declared activities (a select: a typo cannot authorize nothing).
    expect(await page.$$eval("select[name=activity] option", (os) => os.map((o) => o.value))).toEqual(
      expect.arrayContaining(["canonical_command", "journey_opportunity", "scenario"])
    )
    // In words by default (the key one Details toggle away).
    expect(await page.$$eval("select[name=activity] option", (os) => os.map((o) => o.textContent))).toEqual(
      expect.arrayContaining(["canonical command", "journey opportunity", "scenario"])
    )
    await page.selectOption("select[name=activity]", "journey_opportunity")
    const offer = await page.waitForSelector(".offer.incompatible[data-offer=\"core.ember.affinity\"]")
    expect(await offer.$eval("[data-code]", (e) => e.getAttribute("data-code"))).toBe("not_authorized")
    expect(await offer.textContent()).toContain("does not authorize")
    // Compatible offers come first.
    const order = await page.$$eval(".offer", (els) => els.map((e) => e.classList.contains("compatible")))
    expect(order).toEqual([...order].sort((a, b) => Number(b) - Number(a)))
    expect(problems.all).toEqual([])
    await page.close()
  }, 60_000)

  it("the try-it breakdown shows the numbers `cardfx run` shows for the same scenario", async () => {
    // data/scenarios/residual-affinity.scenario.json: basic_attack + sharpened_strike + residual_affinity,
    // hero strength 2, target vulnerable 1 (1 turn), 60 HP, seed 11.
    const cli = spawnSync(process.execPath, [
      "dist/cli/cardfx.mjs",
      "run",
      "data/scenarios/residual-affinity.scenario.json"
    ], { encoding: "utf8" })
    expect(cli.status).toBe(0)
    const line = /strike → slime DAMAGE (.+) \(hp 60 → (\d+)\)/.exec(cli.stdout)
    expect(line).not.toBeNull()
    const status = /residual\S* → slime (residual_status stacks .+)/.exec(cli.stdout)
    const { page, problems } = await open("desktop", "try")
    await page.selectOption("select[name=card]", "basic_attack")
    await page.check("input[name=upgrade][value=\"core.sharpened_strike\"]")
    await page.check("input[name=upgrade][value=\"residual_affinity\"]")
    await page.fill("input[name=targetHp]", "60")
    await page.fill("input[name=seed]", "11")
    await page.click("form.try-form button[type=submit]")
    const breakdown = await page.waitForSelector(".event.impact .breakdown")
    expect(await breakdown.getAttribute("data-breakdown")).toBe(line?.[1])
    expect(line?.[1]).toBe("9 base +2 strength ×1.5 vulnerable → 16")
    expect(await page.$$eval(".breakdown .part", (els) => els.map((e) => e.textContent))).toEqual([
      "9 base",
      "+2 strength",
      "×1.5 vulnerable",
      "→ 16"
    ])
    expect(await page.textContent(".event.impact")).toContain(`hp 60 → ${line?.[2]}`)
    expect(await page.textContent(".event.status-applied")).toContain(status?.[1] ?? "missing")
    expect(problems.all).toEqual([])
    await page.close()
  }, 60_000)

  it("a disabled action shows its explain reason on focus", async () => {
    const { page, problems } = await open("desktop", "table")
    await page.fill("input[name=seed]", "3")
    await page.click("form.new-game button[type=submit]")
    const disabled = await page.waitForSelector("button[data-legal=false]")
    await disabled.focus()
    const id = await disabled.getAttribute("aria-describedby")
    const tip = await page.waitForSelector(`#${id}`, { state: "visible" })
    expect(await tip.textContent()).toMatch(/^[a-z-]+: .+/)
    expect(await disabled.getAttribute("aria-disabled")).toBe("true")
    // Clicking it sends nothing.
    const step = await page.getAttribute(".table", "data-step")
    await disabled.click({ force: true })
    expect(await page.getAttribute(".table", "data-step")).toBe(step)
    expect(problems.all).toEqual([])
    await page.close()
  }, 60_000)

  it(
    "a game played to its end by clicking seeded choices of legal actions replays on the server to the same fingerprints",
    async () => {
      const { page, problems } = await open("desktop", "table")
      await page.fill("input[name=seed]", "workbench-1")
      await page.click("form.new-game button[type=submit]")
      await page.waitForSelector(".table[data-step]")
      let rng = seedOf("workbench-script")
      let clicks = 0
      let dialogChecked = false
      // One read of the table per step (over, step, the legal actions' count, the activations' IDs and labels),
      // then a real click on the chosen button: a step costs three round trips to the browser, not six.
      for (;;) {
        const table = await page.$eval(".table", (t) => ({
          over: t.getAttribute("data-over") === "true",
          step: t.getAttribute("data-step") ?? "",
          legal: t.ownerDocument.querySelectorAll("button[data-legal=true]").length,
          activations: [...t.ownerDocument.querySelectorAll("button[data-action^=\"activate:\"]")].map((b) => [
            b.getAttribute("data-action") ?? "",
            b.textContent ?? ""
          ])
        }))
        if (table.over) break
        expect(clicks).toBeLessThan(1000)
        // A decision dialog: it says which card asks, each answer what it does; axe finds nothing (the first one).
        if (!dialogChecked && await page.isVisible("[role=dialog]")) {
          dialogChecked = true
          expect(await page.textContent("#decision-title")).toMatch(/^Seat [01]: /)
          expect(await page.$$eval("[role=dialog] .answer-does", (xs) => xs.length)).toBeGreaterThan(0)
          await noAxeViolations(page, "decision dialog")
        }
        expect(table.legal).toBeGreaterThan(0)
        // An action's label names the effect its ID names (`activate:p0-15:E1` → `… E1`, never `E0`).
        for (const [id = "", label = ""] of table.activations) {
          expect(label).toContain(` ${id.split(":")[2]}`)
          expect(label).not.toMatch(/ E0\b/)
        }
        const p = pick(rng, table.legal)
        rng = p.state
        await page.locator("button[data-legal=true]").nth(p.index).click()
        await page.waitForSelector(`.table:not([data-step="${table.step}"])`)
        clicks++
      }
      const gameId = (await page.getAttribute(".table", "data-game")) ?? ""
      const fingerprint = await page.getAttribute(".table", "data-fingerprint")
      // The log in words: one line per step, no raw action ID in the words; casts and activations name the card and
      // say what it does (the `hhx explain` text: tested against the CLI in model.test.ts).
      const lines = await page.$$eval(
        ".log-steps li",
        (lis) =>
          lis.map((li) => ({
            action: li.getAttribute("data-action") ?? "",
            words: li.querySelector(".words")?.textContent ?? ""
          }))
      )
      expect(lines).toHaveLength(clicks)
      for (const l of lines) {
        expect(l.words).toMatch(
          /^(Seat [01]) (casts|activates|ends the turn|passes|chooses|answers|pays|does not pay|redirects)\b/
        )
        // An action's ID is engine words unless it is a plain verb ("pass", "end-turn"), which the line may use.
        if (/[:/]/.test(l.action)) expect(l.words).not.toContain(l.action)
        if (l.action.startsWith("cast:")) expect(l.words).not.toMatch(/ p[01]-\d\d\b(?!\))/)
      }
      expect(await page.getAttribute("[data-log-fingerprint]", "data-log-fingerprint")).toBe(fingerprint)
      await page.click("text=Replay on the server")
      await page.click("text=Replay to the end")
      await page.waitForSelector(`.replay-status[data-replay-at="${clicks}"]`, { timeout: 60_000 })
      expect(await page.getAttribute(".replay-status", "data-replay-ok")).toBe("true")
      expect(await page.getAttribute(".replay-status", "data-replay-fingerprint")).toBe(fingerprint)
      // After a whole game, every disclosure open: no axe violation at either width.
      await openDisclosures(page)
      await noAxeViolations(page, "after a game, 1280")
      await page.setViewportSize({ width: 390, height: 844 })
      await noAxeViolations(page, "after a game, 390")
      expect(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(0)
      // The log's engine IDs and fingerprints behind the Details toggle.
      expect(await page.isVisible(".log-steps li code")).toBe(false)
      await page.check("input[name=details]")
      expect(await page.isVisible(".log-steps li code")).toBe(true)
      expect(problems.all).toEqual([])
      await page.close()
      // The same log replays in `cardfx replay` (every step's fingerprint checked).
      const log = await (await fetch(`${server?.origin}/v1/hhx/games/${encodeURIComponent(gameId)}/log`)).text()
      const dir = mkdtempSync(join(tmpdir(), "cardfx-log-"))
      writeFileSync(join(dir, "game.log.json"), log)
      const replay = spawnSync(process.execPath, ["dist/cli/cardfx.mjs", "replay", join(dir, "game.log.json")], {
        encoding: "utf8"
      })
      rmSync(dir, { recursive: true, force: true })
      expect(replay.status, replay.stdout + replay.stderr).toBe(0)
    },
    180_000
  )

  it(
    "without the token a change shows the 401 diagnostic and where to enter it; typed in, the change is applied",
    async () => {
      const { page, problems } = await open("desktop", "cards", false)
      await page.click("button[data-card=heal]")
      await page.waitForSelector(".card-face[data-card-id=heal]")
      await page.click("[data-offer=\"core.ember.affinity\"] button.apply")
      const alert = await page.waitForSelector(".error[role=alert]")
      expect(await alert.$eval(".code", (e) => e.textContent)).toBe("unauthorized")
      expect(await alert.$eval(".token-hint", (e) => e.textContent)).toContain("Token")
      const ember = ".card-face[data-card-id=heal] .component[data-origin-transformation=\"core.ember.affinity\"]"
      expect(await page.$$(ember)).toHaveLength(0)
      await page.fill("input[name=token]", TOKEN)
      expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)})`)).toBe(TOKEN)
      await page.click("[data-offer=\"core.ember.affinity\"] button.apply")
      await page.waitForSelector(ember)
      expect(await page.$(".error[role=alert]")).toBeNull()
      // The one failed request is the change sent without the token (Chromium also logs it on the console).
      expect(problems.all.filter((p) => p.startsWith("HTTP "))).toEqual([
        expect.stringMatching(/^HTTP 401: POST .*\/v1\/instances\/workbench\.heal\/commands$/)
      ])
      expect(problems.all.filter((p) => !p.startsWith("HTTP "))).toEqual([
        expect.stringMatching(/^console error: .*\b401\b/)
      ])
      await page.close()
    },
    60_000
  )

  it(
    "the table follows the event stream: seat 1 acting through the API from another client redraws the page's table",
    async () => {
      const { page, problems } = await open("desktop", "table")
      await page.fill("input[name=seed]", "stream-1")
      await page.check("input[name=mode][value=remote]")
      await page.click("form.new-game button[type=submit]")
      await page.waitForSelector(".table[data-live=following]")
      const gameId = (await page.textContent("[data-invite-game]")) ?? ""
      // The other client exchanges the page's invitation for seat 1's secret, which the page never holds.
      const code = (await page.textContent("[data-invite-code]")) ?? ""
      const joined = await fetch(`${server?.origin}/v1/hhx/invitations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code })
      })
      expect(joined.status).toBe(200)
      const { secret } = (await joined.json()) as { secret: string }
      expect(secret).not.toBe("")
      expect(await page.content()).not.toContain(secret)
      const game = `${server?.origin}/v1/hhx/games/${encodeURIComponent(gameId)}`
      const asSeat1 = { "x-seat-secret": secret, authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }
      let rng = seedOf("stream-script")
      let remoteMoves = 0
      for (let i = 0; i < 60 && remoteMoves < 3; i++) {
        const view = (await (await fetch(game, { headers: asSeat1 })).json()) as {
          step: number
          toAct: number | null
          result: unknown
          legalActions: Array<{ id: string }>
        }
        if (view.result !== null) break
        if (view.toAct === 1) {
          // The other seat moves through the API; the page learns of it only from the stream.
          const p = pick(rng, view.legalActions.length)
          rng = p.state
          const r = await fetch(`${game}/actions`, {
            method: "POST",
            headers: asSeat1,
            body: JSON.stringify({ actionId: view.legalActions[p.index]?.id, expectedStep: view.step })
          })
          expect(r.status).toBe(200)
          await page.waitForSelector(`.table[data-step="${view.step + 1}"]`, { timeout: 30_000 })
          remoteMoves++
        } else {
          // Seat 0 is the page's: it acts by clicking.
          await page.waitForSelector(`.table[data-step="${view.step}"]`)
          const legal = await page.$$("button[data-legal=true]")
          expect(legal.length).toBeGreaterThan(0)
          const p = pick(rng, legal.length)
          rng = p.state
          await legal[p.index]?.click()
          await page.waitForSelector(`.table:not([data-step="${view.step}"])`)
        }
      }
      expect(remoteMoves).toBeGreaterThan(0)
      expect(problems.all).toEqual([])
      await page.close()
    },
    120_000
  )

  it(
    "a whole game against the computer (seat 1 played by the server): its moves reach the page by the event stream",
    async () => {
      if (server === null) throw new Error("not started")
      // The per-seat players of the create-game request: the server takes them (a computer seat gets no secret).
      const probe = await fetch(`${server.origin}/v1/hhx/games`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({
          seed: "probe",
          seats: [{ kind: "human" }, { kind: "computer", agent: "greedy", iterations: 8 }]
        })
      })
      expect(probe.status).toBe(201)
      expect(((await probe.json()) as { seats: ReadonlyArray<{ seat: number }> }).seats.map((s) => s.seat)).toEqual([0])
      const { page, problems } = await open("desktop", "table")
      const posted: Array<string> = []
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().endsWith("/actions")) posted.push(r.url())
      })
      await page.fill("input[name=seed]", "computer-1")
      await page.check("input[name=mode][value=easy]")
      await page.click("form.new-game button[type=submit]")
      await page.waitForSelector(".table[data-step]")
      let rng = seedOf("computer-script")
      for (let i = 0; i < 1000; i++) {
        const t = await page.$eval(".table", (x) => ({
          over: x.getAttribute("data-over") === "true",
          step: x.getAttribute("data-step") ?? "",
          legal: x.ownerDocument.querySelectorAll("button[data-legal=true]").length
        }))
        if (t.over) break
        if (t.legal > 0) {
          const p = pick(rng, t.legal)
          rng = p.state
          await page.locator("button[data-legal=true]").nth(p.index).click()
        }
        await page.waitForSelector(`.table:not([data-step="${t.step}"])`, { timeout: 60_000 })
      }
      expect(await page.getAttribute(".table", "data-over")).toBe("true")
      const words = await page.$$eval(".log-steps li .words", (ls) => ls.map((l) => l.textContent ?? ""))
      const computer = words.filter((w) => w.startsWith("Seat 1"))
      expect(computer.length).toBeGreaterThan(0)
      // The page sent only its own moves: the computer's came by the stream.
      expect(posted.length).toBeLessThanOrEqual(words.length - computer.length)
      expect(problems.all).toEqual([])
      await page.close()
    },
    300_000
  )

  for (const size of ["desktop", "phone"] as const) {
    it(
      `every view loads (after the tests above: fresh pages) with no console error and no failed request (${size})`,
      async () => {
        for (const v of VIEWS) {
          const { page, problems } = await open(size, v.name)
          await page.waitForSelector(v.ready)
          // Each view in a state worth a screenshot (the earlier tests applied ember to basic_attack).
          if (v.name === "cards") {
            await page.click("button[data-card=basic_attack]")
            await page.waitForSelector(".component[data-component-id$=\".burn\"]")
            // Names and costs: the list and the card.
            expect(await page.textContent("button[data-card=basic_attack]")).toContain("Basic Attack")
            expect(await page.textContent(".card-column > .card-face .card-name")).toBe("Basic Attack")
            expect(await page.getAttribute(".card-column > .card-face .cost", "data-cost")).toBe("1")
            // The preview of a second upgrade: before and after side by side, the changed number marked.
            await page.click("[data-offer=\"core.sharpened_strike\"] button.preview")
            const amount = await page.waitForSelector(
              ".before-after [data-diff-component=strike] [data-diff-field=amount]"
            )
            expect(await amount.textContent()).toBe("amount 6 → 9")
            expect(await page.textContent(".before-after h3")).toBe("Preview: Sharpened strike")
            expect(await page.$(".side.after .component.diff-changed[data-component-id=strike]")).not.toBeNull()
            // On a phone the offers come before the ledger and history.
            const order = await page.evaluate(
              `[".offers", ".instance"].map((s) => document.querySelector(s).getBoundingClientRect().top)`
            ) as Array<number>
            if (size === "phone") expect(order[0]).toBeLessThan(order[1] ?? 0)
          } else if (v.name === "try") {
            await page.check("input[name=upgrade][value=\"core.ember.affinity\"]")
            await page.click("form.try-form button[type=submit]")
            await page.waitForSelector(".event.impact .breakdown")
            expect(await page.textContent(".try-card .card-name")).toBe("Basic Attack")
            expect(await page.getAttribute(".try-card .cost", "data-cost")).toBe("1")
            // A status is chosen from the runtime's statuses (a select), its turns settable.
            expect(await page.$eval("select[aria-label=\"source 2 id\"]", (e) => e.tagName)).toBe("SELECT")
          } else if (v.name === "table") {
            await page.click("form.new-game button[type=submit]")
            await page.waitForSelector(".table[data-step] .hand-card")
            // Hand cards with name, cost and the printed and generated text.
            const hand = await page.$$eval(".hand-card", (els) =>
              els.map((e) => ({
                name: e.querySelector(".card-name")?.textContent ?? "",
                cost: e.querySelector(".cost")?.getAttribute("data-cost") ?? "",
                printed: e.querySelector(".printed")?.textContent ?? "",
                generated: e.querySelectorAll(".generated li").length
              })))
            expect(hand.length).toBeGreaterThan(0)
            for (const h of hand) {
              expect(h.name).not.toMatch(/^p[01]-\d\d$/)
              expect(h.cost).toMatch(/^\d+$/)
              expect(h.printed).not.toBe("")
              expect(h.generated).toBeGreaterThan(0)
            }
            await noOverlappingTooltips(page)
            // The glossary is one tap away: a resource's name opens it at its entry.
            await page.click(".seat[data-seat=\"0\"] button.term >> text=composure")
            expect(await page.isVisible("#glossary-composure")).toBe(true)
            expect(await page.textContent("details.glossary")).toContain("trend-cap")
            await page.click("details.glossary > summary")
          }
          if (v.name !== "balance") {
            await page.screenshot({ path: join(SHOTS, `${v.name}-${size}.png`), fullPage: size === "phone" })
          }
          // Controls are labelled: every input and select has an accessible name.
          const unlabelled = await page.evaluate(
            `[...document.querySelectorAll("input, select")].filter((e) => e.labels.length === 0 && !e.getAttribute("aria-label")).map((e) => e.outerHTML)`
          )
          expect(unlabelled).toEqual([])
          // Nothing wider than the viewport (the phone layout reflows).
          const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
          expect(overflow).toBeLessThanOrEqual(0)
          // No input narrower than 40 px (a checkbox or radio: its label, the thing one taps).
          const narrow = await page.evaluate(
            `[...document.querySelectorAll("input, select")].filter((e) => e.getClientRects().length > 0).map((e) => {
              const box = (e.type === "checkbox" || e.type === "radio") && e.labels.length > 0 ? e.labels[0] : e
              return { what: e.outerHTML.slice(0, 80), width: box.getBoundingClientRect().width }
            }).filter((x) => x.width < 40)`
          )
          expect(narrow).toEqual([])
          // The default view shows no engine ID, fingerprint or operation (checked against the runtime's IDs).
          const rt = await (await fetch(`${server?.origin ?? ""}/v1/runtime`)).json() as Record<string, Array<string>>
          const ids = ["cards", "transformations", "activities", "statuses"].flatMap((k) => rt[k] ?? [])
          expect(await engineWordsShown(page, ids), `${v.name} ${size}`).toEqual([])
          // axe: no violation, with every disclosure open too.
          await noAxeViolations(page, `${v.name} ${size}`)
          await openDisclosures(page)
          await noAxeViolations(page, `${v.name} ${size}, disclosures open`)
          expect(problems.all).toEqual([])
          await page.close()
        }
      },
      120_000
    )
  }
})
