#!/usr/bin/env node
/**
 * `npm start` in a clone: builds dist/ when it is missing or older than its
 * sources, then runs `cardfx start` (validates the bundled content in data/,
 * shows what it holds and how to open the workbench). So the set-up is two
 * commands, `npm ci && npm start` and `npm ci && npm test`, with no build
 * step between them.
 *
 * Fresh means: every output the bin and the page need exists, and the oldest
 * of the bundles (rewritten by every build, unlike tsc's composite outputs)
 * is newer than the newest source file (src/, the bundler, the bin's loader,
 * package.json). Then no tsc runs: the fast path costs a directory walk
 * (~10 ms). Otherwise `npm run build`'s two steps run here (tsc, then
 * scripts/bundle-cli.mjs), their output shown only when one fails.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/** What `cardfx start` and `cardfx serve` need of the build: the library, the bin (bundle and loader), the page. */
const OUTPUTS = ["dist/index.js", "dist/cli/cardfx.mjs", "dist/cli/cardfx.cjs", "dist/page/index.html"]
/** Written by every build (esbuild rewrites its outputs; tsc leaves unchanged files alone). */
const BUNDLES = ["dist/cli/cardfx.cjs", "dist/page/index.html"]
const SOURCES = ["src", "scripts/bundle-cli.mjs", "scripts/code-cache-loader.mjs", "package.json"]

const newest = (path) => {
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  let t = s.mtimeMs
  for (const e of readdirSync(path)) t = Math.max(t, newest(join(path, e)))
  return t
}

/** Why dist/ must be built, or undefined when it is current. */
export const staleness = () => {
  const missing = OUTPUTS.filter((f) => !existsSync(f))
  if (missing.length > 0) return `${missing[0]} is missing`
  const built = Math.min(...BUNDLES.map((f) => statSync(f).mtimeMs))
  const source = SOURCES.filter((p) => existsSync(p)).find((p) => newest(p) > built)
  return source === undefined ? undefined : `${source} changed since the last build`
}

const step = (args) => {
  const r = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" })
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`)
    process.stderr.write(`npm start: the build failed (node ${args.join(" ")}: exit ${r.status ?? r.signal})\n`)
    process.exit(r.status ?? 1)
  }
}

const main = () => {
  const why = staleness()
  if (why !== undefined) {
    const from = performance.now()
    // tsc's composite build trusts its build info over the outputs: with an output missing, it starts over.
    if (why.endsWith("missing")) rmSync("dist/tsconfig.tsbuildinfo", { force: true })
    process.stdout.write(`Building dist/ (${why}): tsc, then the bundled bin, workers and workbench page...\n`)
    step(["node_modules/typescript/bin/tsc", "-p", "src/tsconfig.json"])
    step(["scripts/bundle-cli.mjs"])
    process.stdout.write(`Built in ${((performance.now() - from) / 1000).toFixed(0)} s.\n\n`)
  }
  const started = spawnSync(process.execPath, ["dist/cli/cardfx.mjs", "start", ...process.argv.slice(2)], {
    stdio: "inherit"
  })
  process.exitCode = started.status ?? 1
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main()
