/**
 * Hidden information and push for Hallyu Hex games, through the built bin
 * (`cardfx serve --token-env ... --heartbeat 100`) on an ephemeral port, on
 * SQLite and PostgreSQL (a throw-away database; required in CI): random game
 * IDs and one secret per seat (only their sha256 stored); a seat's view, a
 * spectator's; a seat cannot read or act for the other seat; the full log
 * only after the end or for the operator; server-sent events per viewer with
 * `Last-Event-ID` resume, bounded subscribers, heartbeats, the end of a game
 * and SIGTERM closing the streams; the typed client's `Stream`. One server per
 * store; every wait is bounded.
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Chunk, Effect, Fiber, type Layer, Option, Redacted, Stream } from "effect"
import { createHash } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CardfxClient, type CreatedGame, type GameDocument, gameEvents, makeClient } from "../../src/client.js"
import { GameStore } from "../../src/services/GameStore.js"
import { serveBin, type ServedBin } from "../support/served.js"
import { PACKAGE, PG_URL, pgUp } from "./support.js"

const TOKEN = "seats-operator-token"
process.env["CARDFX_SEATS_TOKEN"] = TOKEN

const pgAdmin = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.scoped,
      Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL) }))
    )
  )
const PG_DATABASE = `cardfx_seats_${process.pid}`
let pgCreated = false
afterAll(async () => {
  if (pgCreated) await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
})

interface Store {
  readonly location: string
  /** Runs a query on the store (to look at what it keeps). */
  readonly query: <A extends object>(statement: string) => Promise<ReadonlyArray<A>>
}

/** Runs one statement against a store's database (a client opened and closed per statement). */
const queryOn = (client: Layer.Layer<SqlClient.SqlClient, unknown>) => <A extends object>(statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(statement)).pipe(Effect.scoped, Effect.provide(client))
  )

const stores: ReadonlyArray<readonly [string, () => Promise<Store>]> = [
  ["SQLite", async () => {
    const location = join(mkdtempSync(join(tmpdir(), "cardfx-seats-")), "ledger.db")
    return {
      location,
      query: queryOn(SqliteClient.layer({ filename: location }))
    }
  }],
  ...(pgUp ?
    [
      ["PostgreSQL", async () => {
        await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
        await pgAdmin(`CREATE DATABASE ${PG_DATABASE}`)
        pgCreated = true
        const u = new URL(PG_URL)
        u.pathname = `/${PG_DATABASE}`
        const location = u.toString()
        return {
          location,
          query: queryOn(PgClient.layer({ url: Redacted.make(location) }))
        }
      }] as const
    ] :
    [])
]

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

// ---------------------------------------------------------------- a bounded server-sent events reader

interface SseEvent {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly data: string
}

interface EventReader {
  readonly status: number
  /** The next event (heartbeat comments count as `{event: "heartbeat"}`), or "end" when the stream ended cleanly. */
  readonly next: () => Promise<SseEvent | "end">
  readonly close: () => void
}

const WAIT_MS = 10_000

const openEvents = async (url: string, headers: Record<string, string> = {}): Promise<EventReader> => {
  const abort = new AbortController()
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal })
  if (response.body === null || response.status !== 200) {
    return { status: response.status, next: () => Promise.resolve("end"), close: () => abort.abort() }
  }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const queue: Array<SseEvent> = []
  const parse = () => {
    for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
      const block = text.slice(0, end)
      text = text.slice(end + 2)
      let id: string | undefined
      let event: string | undefined
      const data: Array<string> = []
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) event = "heartbeat"
        else if (line.startsWith("id: ")) id = line.slice(4)
        else if (line.startsWith("event: ")) event = line.slice(7)
        else if (line.startsWith("data: ")) data.push(line.slice(6))
      }
      queue.push({ id, event, data: data.join("\n") })
    }
  }
  const next = async (): Promise<SseEvent | "end"> => {
    const timer = setTimeout(() => abort.abort(), WAIT_MS)
    try {
      while (queue.length === 0) {
        const chunk = await reader.read()
        if (chunk.done) return "end"
        text += decoder.decode(chunk.value, { stream: true })
        parse()
      }
      return queue.shift() as SseEvent
    } finally {
      clearTimeout(timer)
    }
  }
  return { status: 200, next, close: () => abort.abort() }
}

