#!/usr/bin/env node
/**
 * Regenerates the workbench screenshots shown in docs/workbench.md: runs the
 * workbench browser tests (headless Chromium against `cardfx serve`; they
 * write every view at 1280×800 and 390 px to test/workbench/screenshots/,
 * ignored by git), then copies them to docs/workbench/, which is
 * committed (docs/workbench.md shows them).
 *
 * Usage: node scripts/screenshots.mjs   (needs /usr/bin/chromium and a build)
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
execFileSync(
  process.execPath,
  [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--config",
    "test/vitest.config.ts",
    "test/workbench/workbench.test.ts",
    "test/workbench/balance.test.ts"
  ],
  { cwd: root, stdio: "inherit", env: { ...process.env, CARDFX_REQUIRE_BROWSER: "1" } }
)
const out = join(root, "docs/workbench")
mkdirSync(out, { recursive: true })
const views = ["cards", "try", "table", "balance"]
for (const view of views) {
  for (const size of ["desktop", "phone"]) {
    copyFileSync(join(root, "test/workbench/screenshots", `${view}-${size}.png`), join(out, `${view}-${size}.png`))
  }
}
console.log(`screenshots: copied ${views.length * 2} images to ${out}`)
