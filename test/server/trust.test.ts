/**
 * The served game's trust (issue 40), through the built bin on an ephemeral
 * port without an operator token (every client anonymous), on SQLite and
 * PostgreSQL (a fresh table prefix... a fresh database each; required in CI):
 * seeds no player chooses (drawn by the server, a client's seed only mixed
 * in, committed to at creation and revealed with the log at the end; a seat
 * that searches for the seed from its own hand finds nothing), invitations
 * (the inviter never holds the joiner's secret; single use), fair stream
 * slots (8 spectators do not stop a seat's stream; an idle spectator is
 * closed), streams that resume at once, and the creation rate limit (429 with
 * Retry-After, then recovery). One server per store; every wait is bounded.
 */
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Either, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CreatedGame, GameDocument } from "../../src/client.js"
import * as Hallyu from "../../src/hallyu/index.js"
import { serveBin, type ServedBin } from "../support/served.js"
import { DECK, freshStore, PACKAGE, PG_URL, pgUp, startServer } from "./support.js"

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

const engine = await Effect.runPromise(
  Effect.flatMap(Hallyu.HallyuHex, (h) => h.engine(DECK)).pipe(
    Effect.provide(Hallyu.HallyuHex.layer.pipe(Layer.provide(NodeContext.layer)))
  )
)

const pgAdmin = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.scoped,
      Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL) }))
    )
  )
const PG_DATABASE = `cardfx_trust_${process.pid}`
let pgCreated = false
afterAll(async () => {
  if (pgCreated) await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
})

const stores: ReadonlyArray<readonly [string, () => Promise<string>]> = [
  ["SQLite", () => Promise.resolve(join(mkdtempSync(join(tmpdir(), "cardfx-trust-")), "ledger.db"))],
  ...(pgUp ?
    [
      ["PostgreSQL", async () => {
        await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
        await pgAdmin(`CREATE DATABASE ${PG_DATABASE}`)
        pgCreated = true
        const u = new URL(PG_URL)
        u.pathname = `/${PG_DATABASE}`
        return u.toString()
      }] as const
    ] :
    [])
]

const WAIT_MS = 10_000

/** A bounded reader of a server-sent events answer: its status, the time to its headers, its step documents. */
const openEvents = async (url: string, headers: Record<string, string> = {}) => {
  const abort = new AbortController()
  const started = performance.now()
  const timer = setTimeout(() => abort.abort(), WAIT_MS)
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal })
  clearTimeout(timer)
  const headersMs = performance.now() - started
  const reader = response.body?.getReader()
  const decoder = new TextDecoder()
  let text = ""
  /** The next step's document, or "end" when the stream ended. */
  const next = async (): Promise<GameDocument | "end"> => {
    const t = setTimeout(() => abort.abort(), WAIT_MS)
    try {
      for (;;) {
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const data = block.split("\n").find((l) => l.startsWith("data: "))
          if (data !== undefined) return JSON.parse(data.slice(6)) as GameDocument
        }
        if (reader === undefined) return "end"
        const chunk = await reader.read()
        if (chunk.done) return "end"
        text += decoder.decode(chunk.value, { stream: true })
      }
    } finally {
      clearTimeout(t)
    }
  }
  return { status: response.status, headersMs, next, close: () => abort.abort() }
}

