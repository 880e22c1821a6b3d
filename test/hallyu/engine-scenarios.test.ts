import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { currentCost, makeEngine } from "../../src/hallyu/engine/Engine.js"
import type { GameState } from "../../src/hallyu/engine/State.js"
import { observe } from "../../src/hallyu/engine/View.js"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { craft, engine, eventCount, ids, play, scandal } from "./engine-fixtures.js"
import { mutated, realDeck } from "./fixtures.js"

const p = (s: GameState, seat: 0 | 1) => s.players[seat]

describe("casting, on-enter, draw (Rookie Vocalist Yuna)", () => {
  it("a Star is cast, resolves with no response window, enters the stage and its on-enter draws", () => {
    const s0 = craft({ p0: { hand: ["001"] } })
    expect(ids(s0)).toEqual(["cast:p0-h1", "end-turn"])
    const s1 = play(s0, "cast:p0-h1")
    expect(p(s1, 0).stage).toEqual(["p0-h1"])
    expect(p(s1, 0).hand).toEqual(["p0-d1"])
    expect(p(s1, 0).fandom).toBe(8)
    expect(eventCount(s1, "card-entered", 0)).toBe(1)
    expect(eventCount(s1, "card-drawn", 0)).toBe(1)
    expect(s1.decision).toEqual({ d: "main", player: 0 })
  })
})

describe("Stars, scandal counters, activated effects (Bad Boy Rapper Jiho)", () => {
  it("enters with its printed starting Scandal; its on-enter Composure loss is not damage", () => {
    const s = play(craft({ p0: { hand: ["005"] }, p1: { stage: ["004"] } }), "cast:p0-h1")
    expect(scandal(s, "p0-h1")).toBe(2)
    expect(p(s, 1).composure).toBe(19) // Ballad Queen Haeun's prevention does not apply to a loss
    expect(eventCount(s, "damage-pending", 1)).toBe(0)
    expect(eventCount(s, "resource-lost", 1)).toBe(1)
  })

  it("pays its activation cost with a scandal counter, deals damage, and is limited to once a turn", () => {
    const s0 = craft({ p0: { stage: ["005"] } })
    expect(ids(s0)).toContain("activate:p0-s1:E2")
    const s1 = play(s0, "activate:p0-s1:E2")
    expect(scandal(s1, "p0-s1")).toBe(1)
    expect(p(s1, 1).composure).toBe(18)
    expect(eventCount(s1, "damage-dealt", 1)).toBe(1)
    expect(ids(s1)).not.toContain("activate:p0-s1:E2")
    expect(engine.explain(s1, "activate:p0-s1:E2")).toMatchObject({ legal: false, reason: "limit-reached" })
    const r = engine.apply(s1, "activate:p0-s1:E2")
    expect(Either.isLeft(r) && r.left.code).toBe("illegal_action")
  })
})

describe("teaser counters (Countdown Teaser Room)", () => {
  it("creates teaser counters on entering and at each of its controller's turn starts; three pay for 2 Trend", () => {
    let s = play(craft({ p0: { hand: ["009"] } }), "cast:p0-h1")
    expect(s.counters["p0-h1"]).toEqual({ teaser: 1 })
    expect(engine.explain(s, "activate:p0-h1:E3")).toMatchObject({ legal: false, reason: "cannot-pay-activation-cost" })
    s = play(s, "end-turn", "end-turn")
    expect(s.active).toBe(0)
    expect(s.counters["p0-h1"]).toEqual({ teaser: 2 })
    s = play(s, "end-turn", "end-turn")
    expect(s.counters["p0-h1"]).toEqual({ teaser: 3 })
    s = play(s, "activate:p0-h1:E3")
    expect(s.counters["p0-h1"]).toBeUndefined()
    expect(p(s, 0).trend).toBe(2)
  })
})

