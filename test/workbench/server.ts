/**
 * Test support: `cardfx serve` (the built bin users run) on 127.0.0.1 and an
 * ephemeral port, with a fresh SQLite store, stopped with SIGTERM by `stop`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface Served {
  readonly origin: string
  readonly stop: () => Promise<void>
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())))

/**
 * Starts the server on an ephemeral port; resolves once it prints its `listening` line (bounded: 90 s on a loaded machine).
 * With `token`, the server runs with `--token-env` (its mutating endpoints need that bearer token); `args` are added.
 */
export const serve = async (
  packages: ReadonlyArray<string>,
  options: { readonly token?: string; readonly args?: ReadonlyArray<string> } = {}
): Promise<Served> => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-workbench-"))
  const args = [
    "dist/cli/cardfx.mjs",
    "serve",
    ...packages.flatMap((p) => ["--package", p]),
    "--store",
    join(dir, "ledger.db"),
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    ...(options.token === undefined ? [] : ["--token-env", "CARDFX_WORKBENCH_TOKEN"]),
    ...(options.args ?? [])
  ]
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...(options.token === undefined ? {} : { CARDFX_WORKBENCH_TOKEN: options.token }) }
  })
  let stdout = ""
  let stderr = ""
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM")
    await exited(child)
    rmSync(dir, { recursive: true, force: true })
  }
  const origin = await new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 90_000)
    child.stdout?.on("data", (b: Buffer) => {
      stdout += b.toString("utf8")
      const m = /\{"event":"listening","url":"([^"]+)"\}/.exec(stdout)
      if (m?.[1] !== undefined) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once("exit", () => {
      clearTimeout(timer)
      resolve(null)
    })
  })
  if (origin !== null) return { origin, stop }
  await stop()
  throw new Error(`cardfx serve did not start: ${stderr.slice(0, 2000)}`)
}
