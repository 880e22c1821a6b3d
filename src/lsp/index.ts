/**
 * The language server face: the implementation of the services'
 * `LanguageServer` port (src/services/LanguageServer.ts), which the bin's
 * composition root provides to the CLI's `cardfx lsp`.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Layer, Runtime } from "effect"
import { LanguageServer } from "../services/LanguageServer.js"
import { checkRoots } from "./Checker.js"
import { runLanguageServer } from "./Server.js"

/**
 * The port over this process's streams given to `run`, the checks on the caller's runtime.
 *
 * @category layers
 * @since 0.1.0
 */
export const languageServerLayer: Layer.Layer<LanguageServer> = Layer.succeed(LanguageServer, {
  run: (input, output) =>
    Effect.gen(function*() {
      const run = Runtime.runPromise(yield* Effect.runtime<FileSystem.FileSystem>())
      yield* Effect.promise(() =>
        runLanguageServer(input, output, { check: (roots, overlay) => run(checkRoots(roots, overlay)) })
      )
    }).pipe(Effect.withSpan("LanguageServer.run", { captureStackTrace: false }))
})
