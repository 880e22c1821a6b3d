/**
 * Schema decoding of hardened JSON documents into diagnostics. Unknown keys
 * are errors (`onExcessProperty: "error"`) and every issue is reported, each
 * with its JSON pointer and the line:column where that value starts.
 *
 * A Schema node annotated with {@link withCode} reports the failure of its
 * OWN check under that diagnostic code (a refinement that enforces an ID's
 * syntax reports `invalid_id`, a `maxItems(64)` on a symbol list reports
 * `list_limit`), so the JSON Schema, the arbitrary and the diagnostic all come
 * from one definition. A code never spreads to what the node wraps: a value
 * of the wrong type under a `maxItems` refinement (a string where a list is
 * expected), a non-integer under `between`, an unknown member of an enum of
 * another type, are `schema_invalid`, whose message names the JSON pointer
 * and the expected type. A limit refinement carries its numbers
 * ({@link withLimit}), so the limit code comes with `details.limit` and
 * `details.actual`. A record key its key Schema refuses reports that
 * Schema's code at the key (`invalid_id`, `symbol_limit`), not
 * `unknown_field`.
 *
 * @since 0.1.0
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { type Diagnostic, diagnostic } from "./Diagnostic.js"
import type { DiagnosticCode } from "./DiagnosticCode.js"
import * as FastDecode from "./FastDecode.js"
import { type JsonDocument, type Locator, makeLocator, toPointer } from "./Json.js"
import { didYouMean } from "./Suggest.js"

/** Annotation key: the diagnostic code a Schema node's failures carry. */
export const DiagnosticCodeAnnotationId: unique symbol = Symbol.for("cardfx/DiagnosticCode")

/** Annotation key: the bounds a limit refinement enforces (see {@link withLimit}). */
export const LimitAnnotationId: unique symbol = Symbol.for("cardfx/Limit")

/** What a limit refinement bounds: a length (string or array), an object's key count or a number, inclusive bounds. */
export interface LimitBounds {
  readonly measure: "length" | "keys" | "value"
  readonly min?: number
  readonly max: number
}

/** Annotations that make a Schema node's own failure carry `code`. */
export const withCode = (code: DiagnosticCode): SchemaAST.Annotations => ({ [DiagnosticCodeAnnotationId]: code })

/**
 * Annotations for a limit refinement: its failure carries `code` and
 * `details: { limit, actual }` (the bound crossed and the measured value).
 */
export const withLimit = (code: DiagnosticCode, bounds: LimitBounds): SchemaAST.Annotations => ({
  [DiagnosticCodeAnnotationId]: code,
  [LimitAnnotationId]: bounds
})

const codeOf = (ast: SchemaAST.AST): DiagnosticCode | undefined =>
  Option.getOrUndefined(SchemaAST.getAnnotation<DiagnosticCode>(DiagnosticCodeAnnotationId)(ast))

const boundsOf = (ast: SchemaAST.AST): LimitBounds | undefined =>
  Option.getOrUndefined(SchemaAST.getAnnotation<LimitBounds>(LimitAnnotationId)(ast))

const limitDetails = (bounds: LimitBounds, actual: unknown): { limit: number; actual: number } | undefined => {
  const measured = bounds.measure === "value"
    ? typeof actual === "number" ? actual : undefined
    : bounds.measure === "keys"
    ? typeof actual === "object" && actual !== null && !Array.isArray(actual) ? Object.keys(actual).length : undefined
    : typeof actual === "string" || Array.isArray(actual)
    ? actual.length
    : undefined
  if (measured === undefined) return undefined
  return { limit: measured > bounds.max ? bounds.max : (bounds.min ?? bounds.max), actual: measured }
}

// The JavaScript type names a literal union accepts: an enum's code applies
// to an unknown member of the right type only (`fact: 5` is a wrong type).
const literalTypes = (ast: SchemaAST.AST): ReadonlySet<string> | undefined => {
  if (SchemaAST.isLiteral(ast)) return new Set([ast.literal === null ? "null" : typeof ast.literal])
  if (!SchemaAST.isUnion(ast)) return undefined
  const out = new Set<string>()
  for (const m of ast.types) {
    if (!SchemaAST.isLiteral(m)) return undefined
    out.add(m.literal === null ? "null" : typeof m.literal)
  }
  return out
}

/** The code of a Type failure at an enum/literal node: its own code for a value of the right type. */
const enumCode = (ast: SchemaAST.AST, actual: unknown): DiagnosticCode | undefined => {
  const code = codeOf(ast)
  if (code === undefined) return undefined
  const types = literalTypes(ast)
  return types === undefined || types.has(actual === null ? "null" : typeof actual) ? code : undefined
}

