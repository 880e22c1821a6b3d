/**
 * Test support: a child process run to its end without blocking the test
 * worker's event loop. `spawnSync` and `execFileSync` hold the worker for as
 * long as the child runs, and vitest's worker answers its own messages on
 * that loop: on a loaded machine a test that spent over 60 s in synchronous
 * children (npm pack, npm ci, several bins in a row) came back to find its
 * pending `onTaskUpdate` calls timed out before their replies were read
 * ("Timeout calling onTaskUpdate", 38 unhandled errors failing a green
 * suite). Awaiting the child keeps the loop turning.
 */
import { spawn } from "node:child_process"

/** What a finished child left: as `spawnSync` reports it (`status` null when a signal ended it). */
export interface Finished {
  readonly status: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
  /** Killed with SIGKILL after this many milliseconds (then `status` is null and `signal` SIGKILL). */
  readonly timeout?: number
}

/** Runs `command` with `args` (stdin empty) to its end; its stdout and stderr as UTF-8. Fails only if it cannot start. */
export const runProcess = (
  command: string,
  args: ReadonlyArray<string>,
  options: RunOptions = {}
): Promise<Finished> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.stderr.on("data", (b: Buffer) => err.push(b))
    const timer = options.timeout === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeout)
    child.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on("close", (status, signal) => {
      clearTimeout(timer)
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8")
      })
    })
  })

/** The built bin, as an absolute path. */
export const BIN = new URL("../../dist/cli/cardfx.mjs", import.meta.url).pathname

/** Runs the built bin (`dist/cli/cardfx.mjs`, from the repository root unless `cwd` says otherwise). */
export const runBin = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Finished> =>
  runProcess(process.execPath, [BIN, ...args], options)
