/**
 * Issue 17.4 and 17.6 for the composition services.
 *
 * - Services compute when run: calling a `CardResolver` or `CardBundleCompiler`
 *   method returns an Effect and touches nothing of its input; the work
 *   happens when the Effect runs (inputs here count every read).
 * - Narrow error channels: each method's error type is the union of the
 *   tagged errors it can produce (type-level assertions, checked by `tsc`),
 *   never the whole `CardfxError`; the runtime channel agrees with the type.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Effect, Either, Exit } from "effect"
import {
  CardBundleCompiler,
  type CardBundleCompilerService,
  type SealError
} from "../../../src/composition/BundleCompiler.js"
import { type CompileError } from "../../../src/composition/Compiler.js"
import { type CardExecutorService, type ExecutorError } from "../../../src/composition/executor/CardExecutor.js"
import { emptyLedger } from "../../../src/composition/ledger/Ledger.js"
import { type CardTransformationPlanner, type RejectionError } from "../../../src/composition/planner/Planner.js"
import { ResolutionCache } from "../../../src/composition/ResolutionCache.js"
import {
  CardResolver,
  type CardResolverService,
  type RemovalError,
  resolveEffectiveCard,
  type ResolveError,
  resolveErrors
} from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { DiagnosticCodeTable } from "../../../src/kernel/DiagnosticCode.js"
import type { CardfxError, CommandConflict, InvalidId, StoreCorrupt, StoreFailure } from "../../../src/kernel/Errors.js"
import type { CardCompilerService } from "../../../src/services/CardCompiler.js"
import { BASE, card, ledgerWith, right, runtimeOf } from "./support.js"

type ErrorOfEffect<T> = T extends Effect.Effect<infer _A, infer E, infer _R> ? E : never
type Failure<F extends (...args: never) => unknown> = ErrorOfEffect<ReturnType<F>>

/** Wraps a value so that every property read is counted. */
const counted = <T extends object>(value: T): { readonly value: T; readonly reads: () => number } => {
  let reads = 0
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      reads++
      return Reflect.get(target, key, receiver)
    }
  })
  return { value: proxy, reads: () => reads }
}

describe("services compute when run (issue 17.4)", () => {
  it.effect("CardResolver.resolve / resolveAll / checkRemoval read nothing until run", () =>
    Effect.gen(function*() {
      const rt = yield* Effect.promise(() => runtimeOf(BASE))
      const resolver = yield* CardResolver
      const ledger = ledgerWith(rt, "basic_attack", ["core.ember.affinity"])
      const input = counted({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses })
      const ctx = counted({ baseCard: card(rt, "basic_attack"), statuses: rt.statuses })
      const resolve = resolver.resolve(input.value)
      const resolveAll = resolver.resolveAll(input.value)
      const removal = resolver.checkRemoval(ledger, "e1", ctx.value)
      expect([input.reads(), ctx.reads()]).toEqual([0, 0])
      const effective = yield* resolve
      expect(input.reads()).toBeGreaterThan(0)
      expect(effective.fingerprint).toBe(
        right(resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses })).fingerprint
      )
      yield* resolveAll
      yield* removal
      expect(ctx.reads()).toBeGreaterThan(0)
    }).pipe(Effect.provide(CardResolver.layer)))

  it.effect("CardBundleCompiler.seal reads nothing until run; a failing input fails only when run", () =>
    Effect.gen(function*() {
      const rt = yield* Effect.promise(() => runtimeOf(BASE))
      const compiler = yield* CardBundleCompiler
      const runtime = counted<Runtime>(rt)
      const transformation = counted(rt.transformations.get("core.ember.affinity") ?? { upgradeId: "x", category: "x" })
      const sealing = compiler.seal(runtime.value, transformation.value)
      expect([runtime.reads(), transformation.reads()]).toEqual([0, 0])
      const sealed = yield* sealing
      expect(sealed.upgradeId).toBe("core.ember.affinity")
      expect(runtime.reads() + transformation.reads()).toBeGreaterThan(0)

      const unknownBundle = {
        upgradeId: "t.bad",
        category: "x",
        compositionRules: [{
          ruleId: "r",
          priority: 0,
          namespace: "n",
          bundleId: "nope",
          scope: "AfterImpact" as const
        }]
      }
      const failing = compiler.seal(rt, unknownBundle)
      const exit = yield* Effect.exit(failing)
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.provide(CardBundleCompiler.layer)))

  it("each CardResolver layer build owns its own cache; results do not depend on it", async () => {
    const rt = await runtimeOf(BASE)
    const ledger = ledgerWith(rt, "basic_attack", ["core.ember.affinity"])
    const input = { baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }
    const warm = new ResolutionCache()
    const a = resolveEffectiveCard(input, warm)
    const b = resolveEffectiveCard(input, warm)
    const cold = resolveEffectiveCard(input)
    expect(Either.isRight(a) && Either.isRight(b) && Either.isRight(cold)).toBe(true)
    if (Either.isRight(a) && Either.isRight(b) && Either.isRight(cold)) {
      expect(b.right.fingerprint).toBe(a.right.fingerprint)
      expect(cold.right.fingerprint).toBe(a.right.fingerprint)
      expect(JSON.stringify(cold.right)).toBe(JSON.stringify(a.right))
    }
  })
})

