/**
 * The balance statistics (src/hallyu/engine/Balance.ts): the per-game fold
 * against an independent count from every step of the same games, the
 * Wilson intervals against published values, the report independent of how
 * the games are split and of the order partials are added (fast-check), and
 * the CSV holding every number of the JSON.
 */
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  balanceCsv,
  type BalanceInput,
  type BalanceReport,
  balanceReport,
  wilson
} from "../../src/hallyu/engine/Balance.js"
import {
  mergeAllPartials,
  playRandom,
  simulateRange,
  type SimulationPartial
} from "../../src/hallyu/engine/Simulate.js"
import type { Seat } from "../../src/hallyu/engine/State.js"
import { engine } from "./engine-fixtures.js"

const SEED = "balance"
const GAMES = 48

const nameOf = (code: string): string => engine.deck.cards.find((c) => c.code === code)?.name ?? ""
const codeOf = (card: number): string => engine.compiled.cards[card]?.def.code ?? "?"

const range = (from: number, to: number): SimulationPartial => {
  const p = simulateRange(engine, from, to, { seed: SEED })
  if (Either.isLeft(p)) throw new Error(p.left.message)
  return p.right
}

const inputOf = (p: SimulationPartial): BalanceInput => ({
  seed: p.seed,
  games: p.to - p.from,
  deckHash: engine.compiled.hash,
  turns: p.turns,
  counts: p.counts
})

const reportOf = (p: SimulationPartial): BalanceReport => balanceReport(inputOf(p), nameOf)

const whole = range(0, GAMES)
const wholeJson = JSON.stringify(reportOf(whole))

