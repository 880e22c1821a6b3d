/**
 * Diagnostics as SARIF 2.1.0 (`--format sarif`), the format code-scanning
 * dashboards and many CI tools read: one run of the `cardfx` tool whose
 * rules are every diagnostic code of the table (`DiagnosticCodeTable`), each
 * with its meaning and how to fix it as help text (src/kernel/CodeHelp.ts)
 * and a `helpUri` to its entry in docs/codes.md, and one result per
 * diagnostic, with its file, region (start and end: the JSON value, or the
 * key of an unknown field, on its first line) and JSON path. A file under
 * the run's root is a relative URI with `uriBaseId: "%SRCROOT%"` (the root is
 * in `originalUriBaseIds`); a file elsewhere is an absolute `file:` URI.
 * Pure: the same diagnostics, root and texts give the same bytes.
 *
 * test/tooling/sarif.test.ts validates the output against the official
 * SARIF 2.1.0 JSON Schema.
 *
 * @since 0.1.0
 */
import { codeHelpText, codeHelpUri } from "../kernel/CodeHelp.js"
import { extentEnd, offsetOf, positionOf, type Scan, scanJson } from "../kernel/JsonScan.js"
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

/** The base every relative artifact URI is resolved against (`originalUriBaseIds`). */
export const SRCROOT = "%SRCROOT%"

/** Where a SARIF log's files are and what they hold (for regions' ends). */
export interface SarifContext {
  /** The absolute folder relative paths are resolved from (the working folder); no base without it. */
  readonly root?: string | undefined
  /** File → text, to end each region at the end of its value (or key). */
  readonly texts?: ReadonlyMap<string, string> | undefined
}

const encodePath = (path: string): string => path.split("/").map(encodeURIComponent).join("/")

/** A file's artifact location: relative to the root with its base, else an absolute file URI. */
const artifactLocation = (file: string, root: string | undefined) => {
  const base = root === undefined ? undefined : root.replace(/\/+$/, "")
  if (!file.startsWith("/")) {
    return base === undefined ? { uri: encodePath(file) } : { uri: encodePath(file), uriBaseId: SRCROOT }
  }
  if (base !== undefined && file.startsWith(`${base}/`)) {
    return { uri: encodePath(file.slice(base.length + 1)), uriBaseId: SRCROOT }
  }
  return { uri: `file://${encodePath(file)}` }
}

const scans = new WeakMap<SarifContext, Map<string, Scan>>()

/** A region from the diagnostic's line and column to the end of what it points at (one line at most). */
const regionOf = (d: Diagnostic, context: SarifContext) => {
  if (d.line === undefined || d.line < 1) return {}
  const startColumn = d.column !== undefined && d.column >= 1 ? d.column : 1
  const text = d.file === undefined ? undefined : context.texts?.get(d.file)
  let endColumn = startColumn + 1
  if (text !== undefined && d.file !== undefined) {
    let cache = scans.get(context)
    if (cache === undefined) {
      cache = new Map()
      scans.set(context, cache)
    }
    const scan = cache.get(d.file) ?? scanJson(text)
    cache.set(d.file, scan)
    const start = offsetOf(text, { line: d.line - 1, character: startColumn - 1 })
    const end = positionOf(text, extentEnd(text, scan, start, d.code === "unknown_field"))
    if (end.line === d.line - 1 && end.character + 1 > startColumn) endColumn = end.character + 1
  }
  return { region: { startLine: d.line, startColumn, endLine: d.line, endColumn } }
}

const rule = (code: DiagnosticCode) => {
  const entry = DiagnosticCodeTable[code]
  return {
    id: code,
    name: entry.tag,
    shortDescription: { text: entry.meaning },
    fullDescription: { text: `${entry.meaning} (${entry.domain}; error tag ${entry.tag})` },
    helpUri: codeHelpUri(code),
    help: { text: codeHelpText(code) },
    properties: { domain: entry.domain, tag: entry.tag }
  }
}

const ruleIndex = new Map(diagnosticCodes.map((c, i) => [c, i]))

const result = ({ diagnostic: d, logical }: SarifInput, context: SarifContext) => {
  const region = regionOf(d, context)
  const pointer = d.path !== undefined && d.path !== ""
    ? [{ fullyQualifiedName: d.path, kind: "element" }]
    : []
  const logicalLocations = [
    ...pointer,
    ...(logical ?? []).map((l) => ({ name: l.name, fullyQualifiedName: l.name, kind: l.kind }))
  ]
  const physical = d.file !== undefined && d.file !== ""
    ? { physicalLocation: { artifactLocation: artifactLocation(d.file, context.root), ...region } }
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
export const sarifLog = (inputs: ReadonlyArray<SarifInput>, context: SarifContext = {}): unknown => ({
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
      ...(context.root === undefined
        ? {}
        : { originalUriBaseIds: { [SRCROOT]: { uri: `file://${encodePath(context.root.replace(/\/+$/, ""))}/` } } }),
      // Columns count UTF-16 code units (kernel/Json.ts lineColumn).
      columnKind: "utf16CodeUnits",
      results: inputs.map((i) => result(i, context))
    }
  ]
})

/** The SARIF log of a list of diagnostics, as printed (two-space JSON). */
export const sarifText = (diagnostics: ReadonlyArray<Diagnostic>, context: SarifContext = {}): string =>
  JSON.stringify(sarifLog(diagnostics.map((diagnostic) => ({ diagnostic })), context), null, 2)