describe("triggered effects and limits", () => {
  it("Dance Line Leader Sora triggers on a fierce cast before it resolves, only once a turn", () => {
    let s = play(craft({ p0: { stage: ["003"], hand: ["017", "021"] } }), "cast:p0-h1")
    expect(p(s, 1).composure).toBe(20 - 1 - 4)
    s = play(s, "cast:p0-h2")
    expect(p(s, 1).composure).toBe(15)
    expect(p(s, 0).trend).toBe(1) // Encore Stage: one bright card cast this turn (itself)
  })

  it("Fan Cafe gains Fandom for bright casts at most twice a turn", () => {
    const s = play(
      craft({ p0: { stage: ["010"], hand: ["022", "022", "022"], fandom: 6 } }),
      "cast:p0-h1",
      "cast:p0-h2",
      "cast:p0-h3"
    )
    // 6 - 2 + 1 + 2 (Fan Chant) - 2 + 1 + 2 - 2 + 0 + 2, capped at 10
    expect(p(s, 0).fandom).toBe(8)
    expect(s.uses["p0-s1/0"]).toBe(2)
  })
})

describe("damage: replacement, source-matched prevention, on_prevented with replace", () => {
  it("Ballad Queen Haeun prevents 1 of the first damage each turn", () => {
    let s = play(craft({ p0: { stage: ["005"] }, p1: { stage: ["004"] } }), "activate:p0-s1:E2")
    expect(p(s, 1).composure).toBe(19)
    expect(eventCount(s, "damage-prevented", 1)).toBe(1)
    s = play(
      craft({ p0: { stage: ["005"], hand: ["017"] }, p1: { stage: ["004"] } }),
      "activate:p0-s1:E2",
      "cast:p0-h1"
    )
    // Diss Track's 4 damage after Haeun's limit was used: dealt in full.
    expect(p(s, 1).composure).toBe(19 - 4)
  })

  it("Agency Security Desk prevents only damage from a Moment; Diss Track then makes them lose 2 Composure instead", () => {
    let s = play(craft({ p0: { stage: ["005"], hand: ["017"] }, p1: { stage: ["011"] } }), "activate:p0-s1:E2")
    expect(p(s, 1).composure).toBe(18) // from a Star: not prevented
    s = play(s, "cast:p0-h1")
    expect(p(s, 1).composure).toBe(16) // 1 prevented → replace: the 3 remaining are not dealt, 2 Composure lost
    expect(eventCount(s, "damage-dealt", 1)).toBe(1)
    expect(eventCount(s, "damage-prevented", 1)).toBe(1)
  })
})

describe("the extra play window (Dating Rumor Check)", () => {
  it("in main only the draw option is legal, so it is taken without asking", () => {
    const s = play(craft({ p0: { hand: ["014"] } }), "cast:p0-h1")
    expect(p(s, 0).hand).toEqual(["p0-d1"])
    expect(s.decision?.d).toBe("main")
  })

  it("is offered in the damage window, where its prevention option becomes legal", () => {
    let s = play(craft({ p0: { stage: ["005"] }, p1: { hand: ["014"] } }), "activate:p0-s1:E2")
    expect(s.decision).toMatchObject({ d: "window", player: 1, win: "damage-pending-to-controller" })
    expect(ids(s)).toEqual(["cast:p1-h1", "pass"])
    s = play(s, "cast:p1-h1")
    expect(s.decision).toMatchObject({ d: "choose", player: 1 })
    expect(ids(s)).toEqual(["choose:draw", "choose:prevent"])
    s = play(s, "choose:prevent")
    expect(p(s, 1).composure).toBe(20)
    expect(s.damage).toEqual([])
    expect(s.decision).toEqual({ d: "main", player: 0 })
  })

  it("is not offered in the card-pending window, and passing lets the damage through", () => {
    let s = play(craft({ p0: { hand: ["017"] }, p1: { hand: ["014"] } }), "cast:p0-h1")
    expect(s.decision).toMatchObject({ d: "window", win: "damage-pending-to-controller" })
    s = play(s, "pass")
    expect(p(s, 1).composure).toBe(16)
  })
})

