/**
 * Scale-out across cores: games/s of `runSimulation` with 1 worker (in this
 * process) and with all cores (worker threads), the same games and seed, in
 * the same run; the ratio is the speed-up (goal ≥ 1.8× on 2 cores). Wall time
 * (parallelism is about wall time), median of 3 windows each. Two figures per
 * pool: end to end (the pool's start-up — threads loading the worker bundle,
 * validating the deck, a cold JIT — inside the window, as a command pays it)
 * and steady state (the last three quarters of the games, once every thread's
 * JIT is warm: a new thread plays its first few hundred games several times
 * slower, and threads share no compiled code), with the start-up to the first
 * answered chunk as its own row. The in-process figures use the same windows
 * after a warm-up run.
 */
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { performance } from "node:perf_hooks"
import { makeEngine } from "../../dist/hallyu/engine/Engine.js"
import { deckFromJson } from "../../dist/workers/Deck.js"
import { runSimulation } from "../../dist/workers/Runs.js"
import { median } from "./timing.mjs"

const GAMES = 12000
/** Steady state starts once this share of the games is done. */
const WARM = 0.25
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
      let warm
      const onProgress = (done) => {
        if (first === undefined) first = { done, at: performance.now() }
        if (warm === undefined && done >= GAMES * WARM) warm = { done, at: performance.now() }
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
      steady.push(((GAMES - warm.done) * 1000) / (t1 - warm.at))
      startup.push(first.at - t0)
    }
    return { total: median(total), steady: median(steady), startup: median(startup) }
  }
  // Warm-up: JIT the engine in this process.
  await Effect.runPromise(
    runSimulation({ engine: engine.right, deck: { json, file }, games: 3000, seed: "bench/warm-up", workers: 1 })
  )
  const one = await measure(1)
  const all = await measure(cores)
  const ratio = all.steady / one.steady
  return [
    { name: "simulate, 1 worker (in process)", value: one.total, unit: "games/s" },
    { name: "simulate, 1 worker (in process), steady state", value: one.steady, unit: "games/s" },
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
