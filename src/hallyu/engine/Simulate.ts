/**
 * Seeded random playouts, game logs and replay. A game log is the seed (and
 * deck lists) plus the action IDs; it also records the state fingerprint
 * (sha256 of the canonical JSON of the state) after every step, which replay
 * checks step by step.
 *
 * The random player draws from its own RNG stream (`hhx.player`), separate
 * from the game's, so a log replays without it.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { hashCanonical } from "../../kernel/Canonical.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { RngStream } from "../../kernel/Rng.js"
import * as SchemaExt from "../../kernel/SchemaExt.js"
import { makeBalanceFold } from "./Balance.js"
import type { Engine, GameOptions } from "./Engine.js"
import { mutableGameOf, type MutablePlayout } from "./Playout.js"
import type { GameAction, GameResult, GameState, TerminalReason } from "./State.js"
import { addTally, emptyRecord, makeTally, OP_NAMES, talliedApplyOf } from "./Tally.js"

/** The state fingerprint checked by replay. */
export const fingerprint = (s: GameState): string => hashCanonical(s)

/** A game log: the seed (and deck lists) plus the action IDs, with the fingerprint after every step. */
export const GameLogSchema = Schema.Struct({
  format: Schema.Literal("hhx-log/1"),
  deckHash: Schema.String,
  seed: Schema.String,
  decks: Schema.NullOr(SchemaExt.pair(Schema.String)),
  actions: Schema.Array(Schema.String),
  /** Fingerprint of the initial state, then after every action (may be empty: then only legality is checked). */
  fingerprints: Schema.Array(Schema.String),
  /**
   * True when the log records a game on purpose stopped before its end (a playout cut by its action
   * bound, a game saved mid-way). Absent or false: the actions must reach the end of the game, or
   * replay reports `replay_incomplete`.
   */
  partial: Schema.optional(Schema.Boolean)
})
export type GameLog = typeof GameLogSchema.Type

export interface PlayoutStats {
  readonly actions: number
  readonly plays: Record<string, number>
  readonly operations: Record<string, number>
}

export interface Playout {
  readonly result: GameResult | null
  readonly turns: number
  readonly final: GameState
  readonly actions: ReadonlyArray<string>
  readonly stats: PlayoutStats
  /** Card indices each seat cast, in cast order (the balance statistics' "played"). */
  readonly playedBySeat: readonly [ReadonlyArray<number>, ReadonlyArray<number>]
}

export interface PlayoutOptions extends GameOptions {
  /** Record fingerprints (for a log); costs a hash per step. */
  readonly fingerprints?: boolean
  /** Called after every step (tests use it to check invariants). */
  readonly onStep?: (state: GameState, action: GameAction | null) => void
  /** A safety bound on actions; a game that passes it is reported as unfinished. */
  readonly maxActions?: number
}

