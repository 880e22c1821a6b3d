/**
 * Two `cardfx serve` processes (the built bin) on one PostgreSQL store (a
 * throw-away database): a game whose seats are connected to different
 * servers, played to its end — every subscriber on each server sees every
 * step once, in order (steps travel by LISTEN/NOTIFY, src/services/StepBus.ts);
 * a SIGKILL of one server during play loses no applied step and the other
 * keeps serving; a reload through one switches both to the same content
 * hash (or, when one cannot, neither); a start on other content is refused
 * unless told (src/services/ContentFollow.ts). Skipped when PostgreSQL is unreachable (required in CI).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clusterFixture } from "../support/cluster.js"
import { createGame, follow, inOrderOnce, playOne } from "../support/games-http.js"
import { PG_REQUIRED, pgReachable } from "../support/pg.js"
import { runBin } from "../support/proc.js"
import { serveBin, type ServedBin } from "../support/served.js"

const PACKAGE = "data/heroscript.base"
const pgUp = await pgReachable()
if (!pgUp && PG_REQUIRED) throw new Error("PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but unreachable")

/** A copy of the package in a folder of its own. */
const packageCopy = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), "cardfx-two-servers-")), "heroscript.base")
  cpSync(PACKAGE, dir, { recursive: true })
  return dir
}

/** Changes basic_attack's display name in a package copy (its content hash changes). */
const rename = (dir: string, name: string) => {
  const file = join(dir, "locales.en.json")
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(/"card\.basic_attack\.name": "[^"]*"/, `"card.basic_attack.name": "${name}"`)
  )
}

const contentHash = async (url: string): Promise<string> =>
  (await (await fetch(`${url}/v1/runtime`)).json() as { contentHash: string }).contentHash

/** At most this many steps per game (a starter-deck game ends well before). */
const MAX_STEPS = 600

describe.skipIf(!pgUp)("two servers on one PostgreSQL store", () => {
  const fx = clusterFixture("cardfx_two_servers")
  let a: ServedBin
  let b: ServedBin
  let store = ""
  // Each server its own copy of the package (as on two machines).
  const copyA = packageCopy()
  const copyB = packageCopy()
  beforeAll(async () => {
    store = await fx.freshDatabase()
    a = await serveBin(["--package", copyA, "--store", store])
    b = await serveBin(["--package", copyB, "--store", store])
  }, 60_000)
  afterAll(async () => {
    await a?.kill()
    await b?.kill()
  })

  it(
    "a game with its seats on different servers, to its end: every subscriber on each server sees every step once, in order",
    async () => {
      fx.dumpOnFailure()
      const g = await createGame(a.url, "two-servers-1")
      const followers = [
        await follow(a.url, g, 0),
        await follow(b.url, g, 1),
        await follow(a.url, g, null),
        await follow(b.url, g, null)
      ]
      // Seat 0 plays through server A, seat 1 through server B.
      const urlOf = (seat: 0 | 1) => (seat === 0 ? a.url : b.url)
      let last = 0
      for (let i = 0; i < MAX_STEPS; i++) {
        const played = await playOne(urlOf, g)
        if (played === undefined) break
        expect(played.step).toBe(last + 1)
        last = played.step
      }
      expect(last).toBeGreaterThan(5)
      for (const f of followers) {
        const events = await f.all(15_000)
        expect(inOrderOnce(events, 0, last), JSON.stringify(events.map((e) => e.step))).toBe(true)
        expect(events.at(-1)?.over).toBe(true)
      }
      // Each follower sees its own projection.
      expect((await followers[1]?.all(1))?.every((e) => e.viewer === 1)).toBe(true)
    },
    120_000
  )

  it(
    "a reload through one server switches both to the same content hash; content that differs on one switches none",
    async () => {
      fx.dumpOnFailure()
      const before = await contentHash(a.url)
      expect(await contentHash(b.url)).toBe(before)
      for (const dir of [copyA, copyB]) rename(dir, "Basic Attack II")
      const r = await fetch(`${a.url}/v1/admin/reload`, { method: "POST" })
      expect(r.status, await r.text()).toBe(200)
      const after = await contentHash(a.url)
      expect(after).not.toBe(before)
      expect(await contentHash(b.url)).toBe(after)

      // Only A's copy changes: B cannot switch to it, so nobody does.
      rename(copyA, "Basic Attack III")
      const refused = await fetch(`${b.url}/v1/admin/reload`, { method: "POST" })
      expect(refused.status).toBe(409)
      expect((await refused.json() as { code: string }).code).toBe("reload_rejected")
      expect([await contentHash(a.url), await contentHash(b.url)]).toEqual([after, after])
    },
    60_000
  )

  it("a start on content that differs from what the others serve is refused unless told", async () => {
    fx.dumpOnFailure()
    // copyA now holds content the running servers do not serve.
    const refused = await runBin(["serve", "--package", copyA, "--store", store, "--port", "0"], { timeout: 60_000 })
    expect(refused.status, refused.stderr).toBe(1)
    expect(refused.stderr).toContain("start_rejected")
    const told = await serveBin(["--package", copyA, "--store", store, "--allow-content-mismatch"])
    expect(await contentHash(told.url)).not.toBe(await contentHash(a.url))
    await told.kill()
  }, 90_000)

  it("SIGKILL of one server during play loses no applied step; the other keeps serving its streams", async () => {
    fx.dumpOnFailure()
    const g = await createGame(b.url, "two-servers-2")
    const onB = [await follow(b.url, g, 0), await follow(b.url, g, null)]
    let last = 0
    // Both seats through A first; then A is killed and the game goes on through B.
    for (let i = 0; i < 6; i++) {
      const played = await playOne(() => a.url, g)
      if (played === undefined) break
      last = played.step
    }
    await a.kill()
    for (let i = 0; i < MAX_STEPS; i++) {
      const played = await playOne(() => b.url, g)
      if (played === undefined) break
      expect(played.step).toBe(last + 1)
      last = played.step
    }
    for (const f of onB) {
      const events = await f.all(15_000)
      expect(inOrderOnce(events, 0, last), JSON.stringify(events.map((e) => e.step))).toBe(true)
    }
    const log = await (await fetch(`${b.url}/v1/hhx/games/${g.gameId}/log`)).json() as { actions: Array<string> }
    expect(log.actions).toHaveLength(last)
  }, 120_000)
})
