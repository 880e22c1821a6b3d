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
import { chmodSync, existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const newest = (dir: string): number => {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

export const ensureBuilt = (): void => {
  const marker = "dist/index.js"
  if (existsSync(marker) && existsSync("dist/testing/index.js") && statSync(marker).mtimeMs >= newest("src")) return
  try {
    execFileSync(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "-p", "src/tsconfig.json", "--incremental", "--tsBuildInfoFile", "node_modules/.cache/cardfx-dist.tsbuildinfo"],
      { stdio: "pipe" }
    )
  } catch {
    // Emitted anyway; type errors are the type-check's to report.
  }
  if (existsSync("dist/cli/main.js")) chmodSync("dist/cli/main.js", 0o755)
}

export default function setup(): void {
  ensureBuilt()
}
