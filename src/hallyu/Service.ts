/**
 * `HallyuHex`: the Effect service boundary over the pure validator and
 * engine, for embedding. It reads deck files through the platform
 * `FileSystem`; every failure arrives in the typed error channel as the
 * tagged error of its diagnostic code (`UnknownEvent`, `FileUnreadable`, ...).
 * The per-action loop stays pure: get an `Engine` once, then call it.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Context, Effect, Either, Layer } from "effect"
import { diagnostic } from "../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic, errorFromDiagnostics } from "../kernel/Errors.js"
import { readJsonFile } from "../kernel/JsonFile.js"
import { type Engine, makeEngine } from "./engine/Engine.js"
import type { StarterDeck } from "./Schema.js"
import { type DeckValidation, validateDeck } from "./Validate.js"

export interface HallyuHexService {
  /** Reads and validates a deck file: every diagnostic (input problems fail). */
  readonly validateFile: (file: string) => Effect.Effect<DeckValidation, CardfxError>
  /** A validated deck, or the first error diagnostic as its tagged error. */
  readonly loadDeck: (file: string) => Effect.Effect<StarterDeck, CardfxError>
  /** An engine for a deck file. */
  readonly engine: (file: string) => Effect.Effect<Engine, CardfxError>
}

export const make = (fs: FileSystem.FileSystem): HallyuHexService => {
  const validateFile = (file: string): Effect.Effect<DeckValidation, CardfxError> =>
    // A regular file within the size cap, checked before a byte is read (never /dev/zero or a FIFO).
    readJsonFile(file).pipe(
      Effect.provideService(FileSystem.FileSystem, fs),
      Effect.flatMap((
        doc
      ) => (Either.isLeft(doc) ? Effect.fail(errorFromDiagnostic(doc.left)) : Effect.succeed(validateDeck(doc.right))))
    )
  const loadDeck = (file: string): Effect.Effect<StarterDeck, CardfxError> =>
    Effect.flatMap(validateFile(file), (v) => {
      if (v.deck !== undefined) return Effect.succeed(v.deck)
      // The first error stands for the failure, with every diagnostic of the deck.
      return Effect.fail(
        errorFromDiagnostics(v.diagnostics, diagnostic("schema_invalid", `${file} is not a valid deck`, { file }))
      )
    })
  const engine = (file: string): Effect.Effect<Engine, CardfxError> =>
    Effect.flatMap(loadDeck(file), (deck) => {
      const e = makeEngine(deck)
      return Either.isLeft(e) ? Effect.fail(errorFromDiagnostic(e.left)) : Effect.succeed(e.right)
    })
  return { validateFile, loadDeck, engine }
}

/** The Hallyu Hex service. */
export class HallyuHex extends Context.Tag("cardfx/HallyuHex")<HallyuHex, HallyuHexService>() {
  /** The service over the platform file system. */
  static readonly layer: Layer.Layer<HallyuHex, never, FileSystem.FileSystem> = Layer.effect(
    HallyuHex,
    Effect.map(FileSystem.FileSystem, make)
  )
}
