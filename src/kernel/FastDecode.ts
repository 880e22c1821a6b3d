/**
 * The valid path of a Schema decode, compiled from the Schema's AST: a plain
 * function per node that gives the value the decoder would give, `NO` when
 * the decoder would fail, or `UNKNOWN` when it cannot tell (then the caller
 * runs the decoder itself). Effect's decoder interprets the AST generically
 * and builds its `Either`s and issue trees as it goes; a valid package of
 * 10,000 cards spent two thirds of its validation there. Diagnostics still
 * come from Effect's decoder only (src/kernel/Decode.ts): this module never
 * describes a failure, it only says that there is one.
 *
 * The answers mirror `ParseResult`'s decoding with the options given
 * (`onExcessProperty: "error"`) node by node, for the nodes cardfx's content
 * Schemas are made of: keywords (string, number, boolean, unknown),
 * literals, refinements (the node's own filter, run on the decoded value),
 * tuples and arrays, structs and records (string keys), unions and
 * suspended (recursive) Schemas. A Schema with any other node (a
 * transformation, a declaration, a template literal, …) gets no compiled
 * decoder. Objects come out with the keys in the decoder's order (the
 * Schema's fields, then the record's keys), so the value is the same to the
 * byte once serialized.
 *
 * A union's value is its one member that decodes; when two members would
 * decode, the decoder's choice depends on its candidate order, so the
 * answer is `UNKNOWN`. A member whose required literal field the value does
 * not have (the discriminator of a tagged union) is skipped unread.
 *
 * `test/kernel/fast-decode.test.ts` holds the answers equal to the decoder's
 * over generated values, valid and broken.
 *
 * @since 0.1.0
 */
import { Option, type SchemaAST } from "effect"

/** The decoder would fail. */
export const NO: unique symbol = Symbol("cardfx/FastDecode/NO")
/** The compiled decoder cannot tell: run the decoder. */
export const UNKNOWN: unique symbol = Symbol("cardfx/FastDecode/UNKNOWN")

/** A value as the decoder gives it, or a verdict. */
export type Answer = unknown

/** A compiled node: the decoded value, {@link NO} or {@link UNKNOWN}. */
export type Fast = (u: unknown) => Answer

/** Whether an answer is a decoded value (neither verdict). */
export const isValue = (a: Answer): boolean => a !== NO && a !== UNKNOWN

const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** A new object with `u`'s values of the first `n` fields present, in the fields' order. */
const copyFields = (
  u: Record<string, unknown>,
  fields: ReadonlyArray<{ readonly name: string }>,
  n: number
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < n; i++) {
    const name = fields[i]?.name
    if (name !== undefined && hasOwn(u, name)) out[name] = u[name]
  }
  return out
}

/** The required literal fields of a struct member (through its refinements): what a union can skip it by. */
const requiredLiterals = (ast: SchemaAST.AST): ReadonlyArray<readonly [string, unknown]> => {
  let node = ast
  while (node._tag === "Refinement") node = node.from
  if (node._tag !== "TypeLiteral") return []
  const out: Array<readonly [string, unknown]> = []
  for (const ps of node.propertySignatures) {
    if (!ps.isOptional && typeof ps.name === "string" && ps.type._tag === "Literal") {
      out.push([ps.name, ps.type.literal])
    }
  }
  return out
}

/** Whether a record's key Schema takes string keys (so its keys are `Object.keys`, as the decoder reads them). */
const isStringKeyed = (ast: SchemaAST.AST): boolean =>
  ast._tag === "StringKeyword" || (ast._tag === "Refinement" && isStringKeyed(ast.from))

/**
 * The compiled decoder of `ast` under `options`, or undefined when the
 * Schema holds a node this module does not mirror.
 */
