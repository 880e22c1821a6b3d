/**
 * The Balance view (`#balance`) in headless Chromium against the built
 * `cardfx serve` (one server with `--token-env` and a deck file of its own,
 * one browser): a 20,000-game run streams its progress and is cancelled
 * from the page; a 2,000-game run's every number equals
 * `cardfx simulate --stats --format csv` for the same deck, seed and games;
 * after a card of the deck file changes, the next run stands beside the first
 * with the new deck's numbers; the plots are drawn at 1280×800 and 390×844
 * with no horizontal scroll (screenshots to test/workbench/screenshots/).
 */
import { AxeBuilder } from "@axe-core/playwright"
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TOKEN_KEY } from "../../src/page/model/Auth.js"
import { type Browser, browserAvailable, browserRequired, launch, SIZES, skipBrowserReason, watch } from "./browser.js"
import { serve, type Served } from "./server.js"

const SHOTS = "test/workbench/screenshots"
const TOKEN = "balance-token"
const GAMES = 2000
const SEED = 5

/** The built bin, asynchronously (the test's event loop keeps serving playwright meanwhile). */
const cardfx = (...args: Array<string>): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["dist/cli/cardfx.mjs", ...args],
      { encoding: "utf8" },
      (_e, out, err) => resolve({ code: child.exitCode, out, err })
    )
  })

interface Layout {
  readonly scrollWidth: number
  readonly innerWidth: number
  readonly plots: ReadonlyArray<{ width: number; height: number; right: number; bars: number }>
  readonly runs: ReadonlyArray<{ left: number; top: number; bottom: number }>
}

if (!browserAvailable && !browserRequired) {
  describe.skip(skipBrowserReason ?? "", () => {
    it("needs Chromium", () => undefined)
  })
}

