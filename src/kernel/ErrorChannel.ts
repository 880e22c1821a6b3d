/**
 * Narrow error channels. A service method declares the codes it can fail
 * with; its error type is the union of those codes' tagged error classes
 * (`ErrorOf<C>`), not the whole `CardfxError`. A failure enters its channel
 * with every diagnostic it has (the first error decides the class), with no
 * cast: a failure whose first error's code is outside the declared set is a
 * defect (the declaration is wrong — a programming error), never a silently
 * widened failure.
 *
 * @since 0.1.0
 */
import { Array as Arr, Effect, Either } from "effect"
import type { Diagnostic } from "./Diagnostic.js"
import { type DiagnosticCode, diagnosticCodes, DiagnosticCodeTable, type DiagnosticDomain } from "./DiagnosticCode.js"
import { type ErrorOf, errorWith, headOf } from "./Errors.js"

/** A diagnostic whose code is one of `C`. */
export type DiagnosticOf<C extends DiagnosticCode> = Diagnostic & { readonly code: C }

/** The codes one service method can fail with, and how a failure enters its typed channel. */
export interface ErrorChannel<C extends DiagnosticCode> {
  readonly codes: ReadonlySet<C>
  /** True when `d`'s code is one of the channel's codes. */
  readonly has: (d: Diagnostic) => d is DiagnosticOf<C>
  /** The tagged error of a failure: the first error's class, carrying every diagnostic (a defect outside the channel). */
  readonly error: (ds: ReadonlyArray<Diagnostic>) => Either.Either<ErrorOf<C>, Error>
  /** Fails with {@link ErrorChannel.error} (a defect when it is outside the channel or there is no diagnostic). */
  readonly fail: (ds: ReadonlyArray<Diagnostic>) => Effect.Effect<never, ErrorOf<C>>
  /** A pure result in the channel: Right succeeds, Left fails through {@link ErrorChannel.fail}. */
  readonly fromEither: <A>(r: Either.Either<A, ReadonlyArray<Diagnostic>>) => Effect.Effect<A, ErrorOf<C>>
}

/** The error channel of the given codes. */
export const errorChannel = <const C extends DiagnosticCode>(codes: ReadonlyArray<C>): ErrorChannel<C> => {
  const set = new Set<C>(codes)
  const wide: ReadonlySet<DiagnosticCode> = set
  const has = (d: Diagnostic): d is DiagnosticOf<C> => wide.has(d.code)
  const error = (ds: ReadonlyArray<Diagnostic>): Either.Either<ErrorOf<C>, Error> => {
    if (!Arr.isNonEmptyReadonlyArray(ds)) return Either.left(new Error("a failure without a diagnostic"))
    const head = headOf(ds)
    if (!has(head)) return Either.left(new Error(`${head.code} is outside this error channel: ${head.message}`))
    return Either.right(errorWith(head, ds))
  }
  const fail = (ds: ReadonlyArray<Diagnostic>): Effect.Effect<never, ErrorOf<C>> =>
    Either.match(error(ds), { onLeft: Effect.die, onRight: Effect.fail })
  return {
    codes: set,
    has,
    error,
    fail,
    fromEither: (r) => (Either.isRight(r) ? Effect.succeed(r.right) : fail(r.left))
  }
}

/** The tagged errors of a channel: the union of its codes' classes. */
export type ChannelError<Ch> = Ch extends ErrorChannel<infer C> ? ErrorOf<C> : never

/** The codes of several channels together. */
export const codesOf = <C extends DiagnosticCode>(...channels: ReadonlyArray<ErrorChannel<C>>): Array<C> =>
  channels.flatMap((c) => [...c.codes])

/** The codes of the table's rows whose domain is one of `D`. */
export type CodesOfDomain<D extends DiagnosticDomain> = {
  readonly [C in DiagnosticCode]: (typeof DiagnosticCodeTable)[C]["domain"] extends D ? C : never
}[DiagnosticCode]

/** The error channel of every code of some domains of the table (e.g. what loading content can fail with). */
export const domainChannel = <D extends DiagnosticDomain>(
  domains: ReadonlyArray<D>
): ErrorChannel<CodesOfDomain<D>> => {
  const wanted: ReadonlySet<DiagnosticDomain> = new Set(domains)
  const inDomains = (c: DiagnosticCode): c is CodesOfDomain<D> => wanted.has(DiagnosticCodeTable[c].domain)
  return errorChannel(diagnosticCodes.filter(inDomains))
}
