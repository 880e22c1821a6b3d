/**
 * The restart guarantee: writer processes killed with SIGKILL at seeded random
 * points lose no acknowledged command and apply none twice, and the database
 * passes `PRAGMA integrity_check`. Two lanes (two database files) run in
 * parallel; `CARDFX_KILLS` sets the total number of kills (default 100).
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LedgerStore } from "../../../src/composition/store/LedgerStore.js"
import { RngStream } from "../../../src/kernel/Rng.js"
import { buildChild, removeChild, spawnChild } from "./childProcess.js"
import { KILL_INSTANCES } from "./killPlan.js"
import { open, tempDir } from "./support.js"

const KILLS = Number(process.env.CARDFX_KILLS ?? 100)
const LANES = 4
const tmp = tempDir("kill")

beforeAll(() => buildChild(), 60_000)
afterAll(() => {
  tmp.cleanup()
  removeChild()
})

interface LaneResult {
  readonly acked: Array<number>
  readonly kills: number
}

const lane = async (db: string, kills: number, seed: string): Promise<LaneResult> => {
  const rng = RngStream.fromSeed(seed, "kill")
  const acked: Array<number> = []
  let next = 0
  for (let k = 0; k < kills; k++) {
    // 0: kill during start-up or the first command, after a random delay; n: right after the n-th ack of this life.
    const target = rng.int(6)
    let got = 0
    const { child, done } = spawnChild(["kill", db, String(next)], (line, c) => {
      const [tag, index, status] = line.split(" ")
      if (tag !== "ack") return
      const i = Number(index)
      expect(i).toBe(next) // acks are contiguous and in order, across lives
      expect(status).toBe("applied") // a retried command returns its first outcome: applied
      acked.push(i)
      next = i + 1
      got++
      if (got >= target) c.kill("SIGKILL")
    })
    if (target === 0) setTimeout(() => child.kill("SIGKILL"), rng.int(1200))
    await done
  }
  return { acked, kills }
}

describe("restart: SIGKILL at random points", () => {
  it(`loses no acknowledged command and duplicates none over ${KILLS} kills`, async () => {
    const dbs = Array.from({ length: LANES }, (_, l) => `${tmp.dir}/lane${l}.db`)
    const results = await Promise.all(dbs.map((db, l) => lane(db, Math.ceil(KILLS / LANES), `kill-lane-${l}`)))
    expect(results.reduce((n, r) => n + r.kills, 0)).toBeGreaterThanOrEqual(KILLS)
    for (let l = 0; l < LANES; l++) {
      const { acked } = results[l] as LaneResult
      const db = new Database(dbs[l] as string, { readonly: true })
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok")
        const events = db.prepare("SELECT command_id, instance_id, revision FROM events ORDER BY sequence")
          .all() as Array<{
            command_id: string
            instance_id: string
            revision: number
          }>
        const ids = events.map((e) => e.command_id)
        // 0 duplicated
        expect(new Set(ids).size).toBe(ids.length)
        // 0 lost: every acknowledged command is in the log
        const inLog = new Set(ids)
        const lost = acked.filter((i) => !inLog.has(`k-${i}`))
        expect(lost).toEqual([])
        // the log is exactly commands 0..m, m = last ack or the one in flight at the last kill
        const last = acked.length - 1
        expect(ids.length === last + 1 || ids.length === last + 2).toBe(true)
        expect([...ids].sort()).toEqual(Array.from({ length: ids.length }, (_, i) => `k-${i}`).sort())
        // per instance, revisions 1..n with no gap, in sequence order
        for (let c = 0; c < KILL_INSTANCES; c++) {
          const revs = events.filter((e) => e.instance_id === `card${c}`).map((e) => Number(e.revision))
          expect(revs).toEqual(Array.from({ length: revs.length }, (_, i) => i + 1))
        }
        // every recorded outcome is an application (a retry never turned into a rejection)
        const rejected = db.prepare(
          "SELECT count(*) AS n FROM commands WHERE outcome NOT LIKE '%\"status\":\"applied\"%'"
        ).get() as { n: number }
        expect(rejected.n).toBe(0)
      } finally {
        db.close()
      }
      // and the log replays to the stored fingerprints
      const rt = open(LedgerStore.layerSqlite({ filename: dbs[l] as string }))
      const steps = await rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay()))
      expect(steps.length).toBeGreaterThan(0)
      await rt.dispose()
    }
  }, 180_000)
})