describe("balance statistics", () => {
  it("Wilson 95 % intervals match published values; no games is no rate", () => {
    expect(wilson(5, 10)).toEqual({ rate: 0.5, low: 0.2366, high: 0.7634 })
    expect(wilson(0, 10)).toEqual({ rate: 0, low: 0, high: 0.2775 })
    expect(wilson(10, 10)).toEqual({ rate: 1, low: 0.7225, high: 1 })
    expect(wilson(0, 0)).toBeNull()
  })

  it("the fold counts what an observer of every step of the same games counts", () => {
    // Independently: play each game action by action, watching every hand and every cast.
    const inDeck: Record<string, number> = {}
    const drawn: Record<string, number> = {}
    const played: Record<string, number> = {}
    const won: Record<string, number> = {}
    const playedWon: Record<string, number> = {}
    const bump = (r: Record<string, number>, k: string) => (r[k] = (r[k] ?? 0) + 1)
    const wins = [0, 0]
    for (let k = 0; k < GAMES; k++) {
      const seen: [Set<string>, Set<string>] = [new Set(), new Set()]
      const cast: [Set<string>, Set<string>] = [new Set(), new Set()]
      const g = playRandom(engine, {
        seed: `${SEED}/${k}`,
        onStep: (s, a) => {
          for (const seat of [0, 1] as const) {
            for (const inst of s.players[seat].hand) seen[seat].add(codeOf(s.cardOf[inst] ?? -1))
          }
          if (a?.kind === "cast" && a.inst !== null) cast[a.player].add(codeOf(s.cardOf[a.inst] ?? -1))
        }
      })
      if (Either.isLeft(g)) throw new Error(g.left.message)
      const winner = g.right.result?.winner
      if (winner === 0 || winner === 1) wins[winner] = (wins[winner] ?? 0) + 1
      for (const seat of [0, 1] as const satisfies ReadonlyArray<Seat>) {
        const codes = new Set(
          Object.entries(g.right.final.cardOf)
            .filter(([inst]) => inst.startsWith(`p${seat}`))
            .map(([, card]) => codeOf(card))
        )
        for (const code of codes) {
          bump(inDeck, code)
          if (seen[seat].has(code)) bump(drawn, code)
          if (cast[seat].has(code)) bump(played, code)
          if (winner === seat) bump(won, code)
          if (winner === seat && cast[seat].has(code)) bump(playedWon, code)
        }
      }
    }
    const r = reportOf(whole)
    expect(r.games).toBe(GAMES)
    expect(r.seats.map((s) => s.count)).toEqual(wins)
    expect(r.cards.map((c) => c.code)).toEqual(Object.keys(inDeck).sort())
    for (const c of r.cards) {
      expect({ code: c.code, drawn: c.drawn.count, played: c.played.count, of: c.drawn.of }).toEqual({
        code: c.code,
        drawn: drawn[c.code] ?? 0,
        played: played[c.code] ?? 0,
        of: inDeck[c.code]
      })
      expect([c.winWhenPlayed.count, c.winWhenPlayed.of]).toEqual([playedWon[c.code] ?? 0, played[c.code] ?? 0])
      expect([c.inWinnerPlays.count, c.inWinnerPlays.of]).toEqual([playedWon[c.code] ?? 0, won[c.code] ?? 0])
    }
    // Some card was drawn and not played, and some played card lost: the figures are not trivially equal.
    expect(r.cards.some((c) => c.drawn.count > c.played.count)).toBe(true)
    expect(r.cards.some((c) => c.winWhenPlayed.count < c.played.count)).toBe(true)
    const lengths = r.turns.histogram.reduce((n, b) => n + b.games, 0)
    expect(lengths).toBe(GAMES)
    expect(r.reasons.reduce((n, x) => n + x.games.count, 0)).toBe(GAMES)
  })

  it("the same report, byte for byte, for any split of the games and any order of adding the partials", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: GAMES - 1 }), { maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        (cuts, shuffle) => {
          const bounds = [0, ...[...cuts].sort((a, b) => a - b), GAMES]
          const parts = bounds.slice(1).map((to, i) => range(bounds[i] ?? 0, to))
          // In game order, through the merge the worker pool and the cluster use.
          const merged = mergeAllPartials(SEED, 0, parts)
          if (Either.isLeft(merged)) throw new Error(merged.left.message)
          expect(JSON.stringify(reportOf(merged.right))).toBe(wholeJson)
          // In any order: the counts are added key by key into a fresh record.
          const order = [...parts]
          const it = shuffle[Symbol.iterator]()
          for (let i = order.length - 1; i > 0; i--) {
            const j = (it.next().value ?? 0) % (i + 1)
            ;[order[i], order[j]] = [order[j] as SimulationPartial, order[i] as SimulationPartial]
          }
          const counts: Record<string, Record<string, number>> = {}
          for (const p of order) {
            for (const [name, rec] of Object.entries(p.counts)) {
              const into = (counts[name] ??= {})
              for (const [k, v] of Object.entries(rec)) into[k] = (into[k] ?? 0) + v
            }
          }
          const turns = {
            min: Math.min(...order.map((p) => p.turns.min)),
            max: Math.max(...order.map((p) => p.turns.max)),
            sum: order.reduce((n, p) => n + p.turns.sum, 0)
          }
          expect(JSON.stringify(balanceReport({ ...inputOf(whole), turns, counts }, nameOf))).toBe(wholeJson)
        }
      ),
      { numRuns: 12, seed: 26 }
    )
  })

  it("the CSV has a row for every figure of the JSON, with the same numbers", () => {
    const r = reportOf(whole)
    const rows = balanceCsv(r).trimEnd().split("\n").map((l) => l.split(","))
    expect(rows[0]).toEqual(["section", "key", "name", "count", "of", "rate", "low", "high"])
    const row = (section: string, key: string) => rows.find((x) => x[0] === section && x[1] === key)
    const shareCells = (s: BalanceReport["draws"]) => [
      String(s.count),
      String(s.of),
      ...(s.proportion === null ? ["", "", ""] : [s.proportion.rate, s.proportion.low, s.proportion.high].map(String))
    ]
    expect(row("seat", "0")?.slice(3)).toEqual(shareCells(r.seats[0]))
    expect(row("first-seat", "")?.slice(3)).toEqual(shareCells(r.firstSeat))
    expect(row("turns-mean", "")?.[5]).toBe(String(r.turns.mean))
    for (const c of r.cards) {
      expect(row("card-played", c.code)?.slice(3)).toEqual(shareCells(c.played))
      expect(row("card-win-when-played", c.code)?.slice(3)).toEqual(shareCells(c.winWhenPlayed))
      expect(row("card-in-winner-plays", c.code)?.slice(3)).toEqual(shareCells(c.inWinnerPlays))
      expect(row("card-plays", c.code)?.[3]).toBe(String(c.plays))
    }
    const expected = 1 + 1 + 2 + 1 + 1 + r.reasons.length + r.turns.histogram.length + 3 + 5 * r.cards.length
    expect(rows).toHaveLength(expected)
  })
})
