/**
 * Rendering diagnostics for people (`human`), tools (`json`), GitHub
 * Actions annotations (`github`) and SARIF 2.1.0 (`sarif`, in Sarif.ts).
 *
 * @since 0.1.0
 */
import type { Diagnostic } from "../services/index.js"
import * as Options from "./Options.js"

export type Format = "human" | "json" | "github" | "sarif"

/** `--format human|json|github|sarif` (default human). */
export const formatOption = Options.choice("format", ["human", "json", "github", "sarif"] as const).pipe(
  Options.withDefault("human" as const),
  Options.withDescription("Output format: human, json, github (workflow annotations) or sarif (SARIF 2.1.0).")
)

/** `--format human|json` for commands whose output is a result, not a diagnostic list. */
export const resultFormatOption = Options.choice("format", ["human", "json"] as const).pipe(
  Options.withDefault("human" as const),
  Options.withDescription("Output format: human or json.")
)

const position = (d: Diagnostic): string =>
  `${d.file ?? "<input>"}${d.line !== undefined ? `:${d.line}:${d.column ?? 1}` : ""}`

/** `file:line:col code message` (plus the JSON path when there is one). */
export const humanLine = (d: Diagnostic): string => {
  const where = d.path !== undefined && d.path !== "" ? ` (at ${d.path})` : ""
  const severity = d.severity === "error" ? "" : ` ${d.severity}`
  return `${position(d)} ${d.code}${severity} ${d.message}${where}`
}

const escapeData = (s: string): string => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C")

/** A GitHub workflow command: `::error file=..,line=..,col=..::code message`. */
export const githubLine = (d: Diagnostic): string => {
  const level = d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "notice"
  const props: Array<string> = []
  if (d.file !== undefined) props.push(`file=${escapeProperty(d.file)}`)
  if (d.line !== undefined) props.push(`line=${d.line}`)
  if (d.column !== undefined) props.push(`col=${d.column}`)
  props.push(`title=${escapeProperty(d.code)}`)
  const where = d.path !== undefined && d.path !== "" ? ` (at ${d.path})` : ""
  return `::${level} ${props.join(",")}::${escapeData(`${d.code} ${d.message}${where}`)}`
}

/** The `validate --format json` document: exactly `{ok, files, diagnostics}`. */
export const validationJson = (files: number, diagnostics: ReadonlyArray<Diagnostic>): string =>
  JSON.stringify({ ok: !diagnostics.some((d) => d.severity === "error"), files, diagnostics }, null, 2)
