/**
 * Computer seats of served Hallyu Hex games (src/services/ComputerSeats.ts):
 *
 * - in process (the services over in-memory stores, the in-process decider):
 *   a game of two computer seats is played to its end, every move recorded
 *   with its agent, iterations and seed, and each move is the agent's
 *   decision from that seat's knowledge at that step, derived again here;
 *   two states that differ only in what the seat cannot see give the same
 *   decision request (so the same decision); bad seats are refused with
 *   their codes;
 * - through the built bin (`cardfx serve`, the agents on worker threads,
 *   SQLite): a human plays a game against a computer seat to its end over
 *   HTTP, the computer's moves arriving on the human's event stream; bad
 *   agent bodies are 422 with their codes; a game stored with a pending
 *   computer move is played on when a server starts on its store.
 *
 * Every wait is bounded.
 */
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decide, knowledgeOf } from "../../src/hallyu/agents/Agent.js"
import type * as Hallyu from "../../src/hallyu/index.js"
import * as ComputerSeats from "../../src/services/ComputerSeats.js"
import { Games } from "../../src/services/Games.js"
import { GameStore } from "../../src/services/GameStore.js"
import { engineOf } from "../../src/services/Simulation.js"
import { serveBin, type ServedBin } from "../support/served.js"
import { DECK, PACKAGE } from "./support.js"

const deck = { json: readFileSync(DECK, "utf8"), file: DECK }
const engine = Either.getOrThrow(engineOf(deck))

/** The services over one store location: the games, their computer seats, the in-process decider. */
const servicesOn = (location: string, options: ComputerSeats.ComputerSeatsOptions = {}) => {
  const games = Games.layer(engine).pipe(Layer.provide(GameStore.layerFor(location)))
  return ComputerSeats.ComputerSeats.layer(options).pipe(
    Layer.provide(ComputerSeats.ComputerSeatStore.layerFor(location)),
    Layer.provide(ComputerSeats.AgentDecider.inProcess),
    Layer.provideMerge(games)
  )
}

