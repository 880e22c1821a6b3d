/**
 * cardfx's command table: one typed entry per command (name, summary,
 * options and arguments with their kinds, defaults, descriptions and whether
 * they are required, its subcommands, its exit statuses) from which the
 * usage checks (`Usage.ts`), `--help` (`Help.ts`), the command table test (docs/cli.md) and
 * the `@effect/cli` command that parses and runs it are all built. A
 * command's `@effect/cli` command is made here, from the declarations'
 * `@effect/cli` options and arguments, by `@effect/cli`'s public API; nothing
 * reads `@effect/cli`'s descriptors back.
 *
 * `make`, `withDescription` and `withSubcommands` have the names and types of
 * `@effect/cli`'s `Command`, so a command module reads as one.
 *
 * @since 0.1.0
 */
import { CliConfig, Command as CliCommand, CommandDescriptor, type ValidationError } from "@effect/cli"
import type { CliApp } from "@effect/cli/CliApp"
import { Effect, Pipeable, type Types } from "effect"
import type { Clustering, ContentLoader, HallyuHex, LanguageServer, ScaleOut, Serving } from "../services/index.js"
import type { Args } from "./Args.js"
import type { Options } from "./Options.js"
import type { ArgSpec, ExitSpec, OptionSpec } from "./Spec.js"

/** The scale-out ports a command may use, which the caller of `runCardfx` provides (the bin's composition root, src/bin). */
export type Ports = ScaleOut | Clustering.Clustering | Serving.Serving | LanguageServer

/** What a command's handler may require: the platform (`CliApp.Environment`), the services `runCardfx` provides and the ports. */
export type Environment = CliApp.Environment | ContentLoader | HallyuHex | Ports

/** A command's declarations, by the name its handler receives each value under. */
export interface Config {
  readonly [key: string]: Options<unknown> | Args<unknown>
}

/** The `@effect/cli` config of a command's declarations. */
export type CliConfigOf<C extends Config> = { readonly [K in keyof C]: C[K]["cli"] }

/** What a command's handler receives: each declaration's parsed value under its key. */
export type Parsed<C extends Config> = Types.Simplify<CliCommand.Command.ParseConfig<CliConfigOf<C>>>

/**
 * How a leaf command parses and runs: closures over its `@effect/cli`
 * command, so the table holds commands of different option types in one list.
 */
export interface Runner {
  /** Parses a command line (the command's name first) without running anything. */
  readonly parse: (
    line: ReadonlyArray<string>
  ) => Effect.Effect<void, ValidationError.ValidationError, CliApp.Environment>
  /** Runs the command on its own options and arguments (after the command's path). */
  readonly run: (args: ReadonlyArray<string>, version: string) => Effect.Effect<void, unknown, Environment>
  /** The same command with a description (as `@effect/cli`'s own help would show it). */
  readonly describe: (description: string) => Runner
}

/** An entry of the command table. */
export interface Command extends Pipeable.Pipeable {
  readonly name: string
  /** The one-line summary: `--help`'s first line and docs/cli.md's command table's description. */
  readonly description: string
  readonly options: ReadonlyArray<OptionSpec>
  readonly args: ReadonlyArray<ArgSpec>
  /** A group's commands (`ledger apply`, ...); empty for a leaf. */
  readonly subcommands: ReadonlyArray<Command>
  /** What else ends the command with 1 or 2, beyond the statuses every command shares (`Spec.sharedExits`). */
  readonly exits: ReadonlyArray<ExitSpec>
  /** How the command parses and runs; a group has none (its subcommands run). */
  readonly runner: Runner | undefined
}

class Entry extends Pipeable.Class() implements Command {
  constructor(
    readonly name: string,
    readonly description: string,
    readonly options: ReadonlyArray<OptionSpec>,
    readonly args: ReadonlyArray<ArgSpec>,
    readonly subcommands: ReadonlyArray<Command>,
    readonly exits: ReadonlyArray<ExitSpec>,
    readonly runner: Runner | undefined
  ) {
    super()
  }
}

const copy = (self: Command, change: Partial<Omit<Command, "pipe">>): Command => {
  const c = { ...self, ...change }
  return new Entry(c.name, c.description, c.options, c.args, c.subcommands, c.exits, c.runner)
}

const runnerOf = <Name extends string, R extends Environment, E, A>(
  command: CliCommand.Command<Name, R, E, A>
): Runner => ({
  parse: (line) => Effect.asVoid(CommandDescriptor.parse(command.descriptor, line, CliConfig.defaultConfig)),
  // `@effect/cli` drops the first two words (`node` and the script) and puts the command's name first.
  run: (args, version) => CliCommand.run(command, { name: "cardfx", version })(["node", "cardfx", ...args]),
  describe: (description) => runnerOf(CliCommand.withDescription(command, description))
})

const cliConfigOf = <C extends Config>(config: C): CliConfigOf<C> => {
  // Filled key by key below: every key of `config`, each with its declaration's `@effect/cli` value.
  const out = {} as { -readonly [K in keyof C]: C[K]["cli"] }
  for (const key in config) {
    const declaration = config[key]
    if (declaration !== undefined) out[key] = declaration.cli
  }
  return out
}

/** A command with no exit statuses of its own (the shared ones are `Spec.sharedExits`). */
const noExits: ReadonlyArray<ExitSpec> = []

/**
 * A command of the table: its name, its declarations (help lists its
 * options and its arguments each in the order given), and its handler, which
 * receives every declaration's value under its key. `make(name)` alone is a
 * group, given its subcommands by {@link withSubcommands}.
 */
export function make(name: string): Command
export function make<const C extends Config, R extends Environment, E>(
  name: string,
  config: C,
  handler: (_: Parsed<C>) => Effect.Effect<void, E, R>
): Command
export function make<const C extends Config, R extends Environment, E>(
  name: string,
  config?: C,
  handler?: (_: Parsed<C>) => Effect.Effect<void, E, R>
): Command {
  if (config === undefined || handler === undefined) {
    return new Entry(name, "", [], [], [], noExits, runnerOf(CliCommand.make(name)))
  }
  const options: Array<OptionSpec> = []
  const args: Array<ArgSpec> = []
  for (const d of Object.values(config)) {
    if (d.declares === "option") options.push(d.spec)
    else args.push(d.spec)
  }
  return new Entry(
    name,
    "",
    options,
    args,
    [],
    noExits,
    runnerOf(CliCommand.make(name, cliConfigOf(config), handler))
  )
}

/** The command's one-line summary. */
export const withDescription = (description: string) => (self: Command): Command =>
  copy(self, { description, runner: self.runner?.describe(description) })

/** A group of commands (`cardfx ledger apply ...`): the group itself runs none of its own. */
export const withSubcommands = (subcommands: ReadonlyArray<Command>) => (self: Command): Command =>
  copy(self, { subcommands, runner: undefined })

/** What an exit status means for this command (`1`: "the assessment is incompatible"). */
export const withExit = (code: ExitSpec["code"], when: string) => (self: Command): Command =>
  copy(self, { exits: [...self.exits, { code, when }] })
