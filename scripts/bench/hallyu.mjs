/**
 * Benchmark: the Hallyu Hex engine on the starter deck, one core.
 *
 * Rows: seeded random playouts per second (each game: setup, every
 * `legalActions`, every `apply`, until a terminal check ends it), actions per
 * second in the same run, and the median cost of one `legalActions` call over
 * the states of 200 recorded games, uncached (each call gets its own shallow
 * copy of the state, made before timing). Goals from issue 7: ≥ 5,000
 * games/s, ≥ 200,000 actions/s, enumeration ≤ 2 µs median. CPU time of this
 * process for throughput; wall time in batches for the median.
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { readFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { Either } from "effect"
import { makeEngine, playRandom, validateDeck } from "../../dist/hallyu/index.js"
import { parseJson } from "../../dist/kernel/Json.js"
import { median } from "./timing.mjs"

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const loadEngine = () => {
  const doc = parseJson(readFileSync("data/hallyu-hex/starter-deck.v0.json"), { file: "starter-deck.v0.json" })
  if (Either.isLeft(doc)) throw new Error(doc.left.message)
  const v = validateDeck(doc.right)
  if (v.deck === undefined) throw new Error(JSON.stringify(v.diagnostics))
  const e = makeEngine(v.deck)
  if (Either.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

export async function run() {
  const engine = loadEngine()
  // Warm up.
  for (let g = 0; g < 300; g++) playRandom(engine, { seed: `warm/${g}` })

  let games = 0
  let actions = 0
  const t0 = cpuMs()
  while (cpuMs() - t0 < 3000) {
    const r = playRandom(engine, { seed: `bench/${games}` })
    if (Either.isLeft(r)) throw new Error(r.left.message)
    actions += r.right.actions.length
    games++
  }
  const seconds = (cpuMs() - t0) / 1000

  const states = []
  for (let g = 0; g < 200; g++) playRandom(engine, { seed: `enum/${g}`, onStep: (s) => s.result === null && states.push(s) })
  const REPS = 50
  const perCall = []
  for (let k = 0; k < states.length; k += 7) {
    const copies = Array.from({ length: REPS }, () => ({ ...states[k] }))
    const t = performance.now()
    for (const c of copies) engine.legalActions(c)
    perCall.push(((performance.now() - t) * 1000) / REPS)
  }
  const enumMedian = median(perCall)

  return [
    { name: "random playouts, starter deck", value: Math.round(games / seconds), unit: "games/s", goal: "≥ 5,000", ok: games / seconds >= 5000 },
    { name: "random playouts, starter deck", value: Math.round(actions / seconds), unit: "actions/s", goal: "≥ 200,000", ok: actions / seconds >= 200000 },
    { name: "legalActions median (uncached, recorded states)", value: Number(enumMedian.toFixed(2)), unit: "µs", goal: "≤ 2", ok: enumMedian <= 2 },
    { name: "mean actions per game", value: Number((actions / games).toFixed(1)), unit: "actions" }
  ]
}
