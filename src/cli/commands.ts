/**
 * Every subcommand of `cardfx`: the one registration a command needs. The
 * usage checks, `--help`, the README table test and the contract tests all
 * read the command tree derived from this list (`Spec.ts`).
 *
 * @since 0.1.0
 */
import type { Command } from "@effect/cli"
import { assessCommand } from "./assess.js"
import { clusterCommand } from "./cluster.js"
import { discoverCommand } from "./discover.js"
import { fuzzCommand } from "./fuzz.js"
import { hhxCommand, replayCommand, simulateCommand } from "./hhx.js"
import { initCommand } from "./init.js"
import { inspectCommand } from "./inspect.js"
import { ledgerCommand } from "./ledger.js"
import { lspCommand } from "./lsp.js"
import { runCommand } from "./run.js"
import { schemaCommand } from "./schema.js"
import { serveCommand } from "./serve.js"
import { startCommand } from "./start.js"
import { validateCommand } from "./validate.js"

/** A registered command, whatever its options, services and errors. */
export type AnyCommand = Command.Command<string, never, unknown, unknown>

const register = <C>(c: C): AnyCommand => c as unknown as AnyCommand

export const commands: ReadonlyArray<AnyCommand> = [
  register(validateCommand),
  register(schemaCommand),
  register(initCommand),
  register(lspCommand),
  register(startCommand),
  register(inspectCommand),
  register(assessCommand),
  register(ledgerCommand),
  register(discoverCommand),
  register(runCommand),
  register(hhxCommand),
  register(simulateCommand),
  register(replayCommand),
  register(fuzzCommand),
  register(serveCommand),
  register(clusterCommand)
]
