/**
 * `cardfx validate PATH... [--include-hidden] [--format human|json|github|sarif]`:
 * the superset of every static check (packages, Hallyu Hex decks, scenarios
 * and what they refer to). Human format: one line per diagnostic on stderr,
 * the summary on stdout; json: one `{ok, files, diagnostics}` document;
 * github: workflow annotations on stdout; sarif: one SARIF 2.1.0 log on
 * stdout. Exit 1 on errors.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either } from "effect"
import { ScaleOut, type ValidationReport } from "../services/index.js"
import * as Args from "./Args.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import * as Options from "./Options.js"
import { type Format, formatOption, githubLine, humanLine, validationJson } from "./Output.js"
import { sarifText } from "./Sarif.js"
import { quietOption, resolveWorkers, withProgress, workersOption } from "./Scale.js"

const paths = Args.text({ name: "PATH" }).pipe(
  Args.atLeast(1),
  Args.withDescription("Files or folders (recursively). A folder with manifest.json is a content package.")
)

const includeHidden = Options.boolean("include-hidden").pipe(
  Options.withDescription("Also walk node_modules and dot-folders such as .git (skipped by default).")
)

/** The texts of the files diagnostics point into (for SARIF regions' ends); a file that cannot be read is left out. */
const textsOf = (
  report: ValidationReport
): Effect.Effect<ReadonlyMap<string, string>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const texts = new Map<string, string>()
    for (const d of report.diagnostics) {
      if (d.file === undefined || d.line === undefined || texts.has(d.file)) continue
      const text = yield* Effect.either(fs.readFileString(d.file))
      if (Either.isRight(text)) texts.set(d.file, text.right)
    }
    return texts
  })

/** Prints a validation report in a format; fails with exit 1 when it has errors. */
export const printReport = (
  report: ValidationReport,
  format: Format
): Effect.Effect<void, CommandExit, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const errors = report.diagnostics.filter((d) => d.severity === "error").length
    if (format === "json") yield* Console.log(validationJson(report.files, report.diagnostics))
    else if (format === "github") { for (const d of report.diagnostics) yield* Console.log(githubLine(d)) }
    else if (format === "sarif") {
      const texts = yield* textsOf(report)
      yield* Console.log(sarifText(report.diagnostics, { root: process.cwd(), texts }))
    } else {
      for (const d of report.diagnostics) yield* Console.error(humanLine(d))
      const warnings = report.diagnostics.length - errors
      yield* Console.log(
        `${errors === 0 ? "ok" : "failed"}: ${report.files} file(s), ${errors} error(s), ${warnings} warning(s)`
      )
    }
    if (errors > 0) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
  })

export const validateCommand = Command.make(
  "validate",
  { paths, includeHidden, workers: workersOption, quiet: quietOption, format: formatOption },
  ({ format, includeHidden, paths, quiet, workers }) =>
    Effect.gen(function*() {
      const threads = yield* resolveWorkers(workers)
      const scale = yield* ScaleOut
      const report = yield* withProgress("files", quiet, (progress) =>
        scale.validate(paths, { workers: threads, includeHidden, onProgress: progress.update }))
      yield* printReport(report, format)
    })
).pipe(
  Command.withDescription(
    "Validate content packages, Hallyu Hex decks and scenarios (and what they refer to); exit 1 on errors."
  ),
  Command.withExit(1, "a file has an error")
)
