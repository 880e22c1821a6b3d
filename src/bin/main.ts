#!/usr/bin/env node
/**
 * The `cardfx` bin: {@link runCardfx} over every registered command
 * (src/cli/commands.ts), with the scale-out ports the composition root
 * (`Root.ts`) builds. Exit codes: 0 ok, 1 content diagnostics or a rejected
 * command, 2 usage errors, 70 a defect (one line, never a stack trace), 130
 * interrupted (SIGINT/SIGTERM interrupt the running fiber).
 *
 * @since 0.1.0
 */
// Deep imports: the package index loads every Node module (HTTP, sockets, workers) at start-up.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit } from "effect"
import { rootCommand, runCardfx } from "../cli/Cli.js"
import { commands } from "../cli/commands.js"
import * as Root from "./Root.js"

let exitCode = 0

NodeRuntime.runMain(
  runCardfx(rootCommand(commands), process.argv.slice(2)).pipe(
    Effect.tap((code) =>
      Effect.sync(() => {
        exitCode = code
      })
    ),
    Effect.provide(Root.layer),
    Effect.provide(NodeContext.layer)
  ),
  {
    disableErrorReporting: true,
    // Set the exit code and let the process end on its own, so piped output is never cut short.
    teardown: (exit, onExit) => {
      // runCardfx turns every failure and defect into an exit code, so a failed exit here is an
      // interruption (SIGINT/SIGTERM from outside); runMain exits at once with the code given to onExit.
      const interrupted = Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)
      process.exitCode = Exit.isFailure(exit) ? (interrupted ? 130 : 70) : exitCode
      onExit(Exit.isFailure(exit) ? Number(process.exitCode) : 0)
    }
  }
)
