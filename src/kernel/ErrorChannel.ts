/**
 * Narrow error channels. A service method declares the codes it can fail
 * with; its error type is the union of those codes' tagged error classes
 * (`ErrorOf<C>`), not the whole `CardfxError`. The first diagnostic of a
 * failure becomes its tagged error through the channel, with no cast: a
 * diagnostic whose code is outside the declared set is a defect (the
 * declaration is wrong — a programming error), never a silently widened
 * failure.
 *
 * @since 0.1.0
 */
import { Effect, Either } from "effect"
import type { Diagnostic } from "./Diagnostic.js"
import type { DiagnosticCode } from "./DiagnosticCode.js"
import { errorFromDiagnostic, type ErrorOf } from "./Errors.js"

/** A diagnostic whose code is one of `C`. */
export type DiagnosticOf<C extends DiagnosticCode> = Diagnostic & { readonly code: C }

/** The codes one service method can fail with, and how a failure enters its typed channel. */
export interface ErrorChannel<C extends DiagnosticCode> {
  readonly codes: ReadonlySet<C>
  /** True when `d`'s code is one of the channel's codes. */
  readonly has: (d: Diagnostic) => d is DiagnosticOf<C>
  /** Fails with the first diagnostic's tagged error (a defect when it is outside the channel or absent). */
  readonly fail: (ds: ReadonlyArray<Diagnostic>) => Effect.Effect<never, ErrorOf<C>>
  /** A pure result in the channel: Right succeeds, Left fails through {@link ErrorChannel.fail}. */
  readonly fromEither: <A>(r: Either.Either<A, ReadonlyArray<Diagnostic>>) => Effect.Effect<A, ErrorOf<C>>
}

/** The error channel of the given codes. */
export const errorChannel = <const C extends DiagnosticCode>(codes: ReadonlyArray<C>): ErrorChannel<C> => {
  const set = new Set<C>(codes)
  const wide: ReadonlySet<DiagnosticCode> = set
  const has = (d: Diagnostic): d is DiagnosticOf<C> => wide.has(d.code)
  const fail = (ds: ReadonlyArray<Diagnostic>): Effect.Effect<never, ErrorOf<C>> => {
    const d = ds[0]
    if (d === undefined) return Effect.die(new Error("a failure without a diagnostic"))
    return has(d)
      ? Effect.fail(errorFromDiagnostic(d))
      : Effect.die(new Error(`${d.code} is outside this error channel: ${d.message}`))
  }
  return {
    codes: set,
    has,
    fail,
    fromEither: (r) => (Either.isRight(r) ? Effect.succeed(r.right) : fail(r.left))
  }
}

/** The tagged errors of a channel: the union of its codes' classes. */
export type ChannelError<Ch> = Ch extends ErrorChannel<infer C> ? ErrorOf<C> : never

/** The codes of several channels together. */
export const codesOf = <C extends DiagnosticCode>(...channels: ReadonlyArray<ErrorChannel<C>>): Array<C> =>
  channels.flatMap((c) => [...c.codes])
