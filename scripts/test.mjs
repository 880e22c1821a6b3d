#!/usr/bin/env node
/**
 * `npm test`: the build, the static checks and the vitest suite, scheduled
 * for two cores. Measured on the 2-core machine, the suite alone keeps the
 * cores ~78 % busy (its slow files wait on child processes: the bin, servers,
 * writers, runners) and each check is one single-threaded process, so:
 *
 * 1. the build (`npm run build`: tsc, then the bundles) beside the store's
 *    native driver when an install left it unbuilt (CI installs with
 *    `--ignore-scripts` so that its compile of SQLite runs here, beside
 *    the build, instead of before it; a normal `npm ci` builds it, and then
 *    this step is skipped);
 * 2. the vitest suite once both are done;
 * 3. beside all of it at a lower CPU priority (so that they fill the cores
 *    the rest leaves idle instead of slowing it), from the start or, when the
 *    driver is being built, once it is, the static checks one after another:
 *    ESLint, then, once the build is done, the page's type-check and the
 *    tests' and scripts' type-check. The build's `tsc` is src's type-check;
 *    the other two read src's types from its declarations in dist/ (project
 *    references), so no file is checked twice (measured: 95 CPU-s of checks
 *    before, 60 after).
 *
 * A step's output is printed whole when it ends (never interleaved with
 * another's), with when it ran; vitest's streams through. A failed build or
 * driver build skips vitest; any failure makes the exit status non-zero once
 * everything has ended.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { setPriority } from "node:os"
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
const run = ({ name, command, args }, { live = false, background = false } = {}) =>
  new Promise((resolve) => {
    const from = performance.now()
    const child = spawn(command, args, { stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"] })
    if (background && child.pid !== undefined) {
      try {
        // The lowest priority: a CPU-bound process at 19 gets ~1.5 % of a core a normal one wants (~10 % at 10),
        // so the checks take what the suite leaves idle (~20 % of the two cores) and little else.
        setPriority(child.pid, 19)
      } catch {
        // Only the schedule suffers where priorities cannot be lowered.
      }
    }
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
const ready = Promise.all([building, driver])
// The checks yield the CPU to everything else. They start once the driver is built (at once after a normal
// install): beside the build and the driver's compile, a third process only slowed the compile (measured in CI:
// 53 s, against 38 s alone). The type-checks wait for the build: they read src's declarations from dist/.
const checks = (async () => {
  await driver
  const statuses = [await run(lint, { background: true })]
  if ((await building) === 0) {
    statuses.push(await run(typecheckPage, { background: true }), await run(typecheck, { background: true }))
  }
  return worst(...statuses)
})()
const prepared = worst(...(await ready))
const tested = prepared === 0 ? await run(vitest, { live: true }) : prepared
process.exitCode = worst(prepared, await checks, tested)
