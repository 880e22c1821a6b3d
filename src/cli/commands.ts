/**
 * Every subcommand of `cardfx`.
 *
 * @since 0.1.0
 */
import { assessCommand } from "./assess.js"
import { discoverCommand } from "./discover.js"
import { fuzzCommand } from "./fuzz.js"
import { hhxCommand, replayCommand, simulateCommand } from "./hhx.js"
import { inspectCommand } from "./inspect.js"
import { ledgerCommand } from "./ledger.js"
import { runCommand } from "./run.js"
import { schemaCommand } from "./schema.js"
import { serveCommand } from "./serve.js"
import { startCommand } from "./start.js"
import { validateCommand } from "./validate.js"

export const commands = [
  validateCommand,
  schemaCommand,
  startCommand,
  inspectCommand,
  assessCommand,
  ledgerCommand,
  discoverCommand,
  runCommand,
  hhxCommand,
  simulateCommand,
  replayCommand,
  fuzzCommand,
  serveCommand
] as const
