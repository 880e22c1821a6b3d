/**
 * Start-up and shutdown of the built bin (`node dist/cli/cardfx.mjs serve`)
 * on 127.0.0.1: requests fired while it starts are all answered (503
 * `starting` until the handler is in place, then 200), a port in use is
 * `port_in_use` naming the port, an empty `--token-env` variable is a
 * start-up error, and SIGTERM under keep-alive traffic gives 503
 * `unavailable` with `Connection: close` — never a reset. Also the access
 * log line of each request. Every wait is bounded.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { Agent, request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, killed, serveBin, type ServedBin } from "../support/served.js"
import { PACKAGE } from "./support.js"

const children: Array<ChildProcess> = []
afterEach(async () => {
  for (const c of children.splice(0)) await killed(c)
})

const store = () => join(mkdtempSync(join(tmpdir(), "cardfx-lifecycle-")), "ledger.db")

/** A port free right now (bound on 127.0.0.1:0, then released). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const address = s.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      s.close(() => resolve(port))
    })
  })

/** Runs `cardfx serve ARGS` (no --port added); collects stdout and stderr. */
const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) => {
  const child = spawn(process.execPath, [BIN, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"], env })
  children.push(child)
  let out = ""
  let err = ""
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()))
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()))
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, exit, out: () => out, err: () => err }
}

interface Reply {
  readonly status: number
  readonly code: string | undefined
  readonly connection: string | undefined
  readonly requestId: string | undefined
}

/** One GET; resolves with the answer, or rejects with the socket error (ECONNREFUSED, ECONNRESET, ...). */
const get = (port: number, path: string, agent: Agent | false = false): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent, timeout: 5000 }, (res) => {
      let body = ""
      res.on("data", (c: Buffer) => (body += c.toString()))
      res.on("end", () => {
        const code = ((): string | undefined => {
          try {
            return (JSON.parse(body) as { code?: string }).code
          } catch {
            return undefined
          }
        })()
        resolve({
          status: res.statusCode ?? 0,
          code,
          connection: res.headers.connection,
          requestId: typeof res.headers["x-request-id"] === "string" ? res.headers["x-request-id"] : undefined
        })
      })
    })
    req.on("timeout", () => req.destroy(new Error("ETIMEDOUT: no answer within 5 s")))
    req.on("error", reject)
    req.end()
  })

const errorCode = (e: unknown): string =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : String(e)

describe("cardfx serve start-up", () => {
  it("answers every request fired while it starts: 503 starting until the handler is in place, then 200", async () => {
    const port = await freePort()
    const served = run(["--package", PACKAGE, "--store", store(), "--host", "127.0.0.1", "--port", String(port)])
    const replies: Array<Reply> = []
    const refused: Array<string> = []
    // Fire a request every 10 ms until one is 200 (at most 30 s); none may hang or be reset.
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && replies.at(-1)?.status !== 200) {
      const r = await get(port, "/v1/health").catch((e: unknown) => errorCode(e))
      if (typeof r === "string") {
        expect(r).toBe("ECONNREFUSED") // not listening yet: refused at once, never a hang
        refused.push(r)
      } else replies.push(r)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(replies.at(-1)?.status).toBe(200)
    const starting = replies.filter((r) => r.status === 503)
    // The port is bound before the content and the store are loaded: those requests are answered, not held.
    expect(starting.length).toBeGreaterThan(0)
    for (const r of starting) {
      expect(r.code).toBe("starting")
      expect(r.requestId).toMatch(/^r\d+$/)
    }
    expect(replies.every((r) => r.status === 503 || r.status === 200)).toBe(true)
    served.child.kill("SIGTERM")
    await served.exit
    // The access log: one JSON line per request, with its status and request ID.
    const lines = served.out().split("\n").filter((l) => l.includes("\"message\":\"request\""))
    const logged = lines.map((l) =>
      (JSON.parse(l) as { annotations: { status: number; requestId: string; route: string } }).annotations
    )
    expect(logged.length).toBe(replies.length)
    expect(logged.map((a) => a.status)).toEqual(replies.map((r) => r.status))
    expect(logged.map((a) => a.requestId)).toEqual(replies.map((r) => r.requestId))
    expect(new Set(logged.map((a) => a.route))).toEqual(new Set(["/v1/health"]))
  }, 60_000)

  it("names the port when it is in use (port_in_use) and exits non-zero", async () => {
    const first = await serveBin(["--package", PACKAGE, "--store", store()])
    try {
      const port = new URL(first.url).port
      const second = run(["--package", PACKAGE, "--store", store(), "--host", "127.0.0.1", "--port", port])
      const code = await second.exit
      expect(code).not.toBe(0)
      expect(second.err()).toMatch(new RegExp(`cardfx serve: port_in_use cannot listen on 127\\.0\\.0\\.1:${port}: `))
      expect(second.err()).not.toMatch(/\n\s+at /) // no stack trace
      expect((await get(Number(port), "/v1/health")).status).toBe(200) // the first server is untouched
    } finally {
      await first.kill()
    }
  }, 60_000)

  it("refuses an empty --token-env variable at start-up (usage_error, exit 2)", async () => {
    const served = run(
      ["--package", PACKAGE, "--store", store(), "--host", "127.0.0.1", "--port", "0", "--token-env", "CARDFX_EMPTY"],
      { ...process.env, CARDFX_EMPTY: "" }
    )
    expect(await served.exit).toBe(2)
    expect(served.err()).toMatch(/cardfx serve: usage_error --token-env CARDFX_EMPTY: the variable is empty/)
    expect(served.out()).not.toContain("listening")
  }, 60_000)
})

describe("cardfx serve on SIGTERM under keep-alive traffic", () => {
  it("answers late requests 503 unavailable with Connection: close; no client sees a reset", async () => {
    const server: ServedBin = await serveBin(["--package", PACKAGE, "--store", store()])
    const port = Number(new URL(server.url).port)
    const exit = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)))
    const CLIENTS = 6
    let signalled = false
    const clients = Array.from({ length: CLIENTS }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const seen: Array<Reply> = []
      const errors: Array<string> = []
      // Each client reuses its one connection until it is told to close (bounded: 20 s, 5,000 requests).
      const deadline = Date.now() + 20_000
      for (let i = 0; i < 5000 && Date.now() < deadline; i++) {
        const r = await get(port, "/v1/health", agent).catch((e: unknown) => errorCode(e))
        if (typeof r === "string") {
          errors.push(`${r}${signalled ? " after SIGTERM" : ""}`)
          break
        }
        seen.push(r)
        if (r.status !== 200) break
      }
      agent.destroy()
      return { seen, errors }
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    signalled = true
    server.child.kill("SIGTERM")
    const results = await Promise.all(clients)
    expect(await exit).toBe(130)
    for (const { seen, errors } of results) {
      expect(errors).toEqual([])
      const last = seen.at(-1)
      expect([last?.status, last?.code, last?.connection]).toEqual([503, "unavailable", "close"])
      expect(seen.slice(0, -1).every((r) => r.status === 200)).toBe(true)
    }
    // The clients were served on their kept-alive connections before the signal.
    expect(results.some(({ seen }) => seen.length > 1)).toBe(true)
  }, 60_000)
})
