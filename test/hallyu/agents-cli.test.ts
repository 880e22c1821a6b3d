/**
 * `cardfx simulate --agents` and `cardfx tournament`: output, bad agents
 * (exit 2 with unknown_agent / invalid_iterations), and strength at small
 * sizes with fixed seeds and bounds far below the measured rates
 * (docs/hallyu-hex.md gives the full-size figures).
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { simulateCommand } from "../../src/cli/hhx.js"
import { tournamentCommand } from "../../src/cli/tournament.js"
import * as Agents from "../../src/hallyu/agents/index.js"
import { runCli } from "../support/cli.js"
import { engine } from "./engine-fixtures.js"

describe("bad agents are usage errors (exit 2)", () => {
  it("an unknown agent, iterations 0, negative or above the cap, a third seat", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["alphago,random", "unknown_agent"],
      ["ismcts:0,random", "invalid_iterations"],
      ["ismcts:-3,random", "invalid_iterations"],
      [`random,ismcts:${Agents.MAX_ITERATIONS + 1}`, "invalid_iterations"],
      ["random,greedy,ismcts", "unknown_agent"]
    ]
    for (const [agents, code] of cases) {
      const r = await runCli(simulateCommand, "--games", "2", "--agents", agents, "--workers", "1")
      expect({ agents, code: r.code }).toEqual({ agents, code: 2 })
      expect(r.err).toContain(code)
    }
    const t = await runCli(tournamentCommand, "--agents", "random,mystery", "--games", "2", "--workers", "1")
    expect(t.code).toBe(2)
    expect(t.err).toContain("unknown_agent")
    const one = await runCli(tournamentCommand, "--agents", "random", "--games", "2", "--workers", "1")
    expect(one.code).toBe(2)
  })
})

describe("simulate --agents and tournament", () => {
  it("simulate --agents greedy:2,random --format json: the match beside the summary; --stats adds it to the balance", async () => {
    const r = await runCli(
      simulateCommand,
      "--games",
      "6",
      "--seed",
      "3",
      "--agents",
      "greedy:2,random",
      "--workers",
      "1",
      "--format",
      "json"
    )
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as { agents: Agents.MatchReport; games: number; winsBySeat: Record<string, number> }
    expect(doc.games).toBe(6)
    expect(doc.agents.a).toBe("greedy:2")
    expect(doc.agents.b).toBe("random:1")
    expect(doc.agents.winsA + doc.agents.winsB + doc.agents.draws).toBe(6)
    const s = await runCli(
      simulateCommand,
      "--games",
      "6",
      "--seed",
      "3",
      "--agents",
      "greedy:2,random",
      "--workers",
      "1",
      "--stats",
      "--format",
      "json"
    )
    expect(s.code).toBe(0)
    const stats = JSON.parse(s.out) as { agents: Agents.MatchReport; cards: ReadonlyArray<unknown> }
    expect(stats.agents).toEqual(doc.agents)
    expect(stats.cards.length).toBeGreaterThan(10)
  })
  it("tournament: the matrix and Elo, human and json", async () => {
    const args = ["--agents", "random,greedy:2", "--games", "6", "--seed", "5", "--workers", "1"]
    const j = await runCli(tournamentCommand, ...args, "--format", "json")
    expect(j.code).toBe(0)
    const t = JSON.parse(j.out) as Agents.TournamentReport
    expect(t.format).toBe("hhx-tournament/1")
    expect(t.agents).toEqual(["random:1", "greedy:2"])
    expect(t.matches).toHaveLength(1)
    expect(t.elo.map((e) => e.agent)).toEqual(t.agents)
    const h = await runCli(tournamentCommand, ...args)
    expect(h.code).toBe(0)
    expect(h.out).toMatch(/Hallyu Hex tournament: 2 agents, 6 games per pairing/)
    expect(h.out).toMatch(/Elo/)
  })
})

describe("strength at small sizes (fixed seeds; bounds far below the measured rates)", () => {
  const score = (agents: readonly [Agents.AgentSpec, Agents.AgentSpec], games: number, seed: string) => {
    const p = Either.getOrThrow(Agents.matchRange(engine, agents, 0, games, { seed }))
    return Agents.matchReport(agents, p).scoreA.rate
  }
  it("greedy beats random (measured ≈ 82 %; bound 60 % over 60 games)", () => {
    expect(score([{ agent: "greedy", iterations: 4 }, { agent: "random", iterations: 1 }], 60, "strength"))
      .toBeGreaterThan(
        0.6
      )
  })
  it("ismcts:150 beats random (bound 65 % over 16 games)", () => {
    expect(score([{ agent: "ismcts", iterations: 150 }, { agent: "random", iterations: 1 }], 16, "strength"))
      .toBeGreaterThan(0.65)
  })
})
