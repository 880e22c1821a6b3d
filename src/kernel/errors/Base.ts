/**
 * What every cardfx error class is made of: the message, the diagnostic
 * context fields and every diagnostic of the failure (the `fields` of each
 * `Schema.TaggedError`), and how a class completes what it is built from.
 *
 * @since 0.1.0
 */
import type { Array as Arr } from "effect"
import { Schema } from "effect"
import {
  type Diagnostic,
  Diagnostic as DiagnosticSchema,
  diagnostic,
  type DiagnosticContext,
  DiagnosticContextFields
} from "../Diagnostic.js"
import type { DiagnosticCode } from "../DiagnosticCode.js"

export const fields = {
  message: Schema.String,
  ...DiagnosticContextFields,
  /**
   * Every diagnostic of the failure, the one the error stands for first
   * (a failure keeps all of them, so no face has to go around a service to
   * get the rest).
   */
  diagnostics: Schema.NonEmptyArray(DiagnosticSchema)
}

/**
 * What an error is built from: its message and context, and optionally every
 * diagnostic of the failure (without them, the error's own diagnostic is the
 * only one).
 */
export interface ErrorProps extends DiagnosticContext {
  readonly message: string
  readonly diagnostics?: Arr.NonEmptyReadonlyArray<Diagnostic> | undefined
}

const contextKeys = Object.keys(DiagnosticContextFields) as ReadonlyArray<keyof DiagnosticContext>

export const complete = (code: DiagnosticCode, props: ErrorProps) => {
  if (props.diagnostics !== undefined) return { ...props, diagnostics: props.diagnostics }
  const context: Record<string, unknown> = {}
  for (const k of contextKeys) if (props[k] !== undefined) context[k] = props[k]
  return { ...props, diagnostics: [diagnostic(code, props.message, context)] as const }
}
