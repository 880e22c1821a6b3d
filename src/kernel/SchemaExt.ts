/**
 * Small Schema helpers shared by every content Schema.
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"

/**
 * An exact optional field: absent or present with a value, never present as
 * `undefined` (content JSON has no undefined, and canonical hashing must not
 * see one).
 */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/**
 * A field with its description: the JSON Schema's `description` of the
 * property (and so the editor's hover, `cardfx lsp`'s hover, OpenAPI and the
 * docs). The field's Schema is unchanged.
 */
export const described = <S extends Schema.Schema.All>(schema: S, description: string) =>
  Schema.propertySignature(schema).annotations({ description })

/** An exact optional field (see {@link optional}) with its description (see {@link described}). */
export const optionalDescribed = <S extends Schema.Schema.All>(schema: S, description: string) =>
  optional(schema).annotations({ description })

/**
 * Exactly two values of one Schema (a pair, as `readonly [A, A]`), written
 * on the wire as a two-element array whose JSON Schema is `items` with
 * `minItems`/`maxItems` 2: a `prefixItems` tuple comes out of most code
 * generators as an untyped object.
 */
export const pair = <A, I, R>(item: Schema.Schema<A, I, R>) => {
  const one = Schema.typeSchema(item)
  return Schema.transformOrFail(Schema.Array(item).pipe(Schema.itemsCount(2)), Schema.Tuple(one, one), {
    strict: true,
    decode: (items, _, ast) => {
      const [first, second] = items
      return first === undefined || second === undefined || items.length !== 2
        ? ParseResult.fail(new ParseResult.Type(ast, items, "expected exactly two items"))
        : ParseResult.succeed([first, second] as const)
    },
    encode: (p) => ParseResult.succeed(p)
  })
}
