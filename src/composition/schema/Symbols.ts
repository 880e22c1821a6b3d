/**
 * IDs, symbols and symbol lists. Their limits are part of the Schema (so the
 * JSON Schema and the arbitraries carry them) and each failure reports its
 * own diagnostic code through `withCode`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withCode, withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { optional } from "../../kernel/SchemaExt.js"

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:\-/]*$/

/** An authored ID: ASCII letters, digits and `_ . : - /`, 1..64 characters. */
export const AuthoredId = Schema.String.pipe(
  Schema.pattern(ID_PATTERN, {
    message: () => "an ID is ASCII letters, digits and _ . : - /, starting with a letter or digit",
    ...withCode("invalid_id")
  }),
  Schema.maxLength(Limits.authoredIdLength, {
    message: (issue) =>
      `an authored ID has at most ${Limits.authoredIdLength} characters (got ${String(issue.actual).length})`,
    ...withLimit("invalid_id", { measure: "length", max: Limits.authoredIdLength })
  })
).annotations({ identifier: "AuthoredId" })

/** A symbol (tag, capability, generated ID): the ID syntax, 1..128 characters. */
export const Symbol = Schema.String.pipe(
  Schema.pattern(ID_PATTERN, {
    message: () => "a symbol is ASCII letters, digits and _ . : - /, starting with a letter or digit",
    ...withCode("invalid_id")
  }),
  Schema.maxLength(Limits.symbolLength, {
    message: (issue) => `a symbol has at most ${Limits.symbolLength} characters (got ${String(issue.actual).length})`,
    ...withLimit("symbol_limit", { measure: "length", max: Limits.symbolLength })
  })
).annotations({ identifier: "Symbol" })

/** A list of at most 64 symbols. Duplicates are rejected by the compiler (`duplicate_id`). */
export const SymbolList = Schema.Array(Symbol).pipe(
  Schema.maxItems(Limits.listSymbols, {
    message: (issue) =>
      `a list holds at most ${Limits.listSymbols} symbols (got ${(issue.actual as ReadonlyArray<unknown>).length})`,
    ...withLimit("list_limit", { measure: "length", max: Limits.listSymbols })
  })
)

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
).annotations({ identifier: "Namespace" })

/** A signed 32-bit order value. */
export const Order = Schema.Int.pipe(
  Schema.between(Limits.orderMin, Limits.orderMax, {
    message: () => `order must be an integer in ${Limits.orderMin}..${Limits.orderMax}`,
    ...withLimit("order_overflow", { measure: "value", min: Limits.orderMin, max: Limits.orderMax })
  })
)

/** A non-negative integer (amounts, costs, stacks). */
export const NonNegativeInt = Schema.Int.pipe(Schema.between(0, 1_000_000))

/** A positive integer. */
export const PositiveInt = Schema.Int.pipe(Schema.between(1, 1_000_000))

/** A display key (name, art, description): a translation or asset key, not text. */
export const Metadata = Schema.Struct({
  nameKey: Symbol,
  artKey: Symbol,
  descriptionKey: optional(Symbol)
})
export type Metadata = typeof Metadata.Type
