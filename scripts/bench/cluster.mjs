/**
 * Scale-out across machines, on this machine: `cardfx cluster runner`
 * processes (the built bin, one worker thread each) on a throw-away
 * PostgreSQL database, and `simulateOnCluster` from this process as the
 * client. Rows:
 *
 * - under load: a CPU burner (a child process spinning, bounded in time)
 *   holds one core while 2 runners, then 3 (the third joins under the burner:
 *   partitions move), play a run; the wall time against one process's under
 *   the same burner, and every lock-storage error the runners log over the
 *   whole bench (goal 0: a stalled lock refresh is what made clusters crawl);
 * - CPU per game (quiet), 2 runners, then 3, + the client against one
 *   process, in windows that alternate (the median of the per-pair ratios):
 *   the client's CPU (this process), and every thread of every runner from
 *   /proc, split into the runners' own threads (the cluster's I/O) and their
 *   other threads (the worker thread that plays, V8's helpers); a run of
 *   32,768 games in the default shards (4,096 games);
 * - games/s of one process and of the cluster with 3 runners;
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
import { readdirSync, readFileSync } from "node:fs"
import { createServer, Socket } from "node:net"
import { performance } from "node:perf_hooks"
import { simulateOnCluster } from "../../dist/cluster/Client.js"
import { DEFAULT_SHARD_GAMES as SHARD_GAMES } from "../../dist/services/Clustering.js"
import { runSimulation } from "../../dist/workers/Runs.js"
import { starterEngine } from "./support/starter.mjs"
import { median } from "./timing.mjs"

const PG_URL = process.env.CARDFX_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
/** Games per window: a run of a few seconds, so the client's join and the runners' polls weigh as in a real run. */
const GAMES = 32768
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
  const startRunner = async () => {
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
    const runner = { child, ready: () => out.includes("\"event\":\"runner\""), err: () => err }
    runners.push(runner)
    for (let t = 0; t < 600 && !runner.ready(); t++) await sleep(100)
    if (!runner.ready()) throw new Error(`bench: a cluster runner did not start: ${err.slice(0, 400)}`)
  }
  let burner
  try {
    await startRunner()
    await startRunner()

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

    // CPU of every thread of every runner (utime + stime, /proc), split into each runner's own thread and the rest.
    const tick = 100
    const threadMs = (pid, tid) => {
      let stat = ""
      try {
        stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
      } catch {
        return 0 // a thread that ended since the directory was read
      }
      const f = stat.split(") ")[1].split(" ")
      return ((Number(f[11]) + Number(f[12])) * 1000) / tick
    }
    const runnersCpuMs = () =>
      runners.reduce((sum, r) => {
        const pid = r.child.pid
        const own = threadMs(pid, pid)
        const all = readdirSync(`/proc/${pid}/task`).reduce((s, tid) => s + threadMs(pid, tid), 0)
        return { own: sum.own + own, others: sum.others + all - own }
      }, { own: 0, others: 0 })
    const ownCpuMs = () => {
      const u = process.cpuUsage()
      return (u.user + u.system) / 1000
    }

    // Warm-up: the JIT of this process and of the runners' worker threads (a thread is warm after several thousand
    // games; docs/scale.md): ~8,000 games each.
    await local(8192, "bench/warm-up")
    await cluster(16384, "bench/warm-up", 1024)

    // CPU per game, quiet: local and cluster windows alternating, the cluster's CPU split by where it is spent.
    const cpuWindows = async (n) => {
      const cpuLocal = []
      const cpuCluster = []
      const cpuClient = []
      const cpuOwn = []
      const cpuOthers = []
      const oneProcess = []
      const onCluster = []
      for (let w = 0; w < WINDOWS; w++) {
        const c0 = ownCpuMs()
        oneProcess.push((GAMES * 1000) / (await wall(() => local(GAMES, `bench/${n}/${w}`))))
        cpuLocal.push((ownCpuMs() - c0) / GAMES)
        const c1 = ownCpuMs()
        const r1 = runnersCpuMs()
        onCluster.push((GAMES * 1000) / (await wall(() => cluster(GAMES, `bench/${n}/${w}`, SHARD_GAMES))))
        const client = ownCpuMs() - c1
        const r2 = runnersCpuMs()
        cpuClient.push(client / GAMES)
        cpuOwn.push((r2.own - r1.own) / GAMES)
        cpuOthers.push((r2.others - r1.others) / GAMES)
        cpuCluster.push((client + r2.own - r1.own + r2.others - r1.others) / GAMES)
      }
      return {
        n,
        local: median(cpuLocal),
        // The median of the per-window ratios: each pair of windows ran at about the same load.
        ratio: median(cpuCluster.map((c, w) => c / cpuLocal[w])),
        client: median(cpuClient),
        own: median(cpuOwn),
        others: median(cpuOthers),
        base: median(oneProcess),
        clustered: median(onCluster)
      }
    }
    const cpu = [await cpuWindows(2)]

    // Under load: a CPU burner on one core; 2 runners, then a third joins (its partitions move under load).
    burner = spawn(process.execPath, ["-e", "const end = Date.now() + 120000; while (Date.now() < end) {}"], {
      stdio: "ignore"
    })
    const loaded = []
    for (const n of [2, 3]) {
      if (n === 3) {
        await startRunner()
        await cluster(16384, "bench/warm-up/3", 1024)
      }
      const localMs = await wall(() => local(GAMES, `bench/load/${n}`))
      const clusterMs = await wall(() => cluster(GAMES, `bench/load/${n}`, SHARD_GAMES))
      loaded.push({ n, ratio: clusterMs / localMs })
    }
    burner.kill("SIGKILL")
    burner = undefined
    cpu.push(await cpuWindows(3))

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

    const three = cpu[1]
    const lockErrors = runners.reduce((n, r) => n + (r.err().match(/Shard lock storage is unhealthy/g) ?? []).length, 0)
    const notJson = runners.reduce(
      (n, r) =>
        n + r.err().split("\n").filter((l) => l.trim() !== "" && !l.startsWith("(") && !/^\{.*\}$/.test(l)).length,
      0
    )
    return [
      ...loaded.map(({ n, ratio }) => ({
        name: `cluster under load (a CPU burner on one core): ${n} runners vs 1 process, wall time`,
        value: ratio,
        unit: "×"
      })),
      {
        name: "cluster: lock-storage errors in the runners' logs (whole bench, under load included)",
        value: lockErrors,
        unit: "",
        goal: "0",
        ok: lockErrors === 0
      },
      {
        name: "cluster: runner stderr lines that are not JSON log lines (whole bench)",
        value: notJson,
        unit: "",
        goal: "0",
        ok: notJson === 0
      },
      ...cpu.flatMap((c) => [
        {
          name: `cluster: CPU per game, 1 process (in process, warm; beside ${c.n} runners)`,
          value: c.local,
          unit: "ms"
        },
        {
          name:
            `cluster: CPU per game, ${c.n} runners + client vs 1 process (${GAMES} games, shards of ${SHARD_GAMES})`,
          value: c.ratio,
          unit: "×",
          goal: "≤ 1.3×",
          ok: c.ratio <= 1.3
        },
        { name: `cluster: CPU per game with ${c.n} runners, the client`, value: c.client, unit: "ms" },
        {
          name: `cluster: CPU per game with ${c.n} runners, the runners' own threads (cluster I/O)`,
          value: c.own,
          unit: "ms"
        },
        {
          name: `cluster: CPU per game with ${c.n} runners, the runners' other threads (play)`,
          value: c.others,
          unit: "ms"
        }
      ]),
      { name: "cluster baseline: simulate, 1 process (in process, warm)", value: three.base, unit: "games/s" },
      {
        name: `cluster: ${RUNNERS} runner processes × 1 worker, shards of ${SHARD_GAMES}`,
        value: three.clustered,
        unit: "games/s"
      },
      {
        name: `cluster: ${RUNNERS} runners vs 1 process (same machine)`,
        value: three.clustered / three.base,
        unit: "×"
      },
      { name: "cluster: overhead per shard (16- vs 256-game shards)", value: perShard, unit: "ms" },
      { name: "cluster: one-shard run, round trip (client joins)", value: median(roundTrips), unit: "ms" },
      { name: "cluster: PostgreSQL transactions per shard", value: xactsPerShard, unit: "xact" },
      { name: "cluster: PostgreSQL transactions per idle runner", value: idleRate, unit: "xact/s" }
    ]
  } finally {
    burner?.kill("SIGKILL")
    for (const r of runners) r.child.kill("SIGTERM")
    await Promise.all(
      runners.map((r) => new Promise((res) => r.child.exitCode !== null ? res() : r.child.once("exit", res)))
    )
    await sqlAt(PG_URL, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }
}