/** Plays one game with uniformly random legal actions. */
export const playRandom = (
  engine: Engine,
  o: PlayoutOptions
): Either.Either<Playout & { readonly log: GameLog }, Diagnostic> => {
  // With no caller watching the states in between, the game is played in place (`Playout.ts`), on
  // the draft its setup resolved on; otherwise (and on an engine without in-place playouts) action
  // by action through `apply`, from `newGame`'s state.
  const inPlaceOf = o.onStep === undefined && o.fingerprints !== true ? mutableGameOf(engine) : undefined
  let game: MutablePlayout | undefined
  let start: GameState | undefined
  if (inPlaceOf !== undefined) {
    const g = inPlaceOf(o)
    if (Either.isLeft(g)) return Either.left(g.left)
    game = g.right
  } else {
    const g = engine.newGame(o)
    if (Either.isLeft(g)) return Either.left(g.left)
    start = g.right
  }
  const rng = RngStream.fromSeed(String(o.seed), "hhx.player")
  const actions: Array<string> = []
  const fps: Array<string> = o.fingerprints === true && start !== undefined ? [fingerprint(start)] : []
  // Plays are counted by card index and operations by operation index; the records are built at
  // the end with their keys in first-counted order, as counting name by name would give them.
  const playCounts = new Array<number>(engine.compiled.cards.length).fill(0)
  const playOrder: Array<number> = []
  const operations = emptyRecord<number>()
  const tally = makeTally()
  const cardOf = game !== undefined ? game.cardOf : (start as GameState).cardOf // one of them is set; never changes
  const playedBySeat: [Array<number>, Array<number>] = [[], []]
  const countPlay = (a: GameAction): void => {
    if (a.kind === "cast" && a.inst !== null) {
      const ci = cardOf[a.inst] ?? 0
      playedBySeat[a.player].push(ci)
      const n = playCounts[ci] ?? 0
      if (n === 0) playOrder.push(ci)
      playCounts[ci] = n + 1
    }
  }
  const tallied = talliedApplyOf(engine)
  const max = o.maxActions ?? 100_000
  if (game !== undefined) {
    while (game.result() === null && actions.length < max) {
      const legal = game.legal()
      const a = legal[rng.int(legal.length)]
      if (a === undefined) {
        const ply = game.state().ply
        return Either.left(diagnostic("illegal_action", "a live game has no legal action", { subject: String(ply) }))
      }
      countPlay(a)
      const bad = game.step(a, tally)
      if (bad !== null) return Either.left(bad)
      actions.push(a.id)
    }
  } else if (start !== undefined) o.onStep?.(start, null)
  let s = game !== undefined ? game.state() : (start as GameState) // one of them is set
  while (s.result === null && actions.length < max) {
    const legal = engine.legalActions(s)
    const a = legal[rng.int(legal.length)]
    if (a === undefined) {
      return Either.left(diagnostic("illegal_action", "a live game has no legal action", { subject: String(s.ply) }))
    }
    countPlay(a)
    const next = tallied !== undefined ? tallied(s, a, tally) : engine.apply(s, a, operations)
    if (Either.isLeft(next)) return Either.left(next.left)
    s = next.right
    actions.push(a.id)
    if (o.fingerprints === true) fps.push(fingerprint(s))
    o.onStep?.(s, a)
  }
  const plays = emptyRecord<number>()
  for (const ci of playOrder) {
    const code = engine.compiled.cards[ci]?.def.code ?? "?"
    plays[code] = (plays[code] ?? 0) + (playCounts[ci] ?? 0)
  }
  addTally(tally, operations) // (empty when an engine without a tallied apply counted into `operations` itself)
  return Either.right({
    result: s.result,
    turns: s.turn,
    final: s,
    actions,
    stats: { actions: actions.length, plays, operations },
    playedBySeat,
    log: {
      format: "hhx-log/1",
      deckHash: s.deckHash,
      seed: s.seed,
      decks: o.decks ?? null,
      actions,
      fingerprints: fps,
      // A playout cut by `maxActions` is a partial game, and its log says so.
      ...(s.result === null ? { partial: true } : {})
    }
  })
}

/**
 * Re-executes a log, checking every action is legal and every fingerprint
 * matches, and that the actions reach the end of the game unless the log
 * says it is `partial` (`replay_incomplete` otherwise).
 */
export const replay = (engine: Engine, log: GameLog): Either.Either<GameState, Diagnostic> => {
  if (log.deckHash !== engine.compiled.hash) {
    return Either.left(diagnostic("replay_mismatch", "the log was recorded with another deck", { subject: "deckHash" }))
  }
  const start = engine.newGame(log.decks === null ? { seed: log.seed } : { seed: log.seed, decks: log.decks })
  if (Either.isLeft(start)) return start
  let s = start.right
  const check = (k: number): Diagnostic | undefined => {
    const want = log.fingerprints[k]
    if (want === undefined) return undefined
    const got = fingerprint(s)
    return got === want
      ? undefined
      : diagnostic("replay_mismatch", `fingerprint differs after step ${k}`, {
        subject: String(k),
        details: { step: k, expected: want, actual: got }
      })
  }
  const first = check(0)
  if (first !== undefined) return Either.left(first)
  for (let k = 0; k < log.actions.length; k++) {
    const next = engine.apply(s, log.actions[k] as string)
    if (Either.isLeft(next)) return Either.left({ ...next.left, subject: `step ${k + 1}: ${log.actions[k] ?? ""}` })
    s = next.right
    const bad = check(k + 1)
    if (bad !== undefined) return Either.left(bad)
  }
  if (s.result === null && log.partial !== true) {
    const waiting = s.decision === null ? "no decision" : `a ${s.decision.d} decision of seat ${s.decision.player}`
    return Either.left(
      diagnostic(
        "replay_incomplete",
        `the log's ${log.actions.length} actions end before the game does (turn ${s.turn}, ${waiting} pending); a log of a partial game says "partial": true`,
        {
          subject: "actions",
          details: { steps: log.actions.length, turn: s.turn }
        }
      )
    )
  }
  return Either.right(s)
}

