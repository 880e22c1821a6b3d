/**
 * Benchmark: a reload never blocks reads (issue 22, item 3). The built bin
 * on a SQLite store holding `INSTANCES` stored instances (each with an
 * ember entry); `GET /v1/health` is polled back to back (one in flight)
 * while the server reloads content that changes every instance's card (a
 * cost change of basic_attack: every instance recomposed), then content
 * that changes no stored instance's card (incremental: nothing recomposed).
 *
 * Rows: health latency p50/p99/max during each reload (wall time; the
 * request loop measures what a client sees), the reload's duration and the
 * server process's CPU time during it (from /proc: holds on a loaded
 * machine), instances checked and recomposed, and the reference loop.
 * Goal: health p99 < 50 ms during a reload over 1,000 instances.
 *
 * Imports nothing from dist/ (it drives the built bin; run `npm run build` first).
 */
import { spawn } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { referenceRow } from "./timing.mjs"

const INSTANCES = Number(process.env.BENCH_RELOAD_INSTANCES ?? 1000)
const GOAL_P99_MS = 50

const cpuMs = (pid) => {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const listening = (child) =>
  new Promise((resolve, reject) => {
    let out = ""
    const timer = setTimeout(() => reject(new Error("bench reload: the server did not start in 60 s")), 60_000)
    const onData = (b) => {
      out += b.toString("utf8")
      const m = /\{"event":"listening","url":"([^"]+)"\}/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        child.stdout.off("data", onData)
        child.stdout.resume()
        resolve(m[1])
      }
    }
    child.stdout.on("data", onData)
    child.once("exit", (code) => reject(new Error(`bench reload: the server exited (${code})`)))
  })

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

const post = (url, body) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  })

export const run = async () => {
  const root = mkdtempSync(join(tmpdir(), "cardfx-bench-reload-"))
  const pkg = join(root, "heroscript.base")
  cpSync("data/heroscript.base", pkg, { recursive: true })
  const cardsFile = join(pkg, "cards.json")
  const cards = JSON.parse(readFileSync(cardsFile, "utf8"))
  const child = spawn(process.execPath, [
    "dist/cli/cardfx.mjs",
    "serve",
    "--package",
    pkg,
    "--store",
    join(root, "ledger.db"),
    "--port",
    "0",
    "--log-level",
    "none"
  ], { stdio: ["ignore", "pipe", "inherit"] })
  try {
    const url = await listening(child)
    // The stored instances: 8 clients, one command each.
    let next = 0
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < INSTANCES) {
        const i = next++
        const r = await post(`${url}/v1/instances/hero-${i}/commands`, {
          commandId: `c-${i}`,
          cardId: "basic_attack",
          expectedRevision: 0,
          command: { kind: "apply", upgradeId: "core.ember.affinity" }
        })
        if (r.status !== 200) throw new Error(`bench reload: command ${i} answered ${r.status}`)
        await r.arrayBuffer()
      }
    }))

    /** Reloads after `edit`, polling health back to back meanwhile. */
    const measure = async (edit) => {
      edit()
      // warm the health path first
      for (let i = 0; i < 20; i++) await (await fetch(`${url}/v1/health`)).arrayBuffer()
      const latencies = []
      let done = false
      const poller = (async () => {
        while (!done) {
          const t = performance.now()
          const r = await fetch(`${url}/v1/health`)
          await r.arrayBuffer()
          latencies.push(performance.now() - t)
        }
      })()
      const cpu0 = cpuMs(child.pid)
      const t0 = performance.now()
      const r = await post(`${url}/v1/admin/reload`)
      const report = await r.json()
      const wall = performance.now() - t0
      const cpu = cpuMs(child.pid) - cpu0
      done = true
      await poller
      if (r.status !== 200 || report.switched !== true) {
        throw new Error(`bench reload: the reload answered ${r.status} ${JSON.stringify(report).slice(0, 300)}`)
      }
      return { latencies, wall, cpu, report }
    }

    const rows = []
    const report = (label, m) => {
      const p99 = percentile(m.latencies, 99)
      rows.push(
        {
          name: `${label}: health p99 during the reload (${m.latencies.length} requests)`,
          value: Number(p99.toFixed(2)),
          unit: "ms",
          goal: `< ${GOAL_P99_MS} ms`,
          ok: p99 < GOAL_P99_MS
        },
        {
          name: `${label}: health p50 / max during the reload`,
          value: `${percentile(m.latencies, 50).toFixed(2)} / ${Math.max(...m.latencies).toFixed(2)}`,
          unit: "ms"
        },
        {
          name: `${label}: reload wall time (checked ${m.report.checked}, recomposed ${m.report.recomposed})`,
          value: Number(m.wall.toFixed(1)),
          unit: "ms"
        },
        { name: `${label}: server CPU time during the reload`, value: m.cpu, unit: "ms CPU" }
      )
    }
    const edit = (attackCost, healCost) => () => {
      cards.cards = cards.cards.map((c) =>
        c.cardId === "basic_attack" ? { ...c, cost: attackCost } : c.cardId === "heal" ? { ...c, cost: healCost } : c
      )
      writeFileSync(cardsFile, JSON.stringify(cards, null, 2))
    }
    // Every instance's card changes: all recomposed.
    report(`${INSTANCES} instances, all recomposed`, await measure(edit(2, 1)))
    // Only heal changes (no stored instance uses it): nothing recomposed.
    report(`${INSTANCES} instances, none recomposed`, await measure(edit(2, 3)))
    rows.push(referenceRow("reload"))
    return rows
  } finally {
    child.kill("SIGKILL")
    rmSync(root, { recursive: true, force: true })
  }
}
