/**
 * Live content on the workbench (issue 41): `cardfx serve --watch` over a
 * copy of the content package, one Chromium. The page follows
 * `GET /v1/runtime/events`: a save in place, then a save by rename (how
 * editors save), redraws the open card, its open preview and the header's
 * content hash within 2 s, with no page reload and the selection kept; a
 * broken save shows a banner with its file, line and column until a good
 * save clears it.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TOKEN_KEY } from "../../src/page/model/Auth.js"
import { type Browser, browserAvailable, browserRequired, launch, skipBrowserReason, watch } from "./browser.js"
import { serve, type Served } from "./server.js"

const TOKEN = "live-token"
/** What the page must show of a save within (the bound). */
const WITHIN = 2_000

if (!browserAvailable && !browserRequired) {
  describe.skip(skipBrowserReason ?? "", () => {
    it("needs Chromium", () => undefined)
  })
}

describe.runIf(browserAvailable || browserRequired)("live content in headless Chromium (serve --watch)", () => {
  let server: Served | null = null
  let browser: Browser | null = null
  const dir = mkdtempSync(join(tmpdir(), "cardfx-live-"))
  const pkg = join(dir, "heroscript.base")
  const locales = join(pkg, "locales.en.json")
  const cards = join(pkg, "cards.json")

  beforeAll(async () => {
    if (!browserAvailable) throw new Error(skipBrowserReason ?? "Chromium is missing")
    cpSync("data/heroscript.base", pkg, { recursive: true })
    ;[server, browser] = await Promise.all([
      serve([pkg], { token: TOKEN, args: ["--watch"] }),
      launch("desktop")
    ])
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  /** The display name of basic_attack in the package's English table, changed to `name`. */
  const renamed = (name: string): string =>
    readFileSync(locales, "utf8").replace(/"card\.basic_attack\.name": "[^"]*"/, `"card.basic_attack.name": "${name}"`)

  it(
    "a save in place and a save by rename redraw the open card, its preview and the header without a reload; a broken save shows its file and line until a good one",
    async () => {
      if (server === null || browser === null) throw new Error("not started")
      const page = await browser.context.newPage()
      await page.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(TOKEN)})`)
      const problems = watch(page)
      await page.goto(`${server.origin}/#cards`)
      await page.waitForSelector("main[data-ready=true]")
      await page.click("button[data-card=basic_attack]")
      await page.waitForSelector(".card-column > .card-face[data-card-id=basic_attack]")
      await page.click("[data-offer=\"core.sharpened_strike\"] button.preview")
      await page.waitForSelector(".before-after .side.after .card-name")
      expect(await page.textContent(".card-column > .card-face .card-name")).toBe("Basic Attack")
      const hash0 = await page.getAttribute("[data-content-hash]", "data-content-hash")
      expect(hash0).toMatch(/^[0-9a-f]{64}$/)
      // A mark on the page's window: a reload would drop it.
      await page.evaluate("window.__sameDocument = true")

      const sees = async (name: string, previous: string | null): Promise<string | null> => {
        const t0 = Date.now()
        // As text: the test's scope (and its types) do not travel to the page. Polled with evaluate (CDP's own
        // evaluation, which the page's CSP does not govern), not waitForFunction (which the CSP's script-src refuses).
        const shown = `document.querySelector(".card-column > .card-face .card-name")?.textContent === ${
          JSON.stringify(name)
        } &&
          document.querySelector(".before-after .side.after .card-name")?.textContent === ${JSON.stringify(name)} &&
          document.querySelector("[data-content-hash]")?.getAttribute("data-content-hash") !== ${
          JSON.stringify(previous)
        }`
        for (let i = 0; i < 200 && (await page.evaluate(shown)) !== true; i++) {
          await new Promise((r) => setTimeout(r, 50))
        }
        const took = Date.now() - t0
        expect(took, `${name} shown after ${took} ms`).toBeLessThan(WITHIN)
        // The same document, the same card selected, the preview still open.
        expect(await page.evaluate("window.__sameDocument")).toBe(true)
        expect(await page.getAttribute("button[data-card=basic_attack]", "aria-pressed")).toBe("true")
        expect(await page.textContent(".before-after h3")).toBe("Preview: Sharpened strike")
        expect(await page.textContent("button[data-card=basic_attack]")).toContain(name)
        return page.getAttribute("[data-content-hash]", "data-content-hash")
      }

      // In place.
      writeFileSync(locales, renamed("Basic Attack Live"))
      const hash1 = await sees("Basic Attack Live", hash0)
      // By rename (a temp file beside it, renamed over it: how most editors save).
      const temp = join(pkg, ".locales.en.json.tmp")
      writeFileSync(temp, renamed("Basic Attack Renamed"))
      renameSync(temp, locales)
      const hash2 = await sees("Basic Attack Renamed", hash1)
      expect(hash2).not.toBe(hash1)
      const served = await (await fetch(`${server.origin}/v1/runtime`)).json() as { contentHash: string }
      expect(served.contentHash).toBe(hash2)

      // A broken save: the banner names the file, line and column; the page keeps the content served.
      const good = readFileSync(cards, "utf8")
      writeFileSync(cards, `{\n  "cards": [\n    { "id": \n`)
      const banner = await page.waitForSelector(".reload-banner[role=alert]", { timeout: 10_000 })
      const item = await banner.$("li[data-file$=\"cards.json\"]")
      expect(item).not.toBeNull()
      expect(await item?.getAttribute("data-line")).toMatch(/^\d+$/)
      expect(await item?.getAttribute("data-column")).toMatch(/^\d+$/)
      expect(await item?.getAttribute("data-code")).toBe("json_syntax")
      expect(await banner.textContent()).toMatch(/cards\.json:\d+:\d+/)
      expect(await page.getAttribute("[data-content-hash]", "data-content-hash")).toBe(hash2)
      expect(await page.textContent(".card-column > .card-face .card-name")).toBe("Basic Attack Renamed")
      // A good save clears it.
      writeFileSync(cards, good)
      writeFileSync(locales, renamed("Basic Attack Fixed"))
      await page.waitForSelector(".reload-banner", { state: "detached", timeout: 10_000 })
      await sees("Basic Attack Fixed", hash2)
      expect(problems.all).toEqual([])
      await page.close()
    },
    120_000
  )
})
