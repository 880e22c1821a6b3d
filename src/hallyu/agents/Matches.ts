/**
 * Matches between two agents, as simulation ranges: game `k` of a match
 * seeded `s` is played with the game seed `<s>/<k>`, the first agent on
 * seat 0 when `k` is even and on seat 1 when it is odd (seats alternate, so
 * neither agent always starts). A range's games add up to a
 * `SimulationPartial` (the random simulation's counts and balance counts,
 * plus the `agents.*` records below), which merges with its neighbours' by
 * adding counts: the same bytes however the games were split.
 *
 * Also the tournament's pure parts: the win matrix with 95 % Wilson
 * intervals and Elo ratings (a Bradley–Terry fit).
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { makeBalanceFold, wilson } from "../engine/Balance.js"
import type { Engine } from "../engine/Engine.js"
import { emptyPartial, type SimulationPartial } from "../engine/Simulate.js"
import { type AgentSpec, parseAgentSpec } from "./Agent.js"
import { playGame } from "./Play.js"

/** The count records a match adds (keys: `a` the first agent, `b` the second; `@0`/`@1` the seat). */
export const AGENT_RECORDS = {
  /** Games won by each agent (`a`, `b`) and drawn (`draw`). */
  wins: "agents.wins",
  /** Games each agent played on each seat (`a@0`, `a@1`, `b@0`, `b@1`). */
  games: "agents.games",
  /** Games each agent won on each seat. */
  seatWins: "agents.seatWins"
} as const

/** An agent's canonical text: `name:iterations`. */
export const agentText = (a: AgentSpec): string => `${a.agent}:${a.iterations}`

/** A list of agents, `name[:iterations]` separated by commas (the CLI's `--agents`). */
export const parseAgentList = (text: string): Either.Either<ReadonlyArray<AgentSpec>, Diagnostic> => {
  const out: Array<AgentSpec> = []
  for (const part of text.split(",")) {
    const a = parseAgentSpec(part.trim())
    if (Either.isLeft(a)) return Either.left(a.left)
    out.push(a.right)
  }
  return Either.right(out)
}

/**
 * The two agents of a match, from `a` or `a,b` (one agent plays both seats). A third agent is for a
 * seat that does not exist: `unknown_agent`.
 */
export const parseMatch = (text: string): Either.Either<readonly [AgentSpec, AgentSpec], Diagnostic> =>
  Either.flatMap(parseAgentList(text), (xs) => {
    const [a, b] = xs
    if (a === undefined || xs.length > 2) {
      return Either.left(
        diagnostic(
          "unknown_agent",
          `a game has two seats: give one agent or two (got ${xs.length}: ${text.slice(0, 64)})`,
          { subject: text.slice(0, 64) }
        )
      )
    }
    return Either.right([a, b ?? a] as const)
  })

/** Games [from, to) of the match `agents` seeded `seed` (see the module's comment). */
export const matchRange = (
  engine: Engine,
  agents: readonly [AgentSpec, AgentSpec],
  from: number,
  to: number,
  o: { readonly seed: string; readonly decks?: readonly [string, string] }
): Either.Either<SimulationPartial, Diagnostic> => {
  const p = emptyPartial(o.seed, from)
  const counts = p.counts as Record<string, Record<string, number>>
  const wins = counts["winsBySeat"] as Record<string, number>
  const reasons = counts["reasons"] as Record<string, number>
  const plays = counts["plays"] as Record<string, number>
  const aw: Record<string, number> = { a: 0, b: 0, draw: 0 }
  const ag: Record<string, number> = { "a@0": 0, "a@1": 0, "b@0": 0, "b@1": 0 }
  const as: Record<string, number> = { "a@0": 0, "a@1": 0, "b@0": 0, "b@1": 0 }
  const balance = makeBalanceFold(engine.compiled.cards.map((c) => c.def.code))
  let tMin = Number.MAX_SAFE_INTEGER
  let tMax = 0
  let tSum = 0
  let actions = 0
  const add = (r: Record<string, number>, k: string): void => {
    r[k] = (r[k] ?? 0) + 1
  }
  for (let k = from; k < to; k++) {
    const swap = k % 2 === 1
    const seats: readonly [AgentSpec, AgentSpec] = swap ? [agents[1], agents[0]] : agents
    const operations = counts["operations"] as Record<string, number>
    const g = playGame(
      engine,
      seats,
      `${o.seed}/${k}`,
      o.decks === undefined ? { operations } : { operations, decks: o.decks }
    )
    if (Either.isLeft(g)) return Either.left(g.left)
    const game = g.right
    // Who is on seat 0: `a` on even games.
    const on0 = swap ? "b" : "a"
    const on1 = swap ? "a" : "b"
    add(ag, `${on0}@0`)
    add(ag, `${on1}@1`)
    if (game.result === null) add(reasons, "unfinished")
    else {
      add(reasons, game.result.reason)
      const w = game.result.winner
      add(wins, w === null ? "draw" : w === 0 ? "0" : "1")
      if (w === null) add(aw, "draw")
      else {
        const who = w === 0 ? on0 : on1
        add(aw, who)
        add(as, `${who}@${w}`)
      }
    }
    for (const seat of [0, 1] as const) {
      for (const ci of game.playedBySeat[seat]) {
        const code = engine.compiled.cards[ci]?.def.code ?? "?"
        plays[code] = (plays[code] ?? 0) + 1
      }
    }
    tMin = Math.min(tMin, game.turns)
    tMax = Math.max(tMax, game.turns)
    tSum += game.turns
    actions += game.actions.length
    balance.add(game)
  }
  balance.flush(counts)
  counts[AGENT_RECORDS.wins] = aw
  counts[AGENT_RECORDS.games] = ag
  counts[AGENT_RECORDS.seatWins] = as
  return Either.right({
    ...p,
    to: Math.max(from, to),
    turns: { min: tMin, max: tMax, sum: tSum },
    actions
  })
}