const within = async (ms: number, what: string, done: () => Promise<boolean>): Promise<void> => {
  const until = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The states of a log: states[k] is the state before action k. */
const statesOf = (log: Hallyu.GameLog): ReadonlyArray<Hallyu.GameState> => {
  let s = Either.getOrThrow(
    engine.newGame(log.decks === null ? { seed: log.seed } : { seed: log.seed, decks: log.decks })
  )
  const out = [s]
  for (const a of log.actions) {
    s = Either.getOrThrow(engine.apply(s, a))
    out.push(s)
  }
  return out
}

describe("computer seats in process", () => {
  const runtime = ManagedRuntime.make(servicesOn(":memory:", { poolSize: 2, maxIterations: 50 }))
  afterAll(() => runtime.dispose())

  it("plays a game of two computer seats to its end; each move is the seat's decision from its knowledge", async () => {
    const created = await runtime.runPromise(Effect.flatMap(ComputerSeats.ComputerSeats, (c) =>
      c.create({
        seed: "cs-1",
        seats: [{ kind: "computer", agent: "random" }, { kind: "computer", agent: "greedy", iterations: 3 }]
      })))
    // No secret for a computer seat.
    expect(created.seats).toEqual([])
    const gameId = created.game.gameId
    const log = () => runtime.runPromise(Effect.flatMap(Games, (g) => g.log(gameId, { operator: true })))
    await within(30_000, "the game ends", async () => (await log()).partial !== true)
    const final = await log()
    // The last move is recorded after it is applied.
    const moves = await runtime.runPromise(
      Effect.flatMap(ComputerSeats.ComputerSeats, (c) => Effect.zipRight(c.settled, c.moves(gameId)))
    )
    expect(moves.length).toBe(final.actions.length)
    expect(final.actions.length).toBeGreaterThan(4)
    const states = statesOf(final)
    const specs = [{ agent: "random", iterations: 1 }, { agent: "greedy", iterations: 3 }] as const
    for (const m of moves) {
      const state = states[m.step] as Hallyu.GameState
      const seat = state.decision?.player
      expect(m.seat).toBe(seat)
      expect(m.actionId).toBe(final.actions[m.step])
      expect({ agent: m.agent, iterations: m.iterations }).toEqual(specs[m.seat])
      expect(m.seed).toBe(ComputerSeats.agentSeed(final.seed, m.seat, m.step))
      // The agent's decision from that seat's knowledge, derived again.
      const again = decide(
        engine,
        specs[m.seat],
        knowledgeOf(engine, state, m.seat, final.actions.slice(0, m.step)),
        m.seed
      )
      expect(Either.getOrThrow(again).id).toBe(m.actionId)
    }
  }, 60_000)

  it("a decision request holds only what its seat may see", () => {
    // A few steps in: each seat's last legal action.
    let state = Either.getOrThrow(engine.newGame({ seed: "cs-knowledge" }))
    const history: Array<string> = []
    for (let i = 0; i < 6 && state.result === null; i++) {
      const legal = engine.legalActions(state)
      const a = legal[legal.length - 1] as Hallyu.GameAction
      history.push(a.id)
      state = Either.getOrThrow(engine.apply(state, a.id))
    }
    const seat = state.decision?.player ?? 0
    const other = seat === 0 ? 1 : 0
    // The same state but for the other seat's hand and both decks (what this seat cannot see).
    const players = [...state.players] as [Hallyu.GameState["players"][0], Hallyu.GameState["players"][1]]
    players[other] = {
      ...players[other],
      hand: [...players[other].hand].reverse().map((c, i) => (i === 0 ? "x-hidden" : c))
    }
    for (const p of [0, 1] as const) players[p] = { ...players[p], deck: [...players[p].deck].reverse() }
    const hidden: Hallyu.GameState = { ...state, players }
    const request = (s: Hallyu.GameState) => ({
      deck,
      agent: "ismcts" as const,
      iterations: 10,
      seed: ComputerSeats.agentSeed("s", seat, state.ply),
      knowledge: knowledgeOf(engine, s, seat, history)
    })
    expect(JSON.stringify(request(hidden))).toBe(JSON.stringify(request(state)))
    expect(JSON.stringify(request(state))).not.toContain("x-hidden")
    const make = ComputerSeats.decisionMaker()
    expect(make(request(hidden))).toEqual(make(request(state)))
  })

  it("refuses bad seats with their codes", () => {
    const code = (seats: ReadonlyArray<ComputerSeats.SeatRequest>) =>
      Either.match(ComputerSeats.checkSeats(seats, 100), { onLeft: (e) => e.code, onRight: () => "ok" })
    expect(code([{ kind: "human" }, { kind: "computer", agent: "ismcts" }])).toBe("ok")
    expect(code([{ kind: "computer", agent: "cheater" }])).toBe("unknown_agent")
    expect(code([{ kind: "computer", agent: "minimax" }])).toBe("unknown_agent")
    expect(code([{ kind: "human" }, { kind: "human" }, { kind: "computer", agent: "random" }])).toBe("unknown_agent")
    for (const iterations of [0, -1, 101, 1.5]) {
      expect(code([{ kind: "computer", agent: "greedy", iterations }])).toBe("invalid_iterations")
    }
    // The agent's default budget, at most the server's maximum.
    expect(ComputerSeats.checkSeats([{ kind: "computer", agent: "ismcts" }], 100)).toEqual(
      Either.right([{ agent: "ismcts", iterations: 100 }, null])
    )
  })
})

// ---------------------------------------------------------------- through the built bin

interface Doc {
  readonly gameId: string
  readonly step: number
  readonly toAct: 0 | 1 | null
  readonly legalActions: ReadonlyArray<{ readonly id: string; readonly kind: string }>
  readonly result: unknown
}

/** A bounded reader of a server-sent event stream: each `step` event's document. */
const stepEvents = async (url: string, headers: Record<string, string>) => {
  const abort = new AbortController()
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal })
  expect(response.status).toBe(200)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ""
  const queue: Array<Doc> = []
  const next = async (): Promise<Doc | "end"> => {
    const timer = setTimeout(() => abort.abort(), 15_000)
    try {
      while (queue.length === 0) {
        const chunk = await reader.read()
        if (chunk.done) return "end"
        text += decoder.decode(chunk.value, { stream: true })
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const data = block.split("\n").find((l) => l.startsWith("data: "))
          if (block.includes("event: step") && data !== undefined) queue.push(JSON.parse(data.slice(6)) as Doc)
        }
      }
      return queue.shift() as Doc
    } finally {
      clearTimeout(timer)
    }
  }
  return { next, close: () => abort.abort() }
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}

