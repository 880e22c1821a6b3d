/**
 * A diagnostic: one problem found in content, a command or a run, as plain
 * data. Pure cores return diagnostics; service boundaries turn the first error
 * into its tagged error (see `Errors.ts`).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { type DiagnosticCode, diagnosticCodes, DiagnosticCodeTable } from "./DiagnosticCode.js"
import { compareOrdinal } from "./Ordinal.js"

export const Severity = Schema.Literal("error", "warning", "info")
export type Severity = typeof Severity.Type

export const DiagnosticCodeSchema = Schema.Literal(...(diagnosticCodes as [DiagnosticCode, ...Array<DiagnosticCode>]))

/** The optional context every diagnostic (and every tagged error) may carry. */
export const DiagnosticContextFields = {
  file: Schema.optional(Schema.String),
  /** JSON pointer (RFC 6901) into `file`, or into the command's input. */
  path: Schema.optional(Schema.String),
  line: Schema.optional(Schema.Int),
  column: Schema.optional(Schema.Int),
  subject: Schema.optional(Schema.String),
  transformationId: Schema.optional(Schema.String),
  ruleId: Schema.optional(Schema.String),
  cardCode: Schema.optional(Schema.String),
  effectId: Schema.optional(Schema.String),
  /** Numbers involved (a limit and the value that passed it, ...). */
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) }))
}

export const Diagnostic = Schema.Struct({
  code: DiagnosticCodeSchema,
  severity: Severity,
  message: Schema.String,
  ...DiagnosticContextFields
})
export type Diagnostic = typeof Diagnostic.Type

/** Context accepted by {@link diagnostic}; `undefined` values are dropped. */
export type DiagnosticContext = {
  readonly [K in keyof Omit<Diagnostic, "code" | "severity" | "message">]?: Diagnostic[K] | undefined
}

/** Builds a diagnostic, dropping undefined context so output bytes stay stable. */
export const diagnostic = (
  code: DiagnosticCode,
  message: string,
  context: DiagnosticContext = {},
  severity: Severity = "error"
): Diagnostic => {
  const out: Record<string, unknown> = { code, severity, message }
  for (const key of contextKeys) {
    const value = context[key]
    if (value !== undefined) out[key] = value
  }
  return out as Diagnostic
}

const contextKeys = Object.keys(DiagnosticContextFields) as ReadonlyArray<keyof DiagnosticContext>

export const isError = (d: Diagnostic): boolean => d.severity === "error"

/** A total, deterministic order: file, line, column, path, code, message. */
export const compareDiagnostics = (a: Diagnostic, b: Diagnostic): number =>
  compareOrdinal(a.file ?? "", b.file ?? "") ||
  (a.line ?? 0) - (b.line ?? 0) ||
  (a.column ?? 0) - (b.column ?? 0) ||
  compareOrdinal(a.path ?? "", b.path ?? "") ||
  compareOrdinal(a.code, b.code) ||
  compareOrdinal(a.message, b.message)

export const sortDiagnostics = (ds: ReadonlyArray<Diagnostic>): Array<Diagnostic> => [...ds].sort(compareDiagnostics)

/** Adds context that is not set yet (used when a pure core's diagnostic crosses into a file). */
export const withContext = (d: Diagnostic, context: DiagnosticContext): Diagnostic => {
  const merged: Record<string, unknown> = { ...context }
  for (const [k, v] of Object.entries(d)) if (v !== undefined) merged[k] = v
  return diagnostic(d.code, d.message, merged as DiagnosticContext, d.severity)
}

/** The tag of the error class that carries a diagnostic's code. */
export const tagOf = (code: DiagnosticCode): string => DiagnosticCodeTable[code].tag
