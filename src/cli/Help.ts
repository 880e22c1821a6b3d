/**
 * `--help` text rendered from the command spec: plain text (never ANSI, so
 * pipes, `NO_COLOR` and non-TTY output all get the same bytes), wrapped at
 * 80 columns, every option with its own description, whether it is optional
 * and its default.
 *
 * @since 0.1.0
 */
import type { ArgSpec, CommandSpec, OptionSpec } from "./Spec.js"

/** The column every help line fits in. */
export const HELP_WIDTH = 80

/** Greedy word wrap; every line starts with `indent` (the first with `first` when given). */
export const wrap = (
  text: string,
  indent: string,
  first: string = indent,
  width: number = HELP_WIDTH
): Array<string> => {
  const lines: Array<string> = []
  let line = first
  let empty = true
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = indent + word
    } else {
      line = empty ? line + word : `${line} ${word}`
    }
    empty = false
  }
  lines.push(line)
  return lines.map((l) => l.trimEnd())
}

/** `--games N`, `--with UPGRADE...`, `--discard`. */
export const optionUsage = (o: OptionSpec): string =>
  `${o.names[0] ?? ""}${o.placeholder !== undefined ? ` ${o.placeholder}` : ""}${o.repeatable ? "..." : ""}`

const optionSynopsis = (o: OptionSpec): string => (o.optional ? `[${optionUsage(o)}]` : optionUsage(o))
const argSynopsis = (a: ArgSpec): string => {
  const s = `${a.name}${a.repeatable ? "..." : ""}`
  return a.optional ? `[${s}]` : s
}

/** The synopsis words of a command: its path, arguments and options. */
export const synopsis = (spec: CommandSpec): Array<string> =>
  spec.subcommands.length > 0
    ? ["cardfx", ...spec.path, spec.path.length === 0 ? "COMMAND" : "SUBCOMMAND", "..."]
    : ["cardfx", ...spec.path, ...spec.args.map(argSynopsis), ...spec.options.map(optionSynopsis)]

const note = (
  x: {
    readonly optional: boolean
    readonly repeatable: boolean
    readonly defaultValue: string | undefined
    readonly description: string
  },
  flag: boolean
): string => {
  const parts = [flag ? "optional" : x.optional ? "optional" : "required"]
  if (x.repeatable) parts.push("repeatable")
  // A description that names its default in words ("the starter deck of the installed package") says it better
  // than the value, which for a path is where this machine installed the package.
  if (x.defaultValue !== undefined && !x.description.includes("(default:")) parts.push(`default: ${x.defaultValue}`)
  return `(${parts.join("; ")})`
}

const withPeriod = (s: string): string => (s === "" || /[.!?)]$/.test(s) ? s : `${s}.`)

/** The help text of a command (or of the root when its path is empty). */
export const renderHelp = (spec: CommandSpec, version: string): string => {
  const lines: Array<string> = []
  const name = ["cardfx", ...spec.path].join(" ")
  lines.push(
    ...wrap(
      spec.path.length === 0 ? `cardfx ${version}: ${spec.description}` : `${name}: ${spec.description}`,
      "  ",
      ""
    )
  )
  lines.push("")
  const words = synopsis(spec)
  lines.push(...wrap(words.join(" "), "    ", "Usage: "))
  if (spec.subcommands.length > 0) {
    lines.push("", "Commands:")
    for (const s of spec.subcommands) {
      const head = `  ${s.path[s.path.length - 1] ?? ""}`
      lines.push(...wrap(s.description, " ".repeat(16), head.padEnd(15) + " "))
    }
    lines.push(
      "",
      `Run '${name === "cardfx" ? "cardfx COMMAND" : `${name} SUBCOMMAND`} --help' for a command's options.`
    )
  }
  if (spec.args.length > 0) {
    lines.push("", "Arguments:")
    for (const a of spec.args) {
      lines.push(`  ${a.name}`)
      lines.push(...wrap(`${withPeriod(a.description)} ${note(a, false)}`, "      "))
    }
  }
  if (spec.options.length > 0 || spec.path.length === 0) {
    lines.push("", "Options:")
    for (const o of spec.options) {
      lines.push(`  ${[optionUsage(o), ...o.names.slice(1)].join(", ")}`)
      lines.push(...wrap(`${withPeriod(o.description)} ${note(o, o.kind === "flag")}`, "      "))
    }
    lines.push("  --help, -h", "      Show this help and exit.")
    if (spec.path.length === 0) lines.push("  --version", "      Print the version (one line) and exit.")
  }
  return lines.join("\n")
}
