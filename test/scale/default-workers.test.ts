/**
 * The default number of simulation workers: threads only when the games pay
 * for their start-up (~0.25 s of CPU to load, then a cold JIT for the first
 * few thousand games), so a short run does not spend CPU it cannot win back.
 */
import { describe, expect, it } from "vitest"
import { MIN_GAMES_PER_WORKER, simulationWorkers } from "../../src/workers/Runs.js"

describe("simulationWorkers", () => {
  it("runs small simulations in process whatever the number of cores", () => {
    for (const cores of [1, 2, 8, 64]) {
      expect(simulationWorkers(1, cores)).toBe(1)
      expect(simulationWorkers(2000, cores)).toBe(1)
      expect(simulationWorkers(2 * MIN_GAMES_PER_WORKER - 1, cores)).toBe(1)
    }
  })

  it("adds a thread per MIN_GAMES_PER_WORKER games, up to the cores", () => {
    expect(simulationWorkers(2 * MIN_GAMES_PER_WORKER, 2)).toBe(2)
    expect(simulationWorkers(2 * MIN_GAMES_PER_WORKER, 8)).toBe(2)
    expect(simulationWorkers(5 * MIN_GAMES_PER_WORKER + 1, 8)).toBe(5)
    expect(simulationWorkers(1_000_000, 8)).toBe(8)
    expect(simulationWorkers(1_000_000, 1)).toBe(1)
  })
})
