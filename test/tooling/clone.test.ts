/**
 * The README's first command in a fresh clone: `npm ci && npm start`. The
 * working tree's files (`git ls-files`: tracked, and untracked but not
 * ignored — what a clone of this tree, committed, would hold; never
 * node_modules/ or dist/) are copied into a temporary folder; `npm ci` runs
 * offline there (every tarball is in the npm cache after the project's own
 * install), then `npm start` builds dist/ (it is missing), validates the
 * shipped content and prints its summary and how to open the workbench,
 * exit 0. A second `npm start` takes the fast path (no build), and a source
 * newer than the bundles makes dist/ stale again (scripts/start.mjs).
 *
 * The install runs with `--ignore-scripts`, as .ci/run's does: `npm start`
 * needs none of the install scripts (esbuild's binary ships as its platform
 * package; the SQLite driver, whose script compiles SQLite from source on
 * this offline machine, ~70 s of CPU, is not loaded by `cardfx start`).
 * Cost, measured at load ~20 on the 2-core machine: the install ~14 CPU-s,
 * the build ~33 CPU-s (tsc from scratch, the bundles).
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, utimesSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { runProcess } from "../support/proc.js"
import { tempDir } from "../support/tmp.js"

const env = { ...process.env, npm_config_update_notifier: "false" }

/** Lines of stderr that are warnings, except Node's own (`(node:PID) ...Warning`). */
const warnings = (stderr: string): Array<string> =>
  stderr.split("\n").filter((l) => /warn/i.test(l) && !/^\(node:\d+\)/.test(l) && !/--trace-warnings/.test(l))

const seconds = (from: number): string => `${((performance.now() - from) / 1000).toFixed(1)} s`

describe("a fresh clone: npm ci && npm start", () => {
  it(
    "installs offline, builds dist/ on the first start, prints the summary and the workbench step; then the fast path",
    async () => {
      const clone = join(tempDir("cardfx-clone-"), "cardfx")
      const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024
      }).split("\0").filter((f) => f !== "" && existsSync(f))
      expect(files).toContain("package-lock.json")
      expect(files.filter((f) => /^(node_modules|dist)\//.test(f))).toEqual([])
      for (const f of files) {
        mkdirSync(join(clone, dirname(f)), { recursive: true })
        cpSync(f, join(clone, f))
      }

      let from = performance.now()
      const installed = await runProcess("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
        cwd: clone,
        env
      })
      const install = seconds(from)
      expect(installed.status, installed.stderr).toBe(0)
      // No engine warning on the supported Node (every development dependency supports 20.19), no other warning.
      expect(warnings(installed.stderr)).toEqual([])

      from = performance.now()
      const first = await runProcess("npm", ["start"], { cwd: clone, env })
      const build = seconds(from)
      expect(first.status, `${first.stdout}${first.stderr}`).toBe(0)
      expect(first.stdout).toContain("Building dist/ (dist/index.js is missing)")
      expect(first.stdout).toContain("package heroscript.base@1.0.0 (engine 17)")
      expect(first.stdout).toMatch(/ok: \d+ file\(s\) validated, 0 error\(s\)/)
      expect(first.stdout).toContain("The workbench: npx cardfx serve, then open http://127.0.0.1:8787/")
      expect(warnings(first.stderr)).toEqual([])

      // dist/ is current: no build, the same summary.
      from = performance.now()
      const again = await runProcess("npm", ["start"], { cwd: clone, env })
      const fast = seconds(from)
      expect(again.status, again.stderr).toBe(0)
      expect(again.stdout).not.toContain("Building")
      expect(again.stdout).toMatch(/ok: \d+ file\(s\) validated, 0 error\(s\)/)

      // A source saved after the build makes dist/ stale (checked without building again).
      const later = new Date(Date.now() + 60_000)
      utimesSync(join(clone, "src/index.ts"), later, later)
      const stale = await runProcess(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          "const { staleness } = await import(\"./scripts/start.mjs\"); console.log(staleness())"
        ],
        { cwd: clone }
      )
      expect(stale.stdout.trim()).toBe("src changed since the last build")

      console.log(
        `fresh clone: npm ci --offline ${install}, first npm start (build) ${build}, second npm start ${fast}`
      )
    },
    900_000
  )
})