export interface SimulationSummary {
  readonly games: number
  readonly seed: string
  readonly winsBySeat: { readonly "0": number; readonly "1": number; readonly draw: number }
  readonly reasons: Record<TerminalReason | "unfinished", number>
  readonly turns: { readonly min: number; readonly mean: number; readonly max: number }
  readonly actions: number
  readonly plays: Record<string, number>
  /** Executions per operation, every operation of the vocabulary listed (0: not reached). */
  readonly operations: Record<string, number>
}

/** Integer counts; merged key by key. */
const Counts = Schema.Record({ key: Schema.String, value: Schema.Number })

/**
 * What games [from, to) of a simulation add up to: integer counts only (the
 * mean is computed from the sum when the summary is made), so partials merged
 * in game order give the same summary, byte for byte, however the games were
 * split. A Schema, so partials cross worker and machine boundaries.
 */
export const SimulationPartialSchema = Schema.Struct({
  seed: Schema.String,
  from: Schema.Number,
  to: Schema.Number,
  turns: Schema.Struct({ min: Schema.Number, max: Schema.Number, sum: Schema.Number }),
  actions: Schema.Number,
  /** Named count records (`winsBySeat`, `reasons`, `plays`, `operations`, ...). */
  counts: Schema.Record({ key: Schema.String, value: Counts })
})
export type SimulationPartial = typeof SimulationPartialSchema.Type

type CountRecords = Record<string, Record<string, number>>

/** The count records every partial starts from (fixed keys first, so merged records keep their order). */
const emptyCounts = (): CountRecords => ({
  winsBySeat: { "0": 0, "1": 0, draw: 0 },
  reasons: { composure: 0, "trend-cap": 0, simultaneous: 0, "turn-limit": 0, unfinished: 0 },
  plays: {},
  // Every operation is listed, 0 when no game executed it, so a summary shows what a run covered.
  operations: Object.fromEntries(OP_NAMES.map((op) => [op, 0]))
})

/** The partial of no games, starting at `from`. */
export const emptyPartial = (seed: string | number, from: number): SimulationPartial => ({
  seed: String(seed),
  from,
  to: from,
  turns: { min: Number.MAX_SAFE_INTEGER, max: 0, sum: 0 },
  actions: 0,
  counts: emptyCounts()
})

const addCounts = (into: Record<string, number>, from: Readonly<Record<string, number>>): void => {
  for (const k of Object.keys(from)) into[k] = (into[k] ?? 0) + (from[k] ?? 0)
}

/** Merges two adjacent partials of the same seed (`a` ends where `b` starts). */
export const mergePartials = (
  a: SimulationPartial,
  b: SimulationPartial
): Either.Either<SimulationPartial, Diagnostic> => {
  if (a.seed !== b.seed || a.to !== b.from) {
    return Either.left(
      diagnostic(
        "simulation_split",
        `cannot merge games [${a.from}, ${a.to}) of seed ${a.seed} with [${b.from}, ${b.to}) of seed ${b.seed}`,
        {
          subject: `${b.from}`
        }
      )
    )
  }
  const counts: CountRecords = {}
  for (const name of [...Object.keys(a.counts), ...Object.keys(b.counts)]) {
    if (counts[name] !== undefined) continue
    const into: Record<string, number> = {}
    addCounts(into, a.counts[name] ?? {})
    addCounts(into, b.counts[name] ?? {})
    counts[name] = into
  }
  return Either.right({
    seed: a.seed,
    from: a.from,
    to: b.to,
    turns: {
      min: Math.min(a.turns.min, b.turns.min),
      max: Math.max(a.turns.max, b.turns.max),
      sum: a.turns.sum + b.turns.sum
    },
    actions: a.actions + b.actions,
    counts
  })
}

/** Merges partials in game order; they must cover [first.from, last.to) without gaps. */
export const mergeAllPartials = (
  seed: string | number,
  from: number,
  parts: Iterable<SimulationPartial>
): Either.Either<SimulationPartial, Diagnostic> => {
  let acc: Either.Either<SimulationPartial, Diagnostic> = Either.right(emptyPartial(seed, from))
  for (const p of parts) acc = Either.flatMap(acc, (a) => mergePartials(a, p))
  return acc
}

