/**
 * The `LanguageServer` port: the cardfx language server (diagnostics, hover,
 * completion of IDs, go-to-definition) over a pair of streams. It is a face
 * (src/lsp, an editor's requests in, answers out) beside the CLI, so the
 * CLI's `cardfx lsp` asks for it through this port and the bin's composition
 * root (src/bin/Root.ts) provides the implementation, loaded on first use.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Context, type Effect } from "effect"

/** The language server's one operation. */
export interface LanguageServerService {
  /**
   * Talks LSP over `input`/`output` until the client ends the session; the
   * checks read the files through the application's `FileSystem` (with the
   * editor's open documents over it).
   */
  readonly run: (
    input: NodeJS.ReadableStream,
    output: NodeJS.WritableStream
  ) => Effect.Effect<void, never, FileSystem.FileSystem>
}

/** The language server port (implemented by src/lsp, `languageServerLayer`). */
export class LanguageServer extends Context.Tag("cardfx/LanguageServer")<LanguageServer, LanguageServerService>() {}