describe("`all` in damage prevention (Crisis PR Team)", () => {
  it("prevents all of the pending damage, then draws", () => {
    const s = play(craft({ p0: { hand: ["017"] }, p1: { hand: ["019"] } }), "cast:p0-h1", "cast:p1-h1")
    // Diss Track: all 4 prevented → on_prevented replace: 2 Composure lost instead.
    expect(p(s, 1).composure).toBe(18)
    expect(p(s, 1).hand).toEqual(["p1-d1"])
    expect(eventCount(s, "damage-dealt", 1)).toBe(0)
  })
})

describe("counter-card unless optional payment (Press Blackout)", () => {
  const start = (fandom: number) => play(craft({ p0: { hand: ["001"], fandom }, p1: { hand: ["018"] } }), "cast:p0-h1")
  it("opens the card-pending window for the opponent", () => {
    const s = start(4)
    expect(s.decision).toMatchObject({ d: "window", player: 1, win: "card-pending-to-opponent", about: "p0-h1" })
    expect(p(s, 0).pending).toEqual(["p0-h1"])
  })
  it("the pending card's controller may pay to stop the counter", () => {
    let s = play(start(4), "cast:p1-h1")
    expect(s.decision).toMatchObject({ d: "pay", player: 0 })
    expect(ids(s)).toEqual(["pay:no", "pay:yes"])
    s = play(s, "pay:yes")
    expect(p(s, 0).fandom).toBe(0)
    expect(p(s, 0).stage).toEqual(["p0-h1"])
  })
  it("declining, or being unable to pay, counters the card", () => {
    const declined = play(start(4), "cast:p1-h1", "pay:no")
    expect(p(declined, 0).archive).toEqual(["p0-h1"])
    expect(eventCount(declined, "card-countered", 0)).toBe(1)
    const broke = play(start(3), "cast:p1-h1")
    expect(broke.decision?.d).toBe("main")
    expect(p(broke, 0).archive).toEqual(["p0-h1"])
    expect(p(broke, 0).hand).toEqual([]) // Yuna never resolved: no draw
  })
})

describe("redirect-target (Scandal Spin Doctor)", () => {
  it("changes the pending card's target to another legal target", () => {
    let s = play(
      craft({ p0: { hand: ["015"] }, p1: { stage: ["001", "007", "002"], hand: ["024"] } }),
      "cast:p0-h1:0/t1=p1-s1"
    )
    expect(p(s, 0).fandom).toBe(8) // targets chosen, then the cost paid
    s = play(s, "cast:p1-h1")
    expect(ids(s)).toEqual(["redirect:0/t1=p1-s2", "redirect:0/t1=p1-s3"])
    s = play(s, "redirect:0/t1=p1-s3")
    expect(scandal(s, "p1-s1")).toBe(0)
    // Variety Show Ace Minho had 1 Scandal; 2 more reach the scandal break of 3.
    expect(p(s, 1).stage).toEqual(["p1-s1", "p1-s2"])
    expect(p(s, 1).archive).toEqual(["p1-h1", "p1-s3"]) // the response resolves (and is archived) first
    expect(eventCount(s, "card-archived", 1)).toBe(1)
  })
  it("its condition (the pending card has a target) is false against an untargeted card: the window is skipped", () => {
    const s = play(craft({ p0: { hand: ["022"] }, p1: { hand: ["024"] } }), "cast:p0-h1")
    expect(s.decision?.d).toBe("main")
    expect(p(s, 0).archive).toEqual(["p0-h1"])
  })
})

describe("tones and temporary tone changes (Concept Reveal, Fan Chant)", () => {
  it("a dark Star becomes bright until end of turn, enabling an action-level condition", () => {
    const base = craft({ p0: { stage: ["005"], hand: ["022", "020"] } })
    const without = play(base, "cast:p0-h1")
    expect(p(without, 0).trend).toBe(0) // action-level condition false: only that action is skipped
    expect(p(without, 0).fandom).toBe(10)
    let s = play(base, "cast:p0-h2:0/t1=p0-s1")
    expect(s.toneChanges).toEqual([{ inst: "p0-s1", from: "dark", to: "bright", ctrl: 0, until: "end-of-turn" }])
    expect(p(s, 0).hand).toEqual(["p0-h1", "p0-d1"])
    s = play(s, "cast:p0-h1")
    expect(p(s, 0).trend).toBe(1)
    s = play(s, "end-turn")
    expect(s.toneChanges).toEqual([])
  })
})