/** The next step event's document (heartbeats skipped). */
const nextStep = async (r: EventReader): Promise<{ readonly id: string | undefined; readonly game: GameDocument }> => {
  for (;;) {
    const e = await r.next()
    if (e === "end") throw new Error("the event stream ended")
    if (e.event === "step") return { id: e.id, game: JSON.parse(e.data) as GameDocument }
  }
}

// ---------------------------------------------------------------- the server

describe.each(stores)("Hallyu Hex seats and events on %s", (_kind, makeStore) => {
  let store: Store
  let bin: ServedBin
  let client: CardfxClient
  let operator: CardfxClient
  const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(e)
  beforeAll(async () => {
    store = await makeStore()
    bin = await serveBin([
      "--package",
      PACKAGE,
      "--store",
      store.location,
      "--token-env",
      "CARDFX_SEATS_TOKEN",
      "--heartbeat",
      "100"
    ])
    client = await run(makeClient(bin.url).pipe(Effect.provide(FetchHttpClient.layer)))
    operator = await run(makeClient(bin.url, { token: TOKEN }).pipe(Effect.provide(FetchHttpClient.layer)))
  }, 30_000)
  afterAll(() => bin?.kill())

  // A fixed seed: the operator's alone (the tests read it back); the server draws every other game's.
  const create = (seed: string): Promise<CreatedGame> =>
    run(operator.hhx.create({ payload: { seed, fixedSeed: true } }))
  const secretOf = (g: CreatedGame, seat: 0 | 1) => g.seats.find((s) => s.seat === seat)?.secret ?? ""
  const as = (g: CreatedGame, seat: 0 | 1) => ({ "x-seat-secret": secretOf(g, seat) })
  const view = (g: CreatedGame, seat: 0 | 1) =>
    run(client.hhx.get({ path: { gameId: g.game.gameId }, urlParams: {}, headers: as(g, seat) }))
  const failure = async (e: Effect.Effect<unknown, unknown>) => {
    const r = await Effect.runPromise(Effect.flip(e))
    return r as { readonly _tag: string; readonly code: string }
  }
  /** Plays the first legal action of the seat to act (with its secret); answers the acting seat's view. */
  const playOne = async (g: CreatedGame): Promise<GameDocument> => {
    const spectator = await run(client.hhx.get({ path: { gameId: g.game.gameId }, urlParams: {}, headers: {} }))
    const seat = spectator.toAct ?? 0
    const mine = await view(g, seat)
    const action = mine.legalActions[0]
    if (action === undefined) throw new Error("no legal action")
    return run(client.hhx.act({
      path: { gameId: g.game.gameId },
      headers: as(g, seat),
      payload: { actionId: action.id, expectedStep: mine.step }
    }))
  }
  const eventsUrl = (g: CreatedGame, query = "") => `${bin.url}/v1/hhx/games/${g.game.gameId}/events${query}`

  it("creating a game answers a random 22-character ID and a secret per seat; the store keeps only their sha256", async () => {
    const a = await create("seats-a")
    const b = await create("seats-a")
    expect(a.game.gameId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(b.game.gameId).not.toBe(a.game.gameId)
    expect(a.seats.map((s) => s.seat)).toEqual([0, 1])
    for (const s of a.seats) expect(s.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(secretOf(a, 0)).not.toBe(secretOf(b, 0))
    const rows = await store.query<Record<string, unknown>>(
      `SELECT * FROM hhx_games WHERE game_id = '${a.game.gameId}'`
    )
    expect(rows).toHaveLength(1)
    const row = rows[0] ?? {}
    expect([row["seat0_hash"], row["seat1_hash"]]).toEqual([sha256(secretOf(a, 0)), sha256(secretOf(a, 1))])
    const stored = JSON.stringify(row)
    for (const s of a.seats) expect(stored).not.toContain(s.secret)
  })

  it("a seat's view has its own hand, both public zones and the hidden zones' sizes; a spectator's hides both hands", async () => {
    const g = await create("seats-view")
    const [zero, one] = [await view(g, 0), await view(g, 1)]
    expect([zero.viewer, one.viewer]).toEqual([0, 1])
    expect(zero.view.seats[0].hand?.length).toBe(zero.view.seats[0].handSize)
    expect(zero.view.seats[0].handSize).toBeGreaterThan(0)
    expect(zero.view.seats[1].hand).toBeNull()
    expect(zero.view.seats[1].handSize).toBeGreaterThan(0)
    expect(one.view.seats[0].hand).toBeNull()
    expect(one.view.seats[1].hand?.length).toBe(one.view.seats[1].handSize)
    for (const v of [zero, one]) {
      expect(v.view.seats[0].deckSize).toBeGreaterThan(0)
      expect(v.view.seats[1].deckSize).toBeGreaterThan(0)
      expect(v.seed).toBeNull()
    }
    // Only the seat to act gets its legal actions (their IDs name its hand's cards).
    const acting = zero.toAct === 0 ? zero : one
    const waiting = zero.toAct === 0 ? one : zero
    expect(acting.legalActions.length).toBeGreaterThan(0)
    expect(waiting.legalActions).toEqual([])
    const spectator = await run(client.hhx.get({ path: { gameId: g.game.gameId }, urlParams: {}, headers: {} }))
    expect(spectator.viewer).toBeNull()
    expect(spectator.view.viewer).toBeNull()
    expect([spectator.view.seats[0].hand, spectator.view.seats[1].hand]).toEqual([null, null])
    expect(spectator.view.seats[0].handSize).toBe(zero.view.seats[0].handSize)
    expect([spectator.legalActions, spectator.seed, spectator.fingerprint, spectator.view.decision]).toEqual([
      [],
      null,
      null,
      null
    ])
    expect(g.game).toEqual(spectator) // the creation's answer is the spectator's view
    // The raw answer carries no hand of anybody's (the typed client decoded the same bytes).
    const raw = await (await fetch(`${bin.url}/v1/hhx/games/${g.game.gameId}`)).text()
    for (const inst of zero.view.seats[0].hand ?? []) expect(raw).not.toContain(`"${inst}"`)
  })

  it("a seat cannot read or act for the other seat; acting needs a secret; the operator may read and act for any seat", async () => {
    const g = await create("seats-auth")
    const gameId = g.game.gameId
    const zero = await view(g, 0)
    const toAct = zero.toAct ?? 0
    const other: 0 | 1 = toAct === 0 ? 1 : 0
    const read = await failure(client.hhx.get({ path: { gameId }, urlParams: { seat: "0" }, headers: as(g, 1) }))
    expect([read._tag, read.code]).toEqual(["Forbidden", "forbidden"])
    const anonymousSeat = await failure(client.hhx.get({ path: { gameId }, urlParams: { seat: "1" }, headers: {} }))
    expect([anonymousSeat._tag, anonymousSeat.code]).toEqual(["Unauthorized", "unauthorized"])
    const mine = await view(g, toAct)
    const action = mine.legalActions[0]
    if (action === undefined) throw new Error("no legal action")
    const payload = { actionId: action.id, expectedStep: 0 }
    const forOther = await failure(client.hhx.act({ path: { gameId }, headers: as(g, other), payload }))
    expect([forOther._tag, forOther.code]).toEqual(["Forbidden", "forbidden"])
    const noSecret = await failure(client.hhx.act({ path: { gameId }, headers: {}, payload }))
    expect([noSecret._tag, noSecret.code]).toEqual(["Unauthorized", "unauthorized"])
    const elsewhere = await create("seats-auth-elsewhere")
    const otherGame = await failure(client.hhx.act({ path: { gameId }, headers: as(elsewhere, toAct), payload }))
    expect([otherGame._tag, otherGame.code]).toEqual(["Forbidden", "forbidden"])
    const wrongToken = await fetch(`${bin.url}/v1/hhx/games/${gameId}`, { headers: { authorization: "Bearer nope" } })
    expect(wrongToken.status).toBe(403)
    // Nothing was applied by the refused attempts.
    expect((await view(g, toAct)).step).toBe(0)
    // The operator reads either seat's view and acts for the seat to act.
    const asOperator = await run(
      operator.hhx.get({ path: { gameId }, urlParams: { seat: String(toAct) as "0" | "1" }, headers: {} })
    )
    expect(asOperator.viewer).toBe(toAct)
    expect(asOperator.legalActions).toEqual(mine.legalActions)
    expect(asOperator.seed).toBe("seats-auth")
    const moved = await run(operator.hhx.act({ path: { gameId }, headers: {}, payload }))
    expect([moved.step, moved.viewer]).toEqual([1, toAct])
  })

  it("the full log only after the end or with the operator token; an open stream ends with the game", async () => {
    const g = await create("seats-log")
    const gameId = g.game.gameId
    const spectating = await openEvents(eventsUrl(g))
    expect(spectating.status).toBe(200)
    await playOne(g)
    const seatLog = await failure(client.hhx.log({ path: { gameId }, headers: as(g, 0) }))
    expect([seatLog._tag, seatLog.code]).toEqual(["Forbidden", "forbidden"])
    const anonymousLog = await fetch(`${bin.url}/v1/hhx/games/${gameId}/log`)
    expect(anonymousLog.status).toBe(403)
    const partial = await run(operator.hhx.log({ path: { gameId }, headers: {} }))
    expect([partial.partial, partial.actions.length, partial.seed]).toEqual([true, 1, "seats-log"])
    let last: GameDocument | undefined
    for (let i = 0; i < 3000 && last?.result == null; i++) last = await playOne(g)
    expect(last?.result).not.toBeNull()
    const log = await run(client.hhx.log({ path: { gameId }, headers: {} }))
    expect(log.partial).toBeUndefined()
    expect(log.actions.length).toBe(last?.step)
    expect(log.fingerprints[log.fingerprints.length - 1]).toBe(last?.fingerprint)
    // Over: the spectator's view shows the seed and fingerprint.
    const spectator = await run(client.hhx.get({ path: { gameId }, urlParams: {}, headers: {} }))
    expect([spectator.seed, spectator.fingerprint]).toEqual(["seats-log", last?.fingerprint])
    // The spectator's stream saw every step (a sliding buffer of 256 holds them all here) and ended after the last.
    let steps = 0
    for (;;) {
      const e = await spectating.next()
      if (e === "end") break
      if (e.event !== "step") continue
      const doc = JSON.parse(e.data) as GameDocument
      expect(Number(e.id)).toBe(doc.step)
      expect([doc.view.seats[0].hand, doc.view.seats[1].hand]).toEqual([null, null])
      steps = doc.step
    }
    expect(steps).toBe(last?.step)
  }, 60_000)

  it("events: each subscriber gets its own projection of each step, with id: lines; Last-Event-ID resumes; heartbeats", async () => {
    const g = await create("seats-events")
    const gameId = g.game.gameId
    const seat0 = await openEvents(eventsUrl(g), as(g, 0))
    const spectator = await openEvents(eventsUrl(g))
    const first = await nextStep(seat0)
    expect([first.id, first.game.step, first.game.viewer]).toEqual(["0", 0, 0])
    expect(first.game.view.seats[0].hand?.length).toBeGreaterThan(0)
    expect((await nextStep(spectator)).game.viewer).toBeNull()
    for (let k = 1; k <= 3; k++) {
      await playOne(g)
      const mine = await nextStep(seat0)
      expect([mine.id, mine.game.step, mine.game.viewer]).toEqual([String(k), k, 0])
      expect(mine.game.view.seats[0].hand).not.toBeNull()
      expect(mine.game.view.seats[1].hand).toBeNull()
      const seen = await nextStep(spectator)
      expect([seen.game.step, seen.game.view.seats[0].hand, seen.game.view.seats[1].hand]).toEqual([k, null, null])
    }
    // A heartbeat comment arrives on an idle stream (--heartbeat 100).
    for (;;) {
      const e = await seat0.next()
      if (e !== "end" && e.event === "heartbeat") break
      if (e === "end") throw new Error("ended")
    }
    seat0.close()
    spectator.close()
    // Resume after step 1: steps 2 and 3 come first, as seat 1 sees them.
    const resumed = await openEvents(eventsUrl(g), { ...as(g, 1), "last-event-id": "1" })
    const two = await nextStep(resumed)
    const three = await nextStep(resumed)
    expect([two.id, three.id, two.game.viewer, three.game.viewer]).toEqual(["2", "3", 1, 1])
    expect(three.game.fingerprint).toBe((await view(g, 1)).fingerprint)
    resumed.close()
    // The other seat's view over the stream is refused like any read.
    const refused = await openEvents(eventsUrl(g, "?seat=0"), as(g, 1))
    expect(refused.status).toBe(403)
    const unknown = await openEvents(`${bin.url}/v1/hhx/games/nope/events`)
    expect(unknown.status).toBe(404)
    void gameId
  })

  it("events are bounded: 8 streams per game, the 9th is 503 too_many_subscribers until one closes", async () => {
    const g = await create("seats-limit")
    const readers = await Promise.all(Array.from({ length: 8 }, () => openEvents(eventsUrl(g))))
    expect(readers.map((r) => r.status)).toEqual(Array(8).fill(200))
    await Promise.all(readers.map((r) => nextStep(r)))
    const ninth = await fetch(eventsUrl(g))
    expect(ninth.status).toBe(503)
    expect(((await ninth.json()) as { code: string }).code).toBe("too_many_subscribers")
    readers[0]?.close()
    // The server sees the close when its next write fails or the socket closes: retry, bounded.
    let again: EventReader | undefined
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      again?.close()
      await new Promise((r) => setTimeout(r, 100))
      again = await openEvents(eventsUrl(g))
    }
    expect(again?.status).toBe(200)
    again?.close()
    for (const r of readers) r.close()
  })

  it("the typed client's gameEvents is a Stream of the seat's own view of each step", async () => {
    const g = await create("seats-client")
    let subscribed: () => void = () => undefined
    const first = new Promise<void>((resolve) => {
      subscribed = resolve
    })
    const fiber = Effect.runFork(
      gameEvents(bin.url, g.game.gameId, { seatSecret: secretOf(g, 1) }).pipe(
        Stream.tap(() => Effect.sync(() => subscribed())),
        Stream.take(3),
        Stream.runCollect,
        Effect.provide(FetchHttpClient.layer)
      )
    )
    // The first element is the current step: the stream is subscribed once it has arrived.
    await first
    await playOne(g)
    await playOne(g)
    const steps = Chunk.toArray(await Effect.runPromise(Fiber.join(fiber)))
    expect(steps.map((s) => s.viewer)).toEqual([1, 1, 1])
    expect(steps.map((s) => s.step)).toEqual([0, 1, 2])
    expect(steps[0]?.view.seats[1].hand).not.toBeNull()
    expect(steps[0]?.view.seats[0].hand).toBeNull()
    const refused = await Effect.runPromise(
      Effect.flip(
        gameEvents(bin.url, g.game.gameId, { seatSecret: "not-a-secret" }).pipe(
          Stream.runDrain,
          Effect.provide(FetchHttpClient.layer)
        )
      )
    )
    expect("code" in refused ? refused.code : refused._tag).toBe("forbidden")
  })

  it("SIGTERM ends the open streams cleanly and the server exits (the drain does not wait on them)", async () => {
    const g = await create("seats-drain")
    const readers = [await openEvents(eventsUrl(g), as(g, 0)), await openEvents(eventsUrl(g))]
    for (const r of readers) await nextStep(r)
    const exited = new Promise<number | null>((resolve) => bin.child.once("exit", (code) => resolve(code)))
    bin.child.kill("SIGTERM")
    // A clean end ("end"), not a reset: the server finished each response before closing.
    for (const r of readers) {
      let e = await r.next()
      while (e !== "end" && e.event === "heartbeat") e = await r.next()
      expect(e).toBe("end")
    }
    expect(await exited).toBe(130) // an interruption from outside (src/cli/main.ts), after the drain
  }, 30_000)
})

// ---------------------------------------------------------------- a game stored before seat secrets

describe("a game stored before seat secrets", () => {
  it("loads after the migration with no seat hashes (the operator's alone)", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "cardfx-seats-legacy-")), "ledger.db")
    const sqlite = SqliteClient.layer({ filename })
    // The table as migration 1 left it, with one game.
    await Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe("CREATE TABLE hhx_schema_migrations (version INTEGER PRIMARY KEY)")
        yield* sql.unsafe("INSERT INTO hhx_schema_migrations (version) VALUES (1)")
        yield* sql.unsafe(
          "CREATE TABLE hhx_games (game_id TEXT PRIMARY KEY, seq BIGINT NOT NULL UNIQUE, seed TEXT NOT NULL, decks TEXT, deck_hash TEXT NOT NULL, step BIGINT NOT NULL, actions TEXT NOT NULL, fingerprints TEXT NOT NULL)"
        )
        yield* sql.unsafe(
          "INSERT INTO hhx_games VALUES ('g1', 1, 'old', NULL, 'h', 0, '[]', '[\"f0\"]')"
        )
      }).pipe(Effect.scoped, Effect.provide(sqlite))
    )
    const game = await Effect.runPromise(
      Effect.flatMap(GameStore, (s) => s.read("g1")).pipe(Effect.provide(GameStore.layerFor(filename)))
    )
    expect(Option.map(game, (x) => [x.gameId, x.seed, x.seatHashes])).toEqual(Option.some(["g1", "old", null]))
  })
})
