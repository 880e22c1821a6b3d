#!/usr/bin/env node
/**
 * Bundles the built CLI (dist/cli/main.js) into one ES module,
 * dist/cli/cardfx.mjs — the `cardfx` bin. Node resolves and loads several
 * hundred ES modules for `effect` and its platform packages at start-up; one
 * bundled file starts about 2.5× faster (measured: `--version` 1.43 s → 0.62 s).
 * Native and optional drivers stay external and load from node_modules.
 * The worker thread entry (dist/workers/worker.js) is bundled the same way
 * beside it, as dist/cli/cardfx-worker.mjs: the bin's worker pools spawn it.
 * Part of `npm run build` (and so of `npm ci` through `prepare`).
 */
import { build } from "esbuild"
import { chmodSync, copyFileSync, mkdirSync } from "node:fs"

const bundle = (entry, outfile) =>
  build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "pg", "pg-native"],
    // CommonJS dependencies inside an ES module bundle need a `require`.
    banner: { js: "import { createRequire as __cardfxCreateRequire } from 'node:module'; const require = __cardfxCreateRequire(import.meta.url);" },
    logLevel: "warning"
  })

export const bundleCli = async () => {
  await bundle("dist/cli/main.js", "dist/cli/cardfx.mjs")
  await bundle("dist/workers/worker.js", "dist/cli/cardfx-worker.mjs")
  chmodSync("dist/cli/cardfx.mjs", 0o755)
}

/**
 * The workbench page (src/server/page/app, TypeScript + Preact) bundled for
 * the browser into dist/page/: index.html, app.js and app.css, served by
 * `cardfx serve` at `/` with no CDN and no network fetch at run time.
 */
export const bundlePage = async () => {
  mkdirSync("dist/page", { recursive: true })
  await build({
    entryPoints: { app: "src/server/page/app/main.tsx" },
    outdir: "dist/page",
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    tsconfig: "src/server/page/app/tsconfig.json",
    legalComments: "none",
    logLevel: "warning"
  })
  copyFileSync("src/server/page/app/index.html", "dist/page/index.html")
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await bundleCli()
  await bundlePage()
}
