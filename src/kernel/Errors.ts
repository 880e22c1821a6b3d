/**
 * One `Schema.TaggedError` class per diagnostic code, one-to-one with
 * {@link DiagnosticCodeTable}: the class's `_tag` is the table's tag and its
 * `code` field is the code. Callers match on `_tag` (or `code`), never on
 * message text. `errorFromDiagnostic` and `diagnosticFromError` are total.
 *
 * @since 0.1.0
 */
// The classes by family, the code → class table and the base fields live in ./errors/; this module is their one door.
import { Array as Arr } from "effect"
import { type Diagnostic, diagnostic, type DiagnosticContext } from "./Diagnostic.js"
import { type DiagnosticCode, DiagnosticCodeTable } from "./DiagnosticCode.js"
import { type CardfxError, type ErrorOf, makers } from "./errors/Table.js"

export type { ErrorProps } from "./errors/Base.js"
export { CodedError, type CodedErrorClass, type CodeOfTag } from "./errors/Base.js"
export * from "./errors/Composition.js"
export * from "./errors/Engine.js"
export * from "./errors/Faces.js"
export * from "./errors/Input.js"
export {
  type CardfxError,
  errorClassByCode,
  type ErrorClassOf,
  errorClassOf,
  type ErrorInit,
  type ErrorOf
} from "./errors/Table.js"

/** The diagnostic a failure stands for: its first error (or its first diagnostic). */
export const headOf = <D extends Diagnostic>(ds: Arr.NonEmptyReadonlyArray<D>): D =>
  ds.find((d) => d.severity === "error") ?? ds[0]

/** The tagged error of `head`'s code carrying `all` (head first among them, by convention). */
export const errorWith = <C extends DiagnosticCode>(
  head: Diagnostic & { readonly code: C },
  all: Arr.NonEmptyReadonlyArray<Diagnostic>
): ErrorOf<C> => {
  const { code: _code, severity: _severity, ...init } = head
  return makers[head.code]({ ...init, diagnostics: all })
}

/** Builds the tagged error for one diagnostic (total over codes); its `diagnostics` are `[d]`. */
export const errorFromDiagnostic = <C extends DiagnosticCode>(d: Diagnostic & { readonly code: C }): ErrorOf<C> =>
  errorWith(d, [d])

/**
 * The one way a failure becomes a tagged error: the first error diagnostic
 * decides the class, and the error carries all of them. With no error
 * diagnostic (none at all, or warnings only), `fallback` stands for the
 * failure, followed by every diagnostic there is.
 */
export const errorFromDiagnostics = <C extends DiagnosticCode = DiagnosticCode>(
  ds: ReadonlyArray<Diagnostic & { readonly code: C }>,
  fallback: Diagnostic & { readonly code: C }
): ErrorOf<C> => {
  const head = ds.find((d) => d.severity === "error")
  return Arr.isNonEmptyReadonlyArray(ds) && head !== undefined
    ? errorWith(head, ds)
    : errorWith(fallback, [fallback, ...ds])
}

/** The tagged error of one code, built from a message and context; `also` are the failure's further diagnostics. */
export const errorOf = <C extends DiagnosticCode>(
  code: C,
  message: string,
  context: DiagnosticContext = {},
  also: ReadonlyArray<Diagnostic> = []
): ErrorOf<C> => {
  const head: Diagnostic & { readonly code: C } = { ...diagnostic(code, message, context), code }
  return errorWith(head, [head, ...also])
}

/** The diagnostic an error stands for (its head). */
export const diagnosticFromError = (e: CardfxError): Diagnostic => {
  const { _tag, code, diagnostics: _all, message, ...context } = e
  return diagnostic(code, message, context)
}

/** Every diagnostic of an error, the one it stands for first. */
export const diagnosticsOf = (e: CardfxError): Arr.NonEmptyReadonlyArray<Diagnostic> => e.diagnostics

const tags: ReadonlySet<string> = new Set(Object.values(DiagnosticCodeTable).map((entry) => entry.tag))

/** True for any cardfx tagged error. */
export const isCardfxError = (u: unknown): u is CardfxError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && tags.has(u._tag) && "code" in u