describe("computer seats through the built bin", () => {
  const dir = mkdtempSync(join(tmpdir(), "cardfx-computer-seats-"))
  const location = join(dir, "ledger.db")
  let bin: ServedBin
  beforeAll(async () => {
    bin = await serveBin([
      "--package",
      PACKAGE,
      "--store",
      location,
      "--agent-pool",
      "1",
      "--max-agent-iterations",
      "50"
    ])
  }, 30_000)
  afterAll(() => bin?.kill())

  it("a human plays a computer seat to the end; the computer's moves arrive on the human's stream", async () => {
    const created = await post(`${bin.url}/v1/hhx/games`, {
      seed: "cs-http",
      seats: [{ kind: "human" }, { kind: "computer", agent: "ismcts", iterations: 20 }]
    })
    expect(created.status).toBe(201)
    const seats = created.body["seats"] as ReadonlyArray<{ seat: number; secret: string }>
    // Only the human seat's secret.
    expect(seats.map((s) => s.seat)).toEqual([0])
    const secret = seats[0]?.secret ?? ""
    const gameId = (created.body["game"] as Doc).gameId
    const events = await stepEvents(`${bin.url}/v1/hhx/games/${gameId}/events`, { "x-seat-secret": secret })
    let computerSteps = 0
    let last: Doc | undefined
    try {
      for (let i = 0; i < 2000; i++) {
        const doc = await events.next()
        if (doc === "end") break
        if (last !== undefined && last.toAct === 1) {
          // A step the computer made, seen by the human.
          expect(doc.step).toBe(last.step + 1)
          computerSteps++
        }
        last = doc
        if (doc.result !== null) continue
        if (doc.toAct === 0) {
          const action = doc.legalActions.find((a) => a.kind === "end-turn" || a.kind === "pass") ?? doc.legalActions[0]
          const acted = await post(`${bin.url}/v1/hhx/games/${gameId}/actions`, {
            actionId: action?.id,
            expectedStep: doc.step
          }, { "x-seat-secret": secret })
          expect(acted.status).toBe(200)
        }
      }
    } finally {
      events.close()
    }
    expect(last?.result).not.toBeNull()
    expect(computerSteps).toBeGreaterThan(0)
    // The human cannot act for the computer seat, and every computer move is recorded with its seed.
    const log = await (await fetch(`${bin.url}/v1/hhx/games/${gameId}/log`)).json() as Hallyu.GameLog
    const movesNow = () =>
      Effect.runPromise(
        Effect.flatMap(ComputerSeats.ComputerSeatStore, (s) => s.moves(gameId)).pipe(
          Effect.provide(ComputerSeats.ComputerSeatStore.layerFor(location))
        )
      )
    // The last move is recorded just after it is applied.
    await within(10_000, "every computer move recorded", async () => (await movesNow()).length >= computerSteps)
    const moves = await movesNow()
    expect(moves.length).toBe(computerSteps)
    const states = statesOf(log)
    for (const m of moves) {
      expect(m.seat).toBe(1)
      expect(m.actionId).toBe(log.actions[m.step])
      expect(m.seed).toBe(ComputerSeats.agentSeed(log.seed, 1, m.step))
      const again = decide(
        engine,
        { agent: "ismcts", iterations: 20 },
        knowledgeOf(engine, states[m.step] as Hallyu.GameState, 1, log.actions.slice(0, m.step)),
        m.seed
      )
      expect(Either.getOrThrow(again).id).toBe(m.actionId)
    }
  }, 90_000)

  it("refuses bad agent bodies with 422 and their codes", async () => {
    const code = async (seats: unknown) => {
      const r = await post(`${bin.url}/v1/hhx/games`, { seed: 1, seats })
      return `${r.status} ${String(r.body["code"])}`
    }
    expect(await code([{ kind: "computer", agent: "minimax" }])).toBe("422 unknown_agent")
    expect(await code([{ kind: "computer", agent: "cheater" }])).toBe("422 unknown_agent")
    expect(await code([{ kind: "human" }, { kind: "human" }, { kind: "computer", agent: "random" }])).toBe(
      "422 unknown_agent"
    )
    expect(await code([{ kind: "computer", agent: "ismcts", iterations: 0 }])).toBe("422 invalid_iterations")
    expect(await code([{ kind: "computer", agent: "ismcts", iterations: -5 }])).toBe("422 invalid_iterations")
    // Above this server's --max-agent-iterations 50.
    expect(await code([{ kind: "computer", agent: "ismcts", iterations: 51 }])).toBe("422 invalid_iterations")
    expect(await code([{ kind: "computer", agent: "ismcts", iterations: 50 }])).toBe("201 undefined")
  }, 30_000)

  it(
    "a game created by another process on the store: the server plays its computer seat after a human's move",
    async () => {
      // Created beside the running server (as another server on the same store would), seat 1 a computer seat,
      // seat 0 to act first (so this server's first step of the game is the human's).
      const seed =
        Array.from({ length: 64 }, (_, k) => `cs-elsewhere-${k}`).find((s) =>
          Either.getOrThrow(engine.newGame({ seed: s })).decision?.player === 0
        ) ?? ""
      const created = await Effect.runPromise(
        Effect.gen(function*() {
          const games = yield* Games
          const made = yield* games.create({ seed, fixedSeed: true, withheld: [1] }, { operator: true })
          const store = yield* ComputerSeats.ComputerSeatStore
          yield* store.save(made.game.gameId, [null, { agent: "random", iterations: 1 }])
          return made
        }).pipe(
          Effect.provide(Layer.merge(
            Games.layer(engine).pipe(Layer.provide(GameStore.layerFor(location))),
            ComputerSeats.ComputerSeatStore.layerFor(location)
          )),
          Effect.scoped
        )
      )
      const gameId = created.game.gameId
      const secret = created.seats[0]?.secret ?? ""
      expect(created.seats.map((s) => s.seat)).toEqual([0])
      const seat0 = async () =>
        await (await fetch(`${bin.url}/v1/hhx/games/${gameId}`, { headers: { "x-seat-secret": secret } })).json() as Doc
      // Seat 0 plays until its move hands the turn to seat 1; then the server moves for it. The move's own answer
      // says so (the computer may have moved already by the time a later read arrives).
      let waiting: Doc | undefined
      for (let i = 0; i < 200 && waiting === undefined; i++) {
        const doc = await seat0()
        if (doc.result !== null) break
        if (doc.toAct !== 0) continue
        const action = doc.legalActions.find((a) => a.kind === "end-turn" || a.kind === "pass") ?? doc.legalActions[0]
        const r = await post(`${bin.url}/v1/hhx/games/${gameId}/actions`, {
          actionId: action?.id,
          expectedStep: doc.step
        }, { "x-seat-secret": secret })
        expect(r.status).toBe(200)
        if (r.body.toAct === 1) waiting = { ...doc, step: Number(r.body.step), toAct: 1 }
      }
      if (waiting === undefined) throw new Error("seat 0 never handed the turn to the computer seat")
      expect(waiting.step).toBeGreaterThan(0)
      const handed = waiting
      await within(15_000, "the computer seat moves", async () => (await seat0()).step > handed.step)
    },
    60_000
  )

  it("a server starting on a store plays a pending computer move", async () => {
    const other = join(dir, "pending.db")
    // A game whose seat 0 (to act first) is a computer seat, stored by a server that stopped before it moved.
    const gameId = await Effect.runPromise(
      Effect.gen(function*() {
        const games = yield* Games
        const created = yield* games.create({ seed: "cs-resume", fixedSeed: true, withheld: [0] }, { operator: true })
        const store = yield* ComputerSeats.ComputerSeatStore
        yield* store.save(created.game.gameId, [{ agent: "random", iterations: 1 }, null])
        return created.game.gameId
      }).pipe(
        Effect.provide(Layer.merge(
          Games.layer(engine).pipe(Layer.provide(GameStore.layerFor(other))),
          ComputerSeats.ComputerSeatStore.layerFor(other)
        )),
        Effect.scoped
      )
    )
    const first = Either.getOrThrow(engine.newGame({ seed: "cs-resume" }))
    expect(first.decision?.player).toBe(0)
    const resumed = await serveBin(["--package", PACKAGE, "--store", other, "--agent-pool", "1"])
    const recorded = () =>
      Effect.runPromise(
        Effect.flatMap(ComputerSeats.ComputerSeatStore, (st) => st.moves(gameId)).pipe(
          Effect.provide(ComputerSeats.ComputerSeatStore.layerFor(other))
        )
      )
    try {
      await within(20_000, "the pending computer move is played", async () => {
        const doc = await (await fetch(`${resumed.url}/v1/hhx/games/${gameId}`)).json() as Doc
        return doc.step >= 1
      })
      await within(10_000, "the move is recorded", async () => (await recorded()).length >= 1)
    } finally {
      await resumed.kill()
    }
    const rows = await recorded()
    expect(rows[0]).toMatchObject({
      step: 0,
      seat: 0,
      agent: "random",
      seed: ComputerSeats.agentSeed("cs-resume", 0, 0)
    })
  }, 60_000)
})
