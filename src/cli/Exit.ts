/**
 * Exit codes and how a command reports its outcome. Commands never let a
 * stack trace reach the user: content problems are diagnostics (exit 1), a
 * bad command line is exit 2, and anything unexpected is one line on stderr
 * (exit 70, EX_SOFTWARE).
 *
 * @since 0.1.0
 */
import { Data } from "effect"

export const ExitCode = {
  ok: 0,
  contentErrors: 1,
  usage: 2,
  internal: 70
} as const

/** A command's request to end with a non-zero exit code (its output is already printed). */
export class CommandExit extends Data.TaggedError("CommandExit")<{ readonly exitCode: number }> {}
