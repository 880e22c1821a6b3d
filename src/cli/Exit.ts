/**
 * Exit codes and how a command reports its outcome. Commands never let a
 * stack trace reach the user: content problems are diagnostics (exit 1), a
 * bad command line is exit 2, and anything unexpected is one line on stderr
 * (exit 70, EX_SOFTWARE).
 *
 * @since 0.1.0
 */
import { Data, Effect } from "effect"
import { type CardfxError, diagnostic, errorFromDiagnostic } from "../services/index.js"

export { ExitCode } from "./ExitCode.js"

/** A command's request to end with a non-zero exit code (its output is already printed). */
export class CommandExit extends Data.TaggedError("CommandExit")<{ readonly exitCode: number }> {}

/** A usage error as the services' typed error (`usage_error`, exit 2); the runner prints it in the one style. */
export const usageError = (message: string): CardfxError => errorFromDiagnostic(diagnostic("usage_error", message))

/** `--games 0`, `--times 0`, `--runs 0`: every count option is at least 1, with the same message. */
export const atLeastOne = (option: string, n: number): Effect.Effect<void, CardfxError> =>
  n >= 1 ? Effect.void : Effect.fail(usageError(`${option} must be at least 1, got ${n}`))
