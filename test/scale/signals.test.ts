/**
 * SIGINT and SIGTERM end `simulate`, `fuzz` and `validate` (in process and
 * with worker threads) promptly through the built bin: nothing on stdout (no
 * half-written summary), an interrupt exit code, no process left behind.
 */
import { spawn, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { writeTree } from "../support/tmp.js"

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly out: string
  readonly err: string
  /** Milliseconds from the signal to the exit. */
  readonly afterSignal: number
  /** Child processes the bin had while working (worker threads are not processes). */
  readonly children: string
}

/** CPU time (ms) a process has used, from /proc (0 when unreadable). */
const cpuMs = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10 // utime + stime, in clock ticks of 10 ms
  } catch {
    return 0
  }
}

/**
 * Starts the bin, lets it work (until it has used `workMs` of CPU: start-up
 * takes ~0.6 s of CPU, and wall time means little on a loaded machine), sends
 * `signal`, waits for the exit.
 */
const interrupt = (args: ReadonlyArray<string>, signal: NodeJS.Signals, workMs = 2000): Promise<Ended> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/cli/cardfx.mjs", ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    let sentAt = 0
    let children = ""
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()))
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()))
    const timer = setInterval(() => {
      if (sentAt !== 0 || cpuMs(child.pid) < workMs) return
      children = spawnSync("ps", ["-o", "pid=", "--ppid", String(child.pid)], { encoding: "utf8" }).stdout.trim()
      sentAt = Date.now()
      child.kill(signal)
    }, 100)
    const guard = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`cardfx ${args.join(" ")} did not end after ${signal}`))
    }, 50_000)
    child.on("exit", (code, sig) => {
      clearInterval(timer)
      clearTimeout(guard)
      resolve({ code, signal: sig, out, err, afterSignal: sentAt === 0 ? -1 : Date.now() - sentAt, children })
    })
  })

const expectInterrupted = (r: Ended) => {
  expect(r.afterSignal, `ended before the signal: ${r.code} ${r.out.slice(0, 200)} ${r.err.slice(0, 200)}`)
    .toBeGreaterThanOrEqual(0)
  expect(r.out).toBe("")
  expect(r.code).toBe(130)
  expect(r.err).not.toMatch(/at .*\.m?js:\d+/) // no stack trace
  // The contract is one second; the bound leaves room for a machine loaded by other test runs.
  expect(r.afterSignal).toBeLessThan(5000)
  expect(r.children).toBe("")
}

/** A tree large enough that validating it takes far longer than the test waits. */
const bigTree = (): string => {
  const deck = readFileSync("data/hallyu-hex/starter-deck.v0.json", "utf8")
  const files: Record<string, string> = {}
  for (let i = 0; i < 1500; i++) files[`t${i % 10}/deck-${i}.json`] = deck
  return writeTree(files)
}

describe("SIGINT and SIGTERM (built bin)", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const workers of ["1", "2"]) {
      it(`${signal}: simulate --games 1e6 --workers ${workers}`, async () => {
        expectInterrupted(
          await interrupt(
            ["simulate", "--games", "1000000", "--seed", "1", "--workers", workers, "--format", "json"],
            signal
          )
        )
      }, 90_000)

      it(`${signal}: fuzz --runs 1e6 --workers ${workers}`, async () => {
        expectInterrupted(
          await interrupt([
            "fuzz",
            "--runs",
            "1000000",
            "--only",
            "hallyu.valid",
            "--workers",
            workers,
            "--format",
            "json"
          ], signal)
        )
      }, 90_000)
    }
  }

  it("SIGINT and SIGTERM: validate of a large tree, in process and with workers", async () => {
    const root = bigTree()
    for (const [signal, workers] of [["SIGINT", "1"], ["SIGTERM", "2"]] as const) {
      expectInterrupted(await interrupt(["validate", root, "--workers", workers, "--format", "json"], signal))
    }
  }, 180_000)
})