describe("the count expression", () => {
  it("Encore Stage counts bright cards cast by you this turn, itself included", () => {
    const s = play(craft({ p0: { hand: ["022", "021"] } }), "cast:p0-h1", "cast:p0-h2")
    expect(p(s, 0).trend).toBe(2)
  })
  it("Comeback Legend Eunji counts Stars cast this turn", () => {
    const s = play(craft({ p0: { hand: ["001", "008"], fandom: 10 } }), "cast:p0-h1", "cast:p0-h2")
    expect(p(s, 0).trend).toBe(2)
  })
})

describe("for_each (Practice Studio)", () => {
  it("removes a Scandal counter from each Star you control", () => {
    const s = play(craft({ p0: { stage: ["012", "005", "002", "001"] } }), "activate:p0-s1:E1")
    expect([scandal(s, "p0-s2"), scandal(s, "p0-s3"), scandal(s, "p0-s4")]).toEqual([1, 0, 0])
    expect(p(s, 0).fandom).toBe(8)
    expect(eventCount(s, "counter-removed", 0)).toBe(2)
  })
  it("is not offered with no Star to apply to", () => {
    const s = craft({ p0: { stage: ["012"] } })
    expect(ids(s)).toEqual(["end-turn"])
    expect(engine.explain(s, "activate:p0-s1:E1")).toMatchObject({ legal: false, reason: "for-each-empty" })
  })
})

describe("optional, look-at-top, move-top-to-bottom (Trainee Twins)", () => {
  it("looks privately at the top two cards, then asks about the optional effect", () => {
    let s = play(craft({ p0: { hand: ["007"] } }), "cast:p0-h1")
    expect(s.looks).toEqual([{ player: 0, owner: 0, cards: ["p0-d1", "p0-d2"] }])
    expect(s.decision).toMatchObject({ d: "optional", player: 0 })
    expect(ids(s)).toEqual(["optional:no", "optional:yes"])
    const no = play(s, "optional:no")
    expect(p(no, 0).deck).toEqual(["p0-d1", "p0-d2", "p0-d3", "p0-d4", "p0-d5"])
    s = play(s, "optional:yes")
    expect(p(s, 0).deck).toEqual(["p0-d2", "p0-d3", "p0-d4", "p0-d5", "p0-d1"])
  })
})

describe("cost changes and the zero floor", () => {
  it("Actor-Idol Daeun makes your dreamy Moments cost 1 less; Broadcast Tower makes the opponent's cost 1 more", () => {
    const s = craft({ p0: { stage: ["006"], hand: ["020", "017"], fandom: 0 } })
    expect(currentCost(engine.compiled, s, "p0-h1")).toBe(0)
    expect(ids(s)).toEqual(["cast:p0-h1:0/t1=p0-s1", "end-turn"])
    const t = craft({ p0: { stage: ["006"], hand: ["020", "017"] }, p1: { stage: ["013"] } })
    expect(currentCost(engine.compiled, t, "p0-h1")).toBe(1)
    expect(currentCost(engine.compiled, t, "p0-h2")).toBe(4)
  })
  it("never goes below 0", () => {
    const s = craft({ p0: { stage: ["006"], hand: ["020"] } })
    const cheaper: GameState = {
      ...s,
      costChanges: [{
        ctrl: 0,
        group: { controller: "self", zone: "hand" },
        inst: null,
        amount: -5,
        until: "end-of-turn"
      }]
    }
    expect(currentCost(engine.compiled, cheaper, "p0-h1")).toBe(0)
  })
  it("targets are chosen before the cost is paid: a card with no legal target is not offered", () => {
    const s = craft({ p0: { hand: ["015", "017"], fandom: 0 } })
    expect(engine.explain(s, "cast:p0-h1")).toMatchObject({ legal: false, reason: "not-enough-fandom" })
    const rich = craft({ p0: { hand: ["015"] } })
    expect(engine.explain(rich, "cast:p0-h1")).toMatchObject({ legal: false, reason: "no-legal-target" })
  })
})

