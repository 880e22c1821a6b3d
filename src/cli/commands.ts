/**
 * Every subcommand of `cardfx`, in the order `--help` lists them: the one
 * registration a command needs. The usage checks, `--help`, docs/cli.md's command table
 * test and the contract tests all read the command table built from this
 * list (`Command.ts`, `Spec.ts`).
 *
 * @since 0.1.0
 */
import { assessCommand } from "./assess.js"
import { clusterCommand } from "./cluster.js"
import type { Command } from "./Command.js"
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
import { tournamentCommand } from "./tournament.js"
import { validateCommand } from "./validate.js"

export const commands: ReadonlyArray<Command> = [
  validateCommand,
  schemaCommand,
  initCommand,
  lspCommand,
  startCommand,
  inspectCommand,
  assessCommand,
  ledgerCommand,
  discoverCommand,
  runCommand,
  hhxCommand,
  simulateCommand,
  replayCommand,
  tournamentCommand,
  fuzzCommand,
  serveCommand,
  clusterCommand
]