const sortedRecord = (r: Readonly<Record<string, number>>): Record<string, number> => {
  const out: Record<string, number> = {}
  for (const k of Object.keys(r).sort(compareOrdinal)) out[k] = r[k] ?? 0
  return out
}

/** The summary of a partial covering games [0, n). */
export const summarize = (p: SimulationPartial): SimulationSummary => {
  const games = p.to - p.from
  const wins = p.counts["winsBySeat"] ?? {}
  const reasons = p.counts["reasons"] ?? {}
  return {
    games,
    seed: p.seed,
    winsBySeat: { "0": wins["0"] ?? 0, "1": wins["1"] ?? 0, draw: wins["draw"] ?? 0 },
    reasons: {
      composure: reasons["composure"] ?? 0,
      "trend-cap": reasons["trend-cap"] ?? 0,
      simultaneous: reasons["simultaneous"] ?? 0,
      "turn-limit": reasons["turn-limit"] ?? 0,
      unfinished: reasons["unfinished"] ?? 0
    },
    turns: { min: games === 0 ? 0 : p.turns.min, mean: games === 0 ? 0 : p.turns.sum / games, max: p.turns.max },
    actions: p.actions,
    plays: sortedRecord(p.counts["plays"] ?? {}),
    operations: sortedRecord(p.counts["operations"] ?? {})
  }
}

/** Options of a simulation range. */
export interface SimulationRangeOptions {
  readonly seed: string | number
  readonly decks?: readonly [string, string]
  /** Record per-step fingerprints in each game's log. */
  readonly fingerprints?: boolean
  /** Called after each game (progress, log collection). */
  readonly onGame?: (k: number, game: Playout & { readonly log: GameLog }) => void
}

/**
 * Plays games [from, to) with seeds `<seed>/<k>` and adds them up. Pure: the
 * same range gives the same partial wherever it runs. A game that fails ends
 * the range with its diagnostic (the first failing game of a split is the
 * first failing game of the whole run).
 */
export const simulateRange = (
  engine: Engine,
  from: number,
  to: number,
  o: SimulationRangeOptions
): Either.Either<SimulationPartial, Diagnostic> => {
  const counts = emptyCounts()
  const wins = counts["winsBySeat"] as Record<string, number>
  const reasons = counts["reasons"] as Record<string, number>
  const plays = counts["plays"] as Record<string, number>
  const operations = counts["operations"] as Record<string, number>
  let tMin = Number.MAX_SAFE_INTEGER
  let tMax = 0
  let tSum = 0
  let actions = 0
  const fingerprints = o.fingerprints === true
  const balance = makeBalanceFold(engine.compiled.cards.map((c) => c.def.code))
  for (let k = from; k < to; k++) {
    const seed = `${o.seed}/${k}`
    const r = playRandom(
      engine,
      o.decks === undefined ? { seed, fingerprints } : { seed, fingerprints, decks: o.decks }
    )
    if (Either.isLeft(r)) return Either.left(r.left)
    const g = r.right
    if (g.result === null) reasons["unfinished"] = (reasons["unfinished"] ?? 0) + 1
    else {
      reasons[g.result.reason] = (reasons[g.result.reason] ?? 0) + 1
      const seat = g.result.winner === null ? "draw" : g.result.winner === 0 ? "0" : "1"
      wins[seat] = (wins[seat] ?? 0) + 1
    }
    tMin = Math.min(tMin, g.turns)
    tMax = Math.max(tMax, g.turns)
    tSum += g.turns
    actions += g.actions.length
    addCounts(plays, g.stats.plays)
    addCounts(operations, g.stats.operations)
    balance.add(g)
    o.onGame?.(k, g)
  }
  balance.flush(counts)
  return Either.right({
    seed: String(o.seed),
    from,
    to: Math.max(from, to),
    turns: { min: tMin, max: tMax, sum: tSum },
    actions,
    counts
  })
}

/** Plays `games` random games with seeds `<seed>/0`, `<seed>/1`, ... and summarises them. */
export const simulate = (
  engine: Engine,
  o: SimulationRangeOptions & { readonly games: number }
): Either.Either<SimulationSummary, Diagnostic> => Either.map(simulateRange(engine, 0, o.games, o), summarize)
