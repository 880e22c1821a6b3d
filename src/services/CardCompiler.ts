/**
 * `CardCompiler`: the common compiler (`compileContainer`) as a service. The
 * pure core returns every diagnostic; `compile` fails with the tagged error
 * of the first error, carrying every diagnostic (sorted).
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer } from "effect"
import type { CompiledContainer } from "../composition/Compiled.js"
import {
  compileContainer,
  type CompileError,
  compileErrors,
  type CompileInput,
  type CompileOptions
} from "../composition/Compiler.js"
import type { Card } from "../composition/schema/Card.js"
import type { Status } from "../composition/schema/Status.js"
import { type Diagnostic, sortDiagnostics } from "../kernel/Diagnostic.js"
import { traced } from "../kernel/Tracing.js"

/** The operations of the compiler service. */
export interface CardCompilerService {
  /** Compiles a container; fails with the first error's tagged error, carrying every diagnostic (sorted). */
  readonly compile: (input: CompileInput, options: CompileOptions) => Effect.Effect<CompiledContainer, CompileError>
  /** The same as {@link CardCompilerService.compile} (kept for callers of the earlier name; its error carries every diagnostic). */
  readonly compileAll: (input: CompileInput, options: CompileOptions) => Effect.Effect<CompiledContainer, CompileError>
  /** Compiles an authored card against a status catalog. */
  readonly compileCard: (
    card: Card,
    statuses: ReadonlyMap<string, Status>
  ) => Effect.Effect<CompiledContainer, CompileError>
}

const compileEither = (
  input: CompileInput,
  options: CompileOptions
): Either.Either<CompiledContainer, ReadonlyArray<Diagnostic>> =>
  Either.mapLeft(compileContainer(input, options), sortDiagnostics)

const service: CardCompilerService = {
  compile: (input, options) => Effect.suspend(() => compileErrors.fromEither(compileEither(input, options))),
  compileAll: (input, options) => Effect.suspend(() => compileErrors.fromEither(compileEither(input, options))),
  compileCard: (card, statuses) =>
    Effect.suspend(() =>
      compileErrors.fromEither(
        compileEither({ cardId: card.cardId, cost: card.cost, tags: card.tags, components: card.components }, {
          statuses
        })
      )
    )
}

/** The common compiler service (pure, no requirements). */
export class CardCompiler extends Context.Tag("cardfx/CardCompiler")<CardCompiler, CardCompilerService>() {
  static readonly layer: Layer.Layer<CardCompiler> = Layer.succeed(CardCompiler, traced("CardCompiler", service))
}
