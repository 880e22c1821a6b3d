/**
 * `cardfx tournament` and `simulate --agents`: the same bytes with 1 and 2
 * workers (built bin) and on a cluster of two runners (PostgreSQL; skipped
 * with a message when it is unreachable, unless CARDFX_REQUIRE_POSTGRES=1).
 */
import { execFile } from "node:child_process"
import { describe, expect, it } from "vitest"
import { clusterFixture, freePort, until } from "../support/cluster.js"
import { PG_REQUIRED, PG_URL, pgReachable } from "../support/pg.js"

const cardfx = (...args: Array<string>): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const child = execFile(process.execPath, ["dist/cli/cardfx.mjs", ...args], {
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024
    }, (_e, out, err) => resolve({ code: child.exitCode, out, err }))
  })

const TOURNAMENT = ["tournament", "--agents", "random,greedy:2,ismcts:20", "--games", "6", "--seed", "4", "--quiet"]
const MATCH = ["simulate", "--agents", "ismcts:20,greedy:2", "--games", "6", "--seed", "4", "--stats", "--quiet"]

const up = await pgReachable()
if (!up && PG_REQUIRED) {
  throw new Error(`PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but ${PG_URL} is unreachable`)
}
if (!up) console.warn(`[cardfx] PostgreSQL at ${PG_URL} is unreachable: the tournament's cluster case is SKIPPED`)

describe("tournaments and matches: the same bytes however the games are split", () => {
  it("tournament (human and json) and simulate --agents --stats: --workers 1 and 2 print the same bytes", async () => {
    const [t1, t2, j1, j2, m1, m2] = await Promise.all([
      cardfx(...TOURNAMENT, "--workers", "1"),
      cardfx(...TOURNAMENT, "--workers", "2"),
      cardfx(...TOURNAMENT, "--format", "json", "--workers", "1"),
      cardfx(...TOURNAMENT, "--format", "json", "--workers", "2"),
      cardfx(...MATCH, "--format", "json", "--workers", "1"),
      cardfx(...MATCH, "--format", "json", "--workers", "2")
    ])
    for (const r of [t1, t2, j1, j2, m1, m2]) expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" })
    expect(t2.out).toBe(t1.out)
    expect(j2.out).toBe(j1.out)
    expect(m2.out).toBe(m1.out)
    const doc = JSON.parse(j1.out) as { matches: ReadonlyArray<{ games: number }> }
    expect(doc.matches.map((m) => m.games)).toEqual([6, 6, 6])
  })

  const { dumpOnFailure, freshDatabase, start } = clusterFixture("cardfx_tournament")
  it.skipIf(!up)("on a cluster of two runners: the same bytes as one process", async () => {
    dumpOnFailure()
    const url = await freshDatabase()
    const runners = [await freePort(), await freePort()].map((port) =>
      start(["cluster", "runner", "--pg", url, "--port", String(port), "--workers", "1"])
    )
    for (const r of runners) {
      await until(
        () => `a runner to join (stderr: ${r.err().slice(0, 400)})`,
        30_000,
        () => (r.out().includes("\"event\":\"runner\"") ? true : undefined)
      )
    }
    const [local, cluster] = await Promise.all([
      cardfx(...TOURNAMENT, "--format", "json", "--workers", "1"),
      cardfx(...TOURNAMENT, "--format", "json", "--cluster", url, "--shard-games", "2")
    ])
    expect({ code: cluster.code, err: cluster.err.slice(0, 400) }).toEqual({ code: 0, err: "" })
    expect(cluster.out).toBe(local.out)
  }, 240_000)
})
