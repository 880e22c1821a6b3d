/**
 * Agents: no cheating (a fair agent's decision is the same whatever the
 * hidden cards are), determinism, bad specs, and the sampled worlds'
 * consistency with the view.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import * as Agents from "../../src/hallyu/agents/index.js"
import { determinize } from "../../src/hallyu/agents/World.js"
import type { GameState, PlayerState, Seat } from "../../src/hallyu/engine/State.js"
import { RngStream } from "../../src/kernel/Rng.js"
import { engine } from "./engine-fixtures.js"

/** Positions where a seat must choose among two or more actions, from a few seeded random games. */
const positions = (games: number, every: number): Array<GameState> => {
  const out: Array<GameState> = []
  for (let g = 0; g < games; g++) {
    let s = Either.getOrThrow(engine.newGame({ seed: `fair/${g}` }))
    const rng = RngStream.fromSeed(`fair/${g}`, "test")
    for (let k = 0; s.result === null && k < 400; k++) {
      const legal = engine.legalActions(s)
      if (legal.length >= 2 && k % every === 0) out.push(s)
      s = Either.getOrThrow(engine.apply(s, legal[rng.int(legal.length)] ?? ""))
    }
  }
  return out
}

/**
 * The same position with the hidden cards re-dealt, written independently of the agents' sampler:
 * the opponent's hand and deck cards shuffled together and dealt again (same sizes), the seat's
 * own deck shuffled, every card the seat was shown (`pinned`) kept in place; a new seed and RNG.
 */
const redeal = (s: GameState, seat: Seat, salt: string): GameState => {
  const rng = RngStream.fromSeed(salt, "redeal")
  const table = Agents.knowledgeOf(engine, s, seat, []).table
  const shuffle = (xs: Array<string>): Array<string> => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = rng.int(i + 1)
      const t = xs[i] as string
      xs[i] = xs[j] as string
      xs[j] = t
    }
    return xs
  }
  const players = s.players.map((p, n): PlayerState => {
    const pinsAt = new Map(table.pinned.deck[n as Seat].map(([at, inst]) => [at, inst]))
    const pinnedHand = n === seat ? [] : table.pinned.hand
    const fixed = new Set([...pinsAt.values(), ...pinnedHand])
    const pool = shuffle([...(n === seat ? [] : p.hand), ...p.deck].filter((x) => !fixed.has(x)))
    const hand: Array<string> = n === seat ? [...p.hand] : [...pinnedHand]
    while (hand.length < p.hand.length) hand.push(pool.pop() as string)
    const deck = p.deck.map((_, at) => pinsAt.get(at) ?? (pool.pop() as string))
    return { ...p, hand, deck }
  }) as unknown as readonly [PlayerState, PlayerState]
  return { ...s, players, seed: `${salt}-seed`, rng: RngStream.fromSeed(salt, "rng").state() }
}

const fair: ReadonlyArray<Agents.AgentSpec> = [
  { agent: "random", iterations: 1 },
  { agent: "greedy", iterations: 4 },
  { agent: "ismcts", iterations: 40 }
]

