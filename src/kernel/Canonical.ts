/**
 * Canonical JSON and hashing. Canonical form: object keys sorted by ordinal
 * order, no white space, `undefined` object members omitted, `-0` written as
 * `0`, non-finite numbers rejected. Hashes are sha256 from `node:crypto` over
 * the canonical UTF-8 bytes; fingerprints and expansion IDs are built on it.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import { compareOrdinal } from "./Ordinal.js"

/** Why a value has no canonical form. */
export interface NotCanonical {
  readonly _tag: "NotCanonical"
  readonly path: string
  readonly reason: string
}

/**
 * The canonical JSON text of a value, or why it has none. Cycles are not
 * detected: every value cardfx hashes is a tree it built itself.
 */
export const canonicalJsonEither = (value: unknown): { ok: true; json: string } | { ok: false; error: NotCanonical } => {
  const parts: Array<string> = []
  const error = write(value, "", parts)
  return error === undefined ? { ok: true, json: parts.join("") } : { ok: false, error }
}

/**
 * The canonical JSON text of a value built by cardfx itself (decoded content,
 * effective cards, states), whose numbers are finite by construction: a
 * non-finite number here is a defect, so it is written as `null` and flagged by
 * the property tests rather than returned as a failure on every caller.
 */
export const canonicalJson = (value: unknown): string => {
  const r = canonicalJsonEither(value)
  return r.ok ? r.json : `{"$notCanonical":${JSON.stringify(r.error.path)}}`
}

const write = (v: unknown, path: string, out: Array<string>): NotCanonical | undefined => {
  switch (typeof v) {
    case "string":
      out.push(JSON.stringify(v))
      return undefined
    case "number":
      if (!Number.isFinite(v)) return { _tag: "NotCanonical", path, reason: `non-finite number ${v}` }
      out.push(Object.is(v, -0) ? "0" : String(v))
      return undefined
    case "boolean":
      out.push(v ? "true" : "false")
      return undefined
    case "object": {
      if (v === null) {
        out.push("null")
        return undefined
      }
      if (Array.isArray(v)) {
        out.push("[")
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out.push(",")
          if (v[i] === undefined) return { _tag: "NotCanonical", path: `${path}/${i}`, reason: "undefined in an array" }
          const e = write(v[i], `${path}/${i}`, out)
          if (e) return e
        }
        out.push("]")
        return undefined
      }
      const record = v as Record<string, unknown>
      const keys = Object.keys(record).sort(compareOrdinal)
      out.push("{")
      let first = true
      for (const k of keys) {
        const x = record[k]
        if (x === undefined) continue
        if (!first) out.push(",")
        first = false
        out.push(JSON.stringify(k), ":")
        const e = write(x, `${path}/${k}`, out)
        if (e) return e
      }
      out.push("}")
      return undefined
    }
    default:
      return { _tag: "NotCanonical", path, reason: `a ${typeof v} has no JSON form` }
  }
}

/** sha256 of a string's UTF-8 bytes, as lowercase hex. */
export const sha256Hex = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex")

/** sha256 of a value's canonical JSON. */
export const hashCanonical = (value: unknown): string => sha256Hex(canonicalJson(value))
