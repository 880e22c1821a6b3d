/**
 * The `Replays` service (`cardfx replay`'s one method) in process, over the
 * real file system: logs played here replay to their fingerprints, a
 * tampered log is a failed replay naming its file, and what is not a game
 * log fails with every diagnostic. The one deck reader (`JsonFile.readDeckText`)
 * says "cannot read FILE: reason" for every file it cannot read.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fingerprint, playRandom } from "../../src/hallyu/engine/Simulate.js"
import { HallyuHex } from "../../src/hallyu/Service.js"
import { JsonFile, Replays } from "../../src/services/index.js"

const DECK = "data/hallyu-hex/starter-deck.v0.json"
const dir = mkdtempSync(join(tmpdir(), "cardfx-replays-"))
const file = (name: string, value: unknown): string => {
  const path = join(dir, name)
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value))
  return path
}

const live = Replays.Replays.layer.pipe(Layer.provideMerge(HallyuHex.layer), Layer.provideMerge(NodeContext.layer))

layer(live)("Replays.replay", (it) => {
  it.effect("logs played here replay to their fingerprints; a tampered one fails naming its file", () =>
    Effect.gen(function*() {
      const engine = yield* Effect.flatMap(HallyuHex, (h) => h.engine(DECK))
      const played = [1, 2].map((k) => playRandom(engine, { seed: `replays/${k}`, fingerprints: true }))
      const games = played.map((p) => Either.getOrThrow(p))
      const logs = games.map((g) => g.log)
      const good = file("good.json", logs)
      const report = yield* Effect.flatMap(Replays.Replays, (r) => r.replay({ log: good, deck: DECK }))
      expect(report.ok).toBe(true)
      expect(report.games).toBe(2)
      expect(report.replays.map((r) => [r.seed, r.ok, r.steps, r.fingerprint])).toEqual(
        games.map((g, k) => [`replays/${k + 1}`, true, g.log.actions.length, fingerprint(g.final)])
      )
      // One fingerprint changed in the second log: that log fails at that step, the first still replays.
      const [first, second] = logs
      if (first === undefined || second === undefined) return expect.unreachable("two logs")
      const tampered = { ...second, fingerprints: second.fingerprints.map((f, k) => (k === 3 ? "0".repeat(64) : f)) }
      const bad = file("tampered.json", [first, tampered])
      const failed = yield* Effect.flatMap(Replays.Replays, (r) => r.replay({ log: bad, deck: DECK }))
      expect(failed.ok).toBe(false)
      expect(failed.replays.map((r) => r.ok)).toEqual([true, false])
      expect(failed.replays[1]).toMatchObject({
        result: null,
        fingerprint: null,
        diagnostic: { code: "replay_mismatch", file: bad, details: { step: 3 } }
      })
    }))

  it.effect("not a game log: the deck kind named, or every diagnostic of the log; a missing file is file_unreadable", () =>
    Effect.gen(function*() {
      const replays = yield* Replays.Replays
      const deckAsLog = yield* Effect.flip(replays.replay({ log: DECK, deck: DECK }))
      expect(deckAsLog.code).toBe("schema_invalid")
      expect(deckAsLog.message).toBe(`${DECK} is not a game log: it is a Hallyu Hex deck file`)
      // Two mistakes in one log: both are reported.
      const twice = file("twice.json", {
        format: "hhx-log/9",
        deckHash: "x",
        seed: 7,
        decks: null,
        actions: [],
        fingerprints: []
      })
      const invalid = yield* Effect.flip(replays.replay({ log: twice, deck: DECK }))
      expect(invalid.diagnostics.map((d) => d.path).sort()).toEqual(["/format", "/seed"])
      const missing = yield* Effect.flip(replays.replay({ log: join(dir, "none.json"), deck: DECK }))
      expect([missing.code, missing.message]).toEqual([
        "file_unreadable",
        `cannot read ${join(dir, "none.json")}: no such file or folder`
      ])
    }))
})

describe("the one deck reader", () => {
  it.effect("reads a deck's text; a folder or a missing file is file_unreadable, said one way", () =>
    Effect.gen(function*() {
      const text = yield* JsonFile.readDeckText(DECK)
      expect(JSON.parse(text)).toHaveProperty("cards")
      const folder = yield* Effect.flip(JsonFile.readDeckText(dir))
      expect([folder.code, folder.message]).toEqual(["file_unreadable", `cannot read ${dir}: not a regular file`])
      const none = yield* Effect.flip(JsonFile.readDeckText(join(dir, "no-deck.json")))
      expect(none.message).toBe(`cannot read ${join(dir, "no-deck.json")}: no such file or folder`)
    }).pipe(Effect.provide(NodeContext.layer)))
})
