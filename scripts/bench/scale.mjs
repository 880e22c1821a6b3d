/**
 * Scale-out across cores: games/s of `runSimulation` with 1 worker (in this
 * process) and with all cores (this thread and cores − 1 worker threads), the
 * same games, in the same run; the ratio is the speed-up (goal ≥ 1.8× on 2
 * cores). Wall time (parallelism is about wall time). The workload, 200,000
 * games per window (~19 s in one process), is large enough that a thread's
 * start-up (~0.25 s of CPU loading code, then a few thousand games with a cold
 * JIT) is amortized, and it is inside every window, as a command pays it.
 * (It was 100,000 games, ~19 s when it was chosen; the engine's round 4 made
 * those ~9 s, and the speed-up read 1.72–1.89× with the start-up a larger
 * share: the window was doubled back to its ~19 s.)
 * Windows alternate (1, all, 1, all, ...) so a change in the machine's load
 * falls on both; the speed-up is the median of the per-pair ratios. The
 * in-process figures follow a warm-up run. CPU per game (every thread of the
 * process) on all cores against in process is the split's own cost, and
 * holds on a loaded machine, where the wall-time speed-up cannot show (the
 * kernel shares the cores between sessions, not threads).
 *
 * Then the CLI as a user runs it: the built bin, `simulate --games 20000`,
 * with the default `--workers` against `--workers 1`, process start included
 * (alternating, median of 3 each).
 */
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { availableParallelism, loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { runSimulation, simulationWorkers } from "../../dist/workers/Runs.js"
import { starterEngine } from "./support/starter.mjs"
import { median } from "./timing.mjs"

const GAMES = 200000
const WINDOWS = 2
const CLI_GAMES = 20000
// The bundled simulation worker the bin spawns (the library's unbundled dist/workers/ entry starts slower).
const workerEntry = new URL("../../dist/cli/cardfx-simulation-worker.mjs", import.meta.url)
const bin = new URL("../../dist/cli/cardfx.mjs", import.meta.url).pathname

export const run = async () => {
  const { file, json, engine } = starterEngine()
  const cores = availableParallelism()
  // CPU of every thread of this process (ms).
  const cpu = () => {
    const u = process.cpuUsage()
    return (u.user + u.system) / 1000
  }
  const window = async (workers, seed, games = GAMES) => {
    const t0 = performance.now()
    const c0 = cpu()
    await Effect.runPromise(
      runSimulation({ engine, deck: { json, file }, games, seed, workers, workerEntry })
    )
    return { rate: (games * 1000) / (performance.now() - t0), cpu: cpu() - c0 }
  }
  // Warm-up: JIT the engine in this process.
  await window(1, "bench/warm-up", 5000)
  const load = loadavg()[0]
  const one = []
  const all = []
  for (let w = 0; w < WINDOWS; w++) {
    one.push(await window(1, `bench/${w}`))
    all.push(await window(cores, `bench/${w}`))
  }
  const ratio = median(all.map((a, i) => a.rate / (one[i]?.rate ?? 1)))
  // CPU per game on all cores against in process: what the split costs (start-up, cold JIT, messages), load aside.
  const cpuRatio = median(all.map((a, i) => a.cpu / (one[i]?.cpu ?? 1)))
  const cli = (workers) => {
    const t0 = performance.now()
    execFileSync(process.execPath, [
      bin,
      "simulate",
      "--games",
      String(CLI_GAMES),
      "--seed",
      "9",
      "--format",
      "json",
      ...(workers === undefined ? [] : ["--workers", String(workers)])
    ])
    return (CLI_GAMES * 1000) / (performance.now() - t0)
  }
  const cliOnes = []
  const cliDefaults = []
  for (let w = 0; w < WINDOWS; w++) {
    cliOnes.push(cli(1))
    cliDefaults.push(cli(undefined))
  }
  const cliOne = median(cliOnes)
  const cliDefault = median(cliDefaults)
  const cliRatio = median(cliDefaults.map((d, i) => d / (cliOnes[i] ?? 1)))
  return [
    { name: `simulate ${GAMES} games, 1 worker (in process)`, value: median(one.map((o) => o.rate)), unit: "games/s" },
    {
      name: `simulate ${GAMES} games, ${cores} workers (all cores)`,
      value: median(all.map((a) => a.rate)),
      unit: "games/s"
    },
    {
      name: `speed-up, ${cores} workers vs 1 (${GAMES} games, start-up included)`,
      value: ratio,
      unit: "×",
      goal: cores >= 2 ? "≥ 1.8× on 2 cores" : "n/a (1 core)",
      ok: cores >= 2 ? ratio >= 1.8 : undefined
    },
    { name: `CPU per game, ${cores} workers vs 1 (the split's overhead)`, value: cpuRatio, unit: "×" },
    { name: "load average (1 min) when the windows began", value: load, unit: "" },
    { name: `cardfx simulate --games ${CLI_GAMES} --workers 1 (bin, end to end)`, value: cliOne, unit: "games/s" },
    {
      name: `cardfx simulate --games ${CLI_GAMES} (default: ${
        simulationWorkers(CLI_GAMES, cores)
      } workers, end to end)`,
      value: cliDefault,
      unit: "games/s"
    },
    { name: "speed-up of the CLI default vs --workers 1", value: cliRatio, unit: "×" }
  ]
}
