import { NodeContext } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { renderEvent } from "../../../src/composition/executor/Render.js"
import { compareRun, loadScenario, runScenarioFile, runScenarioWith } from "../../../src/composition/scenario/Runner.js"
import { isScenarioDocument, validateScenario } from "../../../src/composition/scenario/Scenario.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"
import { parseJson } from "../../../src/kernel/Json.js"
import { repoRoot } from "./helpers.js"

const scenarios = ["ember-affinity", "residual-affinity", "random-draws"].map((n) =>
  join(repoRoot, `data/scenarios/${n}.scenario.json`)
)

const run = <A, E>(e: Effect.Effect<A, E, NodeContext.NodeContext>) =>
  Effect.runPromise(Effect.either(e.pipe(Effect.provide(NodeContext.layer))))

describe("reference scenarios", () => {
  for (const file of scenarios) {
    const name = file.split("/").pop() ?? file
    it(`${name}: ten runs are byte-identical, and the recorded random inputs replay to the same report`, async () => {
      const ten = await run(runScenarioFile(file, { times: 10 }))
      if (Either.isLeft(ten)) throw new Error(JSON.stringify(ten.left))
      const loaded = await run(loadScenario(file))
      if (Either.isLeft(loaded)) throw new Error(JSON.stringify(loaded.left))
      const { runtime, scenario } = loaded.right
      const replay = ten.right.steps.map((s) => s.randomInputs)
      const replayed = runScenarioWith(runtime, scenario, { replay })
      expect(Either.isRight(replayed) && canonicalJson(replayed.right)).toBe(canonicalJson(ten.right))
    })
  }

  it("ember: lethal hit skips burning; non-lethal applies 1 stack for 3 turns; burning ticks 2 at the slime's turn starts", async () => {
    const r = await run(runScenarioFile(scenarios[0] as string))
    if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left))
    const [hitSlime, hitGoblin, heal] = r.right.steps
    const lines = (s: typeof hitSlime) => (s?.events ?? []).map(renderEvent)
    expect(lines(hitSlime)).toEqual([
      "strike → slime DAMAGE 6 base +2 strength ×1.5 vulnerable → 12 (hp 30 → 18)",
      expect.stringMatching(/^ember_[0-9a-f]{16}\.burn → slime burning stacks 0 → 1, 3 turns$/)
    ])
    expect(lines(hitGoblin)).toEqual([
      "strike → goblin DAMAGE 6 base +2 strength → 8 (hp 5 → 0)",
      "goblin is defeated",
      expect.stringMatching(/^skip ember_[0-9a-f]{16}\.burn on goblin: condition target\.alive$/)
    ])
    expect(lines(heal)).toEqual([
      "mend → hero HEAL 5 base → 5 (hp 30 → 35)",
      expect.stringMatching(/^ember_[0-9a-f]{16}\.regen → hero regeneration stacks 0 → 1, 3 turns$/)
    ])
    const ticks = r.right.steps.flatMap((s) => s.events.filter((e) => e.type === "tick"))
    expect(ticks.filter((t) => t.statusId === "burning").map((t) => [t.intensity, t.hpAfter])).toEqual([
      [2, 16],
      [2, 14],
      [2, 12]
    ])
    expect(ticks.filter((t) => t.statusId === "regeneration").map((t) => t.hpAfter)).toEqual([37, 39, 40])
    const expired = r.right.steps.flatMap((s) =>
      s.events.filter((e) => e.type === "statusExpired").map((e) => e.statusId)
    )
    expect(expired).toEqual(["vulnerable", "regeneration", "burning"])
    const slime = r.right.finalState.characters.find((c) => c.characterId === "slime")
    expect(slime).toMatchObject({ hp: 12, statuses: [] })
  })

  it("--seed changes the draws of the random scenario, and the same seed gives the same bytes", async () => {
    const a = await run(runScenarioFile(scenarios[2] as string, { seed: 1 }))
    const b = await run(runScenarioFile(scenarios[2] as string, { seed: 1 }))
    const c = await run(runScenarioFile(scenarios[2] as string, { seed: 2 }))
    if (Either.isLeft(a) || Either.isLeft(b) || Either.isLeft(c)) throw new Error("scenario failed")
    expect(canonicalJson(a.right)).toBe(canonicalJson(b.right))
    expect(canonicalJson(a.right)).not.toBe(canonicalJson(c.right))
    expect(a.right.steps[0]?.randomInputs?.length).toBeGreaterThan(0)
  })
})

