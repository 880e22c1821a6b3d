/**
 * IDs, symbols and symbol lists. Their limits are part of the Schema (so the
 * JSON Schema and the arbitraries carry them) and each failure reports its
 * own diagnostic code through `withCode`.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { makeDecoder, withCode, withLimit } from "../../kernel/Decode.js"
import type { DiagnosticCode } from "../../kernel/DiagnosticCode.js"
import { InvalidId } from "../../kernel/Errors.js"
import { Limits } from "../../kernel/Limits.js"
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:\-/]*$/

/**
 * At most `max` characters, counted as the limit `code` with the bound in
 * the diagnostic: "`what` has at most `max` characters (got n)".
 */
export const atMostChars = (what: string, max: number, code: DiagnosticCode) =>
<S extends Schema.Schema.Any>(
  self: S & Schema.Schema<string, Schema.Schema.Encoded<S>, Schema.Schema.Context<S>>
): Schema.filter<S> =>
  Schema.maxLength<S>(max, {
    message: (issue) => `${what} has at most ${max} characters (got ${String(issue.actual).length})`,
    ...withLimit(code, { measure: "length", max })
  })(self)

/**
 * A string of the ID syntax — ASCII letters, digits and `_ . : - /`,
 * starting with a letter or digit — of at most `max` characters: the
 * pattern is `invalid_id`, the length `lengthCode`. `what` names it in the
 * messages ("an ID", "a symbol").
 */
const idSyntax = (what: string, max: number, lengthCode: "invalid_id" | "symbol_limit", syntaxMessage?: string) =>
  Schema.String.pipe(
    Schema.pattern(ID_PATTERN, {
      message: () => syntaxMessage ?? `${what} is ASCII letters, digits and _ . : - /, starting with a letter or digit`,
      ...withCode("invalid_id")
    }),
    atMostChars(what, max, lengthCode)
  )

/** An authored ID: ASCII letters, digits and `_ . : - /`, 1..64 characters. */
export const AuthoredId = idSyntax(
  "an authored ID",
  Limits.authoredIdLength,
  "invalid_id",
  "an ID is ASCII letters, digits and _ . : - /, starting with a letter or digit"
).annotations({
  identifier: "AuthoredId",
  description:
    "An authored ID: ASCII letters, digits and _ . : - /, starting with a letter or digit, at most 64 characters."
})

/**
 * An ID a request names — a card, transformation, ledger entry, activity,
 * instance, command, branch, game, deck list or served package: the ID
 * syntax, 1..128 characters (`Limits.requestIdLength`), both checks
 * `invalid_id`. Content declares its IDs with at most 64 characters
 * ({@link AuthoredId}); a request may name up to 128, so a longer ID that
 * names nothing is the same not-found answer on every face, and only one
 * past 128 (or of another syntax) is `invalid_id`. The request Schemas of
 * the HTTP API use it, and every service checks the IDs it is given with
 * it ({@link invalidRequestId}), so the library, the CLI and HTTP answer alike.
 */
export const RequestId = idSyntax(
  "an ID",
  Limits.requestIdLength,
  "invalid_id",
  `an ID is 1..${Limits.requestIdLength} ASCII letters, digits and _ . : - /, starting with a letter or digit`
).annotations({
  identifier: "RequestId",
  description:
    "An ID a request names: ASCII letters, digits and _ . : - /, starting with a letter or digit, at most 128 characters."
})

/** Whether a value is a {@link RequestId}: the Schema's two checks, without a decode (the store's per-command path). */
export const isRequestId = (value: unknown): value is string =>
  typeof value === "string" && value.length <= Limits.requestIdLength && ID_PATTERN.test(value)

const decodeRequestId = makeDecoder(RequestId)

/**
 * The `invalid_id` error of the first of a request's ID fields (each a JSON
 * pointer and its value; an absent optional field is `undefined`) that is
 * not a {@link RequestId}, with the Schema's own diagnostic; `undefined`
 * when every one is. The one check every service makes at its boundary.
 */
export const invalidRequestId = (
  fields: ReadonlyArray<readonly [path: string, value: unknown]>
): InvalidId | undefined => {
  for (const [path, value] of fields) {
    if (value === undefined || isRequestId(value)) continue
    const decoded = decodeRequestId(value, undefined, path)
    const issue = Either.isLeft(decoded) ? decoded.left[0] : undefined
    return new InvalidId({
      // A value that is not even a string (an untyped caller) is still an invalid ID.
      message: issue?.code === "invalid_id" ? issue.message : `${path}: an ID is a string`,
      path,
      ...(typeof value === "string" ? { subject: value.slice(0, Limits.requestIdLength) } : {}),
      ...(issue?.details !== undefined ? { details: issue.details } : {})
    })
  }
  return undefined
}

/** A symbol (tag, capability, generated ID): the ID syntax, 1..128 characters. */
export const Symbol = idSyntax("a symbol", Limits.symbolLength, "symbol_limit").annotations({
  identifier: "Symbol",
  description:
    "A symbol (tag, capability, component ID): ASCII letters, digits and _ . : - /, starting with a letter or digit, at most 128 characters."
})

/** A list of at most 64 symbols. Duplicates are rejected by the compiler (`duplicate_id`). */
export const SymbolList = Schema.Array(Symbol).pipe(
  Schema.maxItems(Limits.listSymbols, {
    message: (issue) =>
      `a list holds at most ${Limits.listSymbols} symbols (got ${(issue.actual as ReadonlyArray<unknown>).length})`,
    ...withLimit("list_limit", { measure: "length", max: Limits.listSymbols })
  })
).annotations({ description: "A list of at most 64 symbols, without duplicates." })

/** An expansion namespace: ASCII ID syntax, at most 47 characters. */
export const Namespace = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_\-]*$/, {
    message: () => "a namespace is ASCII letters, digits, _ and -",
    ...withCode("invalid_id")
  }),
  Schema.maxLength(Limits.namespaceLength, {
    message: () => `a namespace has at most ${Limits.namespaceLength} characters`,
    ...withLimit("invalid_id", { measure: "length", max: Limits.namespaceLength })
  })
).annotations({
  identifier: "Namespace",
  description: "An expansion namespace: ASCII letters, digits, _ and -, at most 47 characters."
})

/** A signed 32-bit order value. */
export const Order = Schema.Int.pipe(
  Schema.between(Limits.orderMin, Limits.orderMax, {
    message: () => `order must be an integer in ${Limits.orderMin}..${Limits.orderMax}`,
    ...withLimit("order_overflow", { measure: "value", min: Limits.orderMin, max: Limits.orderMax })
  })
).annotations({ description: "A signed 32-bit integer: siblings run in ascending order." })

/** A non-negative integer (amounts, costs, stacks). */
export const NonNegativeInt = Schema.Int.pipe(Schema.between(0, 1_000_000)).annotations({
  description: "An integer in 0..1000000."
})

/** A positive integer. */
export const PositiveInt = Schema.Int.pipe(Schema.between(1, 1_000_000)).annotations({
  description: "An integer in 1..1000000."
})

/** A display key (name, art, description): a translation or asset key, not text. */
export const Metadata = Schema.Struct({
  nameKey: described(Symbol, "The translation key of the display name (not the text itself)."),
  artKey: described(Symbol, "The asset key of the art."),
  descriptionKey: optionalDescribed(Symbol, "The translation key of the rules text.")
}).annotations({ description: "Display keys (name, art, description): translation or asset keys, not text." })
export type Metadata = typeof Metadata.Type
