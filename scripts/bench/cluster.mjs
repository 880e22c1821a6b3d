/**
 * Scale-out across machines, on this machine: three `cardfx cluster runner`
 * processes (the built bin, one worker each) on a throw-away PostgreSQL
 * database, and `simulateOnCluster` from this process as the client. Rows:
 *
 * - games/s of one process (in process, warm) — the baseline, same run;
 * - games/s through the cluster with 3 runners (shards of 1024 games), and
 *   the ratio to the baseline;
 * - the cluster's cost per shard: the wall time a run of the same games
 *   takes longer with 16-game shards than with 256-game shards, per extra
 *   shard (the runners busy in parallel, as in a real run);
 * - a one-shard run's round trip (the client joining the cluster included);
 * - PostgreSQL transactions per shard and per idle runner-second (from
 *   pg_stat_database), the figures docs/scale.md's 100-machine arithmetic uses.
 *
 * Skipped (one row saying so) when PostgreSQL is unreachable.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer, Socket } from "node:net"
import { performance } from "node:perf_hooks"
import { simulateOnCluster } from "../../dist/cluster/Client.js"
import { runSimulation } from "../../dist/workers/Runs.js"
import { starterEngine } from "./support/starter.mjs"
import { median } from "./timing.mjs"

const PG_URL = process.env.CARDFX_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const GAMES = 6144
const WINDOWS = 3
const RUNNERS = 3

const reachable = () =>
  new Promise((resolve) => {
    const u = new URL(PG_URL)
    const s = new Socket()
    const done = (ok) => {
      s.destroy()
      resolve(ok)
    }
    s.setTimeout(1500, () => done(false))
    s.once("error", () => done(false))
    s.connect(Number(u.port || 5432), u.hostname, () => done(true))
  })

const sqlAt = (url, f) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(SqlClient.SqlClient, f)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    )
  )

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(a.port))
    })
  })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

export const run = async () => {
  if (!(await reachable())) {
    return [{ name: `cluster: skipped, PostgreSQL unreachable at ${PG_URL}`, value: 0, unit: "" }]
  }
  const name = `cardfx_bench_cluster_${process.pid}`
  await sqlAt(PG_URL, (sql) =>
    sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(
      Effect.zipRight(sql.unsafe(`CREATE DATABASE ${name}`))
    ))
  const u = new URL(PG_URL)
  u.pathname = `/${name}`
  const url = u.toString()
  const runners = []
  try {
    for (let k = 0; k < RUNNERS; k++) {
      const port = await freePort()
      const child = spawn(process.execPath, [
        "dist/cli/cardfx.mjs",
        "cluster",
        "runner",
        "--pg",
        url,
        "--port",
        String(port),
        "--workers",
        "1"
      ], { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      let err = ""
      child.stdout.on("data", (d) => void (out += d))
      child.stderr.on("data", (d) => void (err += d))
      runners.push({ child, ready: () => out.includes("\"event\":\"runner\""), err: () => err })
    }
    for (let t = 0; t < 600 && !runners.every((r) => r.ready()); t++) await sleep(100)
    if (!runners.every((r) => r.ready())) throw new Error("bench: the cluster runners did not start")

    const { file, json, engine } = starterEngine()
    const local = (games, seed) =>
      Effect.runPromise(runSimulation({ engine, deck: { json, file }, games, seed, workers: 1 }))
    const cluster = (games, seed, shardGames) =>
      Effect.runPromise(simulateOnCluster({ url, deck: { json, file }, games, seed, shardGames }))
    const wall = async (f) => {
      const t0 = performance.now()
      await f()
      return performance.now() - t0
    }
    const xacts = () =>
      sqlAt(url, (sql) =>
        sql`SELECT pg_stat_force_next_flush()`.pipe(
          Effect.zipRight(sql`SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = ${name}`),
          Effect.map((rows) => rows[0].n)
        ))

    // Warm-up: the JIT of this process and of every runner.
    await local(3000, "bench/warm-up")
    await cluster(6144, "bench/warm-up", 256)

    // CPU: this process's (process.cpuUsage) plus the runners' (utime + stime of every thread, /proc).
    const tick = 100
    const runnersCpuMs = () =>
      runners.reduce((sum, r) => {
        const f = readFileSync(`/proc/${r.child.pid}/stat`, "utf8").split(") ")[1].split(" ")
        return sum + ((Number(f[11]) + Number(f[12])) * 1000) / tick
      }, 0)
    const ownCpuMs = () => {
      const u = process.cpuUsage()
      return (u.user + u.system) / 1000
    }
    const oneProcess = []
    const onCluster = []
    const cpuLocal = []
    const cpuCluster = []
    for (let w = 0; w < WINDOWS; w++) {
      const c0 = ownCpuMs()
      oneProcess.push((GAMES * 1000) / (await wall(() => local(GAMES, `bench/${w}`))))
      cpuLocal.push((ownCpuMs() - c0) / GAMES)
      const c1 = ownCpuMs() + runnersCpuMs()
      onCluster.push((GAMES * 1000) / (await wall(() => cluster(GAMES, `bench/${w}`, 1024))))
      cpuCluster.push((ownCpuMs() + runnersCpuMs() - c1) / GAMES)
    }

    // Cost per shard: the same 4096 games in 256 shards of 16 and in 16 shards of 256.
    const small = []
    const large = []
    for (let w = 0; w < WINDOWS; w++) {
      large.push(await wall(() => cluster(4096, `bench/shards/${w}`, 256)))
      small.push(await wall(() => cluster(4096, `bench/shards/${w}`, 16)))
    }
    const perShard = (median(small) - median(large)) / (256 - 16)
    const roundTrips = []
    for (let w = 0; w < WINDOWS; w++) roundTrips.push(await wall(() => cluster(1, `bench/one/${w}`, 1)))

    // PostgreSQL transactions: idle (3 runners' heartbeats and polls) and per shard.
    await sleep(1200)
    const idle0 = await xacts()
    const idleT0 = performance.now()
    await sleep(5000)
    const idle1 = await xacts()
    const idleRate = ((idle1 - idle0) * 1000) / (performance.now() - idleT0) / RUNNERS
    const busy0 = await xacts()
    const busyT0 = performance.now()
    await cluster(4096, "bench/xacts", 16)
    await sleep(1200)
    const busy1 = await xacts()
    const busyMs = performance.now() - busyT0
    const xactsPerShard = (busy1 - busy0 - (idleRate * RUNNERS * busyMs) / 1000) / 256

    const base = median(oneProcess)
    const clustered = median(onCluster)
    const cpuRatio = median(cpuCluster) / median(cpuLocal)
    const lockErrors = runners.reduce((n, r) => n + (r.err().match(/Shard lock storage is unhealthy/g) ?? []).length, 0)
    return [
      { name: "cluster: CPU per game, 1 process (in process, warm)", value: median(cpuLocal), unit: "ms" },
      {
        name: `cluster: CPU per game, ${RUNNERS} runners + client vs 1 process`,
        value: cpuRatio,
        unit: "×",
        goal: "≤ 1.3×",
        ok: cpuRatio <= 1.3
      },
      {
        name: "cluster: lock-storage errors in the runners' logs (whole bench)",
        value: lockErrors,
        unit: "",
        goal: "0",
        ok: lockErrors === 0
      },
      { name: "cluster baseline: simulate, 1 process (in process, warm)", value: base, unit: "games/s" },
      { name: `cluster: ${RUNNERS} runner processes × 1 worker, shards of 1024`, value: clustered, unit: "games/s" },
      { name: `cluster: ${RUNNERS} runners vs 1 process (same machine)`, value: clustered / base, unit: "×" },
      { name: "cluster: overhead per shard (16- vs 256-game shards)", value: perShard, unit: "ms" },
      { name: "cluster: one-shard run, round trip (client joins)", value: median(roundTrips), unit: "ms" },
      { name: "cluster: PostgreSQL transactions per shard", value: xactsPerShard, unit: "xact" },
      { name: "cluster: PostgreSQL transactions per idle runner", value: idleRate, unit: "xact/s" }
    ]
  } finally {
    for (const r of runners) r.child.kill("SIGTERM")
    await Promise.all(
      runners.map((r) => new Promise((res) => r.child.exitCode !== null ? res() : r.child.once("exit", res)))
    )
    await sqlAt(PG_URL, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }
}
