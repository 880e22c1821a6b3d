/**
 * The positional arguments of cardfx's command table: each declaration is
 * typed data of cardfx's own (an {@link ArgSpec}: name, description,
 * default, whether it is optional or repeatable) together with the
 * `@effect/cli` argument built from the same declaration by its public
 * constructors. The combinators have the names and types of `@effect/cli`'s
 * `Args`.
 *
 * @since 0.1.0
 */
import { Args as CliArgs } from "@effect/cli"
import { type Array as Arr, Function, type Option, Pipeable } from "effect"
import { showDefault } from "./Options.js"
import type { ArgSpec } from "./Spec.js"

/** An argument declaration: the table's entry and the `@effect/cli` argument parsing its value (`A`). */
export interface Args<A> extends Pipeable.Pipeable {
  readonly declares: "argument"
  readonly spec: ArgSpec
  readonly cli: CliArgs.Args<A>
}

class Declaration<A> extends Pipeable.Class() implements Args<A> {
  readonly declares = "argument"
  constructor(readonly spec: ArgSpec, readonly cli: CliArgs.Args<A>) {
    super()
  }
}

const make = <A>(spec: ArgSpec, cli: CliArgs.Args<A>): Args<A> => new Declaration(spec, cli)

/** A text argument; `name` is how help and messages show it (`CARD_CODE`). */
export const text = (config: { readonly name: string }): Args<string> =>
  make(
    { name: config.name, description: "", defaultValue: undefined, optional: false, repeatable: false },
    CliArgs.text(config)
  )

/** The argument's description, as `--help` prints it. */
export const withDescription: {
  (description: string): <A>(self: Args<A>) => Args<A>
  <A>(self: Args<A>, description: string): Args<A>
} = Function.dual(
  2,
  <A>(self: Args<A>, description: string): Args<A> =>
    make(
      { ...self.spec, description: [self.spec.description, description].filter((d) => d !== "").join("\n") },
      CliArgs.withDescription(self.cli, description)
    )
)

/** Optional, with this value when absent. */
export const withDefault: {
  <const B>(fallback: B): <A>(self: Args<A>) => Args<A | B>
  <A, const B>(self: Args<A>, fallback: B): Args<A | B>
} = Function.dual(
  2,
  <A, const B>(self: Args<A>, fallback: B): Args<A | B> =>
    make({ ...self.spec, optional: true, defaultValue: showDefault(fallback) }, CliArgs.withDefault(self.cli, fallback))
)

/** Optional: `Option.none()` when absent. */
export const optional = <A>(self: Args<A>): Args<Option.Option<A>> =>
  make({ ...self.spec, optional: true }, CliArgs.optional(self.cli))

/** Repeatable, possibly absent: every value, in order. */
export const repeated = <A>(self: Args<A>): Args<Array<A>> =>
  make({ ...self.spec, optional: true, repeatable: true }, CliArgs.repeated(self.cli))

/** Repeatable, given at least `times` times (0: possibly absent). */
export function atLeast(times: 0): <A>(self: Args<A>) => Args<Array<A>>
export function atLeast(times: number): <A>(self: Args<A>) => Args<Arr.NonEmptyArray<A>>
export function atLeast(times: number) {
  return <A>(self: Args<A>): Args<Arr.NonEmptyArray<A>> =>
    make({ ...self.spec, optional: times <= 0, repeatable: true }, CliArgs.atLeast(self.cli, times))
}
