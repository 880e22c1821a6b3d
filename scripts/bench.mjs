#!/usr/bin/env node
/**
 * `npm run bench`: builds, runs every benchmark module in scripts/bench/
 * (each exports `run()` → rows `{ name, value, unit, goal?, ok? }`), prints
 * one table and writes bench-results/latest.json. Figures are ratios against
 * baselines measured in the same run wherever a goal is a ratio.
 *
 * Usage: npm run bench [-- NAME...]   (module names, e.g. validate executor)
 */
import { execSync } from "node:child_process"
import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
try {
  execSync("npm run build --silent", { stdio: "inherit", cwd: join(here, "..") })
} catch {
  process.stderr.write("bench: the build reported errors; measuring the dist/ it emitted\n")
}

const only = process.argv.slice(2)
const modules = readdirSync(join(here, "bench"))
  .filter((f) => f.endsWith(".mjs") && f !== "timing.mjs")
  .map((f) => f.slice(0, -4))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort()

const fmt = (v) =>
  typeof v !== "number" ? String(v) : Math.abs(v) >= 1000 ? Math.round(v).toLocaleString("en-US") : v.toPrecision(3)

const results = []
for (const name of modules) {
  process.stderr.write(`bench: ${name}…\n`)
  const mod = await import(pathToFileURL(join(here, "bench", `${name}.mjs`)).href)
  const rows = await mod.run()
  for (const row of rows) results.push({ module: name, ...row })
}

const lines = results.map((
  r
) => [r.module, r.name, `${fmt(r.value)} ${r.unit}`, r.goal ?? "", r.ok === undefined ? "" : r.ok ? "met" : "MISSED"])
const widths = [0, 1, 2, 3, 4].map((i) =>
  Math.max(...[["module", "benchmark", "value", "goal", ""], ...lines].map((l) => String(l[i]).length))
)
const row = (l) => l.map((c, i) => String(c).padEnd(widths[i])).join("  ")
console.log(row(["module", "benchmark", "value", "goal", ""]))
console.log(widths.map((w) => "-".repeat(w)).join("  "))
for (const l of lines) console.log(row(l))

const out = join(here, "..", "bench-results")
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, "latest.json"),
  JSON.stringify({ node: process.version, cpus: (await import("node:os")).cpus().length, results }, null, 2) + "\n"
)
console.log(`\nwrote bench-results/latest.json`)
