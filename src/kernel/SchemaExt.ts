/**
 * Small Schema helpers shared by every content Schema.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

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
