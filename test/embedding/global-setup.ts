/**
 * vitest globalSetup for the embedding tests: they import the *built*
 * package (`cardfx`, `cardfx/testing` resolve through package.json's
 * `exports` to dist/), so dist/ must be current. Rebuilds (incrementally)
 * when any file under src/ is newer than dist/index.js. Type errors do not
 * stop the build here (tsc still emits): `tsc --noEmit -p .` reports them.
 *
 * Registered in test/vitest.config.ts as `globalSetup: ["test/embedding/global-setup.ts"]`.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs"
import { join } from "node:path"

const newest = (dir: string): number => {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

const BUILD_INFO = "node_modules/.cache/cardfx-dist.tsbuildinfo"

export const ensureBuilt = (): void => {
  const marker = "dist/index.js"
  const present = existsSync(marker) && existsSync("dist/testing/index.js")
  if (present && statSync(marker).mtimeMs >= newest("src")) return
  // tsc --incremental trusts its build info, not the outputs: without dist/ it must start over.
  if (!present) rmSync(BUILD_INFO, { force: true })
  try {
    execFileSync(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "-p", "src/tsconfig.json", "--incremental", "--tsBuildInfoFile", BUILD_INFO],
      { stdio: "pipe" }
    )
  } catch {
    // Emitted anyway; type errors are the type-check's to report.
  }
  // The `cardfx` bin is the bundled CLI (scripts/bundle-cli.mjs), rebuilt with dist/.
  if (existsSync("dist/bin/main.js")) execFileSync(process.execPath, ["scripts/bundle-cli.mjs"], { stdio: "pipe" })
  // An incremental build rewrites only what changed: mark dist/ as built now, so the next run skips it.
  if (existsSync(marker)) utimesSync(marker, new Date(), new Date())
}

export default function setup(): void {
  ensureBuilt()
}