const options: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

/**
 * To the parser a record key its key Schema refuses is an unexpected
 * property; the key Schema's own failure (an ID's syntax, a symbol's length)
 * is recovered here, so the key reports that Schema's code.
 */
const recordKeyIssue = (
  ast: SchemaAST.AST,
  issue: ParseResult.ParseIssue
): { readonly key: string; readonly issue: ParseResult.ParseIssue } | undefined => {
  if (!SchemaAST.isTypeLiteral(ast) || ast.indexSignatures.length === 0) return undefined
  if (issue._tag !== "Pointer" || issue.issue._tag !== "Unexpected" || typeof issue.path !== "string") return undefined
  const key = issue.path
  if (ast.propertySignatures.some((p) => p.name === key)) return undefined
  // Only for a key already refused (a failing file), so the key Schema's decoder is built here, not kept.
  for (const signature of ast.indexSignatures) {
    const r = ParseResult.decodeUnknownEither(Schema.make(signature.parameter))(key)
    if (Either.isLeft(r)) return { key, issue: r.left }
  }
  return undefined
}

/**
 * Where a failing document's failures are, when each one lies inside one
 * element of an array field of its top-level struct: that element (its
 * path and its own Schema), so that only the failing elements are decoded
 * again for their diagnostics. Undefined when the document fails anywhere
 * else (an unknown or missing field, a field of the wrong type, a Schema
 * shaped otherwise): then the whole document is decoded again.
 */
type ElementFailures = (
  value: unknown
) => Array<{ readonly path: string; readonly ast: SchemaAST.AST; readonly value: unknown }> | undefined

const elementFailures = (ast: SchemaAST.AST): ElementFailures | undefined => {
  if (!SchemaAST.isTypeLiteral(ast) || ast.indexSignatures.length > 0) return undefined
  const fields: Array<{
    readonly name: string
    readonly optional: boolean
    readonly whole: FastDecode.Fast
    readonly element: { readonly ast: SchemaAST.AST; readonly fast: FastDecode.Fast } | undefined
  }> = []
  for (const ps of ast.propertySignatures) {
    if (typeof ps.name !== "string") return undefined
    const whole = FastDecode.compile(ps.type, options)
    if (whole === undefined) return undefined
    const t = ps.type
    const restType = SchemaAST.isTupleType(t) && t.elements.length === 0 && t.rest.length === 1 ? t.rest[0] : undefined
    const fast = restType === undefined ? undefined : FastDecode.compile(restType.type, options)
    fields.push({
      name: ps.name,
      optional: ps.isOptional,
      whole,
      element: restType === undefined || fast === undefined ? undefined : { ast: restType.type, fast }
    })
  }
  const names = new Set(fields.map((f) => f.name))
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
    for (const key of Reflect.ownKeys(value)) if (typeof key !== "string" || !names.has(key)) return undefined
    const out: Array<{ readonly path: string; readonly ast: SchemaAST.AST; readonly value: unknown }> = []
    for (const f of fields) {
      if (!Object.prototype.hasOwnProperty.call(value, f.name)) {
        if (f.optional) continue
        return undefined
      }
      const v: unknown = Reflect.get(value, f.name)
      if (f.element !== undefined && Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const r = f.element.fast(v[i])
          if (r === FastDecode.UNKNOWN) return undefined
          if (r === FastDecode.NO) out.push({ path: toPointer([f.name, i]), ast: f.element.ast, value: v[i] })
        }
      } else if (!FastDecode.isValue(f.whole(v))) return undefined
    }
    return out.length === 0 ? undefined : out
  }
}

/**
 * A decoder built once per Schema (decoders are not rebuilt per call). A
 * valid value takes the compiled valid path (src/kernel/FastDecode.ts); a
 * failing one is decoded by Effect's decoder for its diagnostics — only its
 * failing elements when that is where all its failures are (the same
 * diagnostics in the same order: the decoder reports a struct's fields in
 * order and an array's elements in order, each element's issues its own).
 */
