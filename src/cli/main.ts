#!/usr/bin/env node
/**
 * The `cardfx` command line. Exit codes: 0 ok, 1 content errors, 2 usage
 * errors, 70 an internal error (one line on stderr, never a stack trace).
 *
 * @since 0.1.0
 */
import { Command, ValidationError } from "@effect/cli"
// Deep imports: the package index loads every Node module (HTTP, sockets, workers) at start-up.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Console, Effect, Exit } from "effect"
import { commands } from "./commands.js"
import { ExitCode } from "./Exit.js"

const cardfx = Command.make("cardfx").pipe(
  Command.withDescription("cardfx: a typed card-effect engine (composition core, engine version 17; Hallyu Hex)."),
  Command.withSubcommands(commands)
)

const cli = Command.run(cardfx, { name: "cardfx", version: "0.1.0" })

let exitCode: number = ExitCode.ok

const program = Effect.suspend(() => cli(process.argv)).pipe(
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (failure._tag === "Some") {
      const e = failure.value
      if (ValidationError.isValidationError(e)) {
        exitCode = ExitCode.usage
        return Effect.void
      }
      if (typeof e === "object" && e !== null && "_tag" in e && e._tag === "CommandExit" && "exitCode" in e) {
        exitCode = Number(e.exitCode)
        return Effect.void
      }
    }
    if (Cause.isInterruptedOnly(cause)) {
      exitCode = 130
      return Effect.void
    }
    exitCode = ExitCode.internal
    const squashed = Cause.squash(cause)
    const message = squashed instanceof Error ? squashed.message : String(squashed)
    return Console.error(`cardfx: internal error: ${message}`)
  }),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  // Set the exit code and let the process end on its own, so piped output is never cut short.
  teardown: (exit, onExit) => {
    // SIGINT/SIGTERM interrupt the main fiber from outside (no handler above sees it); runMain then exits with the code given here.
    const interrupted = Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)
    process.exitCode = interrupted ? 130 : exitCode
    onExit(interrupted ? 130 : 0)
  }
})
