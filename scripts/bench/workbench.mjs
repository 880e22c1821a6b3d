/**
 * Benchmark: the workbench page (src/page). Its bundle size (raw and
 * gzip; every chunk, and what the first view loads: app.js and the chunks
 * index.html preloads), the bytes `cardfx serve` sends for those when asked
 * for br/gzip, and its time to interactive on
 * loopback: fresh Chromium pages (Debian's /usr/bin/chromium through
 * playwright-core, one profile, cache disabled) navigating to
 * `http://127.0.0.1:PORT/`, timed from navigation start to the page's own
 * `workbench:interactive` mark (the first card drawn with its controls,
 * after /v1/runtime, /v1/cards, /v1/discover and
 * /v1/cards/{id}/effective have answered). Median of 7 loads after 2
 * warm-ups. Beside it, in the same run, the same browser's time to load a
 * static page of the same bytes from a bare node:http server on loopback,
 * with no script run and no API request (the floor the loopback, the parser
 * and the browser set).
 *
 * Imports the built `dist/` (run `npm run build` first). Skipped (one row
 * saying so) when /usr/bin/chromium is missing.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { firstViewChunks } from "../bundle-cli.mjs"

const CHROMIUM = "/usr/bin/chromium"
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** The bytes the server sends for `path` when asked for br/gzip, and the encoding it answered with. */
const served = (origin, path) =>
  new Promise((resolve, reject) => {
    get(`${origin}/${path}`, { headers: { "accept-encoding": "br, gzip" } }, (res) => {
      let n = 0
      res.on("data", (b) => (n += b.length))
      res.on("end", () => resolve({ bytes: n, encoding: res.headers["content-encoding"] ?? "identity" }))
    }).on("error", reject)
  })

export const run = async () => {
  // The page is code-split (scripts/bundle-cli.mjs): the first view needs app.js, its chunks and the Cards view's.
  const firstView = ["app.js", ...firstViewChunks(JSON.parse(readFileSync("dist/page/meta.json", "utf8")))]
  const allJs = ["app.js", ...readdirSync("dist/page/chunks").map((f) => `chunks/${f}`)]
  const bytes = (files) => Buffer.concat(files.map((f) => readFileSync(join("dist/page", f))))
  const js = bytes(firstView)
  const css = readFileSync("dist/page/app.css")
  const html = readFileSync("dist/page/index.html")
  const rows = [
    { name: "page JS, every chunk (minified)", value: bytes(allJs).length / 1024, unit: "KiB" },
    { name: `first view JS: app.js + ${firstView.length - 1} chunks (minified)`, value: js.length / 1024, unit: "KiB" },
    { name: "first view JS gzip", value: gzipSync(js).length / 1024, unit: "KiB" },
    {
      name: "first view total (html + js + css) gzip",
      value: (gzipSync(js).length + gzipSync(css).length + gzipSync(html).length) / 1024,
      unit: "KiB"
    }
  ]
  if (!existsSync(CHROMIUM)) {
    return [...rows, { name: "time to interactive", value: "skipped: no /usr/bin/chromium", unit: "" }]
  }

  const { chromium } = await import("playwright-core")
  const dir = mkdtempSync(join(tmpdir(), "cardfx-bench-workbench-"))
  const server = spawn(process.execPath, [
    "dist/cli/cardfx.mjs",
    "serve",
    "--package",
    "data/heroscript.base",
    "--store",
    join(dir, "ledger.db"),
    "--port",
    "0"
  ], { stdio: ["ignore", "pipe", "ignore"] })
  // The server prints {"event":"listening","url":...} once it serves.
  const origin = await new Promise((resolve, reject) => {
    let out = ""
    const timer = setTimeout(() => reject(new Error("bench workbench: cardfx serve did not start in 90 s")), 90_000)
    server.stdout.on("data", (b) => {
      out += b.toString("utf8")
      const m = /\{"event":"listening","url":"([^"]+)"\}/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
  })
  process.stderr.write(`bench workbench: serving at ${origin}\n`)
  // What the server sends for the first view's files when the browser asks for br/gzip (src/server/Compression.ts).
  const sent = await Promise.all(firstView.map((f) => served(origin, f)))
  rows.push({
    name: `first view JS as served (${[...new Set(sent.map((x) => x.encoding))].join(", ")})`,
    value: sent.reduce((a, x) => a + x.bytes, 0) / 1024,
    unit: "KiB"
  })
  const context = await chromium.launchPersistentContext(join(dir, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 }
  })
  try {
    const measure = async (url, ready) => {
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true })
      await page.goto(url)
      const ms = await page.evaluate(ready)
      await page.close()
      return ms
    }
    const interactive = `new Promise((resolve) => {
      const done = () => {
        const m = performance.getEntriesByName("workbench:interactive")[0]
        if (m !== undefined) resolve(m.startTime); else setTimeout(done, 5)
      }
      done()
    })`
    // The floor: the same bytes as a static page (the script as inert text) from a bare node:http server
    // on loopback: no script run, no API request.
    const staticHtml = Buffer.from(
      `<!doctype html><title>x</title><script type="text/plain">${
        js.toString("utf8").replaceAll("</", "<\\/")
      }</script>`
    )
    const bare = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" })
      res.end(staticHtml)
    })
    await new Promise((r) => bare.listen(0, "127.0.0.1", r))
    const staticPage = `http://127.0.0.1:${bare.address().port}/`
    const floor =
      `new Promise((resolve) => (document.readyState === "complete" ? resolve(performance.now()) : addEventListener("load", () => resolve(performance.now()))))`
    const tti = []
    const base = []
    for (let i = 0; i < 9; i++) {
      const t = await measure(`${origin}/`, interactive)
      const b = await measure(staticPage, floor)
      process.stderr.write(`bench workbench: load ${i + 1}: ${Math.round(t)} ms (static ${Math.round(b)} ms)\n`)
      if (i >= 2) {
        tti.push(t)
        base.push(b)
      }
    }
    bare.close()
    rows.push(
      { name: "time to interactive on loopback (median of 7, cache off)", value: median(tti), unit: "ms" },
      { name: "baseline: the same bytes as a static page, loaded", value: median(base), unit: "ms" }
    )
  } finally {
    await context.close()
    server.kill("SIGTERM")
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)))
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
