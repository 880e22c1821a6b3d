#!/usr/bin/env node
/**
 * `npm test`: the build, the static checks and the vitest suite, scheduled
 * for two cores. Each check is one single-threaded process, so they run
 * beside whatever leaves a core idle:
 *
 * 1. the build (`npm run build`: tsc, then the bundles) beside the checks
 *    that do not read dist/ — the page's type-check, then ESLint;
 * 2. the type-check of the whole project (src, test, scripts: test/embedding
 *    reads cardfx's types from dist/*.d.ts, so it waits for the build) beside
 *    the vitest suite, whose files wait on child processes often enough to
 *    leave it room.
 *
 * A check's output is printed whole when it ends (never interleaved with
 * another's); vitest's streams through. A failed build stops the run; any
 * other failure makes the exit status non-zero once everything has ended.
 */
import { spawn } from "node:child_process"

const node = (name, args) => ({ name, command: process.execPath, args })
const build = { name: "build", command: "npm", args: ["run", "--silent", "build"] }
const typecheckPage = node("typecheck page", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "src/page"])
const lint = node("lint", ["node_modules/eslint/bin/eslint.js", "src", "test", "scripts"])
const typecheck = node("typecheck", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."])
const vitest = node("vitest", ["node_modules/vitest/vitest.mjs", "run", "--config", "test/vitest.config.ts"])

/** Runs one step; its output is collected and printed whole at its end, unless `live`. */
const run = ({ name, command, args }, live = false) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"] })
    let out = ""
    child.stdout?.on("data", (b) => (out += b))
    child.stderr?.on("data", (b) => (out += b))
    child.on("close", (code, signal) => {
      const status = code ?? (signal === null ? 1 : 128)
      process.stdout.write(`> ${name}: ${status === 0 ? "ok" : `failed (exit ${code ?? signal})`}\n${out}`)
      resolve(status)
    })
  })

/** Runs the steps one after another, stopping at the first failure. */
const inTurn = async (...steps) => {
  for (const step of steps) {
    const status = await run(step)
    if (status !== 0) return status
  }
  return 0
}

const [built, checked] = await Promise.all([run(build), inTurn(typecheckPage, lint)])
if (built !== 0) {
  process.exitCode = built
} else {
  const [typed, tested] = await Promise.all([run(typecheck), run(vitest, true)])
  process.exitCode = [checked, typed, tested].find((s) => s !== 0) ?? 0
}