describe("move-counter and the scandal break (Blame Shift)", () => {
  it("moves up to two Scandal counters; a Star reaching 3 is archived", () => {
    const s = play(
      craft({ p0: { stage: ["005"], hand: ["016"] }, p1: { stage: ["002"] } }),
      "cast:p0-h1:0/t1=p0-s1,0/t2=p1-s1"
    )
    expect(scandal(s, "p0-s1")).toBe(0)
    expect(p(s, 1).stage).toEqual([])
    expect(p(s, 1).archive).toEqual(["p1-s1"])
    expect(s.counters["p1-s1"]).toBeUndefined()
  })
})

describe("return-card (Hiatus Announcement)", () => {
  it("returns a Star to hand, clearing its counters", () => {
    const s = play(craft({ p0: { stage: ["005"], hand: ["023"] } }), "cast:p0-h1:0/t1=p0-s1")
    expect(p(s, 0).hand).toEqual(["p0-s1"])
    expect(s.counters["p0-s1"]).toBeUndefined()
    expect(p(s, 0).fandom).toBe(10 - 1 + 1) // capped at 10
  })
})

describe("event-count conditions (Comeback Legend Eunji)", () => {
  it("gains Trend at the end of your turn only if no damage was dealt to you this turn", () => {
    const quiet = play(craft({ p0: { stage: ["008"] } }), "end-turn")
    expect(p(quiet, 0).trend).toBe(1)
    const base = craft({ p0: { stage: ["008"] } })
    const events = base.events.slice()
    events[(engine.compiled.eventIndex.get("damage-dealt") ?? 0) * 2] = 1
    const hurt = play({ ...base, events }, "end-turn")
    expect(p(hurt, 0).trend).toBe(0)
  })
})

describe("turn structure", () => {
  it("start step: Fandom, spotlight Trend (buzz minus scandal), turn-start triggers, then the draw", () => {
    const s = play(craft({ active: 1, p0: { stage: ["005", "001"], fandom: 4 } }), "end-turn")
    expect(s.active).toBe(0)
    expect(p(s, 0).fandom).toBe(7)
    expect(p(s, 0).trend).toBe(0 + 1) // Jiho: buzz 2 - scandal 2 = 0; Yuna: 1
    expect(p(s, 0).hand).toEqual(["p0-d1"])
    expect(s.turn).toBe(4)
  })
})

describe("terminal checks", () => {
  it("reaching the Trend cap wins at once, and no further action is legal", () => {
    const s = play(craft({ p0: { stage: ["001"], hand: ["022"], trend: 9 } }), "cast:p0-h1")
    expect(s.result).toEqual({ winner: 0, reason: "trend-cap" })
    expect(s.decision).toBeNull()
    expect(ids(s)).toEqual([])
    const r = engine.apply(s, "end-turn")
    expect(Either.isLeft(r) && r.left.code).toBe("game_over")
    expect(engine.explain(s, "end-turn")).toMatchObject({ legal: false, reason: "game-over" })
  })
  it("Composure 0 loses, by loss as well as by damage", () => {
    const s = play(craft({ p0: { hand: ["005"] }, p1: { composure: 1 } }), "cast:p0-h1")
    expect(s.result).toEqual({ winner: 0, reason: "composure" })
    expect(p(s, 0).stage).toEqual(["p0-h1"])
  })
  it("empty-deck rule: each failed draw loses Composure (not damage)", () => {
    const s = play(craft({ active: 1, p0: { deck: [], composure: 2 }, p1: { stage: [] } }), "end-turn")
    expect(eventCount(s, "draw-failed", 0)).toBe(1)
    expect(s.result).toEqual({ winner: 1, reason: "composure" })
    const survive = play(craft({ active: 1, p0: { deck: [], composure: 5 } }), "end-turn")
    expect(p(survive, 0).composure).toBe(3)
    expect(survive.result).toBeNull()
  })
  it("the turn limit ends the game: more Trend wins, then more Composure, else a draw", () => {
    const limit = engine.compiled.params.turn_limit
    expect(play(craft({ turn: limit, p1: { trend: 3 } }), "end-turn").result).toEqual({
      winner: 1,
      reason: "turn-limit"
    })
    expect(play(craft({ turn: limit, p0: { composure: 19 } }), "end-turn").result).toEqual({
      winner: 1,
      reason: "turn-limit"
    })
    expect(play(craft({ turn: limit }), "end-turn").result).toEqual({ winner: null, reason: "turn-limit" })
  })
})

