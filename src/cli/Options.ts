/**
 * The options of cardfx's command table: each declaration is typed data of
 * cardfx's own (an {@link OptionSpec}: names, kind, placeholder, choices,
 * description, default, whether it is optional or repeatable) together with
 * the `@effect/cli` option built from the same declaration by its public
 * constructors. The usage checks and `--help` read the spec; `@effect/cli`
 * parses the value the command's handler receives. The combinators have the
 * names and types of `@effect/cli`'s `Options`, so a declaration reads as one.
 *
 * @since 0.1.0
 */
import { Options as CliOptions } from "@effect/cli"
import { type Array as Arr, Function, Option, Pipeable } from "effect"
import type { OptionSpec } from "./Spec.js"

/** An option declaration: the table's entry and the `@effect/cli` option parsing its value (`A`). */
export interface Options<A> extends Pipeable.Pipeable {
  readonly declares: "option"
  readonly spec: OptionSpec
  readonly cli: CliOptions.Options<A>
}

class Declaration<A> extends Pipeable.Class() implements Options<A> {
  readonly declares = "option"
  constructor(readonly spec: OptionSpec, readonly cli: CliOptions.Options<A>) {
    super()
  }
}

const make = <A>(spec: OptionSpec, cli: CliOptions.Options<A>): Options<A> => new Declaration(spec, cli)

/** How a default reads in help: an option's value, none for `false`, `Option.none()` or an empty list. */
export const showDefault = (v: unknown): string | undefined => {
  if (Option.isOption(v)) return Option.isSome(v) ? showDefault(v.value) : undefined
  if (v === undefined || v === null || typeof v === "boolean") return undefined
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(String).join(", ")
  return String(v)
}

const base = (
  name: string,
  info: Pick<OptionSpec, "kind" | "choices" | "placeholder">
): OptionSpec => ({
  names: [name.length === 1 ? `-${name}` : `--${name}`],
  ...info,
  description: "",
  defaultValue: undefined,
  optional: false,
  repeatable: false
})

/** `--name TEXT` (the placeholder is the name in capitals: `--card CARD`). */
export const text = (name: string): Options<string> =>
  make(
    base(name, { kind: "text", choices: [], placeholder: name.replace(/-/g, "_").toUpperCase() }),
    CliOptions.text(name)
  )

/** `--name N`: an integer. */
export const integer = (name: string): Options<number> =>
  make(base(name, { kind: "integer", choices: [], placeholder: "N" }), CliOptions.integer(name))

/** `--name X`: a number. */
export const float = (name: string): Options<number> =>
  make(base(name, { kind: "float", choices: [], placeholder: "X" }), CliOptions.float(name))

/** `--name`: a flag that takes no value; false when absent. */
export const boolean = (name: string): Options<boolean> =>
  make(
    { ...base(name, { kind: "flag", choices: [], placeholder: undefined }), optional: true },
    CliOptions.boolean(name)
  )

/** `--name a|b|c`: one of the choices. */
export const choice = <A extends string, C extends ReadonlyArray<A>>(name: string, choices: C): Options<C[number]> =>
  make(
    base(name, { kind: "choice", choices: [...choices], placeholder: choices.join("|") }),
    CliOptions.choice(name, choices)
  )

/** `--name FILE`: a path to a file. */
export const file = (name: string): Options<string> =>
  make(base(name, { kind: "path", choices: [], placeholder: "FILE" }), CliOptions.file(name))

/** `--name DIR`: a path to a folder. */
export const directory = (name: string): Options<string> =>
  make(base(name, { kind: "path", choices: [], placeholder: "DIR" }), CliOptions.directory(name))

/** The option's description, as `--help` prints it. */
export const withDescription: {
  (description: string): <A>(self: Options<A>) => Options<A>
  <A>(self: Options<A>, description: string): Options<A>
} = Function.dual(
  2,
  <A>(self: Options<A>, description: string): Options<A> =>
    make(
      { ...self.spec, description: [self.spec.description, description].filter((d) => d !== "").join("\n") },
      CliOptions.withDescription(self.cli, description)
    )
)

/** What the value looks like in help and messages (`URL`, `FILE`) instead of the kind's placeholder. */
export const withPseudoName: {
  (pseudoName: string): <A>(self: Options<A>) => Options<A>
  <A>(self: Options<A>, pseudoName: string): Options<A>
} = Function.dual(
  2,
  <A>(self: Options<A>, pseudoName: string): Options<A> =>
    make(
      { ...self.spec, placeholder: self.spec.kind === "flag" ? undefined : pseudoName },
      CliOptions.withPseudoName(self.cli, pseudoName)
    )
)

/** Another name for the option (`-v` for a one-letter alias). */
export const withAlias: {
  (alias: string): <A>(self: Options<A>) => Options<A>
  <A>(self: Options<A>, alias: string): Options<A>
} = Function.dual(
  2,
  <A>(self: Options<A>, alias: string): Options<A> =>
    make(
      { ...self.spec, names: [...self.spec.names, alias.length === 1 ? `-${alias}` : `--${alias}`] },
      CliOptions.withAlias(self.cli, alias)
    )
)

/** Optional, with this value when absent (help states it: `default: 1000`). */
export const withDefault: {
  <const B>(fallback: B): <A>(self: Options<A>) => Options<A | B>
  <A, const B>(self: Options<A>, fallback: B): Options<A | B>
} = Function.dual(
  2,
  <A, const B>(self: Options<A>, fallback: B): Options<A | B> =>
    make(
      { ...self.spec, optional: true, defaultValue: showDefault(fallback) },
      CliOptions.withDefault(self.cli, fallback)
    )
)

/** Optional: `Option.none()` when absent. */
export const optional = <A>(self: Options<A>): Options<Option.Option<A>> =>
  make({ ...self.spec, optional: true }, CliOptions.optional(self.cli))

/** Repeatable, possibly absent: every value, in order. */
export const repeated = <A>(self: Options<A>): Options<Array<A>> =>
  make({ ...self.spec, optional: true, repeatable: true }, CliOptions.repeated(self.cli))

/** Repeatable, given at least `times` times (0: possibly absent). */
export function atLeast(times: 0): <A>(self: Options<A>) => Options<Array<A>>
export function atLeast(times: number): <A>(self: Options<A>) => Options<Arr.NonEmptyArray<A>>
export function atLeast(times: number) {
  return <A>(self: Options<A>): Options<Arr.NonEmptyArray<A>> =>
    make({ ...self.spec, optional: times <= 0, repeatable: true }, CliOptions.atLeast(self.cli, times))
}
