/**
 * The command tree as data: every command's path, description, options
 * (names, value placeholder, choices, default, optional, repeatable),
 * arguments and exit statuses, read from cardfx's own command table
 * (`Command.ts`, the declarations of `Options.ts` and `Args.ts`). One
 * registration in `commands.ts` is enough for a command to get the usage
 * checks, the help text, the command table test (docs/cli.md) and the contract tests; there
 * is no second list to keep in step.
 *
 * @since 0.1.0
 */
import type { Command } from "./Command.js"
import type { ExitCode } from "./ExitCode.js"

/** An option of a command. */
export interface OptionSpec {
  /** `--name` and any aliases, with their dashes. */
  readonly names: ReadonlyArray<string>
  /** What the value looks like (`N`, `FILE`, `human|json`); undefined for a flag that takes no value. */
  readonly placeholder: string | undefined
  readonly kind: "flag" | "integer" | "float" | "text" | "choice" | "path"
  readonly choices: ReadonlyArray<string>
  readonly description: string
  /** The default as shown in help, when there is one. */
  readonly defaultValue: string | undefined
  readonly optional: boolean
  readonly repeatable: boolean
}

/** A positional argument of a command. */
export interface ArgSpec {
  readonly name: string
  readonly description: string
  readonly defaultValue: string | undefined
  readonly optional: boolean
  readonly repeatable: boolean
}

/** A command: a leaf (options and arguments) or a group (subcommands). */
export interface CommandSpec {
  /** Names from the root's children down, e.g. `["ledger", "apply"]`. */
  readonly path: ReadonlyArray<string>
  readonly description: string
  readonly options: ReadonlyArray<OptionSpec>
  readonly args: ReadonlyArray<ArgSpec>
  readonly subcommands: ReadonlyArray<CommandSpec>
  /** What the command's exit statuses mean, beyond the contract every command shares. */
  readonly exits: ReadonlyArray<ExitSpec>
}

/** What an exit status means for a command. */
export interface ExitSpec {
  /** One of the contract's statuses (`Cli.ts`): 0, 1, 2, 70 or 130. */
  readonly code: (typeof ExitCode)[keyof typeof ExitCode] | 130
  readonly when: string
}

/** The exit statuses every command shares; a command's own `exits` say what else ends it with 1 or 2. */
export const sharedExits: ReadonlyArray<ExitSpec> = [
  { code: 0, when: "done" },
  {
    code: 1,
    when: "a diagnostic: content, a file, the store or the request is wrong (stderr, or the --format json document)"
  },
  { code: 2, when: "a usage error: the command line is wrong (usage_error)" },
  { code: 70, when: "a defect in cardfx (internal_error, one line, never a stack trace)" },
  { code: 130, when: "interrupted (SIGINT or SIGTERM)" }
]

/** The spec of a command mounted at `path`. */
const specAt = (command: Command, path: ReadonlyArray<string>): CommandSpec => ({
  path,
  description: command.description,
  options: command.options,
  args: command.args,
  subcommands: command.subcommands.map((c) => specAt(c, [...path, c.name])),
  exits: command.exits
})

/** The spec of a root command: its path is empty, its children are the top-level commands. */
export const specOf = (root: Command): CommandSpec => specAt(root, [])

/** The table entry at a spec's path below a root. */
export const commandAt = (root: Command, path: ReadonlyArray<string>): Command | undefined =>
  path.reduce<Command | undefined>((c, name) => c?.subcommands.find((s) => s.name === name), root)

/** Every leaf command below a spec, depth first in registration order. */
export const leaves = (spec: CommandSpec): ReadonlyArray<CommandSpec> =>
  spec.subcommands.length === 0 ? [spec] : spec.subcommands.flatMap(leaves)

/** Every command (groups and leaves) below a spec. */
export const allCommands = (spec: CommandSpec): ReadonlyArray<CommandSpec> =>
  spec.subcommands.flatMap((s) => [s, ...allCommands(s)])

/** The option of a spec a token names (`--x` or `--x=v`). */
export const findOption = (spec: CommandSpec, name: string): OptionSpec | undefined =>
  spec.options.find((o) => o.names.includes(name))
