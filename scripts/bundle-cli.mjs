#!/usr/bin/env node
/**
 * Bundles the built CLI (dist/bin/main.js) into one file, dist/cli/cardfx.cjs,
 * run by the `cardfx` bin (dist/cli/cardfx.mjs) from V8's code cache. Node
 * resolves and loads several hundred ES modules for `effect` and its platform
 * packages at start-up; one bundled file starts about 2.5× faster (measured:
 * `--version` 1.43 s → 0.62 s), and the code cache takes a start from about
 * 0.7 s to 0.4 s of CPU.
 * Native and optional drivers stay external and load from node_modules.
 * The worker thread entry (dist/workers/worker.js) is bundled the same way
 * beside it, as dist/cli/cardfx-worker.mjs: the bin's worker pools spawn it;
 * simulations spawn the slimmer dist/cli/cardfx-simulation-worker.mjs (the
 * engine only: a thread's start-up is mostly loading code).
 * The three bundles are minified (whitespace and syntax only: identifiers,
 * and so function and class names, stay as written) and leave out what an
 * installed package already holds in node_modules and the CLI never runs
 * (`installedAssets`, `unusedInBundles`, below): the package stays under 2 MB
 * (docs/install.md).
 * Part of `npm run build` (and so of `prepack`), with the workbench page's
 * browser bundle (`bundlePage`, below).
 */
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, resolve } from "node:path"

/**
 * Swagger UI's script and style (`@effect/platform`'s internal/httpApiSwagger.js:
 * 2 MB, a third of the bin's bundle) are two string constants with no import of
 * their own. The bin reads them from the installed `@effect/platform` (a
 * dependency, pinned, so the same bytes) when `serve` builds `/docs`, instead of
 * carrying a copy: a module of two lazy getters over a `require` of the
 * package's CommonJS build.
 */
const installedAssets = {
  name: "cardfx-installed-assets",
  setup(b) {
    b.onResolve(
      { filter: /^\.\/internal\/httpApiSwagger\.js$/ },
      (args) =>
        /[\\/]@effect[\\/]platform[\\/]/.test(args.importer) ? { path: "swagger", namespace: "installed" } : undefined
    )
    b.onLoad({ filter: /.*/, namespace: "installed" }, () => ({
      contents: [
        "const { dirname, join } = require(\"node:path\")",
        "const installed = require(\"node:module\").createRequire(__filename)",
        "let asset",
        "const load = () => (asset ??= installed(",
        "  join(dirname(installed.resolve(\"@effect/platform/HttpApiSwagger\")), \"internal\", \"httpApiSwagger.js\")",
        "))",
        "module.exports = { get javascript() { return load().javascript }, get css() { return load().css } }"
      ].join("\n"),
      loader: "js"
    }))
  }
}

/**
 * Packages the bundles would carry only because a module they import also
 * offers something cardfx never uses: undici (1 MB, `@effect/platform-node`'s
 * HTTP client, imported by its HTTP server for `layerTest` and by its cluster
 * module for Kubernetes; cardfx's CLI and workers make no HTTP request) and
 * `@effect/cli`'s config-file parsers (yaml, toml, ini; cardfx reads no config
 * file). Each is used inside functions only, never when its importer loads, so
 * an empty module stands in (as for the page's server-only packages below); a
 * use would fail the bin's tests.
 */
const UNUSED_IN_BUNDLES = /^(undici|yaml|toml|ini)$/
const unusedInBundles = {
  name: "cardfx-unused-in-bundles",
  setup(b) {
    b.onResolve({ filter: UNUSED_IN_BUNDLES }, (args) => ({ path: args.path, namespace: "unused-in-bundles" }))
    b.onLoad(
      { filter: /.*/, namespace: "unused-in-bundles" },
      () => ({ contents: "module.exports = {}", loader: "js" })
    )
  }
}

/**
 * Whitespace, syntax and local identifiers. Not `keepNames`: esbuild keeps a
 * function's name by defining `name` on it where it is created, so every
 * named closure a request or a game step makes paid an
 * `Object.defineProperty` (measured on `GET /v1/health`: 0.122 ms of CPU a
 * request with it, 0.096 without, the unbundled build 0.101). Nothing cardfx
 * prints reads a function's or a class's `name`: the errors' names are their
 * tags, set by `Schema.TaggedError` itself.
 */
const minify = { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: true }

const bundle = (entry, outfile) =>
  build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "pg", "pg-native"],
    ...minify,
    plugins: [unusedInBundles],
    // CommonJS dependencies inside an ES module bundle need a `require`.
    banner: {
      js:
        "import { createRequire as __cardfxCreateRequire } from 'node:module'; const require = __cardfxCreateRequire(import.meta.url);"
    },
    logLevel: "warning"
  })

/**
 * The bin's bundle is CommonJS (dist/cli/cardfx.cjs) so that the loader
 * (scripts/code-cache-loader.mjs, copied to dist/cli/cardfx.mjs) can compile
 * it as a `vm.Script` with V8's code cache: measured on this 2-core machine,
 * a start then costs about 0.4 s of CPU instead of 0.7 s.
 */
