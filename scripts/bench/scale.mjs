/**
 * Scale-out across cores: games/s of `runSimulation` with 1 worker (in this
 * process) and with all cores (worker threads), the same games and seed, in
 * the same run; the ratio is the speed-up (goal ≥ 1.8× on 2 cores). Wall time
 * (parallelism is about wall time), median of 3 windows each. Two figures per
 * pool: end to end (the pool's start-up — threads loading the worker bundle,
 * validating the deck, a cold JIT — inside the window, as a command pays it)
 * and steady state (from the first answered chunk to the end), with the
 * start-up itself as its own row.
 */
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { performance } from "node:perf_hooks"
import { makeEngine } from "../../dist/hallyu/engine/Engine.js"
import { deckFromJson } from "../../dist/workers/Deck.js"
import { runSimulation } from "../../dist/workers/Runs.js"
import { median } from "./timing.mjs"

const GAMES = 3000
const WINDOWS = 3
// The bundled worker the bin spawns (the library's unbundled dist/workers/worker.js starts slower).
const workerEntry = new URL("../../dist/cli/cardfx-worker.mjs", import.meta.url)

export const run = async () => {
  const file = "data/hallyu-hex/starter-deck.v0.json"
  const json = readFileSync(file, "utf8")
  const deck = deckFromJson(json, file)
  if (deck._tag === "Left") throw new Error(deck.left.message)
  const engine = makeEngine(deck.right)
  if (engine._tag === "Left") throw new Error(engine.left.message)
  const cores = availableParallelism()
  const measure = async (workers) => {
    const total = []
    const steady = []
    const startup = []
    for (let w = 0; w < WINDOWS; w++) {
      const t0 = performance.now()
      let first
      const onProgress = (done) => {
        if (first === undefined) first = { done, at: performance.now() }
      }
      await Effect.runPromise(
        runSimulation({
          engine: engine.right,
          deck: { json, file },
          games: GAMES,
          seed: `bench/${w}`,
          workers,
          workerEntry,
          onProgress
        })
      )
      const t1 = performance.now()
      total.push((GAMES * 1000) / (t1 - t0))
      steady.push(((GAMES - first.done) * 1000) / (t1 - first.at))
      startup.push(first.at - t0)
    }
    return { total: median(total), steady: median(steady), startup: median(startup) }
  }
  await measure(1) // warm-up: JIT the engine in this process
  const one = await measure(1)
  const all = await measure(cores)
  const ratio = all.steady / one.steady
  return [
    { name: "simulate, 1 worker (in process)", value: one.total, unit: "games/s" },
    { name: `simulate, ${cores} workers, end to end`, value: all.total, unit: "games/s" },
    { name: `simulate, ${cores} workers, steady state`, value: all.steady, unit: "games/s" },
    { name: `pool start-up to first chunk, ${cores} workers`, value: all.startup, unit: "ms" },
    {
      name: `speed-up, ${cores} workers vs 1 (steady state)`,
      value: ratio,
      unit: "×",
      goal: cores >= 2 ? "≥ 1.8× on 2 cores" : "n/a (1 core)",
      ok: cores >= 2 ? ratio >= 1.8 : undefined
    },
    { name: `speed-up, ${cores} workers vs 1 (end to end, ${GAMES} games)`, value: all.total / one.total, unit: "×" }
  ]
}