describe("explain and typed refusals", () => {
  it("gives a typed reason for illegal actions", () => {
    const s = craft({ p0: { hand: ["018", "017"], fandom: 1 } })
    expect(engine.explain(s, "cast:p0-h1")).toMatchObject({ legal: false, reason: "wrong-window" })
    expect(engine.explain(s, "cast:p0-h2")).toMatchObject({ legal: false, reason: "not-enough-fandom" })
    expect(engine.explain(s, "cast:p0-d1")).toMatchObject({ legal: false, reason: "not-in-hand" })
    expect(engine.explain(s, "pass")).toMatchObject({ legal: false, reason: "wrong-window" })
    expect(
      engine.explain(s, {
        id: "end-turn",
        player: 1,
        kind: "end-turn",
        inst: null,
        effect: null,
        targets: null,
        choice: null
      })
    ).toMatchObject({
      legal: false,
      reason: "not-your-decision"
    })
    expect(engine.explain(s, "end-turn")).toEqual({ legal: true })
  })
  it("accepts only a deck returned by validateDeck", () => {
    const copy = structuredClone(realDeck())
    const r = makeEngine(copy)
    expect(Either.isLeft(r) && r.left.code).toBe("illegal_action")
  })
})

describe("privacy (observe)", () => {
  it("look-at-top is visible only to its player; hands only to their owner", () => {
    const s = play(craft({ p0: { hand: ["007"] }, p1: { hand: ["001"] } }), "cast:p0-h1")
    const mine = observe(s, 0)
    const theirs = observe(s, 1)
    expect(mine.seen).toEqual([{ owner: 0, cards: ["p0-d1", "p0-d2"] }])
    expect(theirs.seen).toEqual([])
    expect(mine.seats[1].hand).toBeNull()
    expect(theirs.seats[1].hand).toEqual(["p1-h1"])
    expect(mine.decision?.d).toBe("optional")
    expect(theirs.decision).toBeNull()
    expect(JSON.stringify(theirs)).not.toContain("p0-d1")
  })
})

describe("the resolution budget", () => {
  it("a validated deck whose effects trigger each other forever ends in budget_exceeded, not a hang", () => {
    const { result } = mutated(["/cards/8/effects/1/trigger/event", "counter-added"])
    expect(result.diagnostics).toEqual([])
    const e = makeEngine(result.deck as StarterDeck)
    if (Either.isLeft(e)) return expect.fail(e.left.message)
    const g = e.right.newGame({ seed: 1 })
    if (Either.isLeft(g)) return expect.fail(g.left.message)
    const room = Object.keys(g.right.cardOf).find((i) => g.right.cardOf[i] === 8 && i.startsWith("p0")) as string
    const s: GameState = {
      ...g.right,
      active: 0,
      players: [{
        ...g.right.players[0],
        hand: [room],
        deck: g.right.players[0].deck.filter((x) => x !== room).concat(
          g.right.players[0].hand.filter((x) => x !== room)
        ),
        fandom: 10
      }, g.right.players[1]],
      work: [],
      queue: [],
      decision: { d: "main", player: 0 }
    }
    const r = e.right.apply(s, `cast:${room}`)
    expect(Either.isLeft(r) && [r.left.code, r.left.subject]).toEqual(["budget_exceeded", `cast:${room}`])
  })
})