const bundleBin = async () => {
  await build({
    entryPoints: ["dist/bin/main.js"],
    outfile: "dist/cli/cardfx.cjs",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["better-sqlite3", "pg", "pg-native"],
    ...minify,
    plugins: [installedAssets, unusedInBundles],
    define: { "import.meta.url": "__cardfxModuleUrl" },
    banner: { js: "const __cardfxModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: "warning"
  })
  await bundleFront()
  copyFileSync("scripts/code-cache-loader.mjs", "dist/cli/cardfx.mjs")
  chmodSync("dist/cli/cardfx.mjs", 0o755)
  rmSync("dist/cli/cardfx.cache", { force: true })
  // One run that renders the help (the command spec, the runtime, the output path) fills the cache.
  const made = spawnSync(process.execPath, ["dist/cli/cardfx.mjs", "--help"], {
    env: { ...process.env, CARDFX_WRITE_CODE_CACHE: "1" },
    stdio: "ignore"
  })
  if (made.status !== 0) throw new Error(`the bin did not run after bundling (exit ${made.status})`)
}

/**
 * The bin's front (src/bin/front.ts): the command-line checks, the help and
 * the version over the command table, bundled alone (~20 KB: no code cache
 * needed), and the command table as data beside it, written from the same
 * build's modules. The loader asks the front first; a usage error, --help or
 * --version then never loads the bundle.
 */
const bundleFront = async () => {
  await build({
    entryPoints: ["dist/bin/front.js"],
    outfile: "dist/cli/cardfx-front.cjs",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    ...minify,
    logLevel: "warning"
  })
  const dist = new URL("../dist/", import.meta.url)
  const { rootCommand } = await import(new URL("cli/Cli.js", dist).href)
  const { commands } = await import(new URL("cli/commands.js", dist).href)
  const { specOf } = await import(new URL("cli/Spec.js", dist).href)
  writeFileSync("dist/cli/cardfx.spec.json", JSON.stringify(specOf(rootCommand(commands))))
}

export const bundleCli = async () => {
  await bundleBin()
  await bundle("dist/workers/worker.js", "dist/cli/cardfx-worker.mjs")
  await bundle("dist/workers/simulation-worker.js", "dist/cli/cardfx-simulation-worker.mjs")
}

/**
 * The page imports the typed client (`cardfx/client`, src/client.ts), whose
 * API definition shares its Schemas with the server and the CLI; some of the
 * modules holding those Schemas also hold server code (sha256 through
 * node:crypto, the SQL store). For the browser: the project's own modules
 * are marked free of side effects (each is definitions only), so what the
 * page does not use is dropped, and Node built-ins and server-only packages
 * resolve to an empty module — never called by what the page runs (a call
 * would throw, and the browser tests fail on any page error).
 */
const SERVER_ONLY =
  /^(better-sqlite3|bindings|pg|pg-.*|@effect\/sql.*|@effect\/platform-node.*|@effect\/cli|@effect\/cluster|@effect\/rpc|@effect\/experimental)(\/.*)?$/
const NODE_BUILTIN = new Set(builtinModules)
const browserClient = {
  name: "cardfx-browser-client",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.path.startsWith("node:") || NODE_BUILTIN.has(args.path.split("/")[0]) || SERVER_ONLY.test(args.path)) {
        return { path: args.path, namespace: "server-only", sideEffects: false }
      }
      if (args.path.startsWith(".") && args.importer.includes("/src/") && !args.importer.includes("/node_modules/")) {
        const base = resolve(dirname(args.importer), args.path)
        for (const c of [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base]) {
          if (existsSync(c) && statSync(c).isFile()) return { path: c, sideEffects: false }
        }
      }
      return undefined
    })
    b.onLoad({ filter: /.*/, namespace: "server-only" }, () => ({ contents: "module.exports = {}", loader: "js" }))
  }
}

/**
 * The workbench page (src/page, TypeScript + Preact) bundled for
 * the browser into dist/page/: index.html, app.js and app.css, and the
 * chunks in dist/page/chunks/ (code splitting: each view is loaded when it
 * is first shown, so the first view loads only what it needs), served by
 * `cardfx serve` at `/` with no CDN and no network fetch at run time.
 * dist/page/meta.json is esbuild's metafile (what each module weighs).
 */
export const bundlePage = async () => {
  rmSync("dist/page/chunks", { recursive: true, force: true })
  mkdirSync("dist/page", { recursive: true })
  await build({
    entryPoints: { app: "src/page/main.tsx" },
    outdir: "dist/page",
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    tsconfig: "src/page/tsconfig.json",
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
    plugins: [browserClient]
  }).then((r) => writeFileSync("dist/page/meta.json", JSON.stringify(r.metafile)))
  // The first view's chunks are announced in index.html (modulepreload), so the browser fetches them beside
  // app.js instead of one round trip after another.
  const meta = JSON.parse(readFileSync("dist/page/meta.json", "utf8"))
  const preload = firstViewChunks(meta).map((f) => `    <link rel="modulepreload" href="${f}" />`).join("\n")
  writeFileSync(
    "dist/page/index.html",
    readFileSync("src/page/index.html", "utf8").replace("  </head>", `${preload}\n  </head>`)
  )
}

/**
 * The page's chunks the first view needs, relative to dist/page: app.js's static imports and the first view's
 * chunk (the first dynamic import of app.js, `Views.ts`'s first entry) with its static imports, transitively.
 */
export const firstViewChunks = (meta) => {
  const outputs = meta.outputs
  const app = outputs["dist/page/app.js"]
  const firstView = app.imports.find((i) => i.kind === "dynamic-import")?.path
  const seen = new Set()
  const visit = (path) => {
    if (seen.has(path) || outputs[path] === undefined) return
    seen.add(path)
    for (const i of outputs[path].imports) if (i.kind === "import-statement") visit(i.path)
  }
  for (const i of app.imports) if (i.kind === "import-statement") visit(i.path)
  if (firstView !== undefined) visit(firstView)
  return [...seen].sort().map((p) => p.replace(/^dist\/page\//, ""))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await bundleCli()
  await bundlePage()
}