describe("no cheating: a fair agent's decision does not depend on the hidden cards", () => {
  const states = positions(4, 9)
  it("the positions are varied (both seats, several turns)", () => {
    expect(states.length).toBeGreaterThan(10)
    expect(new Set(states.map((s) => s.decision?.player)).size).toBe(2)
  })
  it("re-dealt hidden cards: the same knowledge, and the same action from random, greedy and ismcts", () => {
    let differentWorlds = 0
    for (const [k, s] of states.entries()) {
      const seat = s.decision?.player as Seat
      const history = [`h${k}`]
      const mine = Agents.knowledgeOf(engine, s, seat, history)
      for (const salt of ["a", "b"]) {
        const other = redeal(s, seat, `${k}/${salt}`)
        const theirs = Agents.knowledgeOf(engine, other, seat, history)
        // The hidden cards did change (most of the time), the knowledge did not.
        if (JSON.stringify(other.players) !== JSON.stringify(s.players)) differentWorlds++
        expect(JSON.stringify(theirs)).toBe(JSON.stringify(mine))
        for (const spec of fair) {
          const a = Agents.chooseFor(engine, spec, s, history, `seed/${k}`)
          const b = Agents.chooseFor(engine, spec, other, history, `seed/${k}`)
          expect(Either.isRight(a)).toBe(true)
          expect(Either.map(b, (x) => x.id)).toEqual(Either.map(a, (x) => x.id))
        }
      }
    }
    expect(differentWorlds).toBeGreaterThan(states.length)
  })
  it("a sampled world agrees with the view: the same public zones and sizes, the seat's own hand, each card once", () => {
    for (const [k, s] of states.slice(0, 15).entries()) {
      const seat = s.decision?.player as Seat
      const know = Agents.knowledgeOf(engine, s, seat, [])
      const w = determinize(know, RngStream.fromSeed(`w/${k}`, "test"))
      const again = Agents.knowledgeOf(engine, w, seat, [])
      expect(JSON.stringify(again)).toBe(JSON.stringify(know))
      const all = w.players.flatMap((p) => [...p.deck, ...p.hand, ...p.stage, ...p.archive, ...p.pending])
      expect(all.slice().sort()).toEqual(Object.keys(s.cardOf).sort())
      // Each seat's cards stay its own.
      for (const n of [0, 1] as const) {
        expect(w.players[n].deck.concat(w.players[n].hand).every((x) => x.startsWith(`p${n}-`))).toBe(true)
      }
    }
  })
  it("the cheater sees the true state: chooseFor gives it the state, decide refuses it", () => {
    const s = states[0] as GameState
    const seat = s.decision?.player as Seat
    const cheat = Agents.chooseFor(engine, { agent: "cheater", iterations: 30 }, s, [], "c")
    expect(Either.isRight(cheat)).toBe(true)
    const refused = Agents.decide(
      engine,
      { agent: "cheater", iterations: 30 },
      Agents.knowledgeOf(engine, s, seat, []),
      "c"
    )
    expect(Either.isLeft(refused) && refused.left.code).toBe("unknown_agent")
  })
})

describe("determinism and bad specs", () => {
  it("same knowledge, seed and budget: the same action, call after call", () => {
    for (const [k, s] of positions(2, 9).entries()) {
      const seat = s.decision?.player as Seat
      const know = Agents.knowledgeOf(engine, s, seat, [])
      const ids = [0, 1, 2].map(() =>
        Either.map(Agents.decide(engine, { agent: "ismcts", iterations: 80 }, know, `d/${k}`), (a) => a.id)
      )
      expect(ids[1]).toEqual(ids[0])
      expect(ids[2]).toEqual(ids[0])
    }
  })
  it("unknown agents, iterations out of range and a third seat are unknown_agent / invalid_iterations", () => {
    const code = (e: Either.Either<unknown, { readonly code: string }>) => Either.isLeft(e) ? e.left.code : "ok"
    expect(code(Agents.parseAgentSpec("alphazero"))).toBe("unknown_agent")
    expect(code(Agents.parseAgentSpec("ismcts:0"))).toBe("invalid_iterations")
    expect(code(Agents.parseAgentSpec("ismcts:-5"))).toBe("invalid_iterations")
    expect(code(Agents.parseAgentSpec(`ismcts:${Agents.MAX_ITERATIONS + 1}`))).toBe("invalid_iterations")
    expect(code(Agents.parseMatch("random,greedy,ismcts"))).toBe("unknown_agent")
    expect(code(Agents.parseMatch("random,greedy:3"))).toBe("ok")
    expect(Either.getOrThrow(Agents.parseMatch("greedy"))).toEqual([
      { agent: "greedy", iterations: 16 },
      { agent: "greedy", iterations: 16 }
    ])
  })
})

describe("playGame and matches", () => {
  it("a game between agents replays through the public engine; seats alternate between a match's games", () => {
    const g = Either.getOrThrow(
      Agents.playGame(engine, [{ agent: "greedy", iterations: 2 }, { agent: "random", iterations: 1 }], "pg/1")
    )
    expect(g.result).not.toBeNull()
    let s = Either.getOrThrow(engine.newGame({ seed: "pg/1" }))
    for (const id of g.actions) s = Either.getOrThrow(engine.apply(s, id))
    expect(s.result).toEqual(g.result)
    const p = Either.getOrThrow(
      Agents.matchRange(engine, [{ agent: "greedy", iterations: 2 }, { agent: "random", iterations: 1 }], 0, 4, {
        seed: "m"
      })
    )
    expect(p.counts[Agents.AGENT_RECORDS.games]).toEqual({ "a@0": 2, "a@1": 2, "b@0": 2, "b@1": 2 })
    const w = p.counts[Agents.AGENT_RECORDS.wins] ?? {}
    expect((w["a"] ?? 0) + (w["b"] ?? 0) + (w["draw"] ?? 0)).toBe(4)
  })
})