describe.each(stores)("the served game's trust on %s", (_kind, makeStore) => {
  let bin: ServedBin
  beforeAll(async () => {
    bin = await serveBin([
      "--package",
      PACKAGE,
      "--store",
      await makeStore(),
      "--heartbeat",
      "5000",
      "--spectator-idle",
      "1500",
      "--create-burst",
      "12",
      "--create-rate",
      "120"
    ])
  }, 30_000)
  afterAll(() => bin?.kill())

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${bin.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  const create = async (body: unknown): Promise<CreatedGame> => {
    const r = await post("/v1/hhx/games", body)
    expect(r.status).toBe(201)
    return (await r.json()) as CreatedGame
  }
  const get = async (gameId: string, secret?: string, query = ""): Promise<GameDocument> => {
    const r = await fetch(
      `${bin.url}/v1/hhx/games/${gameId}${query}`,
      secret === undefined ? {} : { headers: { "x-seat-secret": secret } }
    )
    expect(r.status).toBe(200)
    return (await r.json()) as GameDocument
  }
  const secretOf = (g: CreatedGame, seat: 0 | 1) => g.seats.find((s) => s.seat === seat)?.secret ?? ""
  const handOf = (d: GameDocument, seat: 0 | 1) => d.view.seats[seat].hand

  it("two games created with the same client seed deal different hands; the seed is committed, not shown", async () => {
    const a = await create({ seed: "1" })
    const b = await create({ seed: "1" })
    const [handA, handB] = [
      handOf(await get(a.game.gameId, secretOf(a, 0)), 0),
      handOf(await get(b.game.gameId, secretOf(b, 0)), 0)
    ]
    expect(handA?.length).toBeGreaterThan(0)
    // Differently ordered decks: the hands (and so the commitments) differ.
    expect(a.game.seedCommitment).not.toBe(b.game.seedCommitment)
    expect(a.game.seedCommitment).toMatch(/^[0-9a-f]{64}$/)
    expect([a.game.seed, b.game.seed]).toEqual([null, null])
    // The client's seed alone does not deal them: its own game's seat-0 hand is neither.
    const fixed = Either.getOrThrow(engine.newGame({ seed: "1" }))
    const fixedHand = Hallyu.observe(fixed, 0).seats[0].hand
    expect([handA, handB].filter((h) => JSON.stringify(h) === JSON.stringify(fixedHand))).toHaveLength(0)
    expect(JSON.stringify(handA) === JSON.stringify(handB) && a.game.fingerprint === b.game.fingerprint).toBe(false)
    // A fixed seed is the operator's alone (this server has no operator).
    const refused = await post("/v1/hhx/games", { seed: "1", fixedSeed: true })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { code: string }).code).toBe("forbidden")
  })

  it("a seat that searches for the seed from its own hand finds nothing within a generous budget", async () => {
    const g = await create({ seed: 42 })
    const mine = handOf(await get(g.game.gameId, secretOf(g, 0)), 0)
    const target = JSON.stringify(mine)
    // Every short seed a search would try first (the client's own, numbers, the workbench's old default): 20,000 tries.
    const candidates = ["42", "1", "", ...Array.from({ length: 19_997 }, (_, i) => String(i))]
    let found = 0
    for (const seed of candidates) {
      const s = engine.newGame({ seed })
      if (Either.isRight(s) && JSON.stringify(Hallyu.observe(s.right, 0).seats[0].hand) === target) {
        if (sha256(seed) === g.game.seedCommitment) found++
      }
    }
    expect(found).toBe(0)
  })

  it(
    "the seed revealed with the log at the end matches the commitment and replays to the same fingerprints",
    async () => {
      const g = await create({ seed: "reveal" })
      const gameId = g.game.gameId
      let last: GameDocument = g.game
      for (let i = 0; i < 3000 && last.result === null; i++) {
        const seat = last.toAct ?? 0
        const mine = await get(gameId, secretOf(g, seat))
        const action = mine.legalActions[i % Math.max(1, mine.legalActions.length)] ?? mine.legalActions[0]
        if (action === undefined) throw new Error("no legal action")
        const r = await post(`/v1/hhx/games/${gameId}/actions`, { actionId: action.id, expectedStep: mine.step }, {
          "x-seat-secret": secretOf(g, seat)
        })
        expect(r.status).toBe(200)
        last = (await r.json()) as GameDocument
      }
      expect(last.result).not.toBeNull()
      const log = (await (await fetch(`${bin.url}/v1/hhx/games/${gameId}/log`)).json()) as Hallyu.GameLog
      expect(sha256(log.seed)).toBe(g.game.seedCommitment)
      const spectator = await get(gameId)
      expect([spectator.seed, spectator.seedCommitment]).toEqual([log.seed, g.game.seedCommitment])
      const replayed = Hallyu.replay(engine, log)
      expect(Either.isRight(replayed) && Hallyu.fingerprint(replayed.right)).toBe(last.fingerprint)
    },
    60_000
  )

  it("invitations: the inviter holds seat 0 only; the joiner's secret is the joiner's alone; one use", async () => {
    const g = await create({ invite: true })
    expect(g.seats.map((s) => s.seat)).toEqual([0])
    const invitation = g.invitation
    if (invitation === null) throw new Error("no invitation")
    expect(invitation.seat).toBe(1)
    expect(Date.parse(invitation.expiresAt)).toBeGreaterThan(Date.now())
    const gameId = g.game.gameId
    // The inviter cannot read seat 1's view, with its secret or without.
    const asInviter = await fetch(`${bin.url}/v1/hhx/games/${gameId}?seat=1`, {
      headers: { "x-seat-secret": secretOf(g, 0) }
    })
    expect(asInviter.status).toBe(403)
    expect((await fetch(`${bin.url}/v1/hhx/games/${gameId}?seat=1`)).status).toBe(401)
    const joined = await post("/v1/hhx/invitations", { code: invitation.code })
    expect(joined.status).toBe(200)
    const j = (await joined.json()) as { gameId: string; seat: number; secret: string; game: GameDocument }
    expect([j.gameId, j.seat, j.game.viewer]).toEqual([gameId, 1, 1])
    expect(j.secret).not.toBe(secretOf(g, 0))
    const joinerView = await get(gameId, j.secret)
    expect(handOf(joinerView, 1)?.length).toBeGreaterThan(0)
    const inviterView = await get(gameId, secretOf(g, 0))
    expect([inviterView.viewer, handOf(inviterView, 1)]).toEqual([0, null])
    // Single use: a second exchange (the inviter replaying the code) gets nothing.
    const again = await post("/v1/hhx/invitations", { code: invitation.code })
    expect(again.status).toBe(404)
    expect(((await again.json()) as { code: string }).code).toBe("invitation_invalid")
    const forged = await post("/v1/hhx/invitations", { code: `${gameId}.${"A".repeat(43)}` })
    expect(forged.status).toBe(404)
  })

  it("8 spectator streams do not stop a seat's stream; the 9th spectator is 503; an idle spectator is closed", async () => {
    const g = await create({})
    const url = `${bin.url}/v1/hhx/games/${g.game.gameId}/events`
    const spectators = await Promise.all(Array.from({ length: 8 }, () => openEvents(url)))
    expect(spectators.map((s) => s.status)).toEqual(Array(8).fill(200))
    for (const s of spectators) expect((await s.next()) === "end").toBe(false)
    const ninth = await fetch(url)
    expect(ninth.status).toBe(503)
    expect(((await ninth.json()) as { code: string }).code).toBe("too_many_subscribers")
    const seats = [
      await openEvents(url, { "x-seat-secret": secretOf(g, 0) }),
      await openEvents(url, { "x-seat-secret": secretOf(g, 1) })
    ]
    expect(seats.map((s) => s.status)).toEqual([200, 200])
    const first = await seats[0]?.next()
    expect(first !== "end" && first?.viewer).toBe(0)
    // --spectator-idle 1500: with no step, each spectator's stream ends (the seats' do not).
    const started = performance.now()
    for (const s of spectators) expect(await s.next()).toBe("end")
    expect(performance.now() - started).toBeLessThan(WAIT_MS)
    for (const s of [...spectators, ...seats]) s.close()
  })

  it("a stream resumed at the current step gets its status line and headers at once", async () => {
    const g = await create({})
    const url = `${bin.url}/v1/hhx/games/${g.game.gameId}/events`
    // --heartbeat 5000: before, nothing was written until the first heartbeat.
    const resumed = await openEvents(url, { "x-seat-secret": secretOf(g, 0), "last-event-id": "0" })
    expect(resumed.status).toBe(200)
    expect(resumed.headersMs).toBeLessThan(1000)
    resumed.close()
  })

  it("history comes in bounded pages (?from=&limit=, next); an error answer quotes a short prefix of a huge value", async () => {
    const id = `hist-${Date.now()}`
    const command = (commandId: string, expectedRevision: number, upgradeId: string) =>
      post(`/v1/instances/${id}/commands`, {
        commandId,
        cardId: "basic_attack",
        expectedRevision,
        command: { kind: "apply", upgradeId }
      })
    expect((await command("h1", 0, "core.ember.affinity")).status).toBe(200)
    expect((await command("h2", 1, "core.sharpened_strike")).status).toBe(200)
    const page = async (query: string) => {
      const r = await fetch(`${bin.url}/v1/instances/${id}/history${query}`)
      expect(r.status).toBe(200)
      return (await r.json()) as { events: Array<{ sequence: number; revision: number }>; next: number | null }
    }
    const first = await page("?limit=1")
    expect(first.events.map((e) => e.revision)).toEqual([1])
    expect(first.next).not.toBeNull()
    const second = await page(`?limit=1&from=${first.next ?? 0}`)
    expect([second.events.map((e) => e.revision), second.next]).toEqual([[2], null])
    expect((await page("")).events).toHaveLength(2)
    const tooMany = await fetch(`${bin.url}/v1/instances/${id}/history?limit=1001`)
    expect(tooMany.status).toBe(400)
    // A 1 MB actionId: the 400 is a few KiB, not the value echoed (once twice: 2 MB).
    const g = await create({})
    const huge = await post(`/v1/hhx/games/${g.game.gameId}/actions`, {
      actionId: "x".repeat(1_000_000),
      expectedStep: 0
    }, { "x-seat-secret": secretOf(g, 0) })
    expect(huge.status).toBe(400)
    expect((await huge.text()).length).toBeLessThan(8192)
  })

  it(
    "creation without the operator token is rate-limited per client: 429 rate_limited with Retry-After, then it recovers",
    async () => {
      let limited: Response | undefined
      for (let i = 0; i < 40 && limited === undefined; i++) {
        const r = await post("/v1/hhx/games", {})
        if (r.status === 429) limited = r
        else expect(r.status).toBe(201)
      }
      if (limited === undefined) throw new Error("never rate-limited")
      expect(((await limited.json()) as { code: string }).code).toBe("rate_limited")
      const wait = Number(limited.headers.get("retry-after"))
      expect(wait).toBeGreaterThanOrEqual(1)
      await new Promise((r) => setTimeout(r, wait * 1000 + 100))
      expect((await post("/v1/hhx/games", {})).status).toBe(201)
    },
    30_000
  )
})

describe("the creation limits (in process, SQLite)", () => {
  it("past the live-games cap creation is 503 too_many_games; branches have their own rate-limit bucket", async () => {
    const s = await startServer({
      ...freshStore("sqlite"),
      limits: { games: { maxLiveGames: 2 }, rateLimit: { perMinute: 60, burst: 2 } }
    })
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${s.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      expect([(await post("/v1/hhx/games", {})).status, (await post("/v1/hhx/games", {})).status]).toEqual([201, 201])
      // The bucket is empty too, but the door's rate limit answers first: wait for one token (1 s at 60/min).
      await new Promise((r) => setTimeout(r, 1100))
      const capped = await post("/v1/hhx/games", {})
      expect(capped.status).toBe(503)
      expect(((await capped.json()) as { code: string }).code).toBe("too_many_games")
      // Branches: their own bucket of 2.
      const branch = (name: string) => post("/v1/instances/none/branches", { name })
      const answers = [await branch("b1"), await branch("b2"), await branch("b3")]
      expect(answers.map((r) => r.status === 429)).toEqual([false, false, true])
      expect(answers[2]?.headers.get("retry-after")).toBe("1")
    } finally {
      await s.close()
    }
  })
})
