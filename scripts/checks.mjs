#!/usr/bin/env node
/**
 * `npm test`'s static checks, at once: the type-checks (the package with its
 * tests, and the workbench page) and the linter. Each is one single-threaded
 * process, so on two cores running them side by side takes about the longest
 * one's time instead of their sum. Each one's output is printed whole when it
 * ends (never interleaved); the exit status is the first failure's, or 0.
 */
import { spawn } from "node:child_process"

const checks = [
  ["typecheck", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]],
  ["typecheck page", ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "src/page"]],
  ["lint", ["node_modules/eslint/bin/eslint.js", "src", "test", "scripts"]]
]

const run = ([name, args]) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (b) => (out += b))
    child.stderr.on("data", (b) => (out += b))
    child.on("close", (code) => {
      process.stdout.write(`> ${name}: ${code === 0 ? "ok" : `failed (exit ${code})`}\n${out}`)
      resolve(code ?? 1)
    })
  })

const codes = await Promise.all(checks.map(run))
process.exitCode = codes.find((c) => c !== 0) ?? 0
