import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { fingerprint, playRandom, replay, simulate } from "../../src/hallyu/engine/Simulate.js"
import type { GameAction, GameState } from "../../src/hallyu/engine/State.js"
import { engine, play } from "./engine-fixtures.js"

const params = engine.compiled.params

/** Every invariant the issue lists, checked after every action. */
const check = (s: GameState, problems: Array<string>): void => {
  const seen = new Set<string>()
  let count = 0
  for (const pl of s.players) {
    for (const z of [pl.deck, pl.hand, pl.stage, pl.archive, pl.pending]) {
      for (const inst of z) {
        if (seen.has(inst)) problems.push(`${inst} is in two zones`)
        seen.add(inst)
        count++
      }
    }
    if (pl.composure < 0 || pl.composure > params.starting_composure) problems.push(`composure ${pl.composure}`)
    if (pl.fandom < 0 || pl.fandom > params.fandom_cap) problems.push(`fandom ${pl.fandom}`)
    if (pl.trend < 0 || pl.trend > params.trend_cap) problems.push(`trend ${pl.trend}`)
  }
  if (count !== Object.keys(s.cardOf).length) {
    problems.push(`${count} cards in zones, ${Object.keys(s.cardOf).length} in the game`)
  }
  for (const [inst, cs] of Object.entries(s.counters)) {
    if (!s.players[inst.charCodeAt(1) === 48 ? 0 : 1].stage.includes(inst)) {
      problems.push(`counters on ${inst}, which is not on the stage`)
    }
    for (const [k, n] of Object.entries(cs)) if (!(n > 0)) problems.push(`counter ${k}=${n} on ${inst}`)
  }
  if (s.turn > params.turn_limit) problems.push(`turn ${s.turn}`)
  if (s.result === null) {
    if (s.decision === null) problems.push("a live game with no decision")
    else if (engine.legalActions(s).length === 0) problems.push(`no legal action for ${s.decision.d}`)
  }
  // At the main window nothing may be left dangling: no resolution, damage, pending card or queued trigger.
  if (s.decision?.d === "main") {
    if (s.work.length > 0 || s.queue.length > 0 || s.damage.length > 0) problems.push("work left at the main window")
    if (s.players[0].pending.length + s.players[1].pending.length > 0) {
      problems.push("a card left pending at the main window")
    }
    if (Object.keys(s.castTargets).length > 0) problems.push("targets of no pending card")
  }
}

