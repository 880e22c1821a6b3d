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
