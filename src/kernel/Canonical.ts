/**
 * Canonical JSON and hashing. Canonical form (RFC 8785's, for the JSON
 * values cardfx hashes): object keys sorted by ordinal order (UTF-16 code
 * units), no white space, `undefined` object members omitted, numbers as
 * ECMAScript writes them (`-0` as `0`), non-finite numbers rejected. Hashes
 * are sha256 over the canonical UTF-8 bytes; fingerprints and expansion IDs
 * are built on it. `sha256Hex` is the one sha256 helper of cardfx.
 *
 * Contract: `canonicalJson` and `hashCanonical` take values whose numbers
 * are finite (decoded content is, by `parseJson`; states and documents
 * cardfx builds are, by construction). A non-finite number or a value with
 * no JSON form is a programming error: they throw {@link NotCanonicalDefect},
 * which an `Effect` running them reports as a defect (a die), never as a
 * typed failure and never as a silently hashed marker. Callers holding values
 * of unknown origin use `canonicalJsonEither`. No module-level state.
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto"

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
export const canonicalJsonEither = (
  value: unknown
): { ok: true; json: string } | { ok: false; error: NotCanonical } => {
  const json = write(value)
  return json !== undefined ? { ok: true, json } : { ok: false, error: whyNot(value, "") as NotCanonical }
}

/** The defect thrown when a caller breaks the finite-number contract (see the module header). */
export class NotCanonicalDefect extends Error {
  readonly _tag = "NotCanonicalDefect"
  constructor(readonly path: string, readonly reason: string) {
    super(`canonical JSON: ${path === "" ? "(root)" : path}: ${reason}`)
    this.name = "NotCanonicalDefect"
  }
}

/**
 * The canonical JSON text of a value whose numbers are finite (decoded
 * content, effective cards, states). Throws {@link NotCanonicalDefect} on a
 * value with no canonical form: a defect, not a result.
 */
export const canonicalJson = (value: unknown): string => {
  const json = write(value)
  if (json !== undefined) return json
  const why = whyNot(value, "") ?? { path: "", reason: "no JSON form" }
  // A non-finite number here is a caller's bug (callers guarantee JSON values), so it is a defect, not a typed failure.
  // eslint-disable-next-line no-restricted-syntax
  throw new NotCanonicalDefect(why.path, why.reason)
}

// Most keys need no escaping: quote them without JSON.stringify (measured as fast as a key cache, with no state).
const PLAIN_KEY = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
const quotedKey = (k: string): string => (PLAIN_KEY.test(k) ? `"${k}"` : JSON.stringify(k))

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

/** sha256 of a string's UTF-8 bytes, as lowercase hex (node's one-shot `hash`: no Hash object per call). */
export const sha256Hex = (s: string): string => hash("sha256", s, "hex")

/** sha256 of bytes as lowercase hex (a file's content hash). */
export const sha256HexOfBytes = (bytes: Uint8Array): string =>
  hash("sha256", Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "hex")

/** sha256 of bytes as base64url (an HTTP validator, e.g. an ETag of a compressed asset). */
export const sha256Base64url = (bytes: Uint8Array): string =>
  hash("sha256", Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "base64url")

/** sha256 of a value's canonical JSON. */
export const hashCanonical = (value: unknown): string => sha256Hex(canonicalJson(value))
