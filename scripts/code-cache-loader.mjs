#!/usr/bin/env node
/**
 * The loader the build puts at dist/cli/cardfx.mjs (the `cardfx` bin): it runs
 * the bundled CLI beside it (cardfx.cjs) through V8's code cache
 * (cardfx.cache, written by the build), so a start skips parsing and
 * compiling several MB of JavaScript. A cache that V8 rejects (another Node.js
 * version or other V8 flags), or a missing one, costs only the compile it
 * would have saved. The build writes the cache by running the bin once with
 * CARDFX_WRITE_CODE_CACHE set; nothing else ever writes it.
 *
 * First, when the build put a front beside it (cardfx-front.cjs, with the
 * command table as data in cardfx.spec.json: src/bin/front.ts), the front
 * answers what needs no command to run — usage errors, --help, --version —
 * and the bundle is never loaded (~0.15 s of CPU instead of ~0.6 s); the
 * bundle's own check would print the same. The writer child of the store's
 * crash tests uses this loader without a front.
 */
import { readFileSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

const file = fileURLToPath(new URL(import.meta.url.replace(/\.mjs$/, ".cjs")))
const cacheFile = file.replace(/\.cjs$/, ".cache")
const writingCache = process.env.CARDFX_WRITE_CODE_CACHE === "1"

/** The front's answer (it printed it) and its exit status; undefined when there is no front or the command runs. */
const answered = () => {
  // The cache-writing run goes on to the bundle (it renders the help), so that the bundle's code is cached.
  if (writingCache) return undefined
  let spec
  try {
    spec = JSON.parse(readFileSync(file.replace(/\.cjs$/, ".spec.json"), "utf8"))
  } catch {
    return undefined // no front here: the bundle checks the command line itself
  }
  const front = createRequire(file)(file.replace(/\.cjs$/, "-front.cjs"))
  return front.answer(spec, process.argv.slice(2))
}
const code = answered()
if (code !== undefined) process.exitCode = code
else runBundle()

/** Runs the bundle through its code cache. */
function runBundle() {
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  // The bundle's own `#!` line is not JavaScript inside the CommonJS wrapper.
  const script = new Script(Module.wrap(readFileSync(file, "utf8").replace(/^#!.*/, "")), {
    filename: file,
    cachedData
  })
  if (writingCache) {
    // At exit the functions this run compiled are in the cache too, not only the top level.
    process.once("exit", () => writeFileSync(cacheFile, script.createCachedData()))
  }
  // Under `npx cardfx` (`npm exec`), npm does not pass SIGTERM on to the command it started: killing npx left
  // `cardfx serve` running, re-parented, holding its port. When the process that started the bin goes away, the
  // bin stops itself as SIGTERM would (the commands' own shutdown runs). One unref'd timer per process, only
  // under npm.
  if (process.env.npm_command === "exec" || process.env.npm_command === "run-script") {
    const parent = process.ppid
    setInterval(() => {
      if (process.ppid !== parent) process.kill(process.pid, "SIGTERM")
    }, 250).unref()
  }
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
}