describe("random playouts", () => {
  it("1,000 seeded random games keep every invariant after every action and all terminate", () => {
    const problems: Array<string> = []
    let actions = 0
    let turnEnds = 0
    const reasons: Record<string, number> = {}
    for (let g = 0; g < 1000; g++) {
      const r = playRandom(engine, {
        seed: `prop/${g}`,
        maxActions: 5000,
        onStep: (s: GameState, a: GameAction | null) => {
          check(s, problems)
          if (a?.kind === "end-turn") turnEnds++
        }
      })
      if (Either.isLeft(r)) {
        problems.push(`game ${g}: ${r.left.message}`)
        continue
      }
      actions += r.right.actions.length
      const reason = r.right.result?.reason ?? "unfinished"
      reasons[reason] = (reasons[reason] ?? 0) + 1
      if (r.right.result === null) problems.push(`game ${g} did not terminate`)
      if (problems.length > 20) break
    }
    expect(problems.slice(0, 20)).toEqual([])
    expect(reasons["unfinished"]).toBeUndefined()
    expect(actions).toBeGreaterThan(10_000)
    expect(turnEnds).toBeGreaterThan(1000)
  }, 60_000)

  it("every game of the simulation summary is accounted for", () => {
    const sum = simulate(engine, { games: 50, seed: 7 })
    expect(Either.isRight(sum)).toBe(true)
    if (Either.isRight(sum)) {
      const s = sum.right
      expect(s.winsBySeat["0"] + s.winsBySeat["1"] + s.winsBySeat.draw).toBe(50)
      expect(Object.values(s.reasons).reduce((a, b) => a + b, 0)).toBe(50)
      expect(Object.keys(s.plays).length).toBeGreaterThan(15)
      expect(Object.values(s.operations).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    }
  })
})

describe("determinism, replay, save and resume", () => {
  it("the same seed gives the same action IDs and fingerprints", () => {
    const a = playRandom(engine, { seed: "same", fingerprints: true })
    const b = playRandom(engine, { seed: "same", fingerprints: true })
    expect(Either.isRight(a) && Either.isRight(b)).toBe(true)
    if (Either.isRight(a) && Either.isRight(b)) {
      expect(b.right.actions).toEqual(a.right.actions)
      expect(b.right.log.fingerprints).toEqual(a.right.log.fingerprints)
      expect(a.right.log.fingerprints).toHaveLength(a.right.actions.length + 1)
      const c = playRandom(engine, { seed: "other", fingerprints: true })
      expect(Either.isRight(c) && c.right.log.fingerprints[0]).not.toBe(a.right.log.fingerprints[0])
    }
  })

  it("a game replayed from its log (through JSON) matches the live fingerprint at every step", () => {
    for (const seed of ["r1", "r2", "r3"]) {
      const live = playRandom(engine, { seed, fingerprints: true })
      if (Either.isLeft(live)) return expect.fail(live.left.message)
      const log = JSON.parse(JSON.stringify(live.right.log))
      const r = replay(engine, log)
      expect(Either.isRight(r)).toBe(true)
      if (Either.isRight(r)) expect(fingerprint(r.right)).toBe(fingerprint(live.right.final))
    }
  })

  it("a tampered log is a replay_mismatch at the step that differs", () => {
    const live = playRandom(engine, { seed: "tamper", fingerprints: true })
    if (Either.isLeft(live)) return expect.fail(live.left.message)
    const fps = live.right.log.fingerprints.slice()
    fps[3] = "0".repeat(64)
    const r = replay(engine, { ...live.right.log, fingerprints: fps })
    expect(Either.isLeft(r) && [r.left.code, r.left.details?.["step"]]).toEqual(["replay_mismatch", 3])
    const bad = replay(engine, { ...live.right.log, actions: ["cast:p9-99", ...live.right.log.actions.slice(1)] })
    expect(Either.isLeft(bad) && bad.left.code).toBe("illegal_action")
  })

  it("saving in the middle of a pending choice and resuming gives the same game", () => {
    // Seat 1 is in Dating Rumor Check's choose-one, inside the damage window of Diss Track.
    let found: GameState | undefined
    for (let g = 0; g < 400 && found === undefined; g++) {
      const r = playRandom(engine, {
        seed: `choice/${g}`,
        onStep: (s) => {
          if (found === undefined && s.decision !== null && s.decision.d !== "main" && s.decision.d !== "window") {
            found = s
          }
        }
      })
      expect(Either.isRight(r)).toBe(true)
    }
    expect(found).toBeDefined()
    const live = found as GameState
    const saved = JSON.stringify(live)
    const resumed = JSON.parse(saved) as GameState
    expect(fingerprint(resumed)).toBe(fingerprint(live))
    const liveIds = engine.legalActions(live).map((a) => a.id)
    expect(engine.legalActions(resumed).map((a) => a.id)).toEqual(liveIds)
    for (const id of liveIds) expect(fingerprint(play(resumed, id))).toBe(fingerprint(play(live, id)))
  })
})

describe("coverage of random play", () => {
  it("random games execute every operation but modify-cost (static: applied through costs) and reach every decision kind", () => {
    const sum = simulate(engine, { games: 150, seed: "coverage" })
    if (Either.isLeft(sum)) return expect.fail(sum.left.message)
    // Every operation is listed; all but modify-cost (static only in the starter deck) are executed.
    expect(Object.keys(sum.right.operations).filter((op) => (sum.right.operations[op] ?? 0) > 0)).toEqual(
      [
        "add-counter",
        "change-tone",
        "choose-one",
        "counter-card",
        "deal-damage",
        "draw",
        "gain-resource",
        "look-at-top",
        "lose-resource",
        "move-counter",
        "move-top-to-bottom",
        "prevent-damage",
        "redirect-target",
        "remove-counter",
        "return-card"
      ].sort()
    )
    expect(sum.right.operations["modify-cost"]).toBe(0)
    expect(Object.keys(sum.right.plays)).toHaveLength(24)
    const decisions = new Set<string>()
    for (let g = 0; g < 150; g++) {
      playRandom(engine, {
        seed: `coverage/${g}`,
        onStep: (s) => s.decision !== null && decisions.add(s.decision.d)
      })
    }
    expect([...decisions].sort()).toEqual(["choose", "main", "optional", "pay", "redirect", "window"])
  })
})
