import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { HallyuHex } from "../../src/hallyu/Service.js"
import { scopedTempDir } from "../support/tmp.js"

const live = HallyuHex.layer.pipe(Layer.provide(NodeContext.layer))

describe("the HallyuHex service", () => {
  it.effect("loads the starter deck and hands out an engine", () =>
    Effect.gen(function*() {
      const hhx = yield* HallyuHex
      const engine = yield* hhx.engine("data/hallyu-hex/starter-deck.v0.json")
      const g = engine.newGame({ seed: 1 })
      expect(Either.isRight(g) && engine.legalActions(g.right).length).toBeGreaterThan(0)
    }).pipe(Effect.provide(live)))

  it.scoped("fails in the typed channel with the tagged error of the first diagnostic", () =>
    Effect.gen(function*() {
      const dir = yield* scopedTempDir("hhx-")
      const bad = join(dir, "deck.json")
      writeFileSync(
        bad,
        readFileSync("data/hallyu-hex/starter-deck.v0.json", "utf8").replace(
          "\"op\": \"look-at-top\"",
          "\"op\": \"peek\""
        )
      )
      const hhx = yield* HallyuHex
      const e = yield* Effect.flip(hhx.loadDeck(bad))
      expect([e._tag, e.code, e.cardCode, e.effectId]).toEqual([
        "UnknownOperation",
        "unknown_operation",
        "HHX-PROTO-007",
        "HHX-PROTO-007-E1"
      ])
      const missing = yield* Effect.flip(hhx.engine(join(dir, "nope.json")))
      expect(missing._tag).toBe("FileUnreadable")
      writeFileSync(join(dir, "dup.json"), "{\"manifest_version\": \"0.2.0\", \"manifest_version\": \"0.2.0\"}")
      expect((yield* Effect.flip(hhx.validateFile(join(dir, "dup.json"))))._tag).toBe("DuplicateKey")
    }).pipe(Effect.provide(live)))
})
