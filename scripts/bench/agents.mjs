/**
 * Benchmark: the Hallyu Hex agents (issue 39), one core, CPU time.
 *
 * Rows:
 * - ISMCTS iterations per second (random playouts cut at PLAYOUT_PLIES and
 *   scored by the evaluation) in the median mid-game position: positions are
 *   taken halfway through POSITIONS seeded random games (a decision with at
 *   least two legal actions), each searched once with 1,000 iterations after
 *   a warm-up; the row is the median over the positions. Goal ≥ 20,000.
 * - the median decision of the `ismcts` agent (greedy-light playouts) at
 *   1,000 iterations over the same positions, in ms. Goal ≤ 50 ms.
 * - greedy (16 worlds per action) median decision, for scale.
 * - a tournament on 2 worker threads against 1 (`cardfx tournament --agents
 *   greedy:4,ismcts:1000 --games 48`, the built bin, wall time): the
 *   speed-up. Goal ≥ 1.8 (meaningful only on an idle machine with 2 cores).
 * - a reference loop (machine load).
 *
 * The strength figures (≥ 2,000 games per pairing) cost hours of CPU and are
 * not bench rows: docs/hallyu-hex.md gives the commands and the measured
 * figures.
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { Either } from "effect"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { Agents, makeEngine, validateDeck } from "../../dist/hallyu/index.js"
import { parseJson } from "../../dist/kernel/Json.js"
import { RngStream } from "../../dist/kernel/Rng.js"
import { cpuMs, median, referenceRow } from "./timing.mjs"

const POSITIONS = 25
const ITERATIONS = 1000

const loadEngine = () => {
  const doc = parseJson(readFileSync("data/hallyu-hex/starter-deck.v0.json"), { file: "starter-deck.v0.json" })
  if (Either.isLeft(doc)) throw new Error(doc.left.message)
  const v = validateDeck(doc.right)
  if (v.deck === undefined) throw new Error(JSON.stringify(v.diagnostics))
  const e = makeEngine(v.deck)
  if (Either.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

/** A decision halfway through a seeded random game (the first one with two or more legal actions from there). */
const midGame = (engine, seed) => {
  const states = []
  let s = Either.getOrThrow(engine.newGame({ seed }))
  const rng = RngStream.fromSeed(seed, "bench")
  while (s.result === null) {
    const legal = engine.legalActions(s)
    states.push(s)
    s = Either.getOrThrow(engine.apply(s, legal[rng.int(legal.length)]))
  }
  for (let k = Math.floor(states.length / 2); k < states.length; k++) {
    if (engine.legalActions(states[k]).length >= 2) return states[k]
  }
  return undefined
}

export async function run() {
  const engine = loadEngine()
  const positions = []
  for (let g = 0; positions.length < POSITIONS; g++) {
    const p = midGame(engine, `agents-bench/${g}`)
    if (p !== undefined) positions.push(p)
  }
  const decideOn = (spec, s, seed) => {
    const seat = s.decision.player
    const r = Agents.decide(engine, spec, Agents.knowledgeOf(engine, s, seat, []), seed)
    if (Either.isLeft(r)) throw new Error(r.left.message)
  }
  /** The search with random playouts (what the speed goal names), on a position, timed. */
  const randomSearchMs = (s, seed) => {
    const know = Agents.knowledgeOf(engine, s, s.decision.player, [])
    const t0 = cpuMs()
    Agents.ismcts(
      engine,
      know.legal,
      (r) => Agents.determinize(know, r),
      ITERATIONS,
      RngStream.fromSeed(seed, "hhx.agent"),
      undefined,
      "random"
    )
    return cpuMs() - t0
  }
  const ismcts = { agent: "ismcts", iterations: ITERATIONS }
  // Warm-up: the optimizing compiler settles over a few hundred thousand playout steps.
  const w0 = cpuMs()
  for (let k = 0; cpuMs() - w0 < 3000; k++) {
    decideOn(ismcts, positions[k % positions.length], `warm/${k}`)
    randomSearchMs(positions[k % positions.length], `warm/${k}`)
  }

  const ms = []
  for (const [k, s] of positions.entries()) {
    const t0 = cpuMs()
    decideOn(ismcts, s, `bench/${k}`)
    ms.push(cpuMs() - t0)
  }
  const decisionMs = median(ms)
  const randomMs = median(positions.map((s, k) => randomSearchMs(s, `bench/${k}`)))
  const perSecond = (ITERATIONS / randomMs) * 1000
  const greedyMs = median(positions.map((s, k) => {
    const t0 = cpuMs()
    decideOn({ agent: "greedy", iterations: 16 }, s, `greedy/${k}`)
    return cpuMs() - t0
  }))

  // Two worker threads against one, the built bin, wall time (the bytes must be the same).
  const args = [
    "dist/cli/cardfx.mjs",
    "tournament",
    "--agents",
    "random,greedy:4,ismcts:100",
    "--games",
    "24",
    "--quiet"
  ]
  const timed = (workers) => {
    const t0 = performance.now()
    const out = execFileSync(process.execPath, [...args, "--workers", String(workers)], { encoding: "utf8" })
    return { ms: performance.now() - t0, out }
  }
  const one = timed(1)
  const two = timed(2)
  if (one.out !== two.out) throw new Error("the tournament differs between 1 and 2 workers")
  const speedup = one.ms / two.ms

  return [
    {
      name:
        `ismcts iterations/s, median mid-game position (${POSITIONS} positions, ${ITERATIONS} iterations, random playouts)`,
      value: Math.round(perSecond),
      unit: "iterations/s",
      goal: "≥ 20,000",
      ok: perSecond >= 20_000
    },
    {
      name: `ismcts:${ITERATIONS} decision (the agent: greedy-light playouts), median over the positions`,
      value: Number(decisionMs.toFixed(1)),
      unit: "ms CPU",
      goal: "≤ 50",
      ok: decisionMs <= 50
    },
    {
      name: `ismcts:${ITERATIONS} with random playouts: decision, median over the positions`,
      value: Number(randomMs.toFixed(1)),
      unit: "ms CPU"
    },
    { name: "greedy:16 decision, median over the positions", value: Number(greedyMs.toFixed(2)), unit: "ms CPU" },
    {
      name: "tournament greedy:4,ismcts:1000 × 48 games: 2 workers against 1 (wall time, same bytes)",
      value: Number(speedup.toFixed(2)),
      unit: "×",
      goal: "≥ 1.8",
      ok: speedup >= 1.8
    },
    referenceRow("agents")
  ]
}
