/**
 * Child writer processes for the crash and concurrency tests. The writer
 * (writer-child.ts) is bundled once per test run with esbuild — a dependency
 * of vitest, so it is always installed — into node_modules/.cache/cardfx, where
 * node resolves better-sqlite3 and pg from the project. No build of dist/ and
 * no TypeScript loader are needed, and each process starts in a few hundred ms.
 */
import { build } from "esbuild"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join } from "node:path"

export const CHILD = join("node_modules", ".cache", "cardfx", "writer-child.mjs")

let built: Promise<void> | undefined

/** Bundles the writer (once per process). */
export const buildChild = (): Promise<void> => {
  built ??= (async () => {
    mkdirSync(join("node_modules", ".cache", "cardfx"), { recursive: true })
    await build({
      entryPoints: ["test/composition/store/writer-child.ts"],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: CHILD,
      external: ["better-sqlite3", "pg", "pg-native"],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: "error"
    })
  })()
  return built
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
