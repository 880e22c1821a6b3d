/**
 * The package as an integrator gets it: `npm pack` (the `files` list: dist
 * without source maps and code cache, data, editors/vscode, README, LICENSE;
 * the size is printed), installed offline into a fresh folder (`npm ci
 * --offline` from a lockfile derived from ours: every tarball is in the npm
 * cache after the project's own `npm ci`), then `npx cardfx start`, `npx
 * cardfx serve` (stopped by SIGTERM to npx: no process outlives it) and an
 * embedding program, with no warnings beyond Node's own; the package is
 * under 2 MB packed (the bin reads Swagger UI from the installed
 * `@effect/platform`: /docs is fetched, and a worker thread runs from the
 * minified worker bundle). The native SQLite
 * driver's install script would fetch a prebuilt binary (impossible offline)
 * and fall back to a source build of minutes; the test installs with
 * `--ignore-scripts` and puts our own build of the same version in place, as
 * a prebuilt binary would be.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runProcess } from "../support/proc.js"
import { tempDir } from "../support/tmp.js"

const npm = (args: ReadonlyArray<string>, cwd: string) =>
  runProcess("npm", args, { cwd, env: { ...process.env, npm_config_update_notifier: "false" } })

/** Lines of stderr that are warnings, except Node's own (`(node:PID) ...Warning`). */
const warnings = (stderr: string): Array<string> =>
  stderr.split("\n").filter((l) => /warn/i.test(l) && !/^\(node:\d+\)/.test(l) && !/--trace-warnings/.test(l))

interface Lock {
  packages: Record<string, { dev?: boolean; link?: boolean; dependencies?: Record<string, string> }>
}

