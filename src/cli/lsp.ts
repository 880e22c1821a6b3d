/**
 * `cardfx lsp [--stdio]`: the language server over stdin and stdout, for
 * any editor with an LSP client (the VS Code extension in editors/vscode,
 * Neovim, Helix). The language server is a face of its own (src/lsp); the
 * command asks for it through the services' `LanguageServer` port, which
 * the bin's composition root provides (loading src/lsp and its protocol
 * packages only for this command). It returns when the client ends the
 * session.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { LanguageServer } from "../services/index.js"
import * as Command from "./Command.js"
import * as Options from "./Options.js"

const stdio = Options.boolean("stdio").pipe(
  Options.withDescription("Talk LSP over stdin/stdout (the only transport; accepted because clients pass it).")
)

const clientProcessId = Options.integer("clientProcessId").pipe(
  Options.optional,
  Options.withDescription("The editor's process ID (passed by some LSP clients; not used).")
)

export const lspCommand = Command.make(
  "lsp",
  { stdio, clientProcessId },
  () => Effect.flatMap(LanguageServer, (server) => server.run(process.stdin, process.stdout))
).pipe(
  Command.withDescription(
    "Run the cardfx language server on stdin/stdout: diagnostics, hover, completion of IDs, go-to-definition."
  )
)