export const makeDecoder = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const decode = ParseResult.decodeUnknownEither(schema, options)
  // Compiled on first use, not when the decoder is made: decoders are made as modules load, and most
  // commands use few of them (a start of the bin would compile them all). The failing elements' split is
  // compiled only once a value fails.
  let fast: FastDecode.Fast | undefined | null = null
  let split: ElementFailures | undefined | null = null
  const elementDecoders = new Map<SchemaAST.AST, (u: unknown) => Either.Either<unknown, ParseResult.ParseIssue>>()
  const decodeElement = (ast: SchemaAST.AST, u: unknown) => {
    let d = elementDecoders.get(ast)
    if (d === undefined) {
      d = ParseResult.decodeUnknownEither(Schema.make<unknown>(ast), options)
      elementDecoders.set(ast, d)
    }
    return d(u)
  }
  return (
    value: unknown,
    doc?: Pick<JsonDocument, "text" | "file">,
    basePath = ""
  ): Either.Either<A, Array<Diagnostic>> => {
    if (fast === null) fast = FastDecode.compile(schema.ast, options)
    if (fast !== undefined) {
      const answer = fast(value)
      if (FastDecode.isValue(answer)) return Either.right(decodedAs<A>(answer))
      if (answer === FastDecode.NO && split === null) split = elementFailures(schema.ast)
      const failures = answer === FastDecode.NO && split != null ? split(value) : undefined
      if (failures !== undefined) {
        const issues: Array<{ readonly issue: ParseResult.ParseIssue; readonly basePath: string }> = []
        for (const f of failures) {
          const r = decodeElement(f.ast, f.value)
          // The compiled path said this element fails; should the decoder disagree, it decides, on the whole.
          if (Either.isRight(r)) return slow(value, doc, basePath)
          issues.push({ issue: r.left, basePath: basePath + f.path })
        }
        return Either.left(issueListToDiagnostics(issues, doc))
      }
    }
    return slow(value, doc, basePath)
  }

  function slow(
    value: unknown,
    doc: Pick<JsonDocument, "text" | "file"> | undefined,
    basePath: string
  ): Either.Either<A, Array<Diagnostic>> {
    const r = decode(value)
    if (Either.isRight(r)) return Either.right(r.right)
    return Either.left(issuesToDiagnostics(r.left, doc, basePath))
  }
}

/**
 * The compiled path's value as the Schema's type: `FastDecode` gives exactly
 * the decoder's value for the Schema it was compiled from (held equal by
 * test/kernel/fast-decode.test.ts), which the decoder would have typed `A`.
 */
const decodedAs = <A>(value: unknown): A => value as A

interface Leaf {
  readonly code: DiagnosticCode
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: ParseResult.ParseIssue
  readonly details?: { readonly limit: number; readonly actual: number } | undefined
  /** `; did you mean "x"?` after the message, for a misspelled key or enum member. */
  readonly hint?: string | undefined
}

/** The string members of a literal union (or a literal): what a misspelled member is compared with. */
const literalStrings = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isLiteral(ast)
    ? typeof ast.literal === "string" ? [ast.literal] : []
    : SchemaAST.isUnion(ast)
    ? ast.types.flatMap(literalStrings)
    : []

/** The hint for a value no member of a literal union matches: the closest member, for a string. */
const enumHint = (ast: SchemaAST.AST, actual: unknown): string | undefined =>
  typeof actual === "string" ? didYouMean(actual, literalStrings(ast)) || undefined : undefined

/** The keys a struct declares, less those the value already has: what a misspelled key is compared with. */
const declaredKeys = (ast: SchemaAST.AST, actual: unknown): ReadonlyArray<string> => {
  if (!SchemaAST.isTypeLiteral(ast)) return []
  const present = typeof actual === "object" && actual !== null ? new Set(Object.keys(actual)) : new Set<string>()
  return ast.propertySignatures.flatMap((p) => typeof p.name === "string" && !present.has(p.name) ? [p.name] : [])
}

// A node's code claims only the failure of its own check: nothing is inherited
// by the issues nested under it (see the module comment).
const collect = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  out: Array<Leaf>,
  keys: ReadonlyArray<string> = []
): void => {
  switch (issue._tag) {
    case "Pointer": {
      const p = Array.isArray(issue.path) ? issue.path : [issue.path as PropertyKey]
      collect(issue.issue, [...path, ...p], out, keys)
      return
    }
    case "Composite": {
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]
      // A value that matches no member of a union of literals is one problem, not one per member.
      if (SchemaAST.isUnion(issue.ast) && issues.every((i) => i._tag === "Type")) {
        out.push({
          code: enumCode(issue.ast, issue.actual) ?? "schema_invalid",
          path,
          issue: new ParseResult.Type(issue.ast, issue.actual),
          hint: enumHint(issue.ast, issue.actual)
        })
        return
      }
      const declared = declaredKeys(issue.ast, issue.actual)
      for (const i of issues) {
        const refused = recordKeyIssue(issue.ast, i)
        if (refused === undefined) collect(i, path, out, declared)
        else collect(refused.issue, [...path, refused.key], out)
      }
      return
    }
    case "Refinement": {
      if (issue.kind === "From") return collect(issue.issue, path, out)
      const code = codeOf(issue.ast)
      const bounds = code === undefined ? undefined : boundsOf(issue.ast)
      const details = bounds === undefined ? undefined : limitDetails(bounds, issue.actual)
      out.push({ code: code ?? "schema_invalid", path, issue, details })
      return
    }
    case "Transformation":
      collect(issue.issue, path, out)
      return
    case "Unexpected": {
      const key = path[path.length - 1]
      out.push({
        code: "unknown_field",
        path,
        issue,
        hint: typeof key === "string" ? didYouMean(key, keys) || undefined : undefined
      })
      return
    }
    case "Type":
      out.push({
        code: enumCode(issue.ast, issue.actual) ?? "schema_invalid",
        path,
        issue,
        hint: enumHint(issue.ast, issue.actual)
      })
      return
    case "Missing":
    case "Forbidden":
      out.push({ code: "schema_invalid", path, issue })
      return
  }
}

