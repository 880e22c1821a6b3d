/**
 * Schema decoding of hardened JSON documents into diagnostics. Unknown keys
 * are errors (`onExcessProperty: "error"`) and every issue is reported, each
 * with its JSON pointer and the line:column where that value starts.
 *
 * @since 0.1.0
 */
import { Either, ParseResult, type Schema, type SchemaAST } from "effect"
import { type Diagnostic, diagnostic } from "./Diagnostic.js"
import { type JsonDocument, locate, toPointer } from "./Json.js"

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

/** Flattens a parse issue into diagnostics, located in `doc` when given. */
export const issuesToDiagnostics = (
  issue: ParseResult.ParseIssue,
  doc?: Pick<JsonDocument, "text" | "file">,
  basePath = ""
): Array<Diagnostic> => {
  const seen = new Set<string>()
  const out: Array<Diagnostic> = []
  for (const i of ParseResult.ArrayFormatter.formatIssueSync(issue)) {
    const path = basePath + toPointer(i.path)
    // Excess object keys (and excess tuple elements) are the only `Unexpected` issues.
    const unknownField = i._tag === "Unexpected"
    const code = unknownField ? "unknown_field" : "schema_invalid"
    const message = unknownField ? `unknown field "${String(i.path[i.path.length - 1] ?? "")}"` : i.message
    const key = `${code}\u0000${path}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    const pos = doc !== undefined ? locate(doc, path) : undefined
    out.push(diagnostic(code, message, { file: doc?.file, path, line: pos?.line, column: pos?.column }))
  }
  return out
}
