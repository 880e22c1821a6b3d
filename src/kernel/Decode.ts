/**
 * Schema decoding of hardened JSON documents into diagnostics. Unknown keys
 * are errors (`onExcessProperty: "error"`) and every issue is reported, each
 * with its JSON pointer and the line:column where that value starts.
 *
 * A Schema node annotated with {@link withCode} reports its failures under
 * that diagnostic code (a refinement that enforces an ID's syntax reports
 * `invalid_id`, a `maxItems(64)` on a symbol list reports `list_limit`), so the
 * JSON Schema, the arbitrary and the diagnostic all come from one definition.
 *
 * @since 0.1.0
 */
import { Either, Option, ParseResult, type Schema, SchemaAST } from "effect"
import { type Diagnostic, diagnostic } from "./Diagnostic.js"
import type { DiagnosticCode } from "./DiagnosticCode.js"
import { type JsonDocument, locate, toPointer } from "./Json.js"

/** Annotation key: the diagnostic code a Schema node's failures carry. */
export const DiagnosticCodeAnnotationId: unique symbol = Symbol.for("cardfx/DiagnosticCode")

/** Annotations that make a Schema node's failures carry `code`. */
export const withCode = (code: DiagnosticCode): SchemaAST.Annotations => ({ [DiagnosticCodeAnnotationId]: code })

const codeOf = (ast: SchemaAST.AST): DiagnosticCode | undefined =>
  Option.getOrUndefined(SchemaAST.getAnnotation<DiagnosticCode>(DiagnosticCodeAnnotationId)(ast))

const options: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

/** A decoder built once per Schema (decoders are not rebuilt per call). */
export const makeDecoder = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const decode = ParseResult.decodeUnknownEither(schema, options)
  return (value: unknown, doc?: Pick<JsonDocument, "text" | "file">, basePath = ""): Either.Either<A, Array<Diagnostic>> => {
    const r = decode(value)
    if (Either.isRight(r)) return Either.right(r.right)
    return Either.left(issuesToDiagnostics(r.left, doc, basePath))
  }
}

interface Leaf {
  readonly code: DiagnosticCode
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: ParseResult.ParseIssue
}

const collect = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  code: DiagnosticCode | undefined,
  out: Array<Leaf>
): void => {
  switch (issue._tag) {
    case "Pointer": {
      const p = Array.isArray(issue.path) ? issue.path : [issue.path as PropertyKey]
      collect(issue.issue, [...path, ...p], code, out)
      return
    }
    case "Composite": {
      const c = code ?? codeOf(issue.ast)
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]
      // A value that matches no member of a union of literals is one problem, not one per member.
      if (SchemaAST.isUnion(issue.ast) && issues.every((i) => i._tag === "Type")) {
        out.push({ code: c ?? "schema_invalid", path, issue: new ParseResult.Type(issue.ast, issue.actual) })
        return
      }
      for (const i of issues) collect(i, path, c, out)
      return
    }
    case "Refinement": {
      const c = codeOf(issue.ast) ?? code
      if (issue.kind === "Predicate") out.push({ code: c ?? "schema_invalid", path, issue })
      else collect(issue.issue, path, c, out)
      return
    }
    case "Transformation":
      collect(issue.issue, path, code ?? codeOf(issue.ast), out)
      return
    case "Unexpected":
      out.push({ code: "unknown_field", path, issue })
      return
    case "Type":
      out.push({ code: codeOf(issue.ast) ?? code ?? "schema_invalid", path, issue })
      return
    case "Missing":
    case "Forbidden":
      out.push({ code: code ?? "schema_invalid", path, issue })
      return
  }
}

/** Flattens a parse issue into diagnostics, located in `doc` when given. */
export const issuesToDiagnostics = (
  issue: ParseResult.ParseIssue,
  doc?: Pick<JsonDocument, "text" | "file">,
  basePath = ""
): Array<Diagnostic> => {
  const leaves: Array<Leaf> = []
  collect(issue, [], undefined, leaves)
  const seen = new Set<string>()
  const out: Array<Diagnostic> = []
  for (const leaf of leaves) {
    const path = basePath + toPointer(leaf.path)
    const message =
      leaf.code === "unknown_field"
        ? `unknown field "${String(leaf.path[leaf.path.length - 1] ?? "")}"`
        : (ParseResult.ArrayFormatter.formatIssueSync(leaf.issue)[0]?.message ?? "invalid value")
    const key = `${leaf.code}\u0000${path}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    const pos = doc !== undefined ? locate(doc, path) : undefined
    out.push(diagnostic(leaf.code, message, { file: doc?.file, path, line: pos?.line, column: pos?.column }))
  }
  return out
}
