/**
 * Benchmark: `cardfx serve` under load. The built bin (its own process, the
 * default log level: one JSON request log line each) on 127.0.0.1, driven by
 * `autocannon` at 64 connections for 5 s per endpoint (after a 1 s warm-up):
 * `POST /v1/assess` and `GET /v1/cards/basic_attack/effective`, requests/s and
 * p99 latency. Beside each, in the same run, a bare `node:http` server (also
 * its own process) answering every request with the cached bytes of the
 * same endpoint's response (same size, same content type): the floor Node's
 * HTTP stack and the loopback set. Goals (issue 14): cardfx ≥ 50 % of the
 * bare server's requests/s, p99 < 25 ms.
 *
 * `BENCH_SERVE_LOG_LEVEL=none` runs the server with `--log-level none`.
 * Imports the built `dist/` (run `npm run build` first).
 */
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const CONNECTIONS = 64
const SECONDS = 5

const listening = (child, what) =>
  new Promise((resolve, reject) => {
    let out = ""
    const timer = setTimeout(() => reject(new Error(`bench serve: ${what} did not start in 60 s`)), 60_000)
    const onData = (b) => {
      out += b.toString("utf8")
      const m = /\{"event":"listening","url":"([^"]+)"\}/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        out = ""
        // keep draining the request log so the server never blocks on a full pipe
        child.stdout.off("data", onData)
        child.stdout.resume()
        resolve(m[1])
      }
    }
    child.stdout.on("data", onData)
    child.once("exit", (code) => reject(new Error(`bench serve: ${what} exited (${code})`)))
  })

// The bare server: a cached response of the given bytes for every request.
const BARE = `
const { createServer } = require("node:http")
const body = Buffer.from(process.env.BODY_B64, "base64")
const s = createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length })
    res.end(body)
  })
})
s.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ event: "listening", url: "http://127.0.0.1:" + s.address().port })))
`

/** CPU time (user + system, ms) a process has used, from /proc (Linux); undefined elsewhere. */
const cpuMs = (pid) => {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10 // clock ticks of 10 ms
}

const load = (opts) =>
  new Promise((resolve, reject) => {
    autocannon(
      { connections: CONNECTIONS, pipelining: 1, ...opts },
      (err, result) => (err ? reject(err) : resolve(result))
    )
  })

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

export const run = async () => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-bench-serve-"))
  const server = spawn(process.execPath, [
    "dist/cli/cardfx.mjs",
    "serve",
    "--package",
    "data/heroscript.base",
    "--store",
    join(dir, "ledger.db"),
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    ...(process.env.BENCH_SERVE_LOG_LEVEL === undefined ? [] : ["--log-level", process.env.BENCH_SERVE_LOG_LEVEL])
  ], { stdio: ["ignore", "pipe", "ignore"] })
  const rows = []
  try {
    const origin = await listening(server, "cardfx serve")
    const endpoints = [
      {
        label: "POST /v1/assess",
        path: "/v1/assess",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } })
      },
      { label: "GET /v1/cards/basic_attack/effective", path: "/v1/cards/basic_attack/effective", method: "GET" }
    ]
    for (const e of endpoints) {
      const request = { method: e.method, headers: e.headers ?? {}, ...(e.body === undefined ? {} : { body: e.body }) }
      const sample = await fetch(origin + e.path, request)
      if (sample.status !== 200) throw new Error(`bench serve: ${e.label} answered ${sample.status}`)
      const bytes = Buffer.from(await sample.arrayBuffer())
      const bare = spawn(process.execPath, ["-e", BARE], {
        stdio: ["ignore", "pipe", "ignore"],
        env: { ...process.env, BODY_B64: bytes.toString("base64") }
      })
      try {
        const bareOrigin = await listening(bare, "the bare server")
        // CPU per request (from /proc) besides requests/s: on a machine other work loads, the process's own
        // CPU time per request is the steadier figure of the two.
        const measure = async (url, pid) => {
          await load({ url, ...request, duration: 1 }) // warm-up
          const before = cpuMs(pid)
          const r = await load({ url, ...request, duration: SECONDS })
          const after = cpuMs(pid)
          if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
            throw new Error(`bench serve: ${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`)
          }
          const cpu = before === undefined || after === undefined ? undefined : (after - before) / r.requests.total
          return { rps: r.requests.average, p99: r.latency.p99, cpu }
        }
        const c = await measure(origin + e.path, server.pid)
        const b = await measure(bareOrigin + e.path, bare.pid)
        rows.push(
          { name: `${e.label} (${bytes.length} B) cardfx, 64 conns`, value: c.rps, unit: "req/s" },
          { name: `${e.label} bare node:http, same bytes`, value: b.rps, unit: "req/s" },
          {
            name: `${e.label} cardfx / bare`,
            value: c.rps / b.rps,
            unit: "×",
            goal: "≥ 0.5",
            ok: c.rps / b.rps >= 0.5
          },
          { name: `${e.label} cardfx p99`, value: c.p99, unit: "ms", goal: "< 25 ms", ok: c.p99 < 25 },
          { name: `${e.label} bare p99`, value: b.p99, unit: "ms" }
        )
        if (c.cpu !== undefined && b.cpu !== undefined) {
          rows.push(
            { name: `${e.label} cardfx CPU per request`, value: c.cpu, unit: "ms" },
            { name: `${e.label} bare CPU per request`, value: b.cpu, unit: "ms" }
          )
        }
      } finally {
        await stop(bare)
      }
    }
  } finally {
    await stop(server)
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