describe.runIf(browserAvailable || browserRequired)("the Balance view in headless Chromium", () => {
  let server: Served | null = null
  let browser: Browser | null = null
  const dir = mkdtempSync(join(tmpdir(), "cardfx-balance-"))
  const deck = join(dir, "deck.json")

  beforeAll(async () => {
    if (!browserAvailable) throw new Error(skipBrowserReason ?? "Chromium is missing")
    mkdirSync(SHOTS, { recursive: true })
    writeFileSync(deck, readFileSync("data/hallyu-hex/starter-deck.v0.json", "utf8"))
    ;[server, browser] = await Promise.all([
      serve(["data/heroscript.base"], { token: TOKEN, args: ["--deck", deck] }),
      launch("desktop")
    ])
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  const runFromPage = async (page: Page, games: number, seed: number) => {
    await page.fill("form.balance-form input[name=games]", String(games))
    await page.fill("form.balance-form input[name=seed]", String(seed))
    await page.click("form.balance-form button[type=submit]")
  }

  const tableOf = (page: Page, run: number) =>
    page.$$eval(
      `.balance-run[data-run="${run}"] tr[data-section]`,
      (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""))
    )

  it(
    "streams, cancels, matches simulate --stats number for number, and shows an edited deck's run beside the first",
    async () => {
      if (server === null || browser === null) throw new Error("not started")
      const cli = cardfx(
        "simulate",
        "--deck",
        deck,
        "--games",
        String(GAMES),
        "--seed",
        String(SEED),
        "--stats",
        "--format",
        "csv"
      )
      const page = await browser.context.newPage()
      await page.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(TOKEN)})`)
      const problems = watch(page)
      await page.goto(`${server.origin}/#balance`)
      await page.waitForSelector("main[data-ready=true] form.balance-form")

      // A long run shows its progress as the server streams it, and Cancel stops it.
      await runFromPage(page, 20_000, SEED)
      await page.waitForSelector("[data-progress]:not([data-progress=\"0\"])")
      await page.click("form.balance-form button[type=button]")
      const note = await page.waitForSelector("[data-note=cancelled]")
      expect(await note.textContent()).toMatch(/^Cancelled after \d+ of 20000 games\.$/)
      expect(await page.$(".balance-run")).toBeNull()

      // 2,000 games: every figure equals the CLI's for the same deck, seed and games.
      await runFromPage(page, GAMES, SEED)
      await page.waitForSelector(".balance-run[data-run=\"1\"]", { timeout: 120_000 })
      const csv = await cli
      expect(csv.code, csv.err).toBe(0)
      const rows = csv.out.trimEnd().split("\n").map((l) => l.split(","))
      const games = rows.find((r) => r[0] === "games")
      expect(games?.slice(0, 4)).toEqual([
        "games",
        String(SEED),
        await page.getAttribute(".balance-run[data-run=\"1\"]", "data-deck"),
        String(GAMES)
      ])
      const expected = rows.slice(1).filter((r) => r[0] !== "games").map(([section, key, _name, ...numbers]) => [
        section,
        key,
        ...numbers
      ])
      const before = await tableOf(page, 1)
      expect(before.length).toBeGreaterThan(100)
      expect(before).toEqual(expected)

      // A designer makes Trainee Twins cost 3 instead of 1 in the deck file and runs again: the two runs side by side.
      const doc = JSON.parse(readFileSync(deck, "utf8")) as { cards: Array<{ code: string; cost: number }> }
      const twins = doc.cards.find((c) => c.code === "HHX-PROTO-007")
      if (twins === undefined) throw new Error("no HHX-PROTO-007")
      twins.cost = 3
      writeFileSync(deck, JSON.stringify(doc, null, 2))
      await runFromPage(page, GAMES, SEED)
      await page.waitForSelector(".balance-run[data-run=\"2\"]", { timeout: 120_000 })
      const [deck1, deck2] = await page.$$eval(".balance-run", (as) => as.map((a) => a.getAttribute("data-deck")))
      expect(deck2).not.toBe(deck1)
      const played = (table: Array<Array<string>>) =>
        table.find((r) => r[0] === "card-played" && r[1] === "HHX-PROTO-007")?.[2]
      const after = await tableOf(page, 2)
      expect(played(after)).not.toBe(played(before))

      // The two runs compared side by side: Trainee Twins' played rate moved, its row marked when the intervals part.
      const compared = await page.$$eval(
        ".comparison tbody tr",
        (trs) =>
          trs.map((tr) => ({ figure: tr.querySelector("th")?.textContent ?? "", apart: tr.getAttribute("data-apart") }))
      )
      expect(compared.length).toBeGreaterThan(10)
      expect(compared.some((c) => c.apart === "true")).toBe(true)
      // Clear differences first.
      const firstPlain = compared.findIndex((c) => c.apart === "false")
      expect(compared.slice(firstPlain).every((c) => c.apart === "false")).toBe(true)

      // The card table sorts by each column, both ways.
      const table = ".balance-run[data-run=\"2\"] .card-table"
      for (const column of ["card", "plays", "drawn", "played", "won", "winner"]) {
        for (let k = 0; k < 2; k++) {
          await page.click(`${table} button.sort[data-column=${column}]`)
          const sorted = await page.$eval(`${table} table`, (t) => ({
            column: t.getAttribute("data-sort"),
            descending: t.getAttribute("data-descending") === "true",
            names: [...t.querySelectorAll("tbody tr th")].map((th) => th.firstChild?.textContent ?? ""),
            values: [...t.querySelectorAll("tbody tr")].map((tr) => {
              const i = ["card", "plays", "drawn", "played", "won", "winner"].indexOf(t.getAttribute("data-sort") ?? "")
              return Number(tr.children[i]?.getAttribute("data-rate") || -1)
            })
          }))
          expect(sorted.column).toBe(column)
          const keys: Array<string | number> = column === "card" ? sorted.names : sorted.values
          const want = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          if (sorted.descending) want.reverse()
          expect(keys, `${column} ${sorted.descending ? "descending" : "ascending"}`).toEqual(want)
        }
      }
      // Flags: a flagged card's won-when-played interval lies clear of the deck's average.
      const flagged = await page.$$eval(`${table} tbody tr[data-flag]:not([data-flag=""])`, (trs) => trs.length)
      expect(flagged).toBeGreaterThanOrEqual(0)

      for (const size of ["desktop", "phone"] as const) {
        await page.setViewportSize(SIZES[size])
        await page.evaluate("window.scrollTo(0, 0)")
        // As text: the test's scope (and its types) do not travel to the page.
        const layout = await page.evaluate<Layout>(`(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth,
        plots: [...document.querySelectorAll(".balance-run figure.plot svg")].map((svg) => {
          const box = svg.getBoundingClientRect()
          const bars = [...svg.querySelectorAll(".bar")].filter((b) => b.getBoundingClientRect().width > 0)
          return { width: box.width, height: box.height, right: box.right, bars: bars.length }
        }),
        runs: [...document.querySelectorAll(".balance-run")].map((a) => {
          const box = a.getBoundingClientRect()
          return { left: box.left, top: box.top, bottom: box.bottom }
        })
      }))()`)
        await page.screenshot({ path: join(SHOTS, `balance-${size}.png`) })
        expect(layout.scrollWidth, size).toBeLessThanOrEqual(layout.innerWidth)
        // Two runs × three plots: win rate by seat, game length, ending reasons (per card: the forest and the table).
        expect(layout.plots).toHaveLength(6)
        for (const p of layout.plots) {
          expect(p.width, size).toBeGreaterThan(250)
          expect(p.height, size).toBeGreaterThan(60)
          expect(p.right, size).toBeLessThanOrEqual(layout.innerWidth)
          expect(p.bars, `${size} ${JSON.stringify(layout.plots)}`).toBeGreaterThan(0)
        }
        const [a, b] = layout.runs
        if (a === undefined || b === undefined) throw new Error("two runs expected")
        // Side by side on a desktop, one above the other on a phone.
        if (size === "desktop") expect([b.top, b.left > a.left]).toEqual([a.top, true])
        else expect(b.top).toBeGreaterThanOrEqual(a.bottom)
        // Labels readable: the plots' text and the forest's card names at 11 px or more.
        const small = await page.evaluate(
          `[...document.querySelectorAll(".balance-run figure.plot svg text, .forest-label, .card-table th")]
          .filter((e) => e.getClientRects().length > 0 && (e.textContent ?? "").trim() !== "")
          .map((e) => {
            const svg = e.closest("svg")
            const scale = svg === null ? 1 : svg.getBoundingClientRect().width / svg.viewBox.baseVal.width
            return { text: e.textContent, px: parseFloat(getComputedStyle(e).fontSize) * scale }
          })
          .filter((x) => x.px < 11)`
        ) as Array<unknown>
        expect(small, size).toEqual([])
        // axe: no violation, "Every number" and every other disclosure open.
        await page.evaluate(`document.querySelectorAll("details").forEach((d) => { d.open = true })`)
        const axe = await new AxeBuilder({ page }).analyze()
        expect(axe.violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(" ")).join(", ")}`), size)
          .toEqual([])
        expect(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(0)
        await page.evaluate(`document.querySelectorAll("details").forEach((d) => { d.open = false })`)
      }
      // The cancelled run's request is the only one that did not complete.
      expect(problems.all.filter((p) => !/request failed: POST \S+\/v1\/hhx\/balance net::ERR_ABORTED/.test(p)))
        .toEqual([])
      await page.close()
    },
    300_000
  )
})
