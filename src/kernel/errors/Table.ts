/**
 * The code → error class table, computed: the classes of ./Input.ts,
 * ./Composition.ts, ./Engine.ts and ./Faces.ts, found by their tag through
 * the code table's `tag` column. Nothing here lists a code: a new row of the
 * table needs only its class line (`CodedError`) in one of those files, and
 * the compiler refuses a table row without a class.
 *
 * @since 0.1.0
 */
import { type DiagnosticCode, diagnosticCodes, DiagnosticCodeTable, type DiagnosticTag } from "../DiagnosticCode.js"
import type { ErrorProps } from "./Base.js"
import * as Composition from "./Composition.js"
import * as Engine from "./Engine.js"
import * as Faces from "./Faces.js"
import * as Input from "./Input.js"

/** Every error class by its tag (the family modules together). */
const byTag = { ...Input, ...Composition, ...Engine, ...Faces } satisfies { readonly [T in DiagnosticTag]: unknown }

/** The error class of every code: the class named by the table's `tag` for it. */
type ClassByCode = { readonly [C in DiagnosticCode]: (typeof byTag)[(typeof DiagnosticCodeTable)[C]["tag"]] }

/** The error class carrying code `C`. */
export type ErrorClassOf<C extends DiagnosticCode> = ClassByCode[C]

/** The error class carrying code `C`. */
export type ErrorOf<C extends DiagnosticCode> = InstanceType<ErrorClassOf<C>>

/** The union of every cardfx error. */
export type CardfxError = ErrorOf<DiagnosticCode>

/** What every error class is built from: a message, the context fields and every diagnostic. */
export type ErrorInit = ErrorProps

// The two records below are built by a loop over the table's codes; TypeScript types a record built that way as a
// plain string-keyed one, so each is named by its mapped type once, here (each entry is the class `byTag` holds
// under the code's tag; test/kernel/diagnostic-table.test.ts checks every class's `_tag` and `code` at run time).

/** The error class of every code, in table order. */
export const errorClassByCode = Object.fromEntries(
  diagnosticCodes.map((c) => [c, byTag[DiagnosticCodeTable[c].tag]])
) as ClassByCode

/** The error class of one code (the table's tag names it). */
export const errorClassOf = <C extends DiagnosticCode>(code: C): ErrorClassOf<C> => errorClassByCode[code]

/** One constructor per code, typed by its code (so building an error never needs a cast). */
export const makers = Object.fromEntries(
  diagnosticCodes.map((c) => {
    const Class: new(init: ErrorInit) => CardfxError = errorClassByCode[c]
    return [c, (init: ErrorInit) => new Class(init)]
  })
) as { readonly [C in DiagnosticCode]: (init: ErrorInit) => ErrorOf<C> }
