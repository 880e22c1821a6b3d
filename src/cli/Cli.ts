/**
 * The one contract every `cardfx` command follows, in one place: the bin
 * (src/bin/main.ts) and the in-process test runner both call {@link runCardfx}.
 *
 * - Exit codes: 0 ok; 1 content diagnostics, a rejected command or an
 *   environment problem (a typed error with its code); 2 usage errors
 *   (`usage_error`); 70 a defect (`internal_error`); 130 interrupted.
 * - Streams: with `--format json` stdout holds exactly one JSON document, on
 *   success and on failure (`{"ok": false, "diagnostics": [...]}`), stderr
 *   nothing from the contract; in human format results go to stdout and every
 *   diagnostic, usage error and defect to stderr, one line each.
 * - Usage errors: `cardfx CMD: usage_error MESSAGE (see 'cardfx CMD --help')`,
 *   checked from the command spec before anything runs.
 * - Errors: a command fails with the services' typed errors (`CardfxError`)
 *   or with `CommandExit` after printing a report; nothing else reaches the
 *   user but a one-line `internal_error`.
 *
 * @since 0.1.0
 */
import { HelpDoc, ValidationError } from "@effect/cli"
import type { CliApp } from "@effect/cli/CliApp"
import * as Span from "@effect/cli/HelpDoc/Span"
import { Cause, Console, Effect, Layer, Option } from "effect"
import { ContentLoader, type Diagnostic, diagnostic, exitClassOf, HallyuHex, isCardfxError } from "../services/index.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { humanLine } from "./Output.js"
import { type Answered, jsonFailure, preflight, usageAnswer, usageLine, VERSION } from "./Preflight.js"
import { commandAt, type CommandSpec, specOf } from "./Spec.js"
import { formatOf } from "./Usage.js"

export { VERSION } from "./Preflight.js"

const spanText = (s: Span.Span): string => {
  if (Span.isSequence(s)) return spanText(s.left) + spanText(s.right)
  if (Span.isText(s) || Span.isUri(s)) return s.value
  // Highlight, Strong, Weak: styling around a span.
  return spanText(s.value)
}

/** A `@effect/cli` HelpDoc (a validation error's message) as plain text, one line per paragraph (no ANSI). */
export const docText = (doc: HelpDoc.HelpDoc): string => {
  if (HelpDoc.isEmpty(doc)) return ""
  if (HelpDoc.isHeader(doc) || HelpDoc.isParagraph(doc)) return spanText(doc.value)
  if (HelpDoc.isSequence(doc)) return [docText(doc.left), docText(doc.right)].filter((t) => t !== "").join("\n")
  if (HelpDoc.isEnumeration(doc)) return doc.elements.map(docText).join("\n")
  return doc.definitions.map(([s, d]) => `${spanText(s)}: ${docText(d)}`).join("\n")
}

const humanReport = (d: Diagnostic, path: ReadonlyArray<string>): string =>
  d.code === "usage_error" && d.file === undefined
    ? usageLine(path, d.message)
    : d.file === undefined
    ? `${["cardfx", ...path].join(" ")}: ${humanLine(d).replace(/^<input> /, "")}`
    : humanLine(d)

/** Prints a failure's diagnostics (every one of them) the contract's way for the format. */
const report = (format: string, ds: ReadonlyArray<Diagnostic>, path: ReadonlyArray<string>): Effect.Effect<void> =>
  format === "json"
    ? Console.log(jsonFailure(ds))
    : Effect.forEach(ds, (d) => Console.error(humanReport(d, path)), { discard: true })

/** Prints an answer given without running a command; its exit status. */
const print = (a: Answered): Effect.Effect<number> =>
  Effect.forEach(a.stdout, (line) => Console.log(line), { discard: true }).pipe(
    Effect.zipRight(Effect.forEach(a.stderr, (line) => Console.error(line), { discard: true })),
    Effect.as(a.exitCode)
  )

const usage = (format: string, path: ReadonlyArray<string>, message: string): Effect.Effect<number> =>
  print(usageAnswer(format, path, message))

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, "; ").trim()

/** The exit code of a failed command, having printed what the contract says. */
const onFailure = (cause: Cause.Cause<unknown>, format: string, spec: CommandSpec): Effect.Effect<number> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.succeed(130)
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const e = failure.value
    if (e instanceof CommandExit) return Effect.succeed(e.exitCode)
    // The exit class is the code table's column, as the HTTP status is.
    if (isCardfxError(e)) return Effect.as(report(format, e.diagnostics, spec.path), exitClassOf(e.code))
    if (ValidationError.isValidationError(e)) return usage(format, spec.path, oneLine(docText(e.error)))
  }
  const squashed = Cause.squash(cause)
  const message = oneLine(squashed instanceof Error ? `${squashed.name}: ${squashed.message}` : String(squashed))
  const d = diagnostic("internal_error", `internal error (a defect in cardfx, please report it): ${message}`)
  return Effect.as(
    format === "json" ? Console.log(jsonFailure([d])) : Console.error(`cardfx: ${d.code} ${d.message}`),
    ExitCode.internal
  )
}

/**
 * Runs `cardfx` with a command line (without `node cardfx`) and returns its
 * exit code; never fails. `root` is the `cardfx` command with its subcommands.
 * The scale-out ports (`Command.Ports`: worker threads, the cluster, the HTTP
 * server) come from the caller: the bin's composition root provides them.
 */
export const runCardfx = (
  root: Command.Command,
  argv: ReadonlyArray<string>
): Effect.Effect<number, never, CliApp.Environment | Command.Ports> =>
  Effect.suspend(() => {
    // Usage errors, --help and --version: answered from the command table alone, as the bin's front answers them.
    const request = preflight(specOf(root), argv)
    if (request._tag === "Answered") return print(request)
    const format = formatOf(argv)
    const path = request.spec.path
    const runner = commandAt(root, path)?.runner
    if (runner === undefined) return Effect.dieMessage(`no runner for ${["cardfx", ...path].join(" ")}`)
    // The command's own words: the usage check walked exactly its path of (sub)command names.
    const args = argv.slice(path.length)
    // Parse first without running, so @effect/cli's own messages never print in a second style.
    return runner.parse([path[path.length - 1] ?? "cardfx", ...args]).pipe(
      Effect.matchEffect({
        onFailure: (e) => usage(format, path, oneLine(docText(e.error))),
        onSuccess: () =>
          runner.run(args, VERSION).pipe(
            // The public services a command uses, over the platform's file system.
            Effect.provide(Layer.merge(ContentLoader.layer, HallyuHex.layer)),
            Effect.as(ExitCode.ok as number),
            Effect.catchAllCause((cause) => onFailure(cause, format, request.spec))
          )
      })
    )
  }).pipe(Effect.catchAllCause((cause) =>
    onFailure(cause, formatOf(argv), { path: [], description: "", options: [], args: [], subcommands: [], exits: [] })
  ))

/** The root `cardfx` command over a list of subcommands. */
export const rootCommand = (subcommands: ReadonlyArray<Command.Command>): Command.Command =>
  Command.make("cardfx").pipe(
    Command.withDescription("a typed card-effect engine (composition core, engine version 17; Hallyu Hex)."),
    Command.withSubcommands(subcommands)
  )
