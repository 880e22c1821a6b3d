/**
 * What a command line gets before any command runs: a usage error, the help
 * or the version, as the lines to print and the exit status — or the command
 * to run. Plain data over the command table (`CommandSpec`), no service, no
 * Schema: `runCardfx` starts with it, and so does the bin's front
 * (src/bin/Front.ts), which answers these lines from the table written out
 * as data at build time without loading the engine, so both print the same
 * bytes by construction.
 *
 * @since 0.1.0
 */
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { ExitCode } from "./ExitCode.js"
import { renderHelp } from "./Help.js"
import type { CommandSpec } from "./Spec.js"
import { check, formatOf } from "./Usage.js"

/** The version `--version` prints. */
export const VERSION = "0.1.0"

/** An answer given without running a command: each line as one `console.log` or `console.error` prints it. */
export interface Answered {
  readonly _tag: "Answered"
  readonly exitCode: number
  readonly stdout: ReadonlyArray<string>
  readonly stderr: ReadonlyArray<string>
}

export type Preflight = Answered | { readonly _tag: "Run"; readonly spec: CommandSpec }

/** A command line failure as a one-line human message: `cardfx CMD: usage_error ...`. */
export const usageLine = (path: ReadonlyArray<string>, message: string): string => {
  const name = ["cardfx", ...path].join(" ")
  return `${name}: usage_error ${message} (see '${name} --help')`
}

/** The `--format json` document of a failure. */
export const jsonFailure = (diagnostics: ReadonlyArray<Diagnostic>): string =>
  JSON.stringify({ ok: false, diagnostics }, null, 2)

/**
 * The usage error's diagnostic, with the keys in `diagnostic()`'s order (code, severity, message): built here
 * rather than by `diagnostic()` so that this module loads no Schema (a test holds the two equal).
 */
export const usageDiagnostic = (message: string): Diagnostic => ({ code: "usage_error", severity: "error", message })

/** A usage error, printed the contract's way for the format: exit 2. */
export const usageAnswer = (format: string, path: ReadonlyArray<string>, message: string): Answered =>
  format === "json"
    ? { _tag: "Answered", exitCode: ExitCode.usage, stdout: [jsonFailure([usageDiagnostic(message)])], stderr: [] }
    : { _tag: "Answered", exitCode: ExitCode.usage, stdout: [], stderr: [usageLine(path, message)] }

/** Checks a command line (without `node cardfx`) against the command table: an answer, or the command to run. */
export const preflight = (spec: CommandSpec, argv: ReadonlyArray<string>): Preflight => {
  const request = check(spec, argv)
  switch (request._tag) {
    case "Problem":
      return usageAnswer(formatOf(argv), request.path, request.message)
    case "Version":
      return { _tag: "Answered", exitCode: ExitCode.ok, stdout: [`cardfx ${VERSION}`], stderr: [] }
    case "Help":
      return { _tag: "Answered", exitCode: ExitCode.ok, stdout: [renderHelp(request.spec, VERSION)], stderr: [] }
    case "Run":
      return request
  }
}
