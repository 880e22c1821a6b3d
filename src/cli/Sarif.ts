/**
 * Diagnostics as SARIF 2.1.0 (`--format sarif`), the format code-scanning
 * dashboards and many CI tools read: one run of the `cardfx` tool whose
 * rules are every diagnostic code of the table (`DiagnosticCodeTable`), each
 * with its meaning as help text, and one result per diagnostic, with its file,
 * line, column and JSON path. Pure: the same diagnostics give the same bytes.
 *
 * test/tooling/sarif.test.ts validates the output against the official
 * SARIF 2.1.0 JSON Schema.
 *
 * @since 0.1.0
 */
import { type Diagnostic, type DiagnosticCode, diagnosticCodes, DiagnosticCodeTable } from "../services/index.js"

/** The SARIF version and the schema URI a log declares. */
export const SARIF_VERSION = "2.1.0"
export const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

/** A result without a file: what it is about, by name (a ledger branch and instance, ...). */
export interface LogicalSubject {
  readonly name: string
  readonly kind: string
}

/** One SARIF result source: a diagnostic, and optionally the logical thing it is about. */
export interface SarifInput {
  readonly diagnostic: Diagnostic
  readonly logical?: ReadonlyArray<LogicalSubject>
}

const level = (d: Diagnostic): "error" | "warning" | "note" =>
  d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "note"

/** A relative path as a URI reference (each segment percent-encoded); an absolute path as a file URI. */
const fileUri = (file: string): string => {
  const encoded = file.split("/").map(encodeURIComponent).join("/")
  return file.startsWith("/") ? `file://${encoded}` : encoded
}

const rule = (code: DiagnosticCode) => {
  const entry = DiagnosticCodeTable[code]
  return {
    id: code,
    name: entry.tag,
    shortDescription: { text: entry.meaning },
    fullDescription: { text: `${entry.meaning} (${entry.domain}; error tag ${entry.tag})` },
    help: {
      text: `${code}: ${entry.meaning} Domain: ${entry.domain}. The diagnostic's message says what was found ` +
        "and where; its JSON path points into the file."
    },
    properties: { domain: entry.domain, tag: entry.tag }
  }
}

const ruleIndex = new Map(diagnosticCodes.map((c, i) => [c, i]))

const result = ({ diagnostic: d, logical }: SarifInput) => {
  const region = d.line !== undefined && d.line >= 1
    ? { region: { startLine: d.line, ...(d.column !== undefined && d.column >= 1 ? { startColumn: d.column } : {}) } }
    : {}
  const pointer = d.path !== undefined && d.path !== ""
    ? [{ fullyQualifiedName: d.path, kind: "element" }]
    : []
  const logicalLocations = [
    ...pointer,
    ...(logical ?? []).map((l) => ({ name: l.name, fullyQualifiedName: l.name, kind: l.kind }))
  ]
  const physical = d.file !== undefined && d.file !== ""
    ? { physicalLocation: { artifactLocation: { uri: fileUri(d.file) }, ...region } }
    : {}
  const location = { ...physical, ...(logicalLocations.length > 0 ? { logicalLocations } : {}) }
  const { code: _code, message: _message, severity: _severity, file: _file, line: _line, column: _column, ...rest } = d
  return {
    ruleId: d.code,
    ruleIndex: ruleIndex.get(d.code) ?? -1,
    level: level(d),
    message: { text: d.path !== undefined && d.path !== "" ? `${d.message} (at ${d.path})` : d.message },
    ...(Object.keys(location).length > 0 ? { locations: [location] } : {}),
    ...(Object.keys(rest).length > 0 ? { properties: rest } : {})
  }
}

/** A SARIF 2.1.0 log of one `cardfx` run. */
export const sarifLog = (inputs: ReadonlyArray<SarifInput>): unknown => ({
  $schema: SARIF_SCHEMA,
  version: SARIF_VERSION,
  runs: [
    {
      tool: {
        driver: {
          name: "cardfx",
          rules: diagnosticCodes.map(rule)
        }
      },
      // Columns count UTF-16 code units (kernel/Json.ts lineColumn).
      columnKind: "utf16CodeUnits",
      results: inputs.map(result)
    }
  ]
})

/** The SARIF log of a list of diagnostics, as printed (two-space JSON). */
export const sarifText = (diagnostics: ReadonlyArray<Diagnostic>): string =>
  JSON.stringify(sarifLog(diagnostics.map((diagnostic) => ({ diagnostic }))), null, 2)
