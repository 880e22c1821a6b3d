#!/usr/bin/env node
/**
 * `npm test`: the build, the vitest suite and the static checks, scheduled
 * for two cores:
 *
 * 1. the build (`npm run build`: tsc, then the bundles) beside the store's
 *    native driver when an install left it unbuilt (CI installs with
 *    `--ignore-scripts` so that its compile of SQLite runs here, beside
 *    the build, instead of before it; a normal `npm ci` builds it, and then
 *    this step is skipped);
 * 2. the vitest suite once both are done;
 * 3. then the static checks, two at a time: ESLint beside the page's
 *    type-check followed by the tests' and scripts' type-check. The build's
 *    `tsc` is src's type-check; the other two read src's types from its
 *    declarations in dist/ (project references), so no file is checked
 *    twice (measured: 95 CPU-s of checks before, 60 after). Run beside the
 *    suite, even at the lowest CPU priority, the checks cost it ~60 s of
 *    wall time (CI: vitest 453-456 s beside them, 394 s alone); after it,
 *    they take ~25 s.
 *
 * A step's output is printed whole when it ends (never interleaved with
 * another's), with when it ran; vitest's streams through. A failed build or
 * driver build skips vitest; any failure makes the exit status non-zero once
 * everything has ended.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const node = (name, args) => ({ name, command: process.execPath, args })
const build = { name: "build", command: "npm", args: ["run", "--silent", "build"] }
const nativeDriver = { name: "better-sqlite3 (native build)", command: "npm", args: ["rebuild", "better-sqlite3"] }
const typecheckPage = node("typecheck page", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "src/page"])
const lint = node("lint", ["node_modules/eslint/bin/eslint.js", "src", "test", "scripts"])
const typecheck = node("typecheck", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."])
const vitest = node("vitest", ["node_modules/vitest/vitest.mjs", "run", "--config", "test/vitest.config.ts"])

/** The compiled driver where node-gyp and prebuild-install put it; absent after `npm ci --ignore-scripts`. */
const driverBuilt = () => {
  const dir = dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"))
  return existsSync(join(dir, "build", "Release", "better_sqlite3.node"))
}

const started = performance.now()
const seconds = (t) => `${((t - started) / 1000).toFixed(0)} s`

/** Runs one step; its output is collected and printed whole at its end (unless `live`), with when it ran. */
const run = ({ name, command, args }, { live = false } = {}) =>
  new Promise((resolve) => {
    const from = performance.now()
    const child = spawn(command, args, { stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"] })
    let out = ""
    child.stdout?.on("data", (b) => (out += b))
    child.stderr?.on("data", (b) => (out += b))
    child.on("close", (code, signal) => {
      const status = code ?? (signal === null ? 1 : 128)
      const when = `${seconds(from)} → ${seconds(performance.now())}`
      process.stdout.write(`> ${name}: ${status === 0 ? "ok" : `failed (exit ${code ?? signal})`} (${when})\n${out}`)
      resolve(status)
    })
  })

/** The first non-zero status, else 0. */
const worst = (...statuses) => statuses.find((s) => s !== 0) ?? 0

const building = run(build)
const driver = driverBuilt() ? Promise.resolve(0) : run(nativeDriver)
const built = await building
const prepared = worst(built, await driver)
const tested = prepared === 0 ? await run(vitest, { live: true }) : prepared
// The checks, two at a time once the suite is done: ESLint beside the two type-checks, which read src's declarations
// from the build's dist/ (skipped when the build failed: its own tsc has reported src's errors).
const checked = await Promise.all([
  run(lint),
  built === 0 ? run(typecheckPage).then(async (s) => worst(s, await run(typecheck))) : Promise.resolve(0)
])
process.exitCode = worst(prepared, tested, ...checked)
