/**
 * `cardfx lsp [--stdio]`: the language server (src/lsp) over stdin and
 * stdout, for any editor with an LSP client (the VS Code extension in
 * editors/vscode, Neovim, Helix). The face only wires the streams and runs
 * the checks on the CLI's Effect runtime; it returns when the client ends
 * the session.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Runtime } from "effect"
import * as Command from "./Command.js"
import * as Options from "./Options.js"

const stdio = Options.boolean("stdio").pipe(
  Options.withDescription("Talk LSP over stdin/stdout (the only transport; accepted because clients pass it).")
)

const clientProcessId = Options.integer("clientProcessId").pipe(
  Options.optional,
  Options.withDescription("The editor's process ID (passed by some LSP clients; not used).")
)

export const lspCommand = Command.make("lsp", { stdio, clientProcessId }, () =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<FileSystem.FileSystem>()
    const run = Runtime.runPromise(runtime)
    // The language server and its protocol packages load only for this command (the bin's other commands start
    // without them).
    const [{ checkRoots }, { runLanguageServer }] = yield* Effect.promise(() =>
      Promise.all([import("../lsp/Checker.js"), import("../lsp/Server.js")])
    )
    yield* Effect.promise(() =>
      runLanguageServer(process.stdin, process.stdout, { check: (roots, overlay) => run(checkRoots(roots, overlay)) })
    )
  })).pipe(
    Command.withDescription(
      "Run the cardfx language server on stdin/stdout: diagnostics, hover, completion of IDs, go-to-definition."
    )
  )
