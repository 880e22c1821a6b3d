/**
 * Across machines, on this machine: three `cardfx cluster runner` processes
 * (the built bin) against the local PostgreSQL, each test in a throw-away
 * database. One runner is SIGKILLed while the run is under way; the merged
 * summary of `simulate --cluster` is still the single-process summary, byte
 * for byte, and the shard ledger holds every shard exactly once. The others
 * end cleanly on SIGTERM (exit 130, nothing left running, unregistered).
 * Also the cluster's diagnostics: an unreachable PostgreSQL, no live runner,
 * a runner port already in use.
 *
 * Skipped with a message when PostgreSQL is unreachable, unless
 * CARDFX_REQUIRE_POSTGRES=1, which makes it fail instead.
 */
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { simulateCommand } from "../../src/cli/hhx.js"
import { runCli } from "../support/cli.js"
import { alive, clusterFixture, freePort, holdPort, sqlAt, until } from "../support/cluster.js"
import { PG_REQUIRED, PG_URL, pgReachable } from "../support/pg.js"

const up = await pgReachable()
if (!up && PG_REQUIRED) {
  throw new Error(`PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but ${PG_URL} is unreachable`)
}
if (!up) console.warn(`[cardfx] PostgreSQL at ${PG_URL} is unreachable: the cluster suite is SKIPPED`)

const GAMES = 2000
const SHARD_GAMES = 25
const SHARDS = Math.ceil(GAMES / SHARD_GAMES)

const { dumpOnFailure, freshDatabase, start } = clusterFixture("cardfx_cluster")

interface LedgerRow {
  readonly run_id: string
  readonly shard_index: number
  readonly game_from: number
  readonly game_to: number
  readonly runner: string
}
const ledger = (url: string): Promise<ReadonlyArray<LedgerRow>> =>
  sqlAt(
    url,
    (sql) =>
      sql<
        LedgerRow
      >`SELECT run_id, shard_index, game_from, game_to, runner FROM cardfx_shard_ledger ORDER BY run_id, shard_index`
        .pipe(
          // No table before the first runner made it.
          Effect.orElseSucceed(() => [])
        )
  )

