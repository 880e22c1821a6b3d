/**
 * `cardfx serve --workers 2` through the built bin, on one SQLite file:
 * one port, one listening line, one access log (the primary writes every
 * worker's lines), one `/v1/health` listing both workers; a game followed by
 * streams on both workers and played to its end — every stream sees every
 * step once, in order (the workers' step notices relayed by the primary); a
 * worker that dies is replaced; SIGTERM to the primary drains both workers
 * and exits 130 with nothing left running. Usage errors of `--workers`.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { alive, clusterFixture, until } from "../support/cluster.js"
import { createGame, follow, type Follower, inOrderOnce, playOne, workerOf } from "../support/games-http.js"
import { runBin } from "../support/proc.js"

const PACKAGE = "data/heroscript.base"

interface Health {
  readonly status: string
  readonly workers?: ReadonlyArray<{ worker: number; pid: number; status: string; restarts: number }>
}

/** `/v1/runtime` over several connections at once (so both workers answer): each answer's worker and hash. */
const runtimes = (url: string) =>
  Promise.all(Array.from({ length: 8 }, async () => {
    const r = await fetch(`${url}/v1/runtime`)
    const body = await r.json() as { contentHash: string }
    return { worker: workerOf(r.headers.get("x-request-id")), contentHash: body.contentHash }
  }))

const health = async (url: string): Promise<Health> => await (await fetch(`${url}/v1/health`)).json() as Health

describe("cardfx serve --workers 2 on one SQLite file", () => {
  const fx = clusterFixture("cardfx_serve_workers")

  it(
    "one port, one log, one health; a game's streams on both workers see every step once; a dead worker is replaced; SIGTERM drains all",
    async () => {
      fx.dumpOnFailure()
      const root = mkdtempSync(join(tmpdir(), "cardfx-workers-"))
      const store = join(root, "ledger.db")
      const pkg = join(root, "heroscript.base")
      cpSync(PACKAGE, pkg, { recursive: true })
      const p = fx.start([
        "serve",
        "--package",
        pkg,
        "--store",
        store,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--workers",
        "2",
        "--heartbeat",
        "200"
      ])
      const url = await until(() => "the listening line", 60_000, () => /"url":"([^"]+)"/.exec(p.out())?.[1])
      expect(p.out().split("\n").filter((l) => l.includes("\"listening\""))).toHaveLength(1)

      // One health, whichever worker answers: both workers, serving.
      const first = await health(url)
      expect(first.status).toBe("ok")
      expect(first.workers?.map((w) => [w.worker, w.status])).toEqual([[1, "ok"], [2, "ok"]])
      const pids = (first.workers ?? []).map((w) => w.pid)
      expect(new Set(pids).size).toBe(2)
      for (const pid of pids) expect(alive(pid)).toBe(true)

      // Streams on both workers (connections are handed out in turn), then the game played to its end.
      const g = await createGame(url, "serve-workers-1")
      const followers: Array<Follower> = []
      for (let i = 0; i < 8 && new Set(followers.map((f) => f.worker)).size < 2; i++) {
        followers.push(await follow(url, g, (i % 3 === 2 ? null : i % 2) as 0 | 1 | null))
      }
      expect(new Set(followers.map((f) => f.worker))).toEqual(new Set([1, 2]))
      let last = 0
      const actedOn = new Set<number | undefined>()
      for (let i = 0; i < 600; i++) {
        const played = await playOne(() => url, g)
        if (played === undefined) break
        expect(played.step).toBe(last + 1)
        actedOn.add(played.worker)
        last = played.step
      }
      expect(last).toBeGreaterThan(5)
      for (const f of followers) {
        const events = await f.all(15_000)
        expect(inOrderOnce(events, 0, last), `worker ${f.worker}: ${events.map((e) => e.step).join(",")}`).toBe(true)
      }

      // One access log: the primary's stdout has both workers' lines (request IDs w1-…, w2-…).
      await until(
        () => "access log lines of both workers",
        5_000,
        () => /"requestId":"w1-r\d+"/.test(p.out()) && /"requestId":"w2-r\d+"/.test(p.out()) ? true : undefined
      )

      // A reload through one worker switches both (src/services/ContentFollow.ts over the primary's relay).
      const before = await runtimes(url)
      expect(new Set(before.map((r) => r.contentHash)).size).toBe(1)
      const locales = join(pkg, "locales.en.json")
      writeFileSync(locales, readFileSync(locales, "utf8").replace("\"Basic Attack\"", "\"Basic Attack II\""))
      const reloaded = await fetch(`${url}/v1/admin/reload`, { method: "POST" })
      expect(reloaded.status, await reloaded.text()).toBe(200)
      const after = await runtimes(url)
      expect(new Set(after.map((r) => r.worker))).toEqual(new Set([1, 2]))
      expect(new Set(after.map((r) => r.contentHash)).size).toBe(1)
      expect(after[0]?.contentHash).not.toBe(before[0]?.contentHash)

      // A worker that dies is replaced in its slot.
      process.kill(pids[1] ?? 0, "SIGKILL")
      const replaced = await until(() => "worker 2 replaced", 30_000, async () => {
        const h = await health(url).catch(() => undefined)
        const w2 = h?.workers?.find((w) => w.worker === 2)
        return w2?.status === "ok" && w2.restarts === 1 ? h : undefined
      })
      const newPid = replaced.workers?.find((w) => w.worker === 2)?.pid
      expect(newPid).not.toBe(pids[1])
      expect(p.out()).toContain("worker exited; replacing it")

      // SIGTERM to the primary: every worker drains and exits; the primary exits 130.
      p.child.kill("SIGTERM")
      const exit = await Promise.race([p.exited, new Promise((r) => setTimeout(() => r("timeout"), 30_000))])
      expect(exit).toEqual({ code: 130, signal: null })
      await until(() => "the workers gone", 5_000, () => [pids[0], newPid].every((x) => !alive(x)) ? true : undefined)
    },
    180_000
  )

  it("--workers takes 1..64 or auto: anything else is a usage error (exit 2)", async () => {
    for (const bad of ["0", "65", "two"]) {
      const r = await runBin(["serve", "--package", PACKAGE, "--workers", bad], { timeout: 30_000 })
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toContain("--workers")
    }
  }, 90_000)
})