export const compile = (ast: SchemaAST.AST, options: SchemaAST.ParseOptions): Fast | undefined => {
  const excessIsError = options.onExcessProperty === "error"
  const exact = options.exact === true
  const memo = new Map<SchemaAST.AST, Fast>()
  let supported = true

  const go = (node: SchemaAST.AST): Fast => {
    const known = memo.get(node)
    if (known !== undefined) return known
    const made = make(node)
    memo.set(node, made)
    return made
  }

  const unsupported = (): Fast => {
    supported = false
    return () => UNKNOWN
  }

  const make = (node: SchemaAST.AST): Fast => {
    switch (node._tag) {
      case "StringKeyword":
        return (u) => (typeof u === "string" ? u : NO)
      case "NumberKeyword":
        return (u) => (typeof u === "number" ? u : NO)
      case "BooleanKeyword":
        return (u) => (typeof u === "boolean" ? u : NO)
      case "UnknownKeyword":
      case "AnyKeyword":
        return (u) => u
      case "Literal": {
        const literal = node.literal
        return (u) => (u === literal ? u : NO)
      }
      case "Refinement": {
        const from = go(node.from)
        return (u) => {
          const a = from(u)
          if (a === NO || a === UNKNOWN) return a
          return Option.isNone(node.filter(a, options, node)) ? a : NO
        }
      }
      case "Suspend": {
        // The Schema refers to itself: the wrapper is known before its target is compiled.
        let inner: Fast = () => UNKNOWN
        const wrapper: Fast = (u) => inner(u)
        memo.set(node, wrapper)
        inner = go(node.f())
        return wrapper
      }
      case "TupleType":
        return tuple(node)
      case "TypeLiteral":
        return struct(node)
      case "Union":
        return union(node)
      default:
        return unsupported()
    }
  }

  const tuple = (node: SchemaAST.TupleType): Fast => {
    if (node.rest.length > 1) return unsupported()
    const elements = node.elements.map((e) => ({ optional: e.isOptional, fast: go(e.type) }))
    const restType = node.rest[0]
    const rest = restType === undefined ? undefined : go(restType.type)
    return (u) => {
      if (!Array.isArray(u)) return NO
      const len = u.length
      for (let i = 0; i < elements.length; i++) {
        if (len < i + 1 && elements[i]?.optional !== true) return NO
      }
      if (rest === undefined && len > elements.length) return NO
      // The decoder's array holds the same elements: while each decodes to itself, the input is that array.
      let out: Array<unknown> | undefined
      for (let i = 0; i < len; i++) {
        const f = i < elements.length ? elements[i]?.fast : rest
        if (f === undefined) return NO
        const raw: unknown = u[i]
        const v = f(raw)
        if (v === NO || v === UNKNOWN) return v
        if (out === undefined && v !== raw) out = u.slice(0, i)
        out?.push(v)
      }
      return out ?? u
    }
  }

  const struct = (node: SchemaAST.TypeLiteral): Fast => {
    if (node.propertySignatures.length === 0 && node.indexSignatures.length === 0) {
      return (u) => (u === null || u === undefined ? NO : u)
    }
    const fields: Array<{ readonly name: string; readonly optional: boolean; readonly fast: Fast }> = []
    for (const ps of node.propertySignatures) {
      if (typeof ps.name !== "string") return unsupported()
      fields.push({ name: ps.name, optional: ps.isOptional, fast: go(ps.type) })
    }
    const names = new Set(fields.map((f) => f.name))
    const records: Array<{ readonly key: Fast; readonly value: Fast }> = []
    for (const is of node.indexSignatures) {
      if (!isStringKeyed(is.parameter)) return unsupported()
      records.push({ key: go(is.parameter), value: go(is.type) })
    }
    /** Whether a key is one the decoder expects: a field's name, or one a record's key Schema takes. */
    const expected = (key: string): Answer => {
      if (names.has(key)) return true
      for (const r of records) {
        const k = r.key(key)
        if (k === UNKNOWN) return UNKNOWN
        if (k !== NO) return true
      }
      return false
    }
    return (u) => {
      if (!isRecord(u)) return NO
      const keys = Reflect.ownKeys(u)
      if (excessIsError) {
        for (const key of keys) {
          if (typeof key !== "string") return UNKNOWN
          const e = expected(key)
          if (e !== true) return e === false ? NO : e
        }
      }
      // The decoder builds a new object, the fields in the Schema's order: while the input has those keys in that
      // order and each value decodes to itself, the input is that object (no copy is made).
      let out: Record<string, unknown> | undefined = records.length > 0 ? {} : undefined
      let k = 0
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i]
        if (f === undefined) continue
        const has = hasOwn(u, f.name)
        if (!has) {
          if (f.optional) continue
          if (exact) return NO
        }
        const raw: unknown = u[f.name]
        const v = f.fast(raw)
        if (v === NO || v === UNKNOWN) return v
        if (out === undefined && (!has || v !== raw || keys[k] !== f.name)) out = copyFields(u, fields, i)
        if (out !== undefined) out[f.name] = v
        k++
      }
      for (const r of records) {
        for (const key of Object.keys(u)) {
          const kk = r.key(key)
          if (kk === UNKNOWN) return UNKNOWN
          if (kk === NO) continue
          const v = r.value(u[key])
          if (v === NO || v === UNKNOWN) return v
          if (out !== undefined && !names.has(key)) out[key] = v
        }
      }
      if (out !== undefined) return out
      // Keys the decoder drops (excess keys when they are not an error) make its object another one.
      return keys.length === k ? u : copyFields(u, fields, fields.length)
    }
  }

  const union = (node: SchemaAST.Union): Fast => {
    const members = node.types.map((t) => ({ literals: requiredLiterals(t), fast: go(t) }))
    return (u) => {
      let found: Answer = NO
      const object = typeof u === "object" && u !== null
      for (const m of members) {
        if (object && m.literals.length > 0) {
          let skip = false
          for (const [key, literal] of m.literals) {
            if (!hasOwn(u, key) || Reflect.get(u, key) !== literal) {
              skip = true
              break
            }
          }
          // Without its literal field's value, this member fails: the decoder's answer does not depend on it.
          if (skip) continue
        }
        const v = m.fast(u)
        if (v === UNKNOWN) return UNKNOWN
        if (v === NO) continue
        if (found !== NO) return UNKNOWN
        found = v
      }
      return found
    }
  }

  const root = go(ast)
  return supported ? root : undefined
}