describe.skipIf(!up)("cluster runners on PostgreSQL (built bin)", () => {
  let url = ""
  let emptyUrl = ""
  beforeAll(async () => {
    url = await freshDatabase()
    emptyUrl = await freshDatabase()
  }, 30_000)

  it(
    "3 runners, one SIGKILLed mid-run: the single-process summary, every shard counted once, clean SIGTERM",
    async () => {
      dumpOnFailure()
      // A client against a database no runner ever joined: it waits (10 s), then says so. Runs meanwhile.
      const lonely = start(["simulate", "--cluster", emptyUrl, "--games", "10", "--seed", "9", "--format", "json"])
      const ports = [await freePort(), await freePort(), await freePort()]
      const runners = ports.map((port, k) =>
        start(["cluster", "runner", "--pg", url, "--port", String(port), "--workers", k === 0 ? "2" : "1"])
      )
      for (const r of runners) {
        await until(
          () => `a runner to join (stderr: ${r.err().slice(0, 400)})`,
          30_000,
          () => (r.out().includes("\"event\":\"runner\"") ? true : undefined)
        )
      }

      const client = start([
        "simulate",
        "--cluster",
        url,
        "--games",
        String(GAMES),
        "--seed",
        "9",
        "--shard-games",
        String(SHARD_GAMES),
        "--format",
        "json"
      ])
      // Meanwhile: a second runner on a port in use (a diagnostic, not a crash), and the one-process run.
      // The port is held by the test, not by a runner: a runner's port is free again once that runner is the one
      // killed below, and a second runner started on it would then join (seen: the test waited for it forever).
      const held = await holdPort()
      const clash = start(["cluster", "runner", "--pg", url, "--port", String(held.port), "--workers", "1"])
      const local = start(["simulate", "--games", String(GAMES), "--seed", "9", "--workers", "1", "--format", "json"])
      // Kill the runner that recorded the first shard, while shards remain to play.
      const victim = await until(() => "a first recorded shard", 60_000, async () => {
        const rows = await ledger(url)
        const first = rows[0]
        return first !== undefined && rows.length < SHARDS ? first.runner : undefined
      })
      const v = ports.findIndex((p) => victim === `127.0.0.1:${p}`)
      expect(v).toBeGreaterThanOrEqual(0)
      runners[v]?.child.kill("SIGKILL")
      const recordedAtKill = (await ledger(url)).length
      expect(recordedAtKill).toBeLessThan(SHARDS)

      const done = await client.exited
      expect({ done, err: client.err() }).toEqual({ done: { code: 0, signal: null }, err: "" })

      expect(await clash.exited).toEqual({ code: 1, signal: null })
      expect(clash.err()).toMatch(/cluster runner: cluster_port_in_use /)
      await held.close()

      // The same summary as one process playing every game.
      expect(await local.exited).toEqual({ code: 0, signal: null })
      expect(client.out()).toBe(local.out())

      // The ledger: one row per shard of the run, covering [0, GAMES) in order, each played once.
      const rows = await ledger(url)
      expect(new Set(rows.map((r) => r.run_id)).size).toBe(1)
      expect(rows.map((r) => r.shard_index)).toEqual(Array.from({ length: SHARDS }, (_, k) => k))
      expect(rows.map((r) => [r.game_from, r.game_to])).toEqual(
        Array.from({ length: SHARDS }, (_, k) => [k * SHARD_GAMES, Math.min(GAMES, (k + 1) * SHARD_GAMES)])
      )
      // The survivors played what the dead runner left.
      const survivors = ports.filter((_, k) => k !== v).map((p) => `127.0.0.1:${p}`)
      const byVictim = rows.filter((r) => r.runner === victim).length
      expect(byVictim).toBeGreaterThanOrEqual(1)
      expect(byVictim).toBeLessThan(SHARDS)
      expect(rows.filter((r) => survivors.includes(r.runner)).length).toBe(SHARDS - byVictim)

      // SIGTERM: the survivors leave the cluster and exit 130, nothing left running.
      for (const [k, r] of runners.entries()) if (k !== v) r.child.kill("SIGTERM")
      for (const [k, r] of runners.entries()) {
        const e = await r.exited
        if (k === v) expect(e.signal).toBe("SIGKILL")
        else {expect({ e, stack: /at .*\.m?js:\d+/.test(r.err()) }).toEqual({
            e: { code: 130, signal: null },
            stack: false
          })}
        expect(alive(r.child.pid)).toBe(false)
      }
      const registered = await sqlAt(
        url,
        (sql) => sql<{ readonly address: string }>`SELECT address FROM cluster_runners`
      )
      for (const s of survivors) expect(registered.map((r) => r.address).join(" ")).not.toContain(s)

      const lonelyDone = await lonely.exited
      expect(lonelyDone.code).toBe(1)
      expect(JSON.parse(lonely.out()).diagnostics[0].code).toBe("cluster_no_runners")
    },
    180_000
  )
})

describe("simulate --cluster: failures before any runner (no PostgreSQL needed)", () => {
  it("simulate --cluster with an unreachable PostgreSQL: cluster_unreachable, exit 1", async () => {
    const port = await freePort()
    const c = start([
      "simulate",
      "--cluster",
      `postgres://postgres@127.0.0.1:${port}/x`,
      "--games",
      "10",
      "--format",
      "json"
    ])
    expect((await c.exited).code).toBe(1)
    expect(JSON.parse(c.out()).diagnostics[0].code).toBe("cluster_unreachable")
  }, 30_000)
  it("--workers and --log with --cluster are usage errors (exit 2), before anything connects", async () => {
    for (const extra of [["--workers", "2"], ["--log", "x.json"]]) {
      const r = await runCli(simulateCommand, "--cluster", "postgres://nobody@127.0.0.1:1/x", "--games", "10", ...extra)
      expect(r.code).toBe(2)
      expect(r.err).toMatch(/^cardfx simulate: usage_error .*--cluster/)
    }
  })
})
