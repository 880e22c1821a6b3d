/**
 * The services' error contract: every method's error type lists exactly the
 * tagged errors it can fail with (checked at the type level), and a failure
 * carries every diagnostic, the one it stands for first.
 */
import { describe, expect, expectTypeOf, it, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { emptyLedger } from "../../src/composition/ledger/Ledger.js"
import { assess } from "../../src/composition/planner/Plan.js"
import { errorChannel } from "../../src/kernel/ErrorChannel.js"
import type { Games, Instances } from "../../src/services/index.js"
import {
  type BranchNotFound,
  Cards,
  type CommandConflict,
  ContentCatalog,
  ContentLoader,
  diagnostic,
  type DuplicateId,
  errorFromDiagnostics,
  errorOf,
  exitClassOf,
  type Forbidden,
  type ForkOutOfRange,
  httpStatusOf,
  type InvalidComposition,
  type InvalidId,
  type InvitationInvalid,
  LedgerStore,
  LiveCatalog,
  type LoadError,
  type ReloadRejected,
  type ReplayMismatch,
  type StepConflict,
  type StoreCorrupt,
  type StoreFailure,
  type TooManyGames,
  type Unauthorized,
  type UnknownActivity,
  type UnknownCard,
  type UnknownGame,
  type UnknownInstance,
  type UnknownTransformation,
  type UnsealedDefinition
} from "../../src/services/index.js"

type Err<F> = F extends (...args: never) => Effect.Effect<infer _A, infer E, infer _R> ? E
  : F extends Effect.Effect<infer _A, infer E, infer _R> ? E
  : never

describe("every service method's error type is the errors it can fail with", () => {
  it("Cards", () => {
    expectTypeOf<Err<Cards.CardsService["assess"]>>().toEqualTypeOf<
      | InvalidId
      | UnknownCard
      | UnknownActivity
      | UnknownTransformation
      | InvalidComposition
      | UnsealedDefinition
      | StoreFailure
      | StoreCorrupt
      | BranchNotFound
    >()
    expectTypeOf<Err<Cards.CardsService["discover"]>>().toEqualTypeOf<
      | InvalidId
      | UnknownCard
      | UnknownActivity
      | InvalidComposition
      | UnsealedDefinition
      | StoreFailure
      | StoreCorrupt
      | BranchNotFound
    >()
    expectTypeOf<Err<Cards.CardsService["list"]>>().toEqualTypeOf<never>()
    expectTypeOf<Err<Cards.CardsService["inspect"]>>().toEqualTypeOf<Cards.InspectError>()
  })
  it("ContentCatalog", () => {
    expectTypeOf<Err<ContentCatalog.ContentCatalogService["check"]>>().toEqualTypeOf<
      StoreFailure | StoreCorrupt | BranchNotFound
    >()
    expectTypeOf<Err<ContentCatalog.ContentCatalogService["reload"]>>().toEqualTypeOf<
      LoadError | ReloadRejected | StoreFailure | StoreCorrupt | BranchNotFound
    >()
    expectTypeOf<Err<ContentCatalog.ContentCatalogService["current"]>>().toEqualTypeOf<never>()
  })
  it("Instances", () => {
    expectTypeOf<Err<Instances.InstancesService["get"]>>().toEqualTypeOf<
      UnknownInstance | StoreFailure | StoreCorrupt | BranchNotFound | InvalidId
    >()
    expectTypeOf<Err<Instances.InstancesService["replay"]>>().toEqualTypeOf<
      UnknownInstance | StoreFailure | StoreCorrupt | BranchNotFound | InvalidId | ReplayMismatch
    >()
    expectTypeOf<Err<Instances.InstancesService["createBranch"]>>().toEqualTypeOf<
      StoreFailure | BranchNotFound | DuplicateId | InvalidId | ForkOutOfRange | StoreCorrupt
    >()
    expectTypeOf<Err<Instances.InstancesService["branches"]>>().toEqualTypeOf<
      UnknownInstance | StoreFailure | StoreCorrupt | InvalidId
    >()
    expectTypeOf<CommandConflict>().toMatchTypeOf<Err<Instances.InstancesService["command"]>>()
  })
  it("Games", () => {
    expectTypeOf<Err<Games.GamesService["act"]>>().toEqualTypeOf<
      | Games.EngineError
      | InvalidId
      | UnknownGame
      | StepConflict
      | StoreFailure
      | StoreCorrupt
      | Unauthorized
      | Forbidden
    >()
    expectTypeOf<Err<Games.GamesService["get"]>>().toEqualTypeOf<
      Games.EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt | Unauthorized | Forbidden
    >()
    expectTypeOf<Err<Games.GamesService["create"]>>().toEqualTypeOf<
      Games.EngineError | InvalidId | StoreFailure | StoreCorrupt | Unauthorized | Forbidden | TooManyGames
    >()
    expectTypeOf<Err<Games.GamesService["join"]>>().toEqualTypeOf<
      InvalidId | InvitationInvalid | StoreFailure | StoreCorrupt
    >()
  })
})

describe("one error contract", () => {
  it("an error keeps every diagnostic; the first error decides its class", () => {
    const e = errorFromDiagnostics(
      [
        diagnostic("unknown_reference", "a warning first", {}, "warning"),
        diagnostic("duplicate_id", "x is declared twice", { subject: "x" }),
        diagnostic("unknown_reference", "y is not declared", { subject: "y" })
      ],
      diagnostic("schema_invalid", "fallback")
    )
    expect(e._tag).toBe("DuplicateId")
    expect(e.subject).toBe("x")
    expect(e.diagnostics.map((d) => d.code)).toEqual(["unknown_reference", "duplicate_id", "unknown_reference"])
    const alone = errorFromDiagnostics([], diagnostic("schema_invalid", "nothing was said"))
    expect(alone.diagnostics).toEqual([diagnostic("schema_invalid", "nothing was said")])
    // Warnings alone do not stand for a failure: the fallback does, and the warnings are kept after it.
    const warned = errorFromDiagnostics(
      [diagnostic("unknown_reference", "a warning", {}, "warning")],
      diagnostic("schema_invalid", "not valid")
    )
    expect(warned._tag).toBe("SchemaInvalid")
    expect(warned.diagnostics.map((d) => d.code)).toEqual(["schema_invalid", "unknown_reference"])
  })
  it("an error built from a message has its own diagnostic", () => {
    const e = errorOf("unknown_activity", "no activity nope", { subject: "nope" })
    expect(e.diagnostics).toEqual([diagnostic("unknown_activity", "no activity nope", { subject: "nope" })])
    expect([exitClassOf("unknown_activity"), httpStatusOf("unknown_activity")]).toEqual([1, 404])
    expect([exitClassOf("usage_error"), exitClassOf("internal_error")]).toEqual([2, 70])
  })
  it.effect("a channel fails with every diagnostic, and a code outside it is a defect", () =>
    Effect.gen(function*() {
      const channel = errorChannel(["unknown_card"])
      const failed = yield* Effect.flip(
        channel.fail([diagnostic("unknown_card", "a"), diagnostic("unknown_transformation", "b")])
      )
      expect(failed.diagnostics.map((d) => d.code)).toEqual(["unknown_card", "unknown_transformation"])
      const outside = yield* Effect.exit(channel.fail([diagnostic("slot_full", "c")]))
      expect(outside._tag === "Failure" && outside.cause._tag).toBe("Die")
      expect(Either.isLeft(channel.error([]))).toBe(true)
    }))
})

const cardsLayer = Cards.Cards.layer.pipe(
  Layer.provideMerge(LiveCatalog.load(["data/heroscript.base"])),
  Layer.provide(ContentLoader.layerNode)
)

layer(cardsLayer)("the Cards service, as an embedder builds it", (it) => {
  it.effect("answers the faces' queries: a ledger of another card is invalid_composition", () =>
    Effect.gen(function*() {
      const cards = yield* Cards.Cards
      const heal = yield* cards.inspect({ cardId: "heal", upgrades: ["core.ember.affinity"] })
      const wrong = yield* Effect.flip(
        cards.discover({
          cardId: "basic_attack",
          activity: "canonical_command",
          source: { _tag: "Given", ledger: heal.ledger, pointer: "/ledger" }
        })
      )
      expect(wrong._tag).toBe("InvalidComposition")
      expect(wrong.path).toBe("/ledger/cardId")
      const activity = yield* Effect.flip(
        cards.discover({ cardId: "basic_attack", activity: "nope", source: Cards.noLedger })
      )
      expect(activity._tag).toBe("UnknownActivity")
      const upgrade = yield* Effect.flip(
        cards.assess({
          cardId: "basic_attack",
          command: { kind: "apply", upgradeId: "nope" },
          activity: "canonical_command",
          source: Cards.noLedger
        })
      )
      expect(upgrade._tag).toBe("UnknownTransformation")
      const listed = yield* cards.list
      expect(listed.map((c) => c.cardId)).toContain("basic_attack")
    }))

  it.effect("assess plans its candidate transient: the same answer as the memoizing pure assess, asked again too", () =>
    Effect.gen(function*() {
      const cards = yield* Cards.Cards
      const runtime = yield* (yield* LiveCatalog).current
      const given = (yield* cards.inspect({ cardId: "basic_attack", upgrades: ["core.sharpened_strike"] })).ledger
      for (
        const [source, ledger] of [
          [Cards.noLedger, emptyLedger("basic_attack")],
          [{ _tag: "Given", ledger: given, pointer: "/ledger" }, given]
        ] as const
      ) {
        for (const upgradeId of ["core.ember.affinity", "core.sharpened_strike"]) {
          const command = { kind: "apply", upgradeId } as const
          const expected = assess(runtime, ledger, command, "canonical_command")
          for (let i = 0; i < 2; i++) {
            expect(yield* cards.assess({ cardId: "basic_attack", command, activity: "canonical_command", source }))
              .toEqual(expected)
          }
        }
      }
    }))
})

layer(
  ContentCatalog.ContentCatalog.load(["data/heroscript.base"]).pipe(
    Layer.provideMerge(Layer.merge(ContentLoader.layerNode, LedgerStore.layerMemory)),
    Layer.orDie
  )
)("the ContentCatalog service", (it) => {
  it.effect("checks and reloads: an empty store never breaks", () =>
    Effect.gen(function*() {
      const catalog = yield* ContentCatalog.ContentCatalog
      const checked = yield* catalog.check
      expect([checked.switched, checked.checked, checked.broken]).toEqual([false, 0, []])
      const reloaded = yield* catalog.reload
      expect(reloaded.switched).toBe(true)
      expect((yield* catalog.info).cards).toContain("basic_attack")
    }))
})