describe("the packed package, installed offline in a fresh folder", () => {
  it(
    "packs under its files list; installs offline; npx cardfx start and serve and an embedding program run",
    async () => {
      const dir = tempDir("cardfx-pack-")
      // dist/ is current: the suite's global setup built it (prepack builds it for a real `npm pack`).
      const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], process.cwd())
      expect(packed.status, packed.stderr).toBe(0)
      const info = (JSON.parse(packed.stdout) as Array<
        { filename: string; size: number; unpackedSize: number; entryCount: number; files: Array<{ path: string }> }
      >)[0]
      if (info === undefined) throw new Error("npm pack printed nothing")
      console.log(`npm pack: ${info.size} bytes packed, ${info.unpackedSize} unpacked, ${info.entryCount} files`)
      const paths = info.files.map((f) => f.path)
      const outside = paths.filter((p) =>
        !/^(dist|data|editors\/vscode)\//.test(p) && !["README.md", "LICENSE", "package.json"].includes(p)
      )
      expect(outside).toEqual([])
      expect(paths.filter((p) => p.endsWith(".map") || p.endsWith(".cache"))).toEqual([])
      expect(paths).toEqual(expect.arrayContaining([
        "LICENSE",
        "dist/cli/cardfx.mjs",
        "dist/index.js",
        "data/schemas/content.schema.json",
        "editors/vscode/package.json"
      ]))
      // Issue 25: under 2 MB packed (docs/install.md: where the bytes go).
      expect(info.size).toBeLessThan(2_000_000)
      expect(paths.filter((p) => /^dist\/cli\/.*\.(js|d\.ts)$/.test(p) || p === "dist/page/meta.json")).toEqual([])

      // The fresh folder: cardfx from the tarball, its dependencies pinned as in our lockfile.
      const app = join(dir, "app")
      mkdirSync(app, { recursive: true })
      const tgz = join(dir, info.filename)
      const integrity = `sha512-${createHash("sha512").update(readFileSync(tgz)).digest("base64")}`
      const ours = JSON.parse(readFileSync("package-lock.json", "utf8")) as Lock
      const root = ours.packages[""]
      const packages: Record<string, unknown> = {
        "": { name: "app", version: "1.0.0", dependencies: { cardfx: `file:${tgz}` } },
        "node_modules/cardfx": {
          version: "0.1.0",
          resolved: `file:${tgz}`,
          integrity,
          license: "MIT",
          dependencies: root?.dependencies ?? {},
          bin: { cardfx: "dist/cli/cardfx.mjs" }
        }
      }
      for (const [k, v] of Object.entries(ours.packages)) {
        if (k.startsWith("node_modules/") && v.dev !== true && v.link !== true) packages[k] = v
      }
      const allowScripts = { "better-sqlite3": true, "@parcel/watcher": false, "msgpackr-extract": false }
      writeFileSync(
        join(app, "package.json"),
        JSON.stringify({
          name: "app",
          version: "1.0.0",
          private: true,
          type: "module",
          dependencies: { cardfx: `file:${tgz}` },
          allowScripts
        })
      )
      writeFileSync(
        join(app, "package-lock.json"),
        JSON.stringify({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages })
      )
      const installed = await npm(["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], app)
      expect(installed.status, installed.stderr).toBe(0)
      expect(warnings(installed.stderr)).toEqual([])
      cpSync("node_modules/better-sqlite3/build", join(app, "node_modules/better-sqlite3/build"), { recursive: true })

      const start = await runProcess("npx", ["--offline", "cardfx", "start"], { cwd: app })
      expect(start.status, start.stderr).toBe(0)
      expect(start.stdout).toMatch(/ok: \d+ file\(s\) validated, 0 error\(s\)/)
      expect(warnings(start.stderr)).toEqual([])

      // A worker pool from the minified simulation bundle (4,000 games: the thread gets some before the command's
      // own thread is done): the same summary as in process.
      const simulate = (workers: string) =>
        runProcess("npx", [
          "--offline",
          "cardfx",
          "simulate",
          "--games",
          "4000",
          "--workers",
          workers,
          "--format",
          "json"
        ], { cwd: app })
      const [inProcess, threaded] = await Promise.all([simulate("1"), simulate("2")])
      expect(threaded.status, threaded.stderr).toBe(0)
      expect(threaded.stdout).toBe(inProcess.stdout)
      expect(warnings(threaded.stderr)).toEqual([])

      writeFileSync(
        join(app, "embed.mjs"),
        [
          "import * as NodeContext from \"@effect/platform-node/NodeContext\"",
          "import { Effect } from \"effect\"",
          "import { DocumentKinds, Validation } from \"cardfx\"",
          "import { fileURLToPath } from \"node:url\"",
          "const data = fileURLToPath(new URL(\"./node_modules/cardfx/data\", import.meta.url))",
          "const report = await Effect.runPromise(Validation.validatePaths([data], DocumentKinds.documentKinds).pipe(Effect.provide(NodeContext.layer)))",
          "console.log(`embedded: ${report.files} files, ${report.diagnostics.length} diagnostics`)"
        ].join("\n")
      )
      const embedded = await runProcess(process.execPath, ["embed.mjs"], { cwd: app })
      expect(embedded.status, embedded.stderr).toBe(0)
      expect(embedded.stdout).toMatch(/embedded: \d+ files, 0 diagnostics/)
      expect(warnings(embedded.stderr)).toEqual([])

      // serve under npx; SIGTERM to npx stops the server too (npm does not pass the signal on: the bin notices).
      const serve: ChildProcess = spawn("npx", [
        "--offline",
        "cardfx",
        "serve",
        "--package",
        "node_modules/cardfx/data/heroscript.base",
        "--port",
        "0",
        "--store",
        join(app, "ledgers.sqlite")
      ], { cwd: app, stdio: ["ignore", "pipe", "pipe"] })
      let err = ""
      serve.stderr?.on("data", (b: Buffer) => (err += b.toString()))
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        const t = setTimeout(() => reject(new Error(`serve did not listen: ${err}`)), 60_000)
        serve.stdout?.on("data", (b: Buffer) => {
          out += b.toString()
          const m = /"url":"([^"]+)"/.exec(out)
          if (m?.[1] !== undefined) {
            clearTimeout(t)
            resolve(m[1])
          }
        })
      })
      expect((await fetch(`${url}/openapi.json`)).status).toBe(200)
      // Swagger UI's script, read from the installed @effect/platform (scripts/bundle-cli.mjs).
      const docs = await fetch(`${url}/docs`)
      expect(docs.status).toBe(200)
      expect(await docs.text()).toContain("SwaggerUIBundle")
      serve.kill("SIGTERM")
      let down = false
      for (let k = 0; k < 40 && !down; k++) {
        await new Promise((r) => setTimeout(r, 250))
        down = await fetch(`${url}/openapi.json`).then(() => false, () => true)
      }
      expect(down).toBe(true)
      expect(warnings(err)).toEqual([])
    },
    900_000
  )
})