describe("narrow error channels (issue 17.6)", () => {
  it("each method's error type is its own union, not CardfxError (type level)", () => {
    expectTypeOf<Failure<CardResolverService["resolve"]>>().toEqualTypeOf<ResolveError>()
    expectTypeOf<Failure<CardResolverService["checkRemoval"]>>().toEqualTypeOf<RemovalError>()
    expectTypeOf<RemovalError["_tag"]>().toEqualTypeOf<"EntryNotFound" | "DependencyViolation">()
    expectTypeOf<Failure<CardBundleCompilerService["seal"]>>().toEqualTypeOf<SealError>()
    expectTypeOf<Failure<CardCompilerService["compile"]>>().toEqualTypeOf<CompileError>()
    expectTypeOf<Failure<CardCompilerService["compileCard"]>>().toEqualTypeOf<CompileError>()
    expectTypeOf<Failure<CardExecutorService["play"]>>().toEqualTypeOf<ExecutorError>()
    expectTypeOf<ExecutorError["_tag"]>().toEqualTypeOf<
      | "BudgetExceeded"
      | "TurnLimit"
      | "InvalidTarget"
      | "ActorDefeated"
      | "UnknownCharacter"
      | "RngMismatch"
      | "UnknownReference"
    >()
    expectTypeOf<Failure<CardTransformationPlanner["Type"]["apply"]>>().toEqualTypeOf<
      RejectionError | StoreFailure | CommandConflict | InvalidId | StoreCorrupt
    >()
    // None of them is the whole union: CardfxError does not fit any of these channels.
    expectTypeOf<CardfxError>().not.toMatchTypeOf<ResolveError>()
    expectTypeOf<CardfxError>().not.toMatchTypeOf<SealError>()
    expectTypeOf<CardfxError>().not.toMatchTypeOf<CompileError>()
    expectTypeOf<CardfxError>().not.toMatchTypeOf<ExecutorError>()
    expectTypeOf<CardfxError>().not.toMatchTypeOf<RejectionError>()
    // Errors of other domains are not in the resolver's channel.
    expectTypeOf<"StoreFailure">().not.toMatchTypeOf<ResolveError["_tag"]>()
    expectTypeOf<"GameOver">().not.toMatchTypeOf<RejectionError["_tag"]>()
    expectTypeOf<"MissingTag">().toMatchTypeOf<ResolveError["_tag"]>()
  })

  it("the resolver's runtime channel and its type agree (tags of the declared codes)", () => {
    const tags = [...resolveErrors.codes].map((c) => DiagnosticCodeTable[c].tag).sort()
    const expected: Array<ResolveError["_tag"]> = [
      "AmbiguousAnchor",
      "ComponentCollision",
      "Contradiction",
      "DuplicateId",
      "ExcludedCapability",
      "ExcludedTag",
      "ExpansionLimit",
      "InvalidBinding",
      "InvalidComposition",
      "ListLimit",
      "MatchLimit",
      "MissingCapability",
      "MissingTag",
      "NestingLimit",
      "NoMatchingRule",
      "NodeBudget",
      "OrderOverflow",
      "RepeatLimit",
      "SymbolLimit",
      "TemplateUnbound",
      "TransformationInvalid",
      "UnsupportedVersion"
    ]
    expect(tags).toEqual(expected)
  })

  it.effect("a failure arrives as its own tagged error through the narrow channel", () =>
    Effect.gen(function*() {
      const rt = yield* Effect.promise(() => runtimeOf(BASE))
      const resolver = yield* CardResolver
      const e = yield* Effect.flip(
        resolver.resolve({ baseCard: card(rt, "basic_attack"), ledger: emptyLedger("heal"), statuses: rt.statuses })
      )
      expect([e._tag, e.code]).toEqual(["InvalidComposition", "invalid_composition"])
      const r = yield* Effect.flip(
        resolver.checkRemoval(emptyLedger("basic_attack"), "nope", {
          baseCard: card(rt, "basic_attack"),
          statuses: rt.statuses
        })
      )
      expect(r._tag).toBe("EntryNotFound")
    }).pipe(Effect.provide(CardResolver.layer)))
})
