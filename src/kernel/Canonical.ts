/**
 * Canonical JSON and hashing. Canonical form: object keys sorted by ordinal
 * order, no white space, `undefined` object members omitted, `-0` written as
 * `0`, non-finite numbers rejected. Hashes are sha256 from `node:crypto` over
 * the canonical UTF-8 bytes; fingerprints and expansion IDs are built on it.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"

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
  const json = write(value)
  return json !== undefined ? { ok: true, json } : { ok: false, error: whyNot(value, "") as NotCanonical }
}

/**
 * The canonical JSON text of a value built by cardfx itself (decoded content,
 * effective cards, states), whose numbers are finite by construction: a
 * non-finite number here is a defect, so it yields a marker naming the path
 * (which the property tests would catch) rather than a failure on every caller.
 */
export const canonicalJson = (value: unknown): string => {
  const json = write(value)
  return json !== undefined ? json : `{"$notCanonical":${JSON.stringify(whyNot(value, "")?.path ?? "")}}`
}

// Object keys repeat across a document: quote each once.
const keyCache = new Map<string, string>()
const quotedKey = (k: string): string => {
  let q = keyCache.get(k)
  if (q === undefined) {
    q = JSON.stringify(k)
    if (keyCache.size < 4096) keyCache.set(k, q)
  }
  return q
}

// The hot path builds one string and no paths; `whyNot` finds the path only on failure.
const write = (v: unknown): string | undefined => {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v)
    case "number":
      return Number.isFinite(v) ? (Object.is(v, -0) ? "0" : String(v)) : undefined
    case "boolean":
      return v ? "true" : "false"
    case "object": {
      if (v === null) return "null"
      if (Array.isArray(v)) {
        let out = "["
        for (let i = 0; i < v.length; i++) {
          const x = v[i] === undefined ? undefined : write(v[i])
          if (x === undefined) return undefined
          out += i === 0 ? x : "," + x
        }
        return out + "]"
      }
      const record = v as Record<string, unknown>
      // The default sort compares UTF-16 code units: ordinal order, without a JS comparator call per pair.
      const keys = Object.keys(record).sort()
      let out = "{"
      let first = true
      for (const k of keys) {
        const value = record[k]
        if (value === undefined) continue
        const x = write(value)
        if (x === undefined) return undefined
        out += (first ? "" : ",") + quotedKey(k) + ":" + x
        first = false
      }
      return out + "}"
    }
    default:
      return undefined
  }
}

const whyNot = (v: unknown, path: string): NotCanonical | undefined => {
  switch (typeof v) {
    case "string":
    case "boolean":
      return undefined
    case "number":
      return Number.isFinite(v) ? undefined : { _tag: "NotCanonical", path, reason: `non-finite number ${v}` }
    case "object": {
      if (v === null) return undefined
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          if (v[i] === undefined) return { _tag: "NotCanonical", path: `${path}/${i}`, reason: "undefined in an array" }
          const e = whyNot(v[i], `${path}/${i}`)
          if (e) return e
        }
        return undefined
      }
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const e = x === undefined ? undefined : whyNot(x, `${path}/${k}`)
        if (e) return e
      }
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