describe("runner diagnostics", () => {
  it("an unknown card or upgrade fails at the play step, with the file and path", async () => {
    const loaded = await run(loadScenario(scenarios[0] as string))
    if (Either.isLeft(loaded)) throw new Error("load")
    const { runtime, scenario } = loaded.right
    const unknownCard = runScenarioWith(runtime, {
      ...scenario,
      steps: [{ op: "play", actor: "hero", card: "nope", targets: [] }]
    }, { file: "s.json" })
    expect(Either.isLeft(unknownCard) && unknownCard.left.map((d) => [d.code, d.file, d.path])).toEqual([[
      "unknown_card",
      "s.json",
      "/steps/0/card"
    ]])
    const unknownUpgrade = runScenarioWith(runtime, { ...scenario, ledgers: { hero: { basic_attack: ["nope"] } } })
    expect(Either.isLeft(unknownUpgrade) && unknownUpgrade.left.map((d) => d.code)).toEqual(["unknown_transformation"])
  })
})

describe("nondeterminism check", () => {
  it("a single differing byte is a nondeterminism diagnostic; identical bytes pass", () => {
    expect(compareRun("f.json", "{\"a\":1}", "{\"a\":1}", 2, 10)).toBeUndefined()
    const d = compareRun("f.json", "{\"a\":1}", "{\"a\":2}", 7, 10)
    expect(d).toMatchObject({ code: "nondeterminism", file: "f.json", details: { run: 7, times: 10, at: 5 } })
  })
})

describe("scenario documents", () => {
  it("are recognised by their top-level scenario key", () => {
    expect(isScenarioDocument({ scenario: 1 })).toBe(true)
    expect(isScenarioDocument({ cards: [] })).toBe(false)
    expect(isScenarioDocument([])).toBe(false)
    for (const file of scenarios) {
      const doc = parseJson(readFileSync(file), { file })
      expect(Either.isRight(doc) && isScenarioDocument(doc.right.value)).toBe(true)
      expect(Either.isRight(doc) && validateScenario(doc.right)).toEqual([])
    }
  })

  it("validation reports file, path, line and code", () => {
    const text = `{
  "scenario": 1,
  "packages": ["../heroscript.base"],
  "seed": 1,
  "state": { "turn": 1, "activeSide": "ally", "characters": [
    { "characterId": "hero", "side": "ally", "hp": 50, "maxHp": 40 }
  ] },
  "steps": [ { "op": "play", "actor": "ghost", "card": "basic_attack" } ]
}`
    const doc = parseJson(text, { file: "bad.scenario.json" })
    if (Either.isLeft(doc)) throw new Error("parse")
    const ds = validateScenario(doc.right)
    expect(ds.map((d) => [d.code, d.file, d.path, d.line])).toEqual([[
      "schema_invalid",
      "bad.scenario.json",
      "/state/characters/0",
      6
    ]])
    const fixed = parseJson(text.replace("\"hp\": 50", "\"hp\": 40"), { file: "bad.scenario.json" })
    if (Either.isLeft(fixed)) throw new Error("parse")
    expect(validateScenario(fixed.right).map((d) => [d.code, d.path, d.line])).toEqual([[
      "unknown_character",
      "/steps/0/actor",
      8
    ]])
    const version = parseJson(text.replace("\"scenario\": 1", "\"scenario\": 2"), { file: "v.json" })
    if (Either.isLeft(version)) throw new Error("parse")
    expect(validateScenario(version.right).map((d) => d.code)).toContain("unsupported_version")
  })
})
