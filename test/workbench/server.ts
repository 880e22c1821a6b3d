/**
 * Test support: `cardfx serve` (the built bin users run) on 127.0.0.1 and a
 * free port, with a fresh SQLite store, stopped with SIGTERM by `stop`.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface Served {
  readonly origin: string
  readonly stop: () => Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      const port = typeof a === "object" && a !== null ? a.port : 0
      s.close(() => resolve(port))
    })
  })

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())))

export const serve = async (packages: ReadonlyArray<string>): Promise<Served> => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-workbench-"))
  const port = await freePort()
  const args = ["dist/cli/cardfx.mjs", "serve", ...packages.flatMap((p) => ["--package", p]), "--store", join(dir, "ledger.db"), "--host", "127.0.0.1", "--port", String(port)]
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
  const origin = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM")
    await exited(child)
    rmSync(dir, { recursive: true, force: true })
  }
  // Bounded wait for the server to answer (30 s under a loaded machine).
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break
    try {
      const r = await fetch(`${origin}/v1/health`)
      if (r.ok) return { origin, stop }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  await stop()
  throw new Error(`cardfx serve did not start: ${stderr.slice(0, 2000)}`)
}
