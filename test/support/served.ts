/**
 * `cardfx serve` as users run it: the built bin on an ephemeral 127.0.0.1
 * port, resolved once its `{"event":"listening","url":...}` line is printed
 * (at most 20 s). Imports nothing from src/, so the embedding tests that use
 * it still type-check against dist/ only.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createInterface } from "node:readline"

export const BIN = "dist/cli/cardfx.mjs"

export interface ServedBin {
  readonly child: ChildProcess
  readonly url: string
  /** SIGKILLs the server (if still running) and waits for it to exit. */
  readonly kill: () => Promise<void>
}

/** SIGKILLs a child (if still running) and waits for it to exit. */
export const killed = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

/** Starts `cardfx serve ARGS... --host 127.0.0.1 --port 0 --log-level none`. */
export const serveBin = (args: ReadonlyArray<string>): Promise<ServedBin> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      BIN,
      "serve",
      ...args,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--log-level",
      "none"
    ], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stderr = ""
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString()
    })
    const timer = setTimeout(() => {
      void killed(child)
      reject(new Error(`no listening line within 20 s; stderr: ${stderr}`))
    }, 20_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code}) before listening; stderr: ${stderr}`))
    })
    const lines = createInterface({ input: child.stdout ?? process.stdin })
    lines.on("line", (line) => {
      const parsed = ((): { event?: string; url?: string } => {
        try {
          return JSON.parse(line) as { event?: string; url?: string }
        } catch {
          return {}
        }
      })()
      if (parsed.event !== "listening" || parsed.url === undefined) return
      clearTimeout(timer)
      resolve({ child, url: parsed.url, kill: () => killed(child) })
    })
  })
