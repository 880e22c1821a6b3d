/**
 * Test support for the workbench's browser tests: Debian's Chromium driven by
 * playwright-core through its `executablePath` (no browser download), in a
 * fresh profile, with every console error, page error, failed request and
 * HTTP error response of a page recorded so a test can assert there were none.
 *
 * Without /usr/bin/chromium the browser tests skip with a message, unless
 * CARDFX_REQUIRE_BROWSER=1 (set by .ci/run, which installs Chromium), which
 * makes a missing browser a failure.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"
export const browserRequired = process.env["CARDFX_REQUIRE_BROWSER"] === "1"
export const browserAvailable = existsSync(CHROMIUM)
export const skipBrowserReason = browserAvailable
  ? null
  : `workbench browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium; CARDFX_REQUIRE_BROWSER=1 makes this a failure)`

export const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 }
} as const
export type SizeName = keyof typeof SIZES

export interface Browser {
  readonly context: BrowserContext
  readonly close: () => Promise<void>
}

/** A fresh Chromium profile (its own user-data-dir), closed and deleted by `close`. */
export const launch = async (size: SizeName): Promise<Browser> => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-chromium-"))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: SIZES[size],
    ...(size === "phone" ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {})
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Everything that went wrong on a page: console errors, uncaught errors, failed requests, HTTP errors. */
export interface Problems {
  readonly all: Array<string>
}

export const watch = (page: Page): Problems => {
  const all: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") all.push(`console error: ${m.text()}`)
  })
  page.on("pageerror", (e) => all.push(`page error: ${e.message}`))
  page.on("requestfailed", (r) => {
    // Event streams are long-lived: the page closing one (a new game, the game over, the page closed) is not a failure.
    if (
      /\/v1\/(hhx\/games\/[^/]+\/events|runtime\/events)$/.test(r.url()) &&
      r.failure()?.errorText === "net::ERR_ABORTED"
    ) return
    all.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ""}`)
  })
  page.on("response", (r) => {
    if (r.status() >= 400) all.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`)
  })
  return { all }
}
