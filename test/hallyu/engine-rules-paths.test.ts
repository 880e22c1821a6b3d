/**
 * Rule paths that seeded random games on the starter deck do not reach
 * (issue 12, points 8–10): an immutable validated deck, the zero floor after
 * each cost change, and scenarios built for the purpose.
 */
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { currentCost, type Engine, makeEngine } from "../../src/hallyu/engine/Engine.js"
import { fingerprint, playRandom, simulate } from "../../src/hallyu/engine/Simulate.js"
import type { GameState } from "../../src/hallyu/engine/State.js"
import { observe } from "../../src/hallyu/engine/View.js"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { validateDeck } from "../../src/hallyu/Validate.js"
import { OPERATIONS } from "../../src/hallyu/Vocabulary.js"
import { craft, craftFor, engine, playOn } from "./engine-fixtures.js"
import { deckText, parse } from "./fixtures.js"

const mustEngine = (deck: StarterDeck | undefined) => {
  if (deck === undefined) throw new Error("the deck does not validate")
  const e = makeEngine(deck)
  if (Either.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

const actionsOf = (e: ReturnType<typeof mustEngine>, seed: string): ReadonlyArray<string> => {
  const r = playRandom(e, { seed })
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right.actions
}

describe("a validated deck is immutable (issue 12.8)", () => {
  it("changing the validated deck, or the document it came from, after validation does not reach an engine", () => {
    const doc = parse(deckText)
    const v = validateDeck(doc)
    const deck = v.deck as StarterDeck
    const reference = mustEngine(validateDeck(parse(deckText)).deck)
    // The source document: its objects are not the deck's.
    const source = doc.value as { cards: Array<{ cost: number; effects: Array<{ actions: Array<{ op: string }> }> }> }
    ;(source.cards[0] as { cost: number }).cost = 9
    ;((source.cards[0]?.effects[0]?.actions[0]) as { op: string }).op = "launch-missiles"
    // The validated deck itself: every level is frozen, so assignments throw (ES modules are strict).
    const tamper = [
      () => {
        ;(deck.cards[0] as { cost: number }).cost = 0
      },
      () => {
        ;(deck.cards[1]?.effects[0]?.actions as Array<unknown>).push({ op: "launch-missiles" })
      },
      () => {
        ;(deck.rules.parameters as { trend_cap: number }).trend_cap = 1
      },
      () => {
        ;(deck.decks[0]?.cards[0] as { count: number }).count = 30
      }
    ]
    for (const t of tamper) expect(t).toThrow(TypeError)
    const e = mustEngine(deck)
    expect(e.deck.cards[0]?.cost).toBe(reference.deck.cards[0]?.cost)
    expect(e.compiled.hash).toBe(reference.compiled.hash)
    expect(e.deck.rules.parameters.trend_cap).toBe(10)
    for (const seed of ["imm/1", "imm/2", "imm/3"]) expect(actionsOf(e, seed)).toEqual(actionsOf(reference, seed))
  })
})

describe("the zero floor after each cost change (issue 12.10, RULES.md §8.5)", () => {
  // Concept Reveal (020, a dreamy Moment, cost 1) in seat 0's hand; two Actor-Idol Daeun (006, your
  // dreamy Moments cost 1 less) on seat 0's stage; Broadcast Tower (013, the opponent's cards cost 1
  // more) on seat 1's stage. Each change floored: 1 → 0 → 0 → 1. The total floored once would be 0.
  it("two reductions then an increase: 1, not 0", () => {
    const s = craft({ p0: { hand: ["020"], stage: ["006", "006"], fandom: 0 }, p1: { stage: ["013"] } })
    expect(currentCost(engine.compiled, s, "p0-h1")).toBe(1)
    expect(engine.legalActions(s).map((a) => a.id)).toEqual(["end-turn"]) // cannot pay 1 with 0 Fandom
    const withOne = craft({ p0: { hand: ["020"], stage: ["006", "006"], fandom: 1 }, p1: { stage: ["013"] } })
    expect(engine.legalActions(withOne).some((a) => a.id.startsWith("cast:p0-h1"))).toBe(true)
  })
  it("temporary changes are floored one by one too, after the static ones", () => {
    const s = craft({ p0: { hand: ["020"], stage: ["006"] } })
    expect(currentCost(engine.compiled, s, "p0-h1")).toBe(0)
    const temp = {
      ...s,
      costChanges: [
        { ctrl: 0 as const, group: null, inst: "p0-h1", amount: -2, until: "end-of-turn" as const },
        { ctrl: 0 as const, group: null, inst: "p0-h1", amount: 1, until: "end-of-turn" as const }
      ]
    }
    expect(currentCost(engine.compiled, temp, "p0-h1")).toBe(1) // 1 → 0 (static) → 0 → 1; once: 0
  })
})

// ------------------------------------------------------------------ issue 12.9: rule paths no starter-deck game reaches

/**
 * test/hallyu/fixtures/rule-paths.deck.json: the starter deck with six records edited (texts
 * and rules_text to match): Fan Chant's Trend gain becomes "cards your opponent casts cost 1
 * more until your next turn" (a temporary `modify-cost`); Hiatus Announcement adds "your
 * Moments cost 1 less this turn" (`end-of-turn`); Concept Reveal's tone change lasts
 * `until-your-next-turn`; Press Blackout's `counter-card` has no `unless`; Trainee Twins look
 * at the top of the opponent's deck; Diss Track's `on_prevented` has `replace: false`.
 */
const rulePathsText = readFileSync("test/hallyu/fixtures/rule-paths.deck.json", "utf8")
const rulePaths = (
  edit?: (
    deck: Record<string, unknown> & {
      rules: { parameters: Record<string, number> }
      decks: Array<{ cards: Array<{ card: string; count: number }> }>
    }
  ) => void
) => {
  const json = JSON.parse(rulePathsText) as Parameters<NonNullable<typeof edit>>[0]
  edit?.(json)
  const v = validateDeck(parse(JSON.stringify(json), "rule-paths.deck.json"))
  expect(v.diagnostics).toEqual([])
  return mustEngine(v.deck)
}
const rp = rulePaths()
const q = (s: GameState, seat: 0 | 1) => s.players[seat]
const cost = (e: Engine, s: GameState, inst: string) => currentCost(e.compiled, s, inst)

const games = (e: Engine, n: number, seed: string) => {
  const r = simulate(e, { games: n, seed })
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

/** The first seeded game whose result has this reason, with its final state. */
const firstGame = (e: Engine, reason: string, onStep?: (s: GameState) => void): GameState => {
  for (let k = 0; k < 200; k++) {
    const r = playRandom(e, onStep === undefined ? { seed: `paths/${k}` } : { seed: `paths/${k}`, onStep })
    if (Either.isLeft(r)) throw new Error(r.left.message)
    if (r.right.result?.reason === reason) return r.right.final
  }
  throw new Error(`no game ended by ${reason}`)
}

describe("terminal reasons through whole games (RULES.md §3)", () => {
  it("composure: with starting Composure 4, games end when one player reaches 0, and the other wins (§3.2)", () => {
    const e = rulePaths((d) => {
      d.rules.parameters["starting_composure"] = 4
    })
    expect(games(e, 100, "c").reasons.composure).toBeGreaterThan(0)
    const s = firstGame(e, "composure")
    const loser = q(s, 0).composure === 0 ? 0 : 1
    expect(q(s, loser).composure).toBe(0)
    expect(q(s, loser === 0 ? 1 : 0).composure).toBeGreaterThan(0)
    expect(s.result).toEqual({ winner: loser === 0 ? 1 : 0, reason: "composure" })
    expect(s.decision).toBeNull()
  })

  it("simultaneous: both players lost, or both at the Trend cap, at one check is a draw (§3.2, §3.3)", () => {
    // In play only one player's Composure or Trend changes between two checks (every change is an
    // event, and each event is checked), and the parameters are positive, so a draw by
    // `simultaneous` needs a state that already holds both (RULES.md §3.6): crafted here.
    const lost = playOn(rp, craftFor(rp, { p0: { composure: 0 }, p1: { composure: 0 } }), "end-turn")
    expect(lost.result).toEqual({ winner: null, reason: "simultaneous" })
    const capped = playOn(rp, craftFor(rp, { p0: { trend: 10 }, p1: { trend: 10 } }), "end-turn")
    expect(capped.result).toEqual({ winner: null, reason: "simultaneous" })
    // Losing is checked before the cap: a player at 0 Composure loses even at the cap.
    const mixed = playOn(rp, craftFor(rp, { p0: { composure: 0, trend: 10 } }), "end-turn")
    expect(mixed.result).toEqual({ winner: 1, reason: "composure" })
    for (const param of ["trend_cap", "starting_composure"]) {
      const json = JSON.parse(rulePathsText) as { rules: { parameters: Record<string, number> } }
      json.rules.parameters[param] = 0
      expect(validateDeck(parse(JSON.stringify(json))).diagnostics.map((d) => d.code), param).toEqual([
        "invalid_amount"
      ])
    }
  })

  it("turn-limit: after the end step of the last turn, more Trend wins, then more Composure, else a draw (§3.5)", () => {
    const e = rulePaths((d) => {
      d.rules.parameters["turn_limit"] = 4
    })
    expect(games(e, 50, "t").reasons["turn-limit"]).toBe(50)
    for (let k = 0; k < 30; k++) {
      const r = playRandom(e, { seed: `limit/${k}` })
      if (Either.isLeft(r)) return expect.fail(r.left.message)
      const s = r.right.final
      const [a, b] = [q(s, 0), q(s, 1)]
      const winner = a.trend !== b.trend
        ? (a.trend > b.trend ? 0 : 1)
        : a.composure !== b.composure
        ? (a.composure > b.composure ? 0 : 1)
        : null
      expect(s.turn).toBe(4)
      expect(s.result).toEqual({ winner, reason: "turn-limit" })
    }
  })

  it("the empty-deck rule: each failed draw loses empty_deck_composure_loss Composure, not damage (§10)", () => {
    // Six cards a deck: five go to the opening hand, so the second draw of a player already fails.
    const e = rulePaths((d) => {
      d.rules.parameters["starting_composure"] = 6
      for (const list of d.decks) {
        list.cards = [{ card: "hhx.proto.card.001", count: 3 }, { card: "hhx.proto.card.022", count: 3 }]
      }
    })
    let failed = 0
    let prev: GameState | null = null
    const loss = e.compiled.params.empty_deck_composure_loss
    const failedAt = (s: GameState, seat: 0 | 1) =>
      s.events[(e.compiled.eventIndex.get("draw-failed") ?? 0) * 2 + seat] ?? 0
    const dealtAt = (s: GameState, seat: 0 | 1) =>
      s.events[(e.compiled.eventIndex.get("damage-dealt") ?? 0) * 2 + seat] ?? 0
    const s = firstGame(e, "composure", (cur) => {
      if (prev !== null && cur.turn === prev.turn) {
        for (const seat of [0, 1] as const) {
          const n = failedAt(cur, seat) - failedAt(prev, seat)
          if (n > 0 && dealtAt(cur, seat) === dealtAt(prev, seat) && q(cur, seat).composure > 0) {
            failed += n
            expect(q(prev, seat).deck).toEqual([])
            expect(q(prev, seat).composure - q(cur, seat).composure).toBe(n * loss)
          }
        }
      }
      prev = cur
    })
    expect(failed).toBeGreaterThan(0)
    expect(s.result?.reason).toBe("composure")
  })
})

describe("temporary cost changes and until-your-next-turn (RULES.md §8.5, §11)", () => {
  it("modify-cost until-your-next-turn (Fan Chant): the opponent's cards cost 1 more through their turn, back at the start of yours", () => {
    const s0 = craftFor(rp, { p0: { stage: ["001"], hand: ["022"] }, p1: { hand: ["015"] } })
    expect(cost(rp, s0, "p1-h1")).toBe(2)
    const s1 = playOn(rp, s0, "cast:p0-h1")
    expect(s1.costChanges).toEqual([{
      ctrl: 0,
      group: { controller: "opponent", zone: "hand" },
      inst: null,
      amount: 1,
      until: "until-your-next-turn"
    }])
    expect(cost(rp, s1, "p1-h1")).toBe(3)
    const s2 = playOn(rp, s1, "end-turn") // seat 1's turn: still in force
    expect(s2.active).toBe(1)
    expect(cost(rp, s2, "p1-h1")).toBe(3)
    const s3 = playOn(rp, s2, "end-turn") // seat 0's next turn starts: it ends
    expect(s3.active).toBe(0)
    expect(s3.costChanges).toEqual([])
    expect(cost(rp, s3, "p1-h1")).toBe(2)
  })

  it("modify-cost end-of-turn (Hiatus Announcement): your Moments cost 1 less until the end step", () => {
    const s0 = craftFor(rp, { p0: { stage: ["001"], hand: ["023", "017"] } })
    expect(cost(rp, s0, "p0-h2")).toBe(3)
    const s1 = playOn(rp, s0, "cast:p0-h1:0/t1=p0-s1")
    expect(q(s1, 0).hand).toContain("p0-s1") // returned to hand
    expect(cost(rp, s1, "p0-h2")).toBe(2)
    const s2 = playOn(rp, s1, "end-turn")
    expect(s2.costChanges).toEqual([])
    expect(cost(rp, s2, "p0-h2")).toBe(3)
  })

  it("change-tone until-your-next-turn (Concept Reveal): the Star stays bright through the opponent's turn", () => {
    const s0 = craftFor(rp, { p0: { stage: ["005"], hand: ["020"] } })
    const s1 = playOn(rp, s0, "cast:p0-h1:0/t1=p0-s1")
    expect(s1.toneChanges).toEqual([{
      inst: "p0-s1",
      from: "dark",
      to: "bright",
      ctrl: 0,
      until: "until-your-next-turn"
    }])
    const s2 = playOn(rp, s1, "end-turn")
    expect(s2.toneChanges).toHaveLength(1)
    const s3 = playOn(rp, s2, "end-turn")
    expect(s3.toneChanges).toEqual([])
  })
})

describe("counter-card without unless, look-at-top of the opponent's deck, on_prevented without replace", () => {
  it("Press Blackout with no unless counters the pending card at once: no pay decision (§10)", () => {
    const s0 = playOn(rp, craftFor(rp, { p0: { hand: ["001"], fandom: 9 }, p1: { hand: ["018"] } }), "cast:p0-h1")
    expect(s0.decision).toMatchObject({ d: "window", player: 1, win: "card-pending-to-opponent" })
    const s1 = playOn(rp, s0, "cast:p1-h1")
    expect(s1.decision).toEqual({ d: "main", player: 0 })
    expect(q(s1, 0).archive).toEqual(["p0-h1"])
    expect(q(s1, 0).fandom).toBe(7) // Yuna's cost stays paid; no payment was offered
    expect(q(s1, 0).stage).toEqual([])
  })

  it("Trainee Twins look at the top two of the opponent's deck: only the looker sees them, in order (§10)", () => {
    const s = playOn(rp, craftFor(rp, { p0: { hand: ["007"] } }), "cast:p0-h1")
    expect(s.looks).toEqual([{ player: 0, owner: 1, cards: ["p1-d1", "p1-d2"] }])
    expect(observe(s, 0).seen).toEqual([{ owner: 1, cards: ["p1-d1", "p1-d2"] }])
    expect(observe(s, 1).seen).toEqual([])
  })

  it("Diss Track with replace: false against Agency Security Desk: 3 damage dealt and 2 Composure lost (§6)", () => {
    const s = playOn(rp, craftFor(rp, { p0: { hand: ["017"] }, p1: { stage: ["011"] } }), "cast:p0-h1")
    expect(q(s, 1).composure).toBe(20 - 3 - 2)
    const ev = (name: string) => s.events[(rp.compiled.eventIndex.get(name) ?? 0) * 2 + 1]
    expect([ev("damage-prevented"), ev("damage-dealt"), ev("resource-lost")]).toEqual([1, 1, 1])
  })
})

describe("simulate reports what a run covered", () => {
  it("every operation is listed in the summary, 0 where no game executed it", () => {
    const starter = games(engine, 30, "cover")
    expect(Object.keys(starter.operations)).toEqual(Object.keys(OPERATIONS).sort())
    expect(starter.operations["modify-cost"]).toBe(0)
    expect(Object.keys(starter.reasons).sort()).toEqual([
      "composure",
      "simultaneous",
      "trend-cap",
      "turn-limit",
      "unfinished"
    ])
  })
  it("on the rule-paths deck every operation runs", () => {
    const sum = games(rp, 150, "cover")
    for (const [op, n] of Object.entries(sum.operations)) expect(n, op).toBeGreaterThan(0)
  })
})

// ------------------------------------------------------------------ the in-place playout (issue 17.10)

describe("a playout played in place gives what the immutable path gives", () => {
  // `playRandom` without `onStep` or fingerprints plays on one long-lived draft (Playout.ts); with an
  // `onStep` it applies action by action through `Engine.apply`. Both must give the same game.
  const compare = (e: Engine, seed: string, problems: Array<string>): number => {
    const inPlace = playRandom(e, { seed })
    const states: Array<GameState> = []
    const watched = playRandom(e, { seed, onStep: (s) => states.push(s) })
    if (Either.isLeft(inPlace) || Either.isLeft(watched)) throw new Error(`${seed}: a playout failed`)
    const a = inPlace.right
    const b = watched.right
    if (a.actions.join(" ") !== b.actions.join(" ")) problems.push(`${seed}: other actions`)
    // JSON text, so the statistics' key order counts too.
    if (JSON.stringify(a.stats) !== JSON.stringify(b.stats)) problems.push(`${seed}: other statistics`)
    if (JSON.stringify(a.result) !== JSON.stringify(b.result) || a.turns !== b.turns) {
      problems.push(`${seed}: other end`)
    }
    if (fingerprint(a.final) !== fingerprint(b.final)) problems.push(`${seed}: another final state`)
    // The game's start state (shared with the in-place draft until it copies on write) is not mutated.
    const start = e.newGame({ seed })
    if (Either.isLeft(start) || fingerprint(start.right) !== fingerprint(states[0] as GameState)) {
      problems.push(`${seed}: another start state`)
    }
    return a.actions.length
  }
  it("on the starter deck and on the rule-paths deck (every operation, static cost changes), game by game", () => {
    const problems: Array<string> = []
    let actions = 0
    for (let g = 0; g < 150; g++) {
      actions += compare(engine, `in-place/${g}`, problems)
      actions += compare(rp, `in-place/${g}`, problems)
    }
    expect(problems).toEqual([])
    expect(actions).toBeGreaterThan(150 * 2 * 10)
  })
  it("a playout cut by maxActions stops at the same state", () => {
    const a = playRandom(rp, { seed: "cut", maxActions: 17 })
    const b = playRandom(rp, { seed: "cut", maxActions: 17, onStep: () => undefined })
    if (Either.isLeft(a) || Either.isLeft(b)) return expect.fail("a playout failed")
    expect(a.right.actions).toHaveLength(17)
    expect(a.right.log.partial).toBe(true)
    expect(fingerprint(a.right.final)).toBe(fingerprint(b.right.final))
  })
})