/**
 * The one formatter of a Schema failure's words, in plain grammar: the
 * decoder's `Expected An integer in 0..1000000., actual -1` reads
 * `expected an integer in 0..1000000, got -1` (a lower-case start, no
 * stray period, "got" for what was found). Other messages (a refinement's
 * own, already plain) pass through.
 */
export const plainMessage = (message: string): string => {
  const m = /^Expected ([\s\S]*?), actual ([\s\S]*)$/.exec(message)
  if (m === null) return message
  const expected = (m[1] ?? "").replace(/\.$/, "")
  return `expected ${lowerFirst(expected)}, got ${m[2] ?? ""}`
}

/** Lower-cases a phrase's first letter when its first word is a plain word (not an acronym, not quoted). */
const lowerFirst = (s: string): string => /^[A-Z][a-z]*\b/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s

/** The words a missing required field is reported with (`at /cards/0: missing field `cost``). */
export const MISSING_FIELD = "missing field"

/** Flattens a parse issue into diagnostics, located in `doc` when given. */
export const issuesToDiagnostics = (
  issue: ParseResult.ParseIssue,
  doc?: Pick<JsonDocument, "text" | "file"> & { readonly locator?: Locator | undefined },
  basePath = ""
): Array<Diagnostic> => issueListToDiagnostics([{ issue, basePath }], doc)

/** {@link issuesToDiagnostics} for several issues of one document, in order, each under its own base path. */
const issueListToDiagnostics = (
  issues: ReadonlyArray<{ readonly issue: ParseResult.ParseIssue; readonly basePath: string }>,
  doc?: Pick<JsonDocument, "text" | "file"> & { readonly locator?: Locator | undefined }
): Array<Diagnostic> => {
  const leaves: Array<Leaf & { readonly basePath: string }> = []
  for (const { basePath, issue } of issues) {
    const own: Array<Leaf> = []
    collect(issue, [], own)
    for (const leaf of own) leaves.push({ ...leaf, basePath })
  }
  const seen = new Set<string>()
  const found: Array<{ readonly leaf: Leaf; readonly path: string; readonly message: string }> = []
  for (const leaf of leaves) {
    const basePath = leaf.basePath
    const path = basePath + toPointer(leaf.path)
    const formatted = plainMessage(
      ParseResult.ArrayFormatter.formatIssueSync(leaf.issue)[0]?.message ?? "invalid value"
    )
    const message = (leaf.code === "unknown_field"
      ? `unknown field "${String(leaf.path[leaf.path.length - 1] ?? "")}"`
      : leaf.issue._tag === "Missing"
      // Name the field, not just the place: "missing field `cost`" (the path ends with the field's key).
      ? `at ${basePath + toPointer(leaf.path.slice(0, -1)) || "/"}: ${MISSING_FIELD} \`${
        String(leaf.path[leaf.path.length - 1] ?? "")
      }\``
      : leaf.code === "schema_invalid"
      ? `at ${path === "" ? "/" : path}: ${formatted}`
      : formatted) + (leaf.hint ?? "")
    const key = `${leaf.code}\u0000${path}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    found.push({ leaf, path, message })
  }
  // One locator for the document, told every path first: it scans for those only (Json.ts, `prepare`).
  const locator = doc === undefined ? undefined : (doc.locator ?? makeLocator(doc.text))
  locator?.prepare(found.map((f) => f.path))
  return found.map(({ leaf, message, path }) => {
    // An unknown field is about its key, not its value: it points at the key.
    const pos = leaf.code === "unknown_field" ? locator?.locateKey(path) : locator?.locate(path)
    return diagnostic(leaf.code, message, {
      file: doc?.file,
      path,
      line: pos?.line,
      column: pos?.column,
      details: leaf.details
    })
  })
}