// ------------------------------------------------------------------ reports

const DIGITS = 4
const round = (x: number): number => Math.round(x * 10 ** DIGITS) / 10 ** DIGITS

/** A score rate (wins + draws / 2 over games) with its 95 % Wilson interval. */
export const Rate = Schema.Struct({ rate: Schema.Number, low: Schema.Number, high: Schema.Number })
export type Rate = typeof Rate.Type

/** The Wilson interval of a score (draws count half: the interval of wins + draws/2 out of games). */
export const scoreRate = (score: number, games: number): Rate => {
  const w = wilson(score, games)
  return w === null ? { rate: 0, low: 0, high: 0 } : { rate: round(w.rate), low: round(w.low), high: round(w.high) }
}

/** A match's result from the first agent's side. */
export const MatchReport = Schema.Struct({
  a: Schema.String,
  b: Schema.String,
  games: Schema.Number,
  winsA: Schema.Number,
  winsB: Schema.Number,
  draws: Schema.Number,
  /** The first agent's score rate. */
  scoreA: Rate,
  /** Each agent's score rate on each seat. */
  seats: Schema.Struct({ aOn0: Rate, aOn1: Rate, bOn0: Rate, bOn1: Rate })
})
export type MatchReport = typeof MatchReport.Type

/** The match report of a partial covering a match's games. */
export const matchReport = (agents: readonly [AgentSpec, AgentSpec], p: SimulationPartial): MatchReport => {
  const w = p.counts[AGENT_RECORDS.wins] ?? {}
  const g = p.counts[AGENT_RECORDS.games] ?? {}
  const s = p.counts[AGENT_RECORDS.seatWins] ?? {}
  const games = p.to - p.from
  const wa = w["a"] ?? 0
  const wb = w["b"] ?? 0
  const d = w["draw"] ?? 0
  const seat = (who: "a" | "b", on: 0 | 1): Rate => {
    const n = g[`${who}@${on}`] ?? 0
    const won = s[`${who}@${on}`] ?? 0
    // The draws of these games are not split by seat: count a seat's score from its wins and its
    // share of the draws (the games on the seat minus wins and losses are draws).
    const other = who === "a" ? "b" : "a"
    const lost = s[`${other}@${on === 0 ? 1 : 0}`] ?? 0
    return scoreRate(won + (n - won - lost) / 2, n)
  }
  return {
    a: agentText(agents[0]),
    b: agentText(agents[1]),
    games,
    winsA: wa,
    winsB: wb,
    draws: d,
    scoreA: scoreRate(wa + d / 2, games),
    seats: { aOn0: seat("a", 0), aOn1: seat("a", 1), bOn0: seat("b", 0), bOn1: seat("b", 1) }
  }
}

/** A tournament: every pair of agents played a match of `games` games. */
export const TournamentReport = Schema.Struct({
  format: Schema.Literal("hhx-tournament/1"),
  seed: Schema.String,
  deckHash: Schema.String,
  /** Games per pairing. */
  games: Schema.Number,
  agents: Schema.Array(Schema.String),
  /** Every pairing i < j, in order, from agent i's side. */
  matches: Schema.Array(MatchReport),
  /** Elo ratings (Bradley–Terry fit of all the matches; the first agent at 1000), in the agents' order. */
  elo: Schema.Array(Schema.Struct({ agent: Schema.String, elo: Schema.Number }))
}).annotations({ identifier: "HhxTournament" })
export type TournamentReport = typeof TournamentReport.Type

/** The pairings of `n` agents, i < j in order (a tournament's matches). */
export const pairings = (n: number): ReadonlyArray<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j])
  return out
}

/**
 * Elo ratings from the matches: the Bradley–Terry maximum-likelihood strengths (Hunter's MM
 * iterations, a fixed number: deterministic), each score given half a point of prior towards
 * even so that a whitewash stays finite, as `400·log10` with the first agent at 1000, rounded.
 */
export const eloOf = (n: number, matches: ReadonlyArray<MatchReport & { readonly i: number; readonly j: number }>) => {
  const gamma = new Array<number>(n).fill(1)
  const score = new Array<number>(n).fill(0)
  for (const m of matches) {
    const sa = m.winsA + m.draws / 2 + 0.5
    const sb = m.winsB + m.draws / 2 + 0.5
    score[m.i] = (score[m.i] ?? 0) + sa
    score[m.j] = (score[m.j] ?? 0) + sb
  }
  for (let it = 0; it < 500; it++) {
    for (let i = 0; i < n; i++) {
      let den = 0
      for (const m of matches) {
        const g = m.games + 1
        if (m.i === i) den += g / ((gamma[i] ?? 1) + (gamma[m.j] ?? 1))
        else if (m.j === i) den += g / ((gamma[i] ?? 1) + (gamma[m.i] ?? 1))
      }
      if (den > 0) gamma[i] = (score[i] ?? 0) / den
    }
    const g0 = gamma[0] ?? 1
    for (let i = 0; i < n; i++) gamma[i] = (gamma[i] ?? 1) / g0
  }
  return gamma.map((g) => Math.round(1000 + 400 * Math.log10(g)))
}
