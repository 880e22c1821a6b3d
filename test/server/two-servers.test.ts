/**
 * Two `cardfx serve` processes (the built bin) on one PostgreSQL store (a
 * throw-away database): a game whose seats are connected to different
 * servers, played to its end — every subscriber on each server sees every
 * step once, in order (steps travel by LISTEN/NOTIFY, src/services/StepBus.ts);
 * a SIGKILL of one server during play loses no applied step and the other
 * keeps serving. Skipped when PostgreSQL is unreachable (required in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clusterFixture } from "../support/cluster.js"
import { createGame, follow, inOrderOnce, playOne } from "../support/games-http.js"
import { PG_REQUIRED, pgReachable } from "../support/pg.js"
import { serveBin, type ServedBin } from "../support/served.js"

const PACKAGE = "data/heroscript.base"
const pgUp = await pgReachable()
if (!pgUp && PG_REQUIRED) throw new Error("PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but unreachable")

/** At most this many steps per game (a starter-deck game ends well before). */
const MAX_STEPS = 600

describe.skipIf(!pgUp)("two servers on one PostgreSQL store", () => {
  const fx = clusterFixture("cardfx_two_servers")
  let a: ServedBin
  let b: ServedBin
  beforeAll(async () => {
    const store = await fx.freshDatabase()
    a = await serveBin(["--package", PACKAGE, "--store", store])
    b = await serveBin(["--package", PACKAGE, "--store", store])
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
