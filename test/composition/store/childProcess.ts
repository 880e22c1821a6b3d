/**
 * Child writer processes for the crash and concurrency tests. The writer
 * (writer-child.ts) is bundled once per test run with esbuild — a dependency
 * of vitest, so it is always installed — into node_modules/.cache/cardfx, where
 * node resolves better-sqlite3 and pg from the project. No build of dist/ and
 * no TypeScript loader are needed. It starts as the bin does: a minified
 * CommonJS bundle run by the bin's loader (scripts/code-cache-loader.mjs)
 * from V8's code cache, written by one warm-up run: 0.44 s of CPU a start
 * instead of 0.61 s (measured), paid once per kill by the kill test.
 */
import { build } from "esbuild"
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"

/** One folder per test process: two files that build the writer at once never read each other's half-written bundle. */
const DIR = join("node_modules", ".cache", "cardfx", `writer-${process.pid}`)
/** The loader; it runs writer-child.cjs beside it with writer-child.cache. */
export const CHILD = join(DIR, "writer-child.mjs")

let built: Promise<void> | undefined

/** Bundles the writer (once per process). */
export const buildChild = (): Promise<void> => {
  built ??= (async () => {
    mkdirSync(DIR, { recursive: true })
    await build({
      entryPoints: ["test/composition/store/writer-child.ts"],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      outfile: join(DIR, "writer-child.cjs"),
      external: ["better-sqlite3", "pg", "pg-native"],
      minifyWhitespace: true,
      minifySyntax: true,
      minifyIdentifiers: true,
      keepNames: true,
      define: { "import.meta.url": "__writerModuleUrl" },
      banner: { js: "const __writerModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
      logLevel: "error"
    })
    copyFileSync(join("scripts", "code-cache-loader.mjs"), CHILD)
    await new Promise<void>((resolve, reject) => {
      const warm = spawn(process.execPath, [CHILD, "warm"], {
        env: { ...process.env, CARDFX_WRITE_CODE_CACHE: "1" },
        stdio: ["ignore", "ignore", "pipe"]
      })
      let stderr = ""
      warm.stderr?.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
      warm.on("error", reject)
      warm.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`writer warm-up: ${code} ${stderr}`))))
    })
  })()
  return built
}

/** Removes this process's writer (a test file's `afterAll`); the next `buildChild` builds it again. */
export const removeChild = (): void => {
  rmSync(DIR, { recursive: true, force: true })
  built = undefined
}

/** Spawns the writer; `onLine` sees each complete stdout line. */
export const spawnChild = (
  args: ReadonlyArray<string>,
  onLine: (line: string, child: ChildProcess) => void
): { child: ChildProcess; done: Promise<number | null> } => {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] })
  let buffer = ""
  let stderr = ""
  child.stdout?.setEncoding("utf8")
  child.stdout?.on("data", (chunk: string) => {
    buffer += chunk
    let nl = buffer.indexOf("\n")
    while (nl >= 0) {
      onLine(buffer.slice(0, nl), child)
      buffer = buffer.slice(nl + 1)
      nl = buffer.indexOf("\n")
    }
  })
  child.stderr?.setEncoding("utf8")
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk
  })
  const done = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code, signal) => {
      if (signal === "SIGKILL" || code === 0) resolve(code)
      else reject(new Error(`writer exited with ${code ?? signal}: ${stderr.slice(0, 2000)}`))
    })
  })
  return { child, done }
}
