/**
 * `cardfx validate PATH... [--format human|json|github]`.
 *
 * @since 0.1.0
 */
import { Args, Command } from "@effect/cli"
import { Console, Effect } from "effect"
import type { ValidationReport } from "../Validation.js"
import { validateWithWorkers } from "../workers/Runs.js"
import { quietOption, resolveWorkers, withProgress, workersOption } from "./Scale.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { type Format, formatOption, githubLine, humanLine, validationJson } from "./Output.js"

const paths = Args.text({ name: "PATH" }).pipe(
  Args.atLeast(1),
  Args.withDescription("Files or folders (recursively). A folder with manifest.json is a content package.")
)

/** Prints a validation report in a format; fails with exit 1 when it has errors. */
export const printReport = (report: ValidationReport, format: Format): Effect.Effect<void, CommandExit> =>
  Effect.gen(function* () {
    const errors = report.diagnostics.filter((d) => d.severity === "error").length
    if (format === "json") yield* Console.log(validationJson(report.files, report.diagnostics))
    else if (format === "github") for (const d of report.diagnostics) yield* Console.log(githubLine(d))
    else {
      for (const d of report.diagnostics) yield* Console.log(humanLine(d))
      const warnings = report.diagnostics.length - errors
      yield* Console.log(
        `${errors === 0 ? "ok" : "failed"}: ${report.files} file(s), ${errors} error(s), ${warnings} warning(s)`
      )
    }
    if (errors > 0) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
  })

/** An argument that looks like an option is a usage error (exit 2), not a path to report as missing. */
export const rejectUnknownOptions = (args: ReadonlyArray<string>): Effect.Effect<void, CommandExit> => {
  const bad = args.find((a) => a.startsWith("-") && a !== "-")
  return bad === undefined
    ? Effect.void
    : Console.error(`cardfx: unknown option ${bad} (see --help)`).pipe(
        Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.usage })))
      )
}

export const validateCommand = Command.make(
  "validate",
  { paths, workers: workersOption, quiet: quietOption, format: formatOption },
  ({ format, paths, workers, quiet }) =>
    rejectUnknownOptions(paths).pipe(
      Effect.zipRight(resolveWorkers(workers)),
      Effect.flatMap((threads) =>
        withProgress("files", quiet, (progress) => validateWithWorkers(paths, { workers: threads, onProgress: progress.update })).pipe(
          Effect.catchAll((d) => Console.error(humanLine(d)).pipe(Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.internal })))))
        )
      ),
      Effect.flatMap((report) => printReport(report, format))
    )
).pipe(Command.withDescription("Validate content packages, Hallyu Hex decks and scenarios; exit 1 on errors."))
