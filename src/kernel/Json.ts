/**
 * Hardened JSON input. Every file cardfx reads goes through `parseJson` before
 * any Schema decode, which closes the holes plain `JSON.parse` + Schema leave
 * open: a size cap, a depth cap (Schema decode overflows the stack around
 * 1,100 levels), `__proto__`/`constructor`/`prototype` keys (a decoded
 * `Schema.Record` would let `__proto__` replace its prototype), duplicate keys
 * (`JSON.parse` silently keeps the last one), non-finite numbers and numbers
 * outside the safe-integer range, invalid UTF-8 and empty files. Each is one
 * diagnostic with the file, line:column and JSON pointer.
 *
 * The parser is a plain recursive-descent scanner whose recursion is bounded
 * by the depth cap, so it can never overflow the stack.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { type Diagnostic, diagnostic } from "./Diagnostic.js"
import type { DiagnosticCode } from "./DiagnosticCode.js"
import { Limits } from "./Limits.js"

export type JsonValue = null | boolean | number | string | ReadonlyArray<JsonValue> | {
  readonly [key: string]: JsonValue
}

/** The `$id` prefix of the JSON Schemas `cardfx schema` writes: such files are recognized wherever they are, never read as content. */
export const JSON_SCHEMA_ID_PREFIX = "https://cardfx.dev/schemas/"

/** True when a parsed JSON value is one of the JSON Schemas `cardfx schema` writes (its `$id` is under {@link JSON_SCHEMA_ID_PREFIX}). */
export const isCardfxJsonSchema = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  typeof (value as { readonly $id?: unknown }).$id === "string" &&
  (value as { readonly $id: string }).$id.startsWith(JSON_SCHEMA_ID_PREFIX)

export interface JsonOptions {
  /** File name reported in diagnostics. */
  readonly file?: string | undefined
  /** Byte cap (default {@link Limits.inputBytes}). */
  readonly maxBytes?: number | undefined
  /** Nesting cap (default {@link Limits.inputDepth}). */
  readonly maxDepth?: number | undefined
}

/** A parsed document: its value and its text, kept to locate later diagnostics with its own locator. */
export interface JsonDocument {
  readonly value: JsonValue
  readonly text: string
  readonly file: string | undefined
  readonly locator: Locator
}

/**
 * Positions in one text: where a JSON pointer starts, and the line and column
 * of an offset. The position index is built on first use and belongs to the
 * locator (so to the document that holds it), never to the module: locating
 * in one document never evicts or reuses another's index.
 */
export interface Locator {
  readonly locate: (pointer: string) => { line: number; column: number }
  readonly lineColumn: (offset: number) => { line: number; column: number }
  /**
   * Announces the pointers about to be located (a failing file's diagnostics): one scan records
   * where those and their ancestors start, instead of an index of every value of the document
   * (a pointer string and a map entry per value: most of the error path's time on a large file).
   * Answers are the same either way; a pointer not announced still gets the whole index.
   */
  readonly prepare: (pointers: Iterable<string>) => void
  /**
   * Where the KEY of the object member at `pointer` starts (its opening quote): what a diagnostic
   * about the key itself (an unknown field) points at. Falls back to {@link Locator.locate} for a
   * pointer that is not an object member.
   */
  readonly locateKey: (pointer: string) => { line: number; column: number }
}

/** The index entry of where the key of the member at a pointer starts (pointers start with "/" or are ""). */
const keyEntry = (pointer: string): string => `\u0000${pointer}`

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

/** Parses bytes or text into a JSON document, or the first problem as a diagnostic. */
export const parseJson = (
  input: string | Uint8Array,
  options: JsonOptions = {}
): Either.Either<JsonDocument, Diagnostic> => {
  const file = options.file
  const maxBytes = options.maxBytes ?? Limits.inputBytes
  let text: string
  if (typeof input === "string") {
    if (input.length > maxBytes) return Either.left(tooLarge(input.length, maxBytes, file))
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  } else {
    if (input.byteLength > maxBytes) return Either.left(tooLarge(input.byteLength, maxBytes, file))
    const decoded = decodeUtf8(input)
    if (typeof decoded !== "string") {
      const { line, column } = lineColumnOfBytes(input, decoded.offset)
      return Either.left(
        diagnostic("invalid_utf8", `invalid UTF-8 byte sequence at byte ${decoded.offset}`, {
          file,
          path: "",
          line,
          column
        })
      )
    }
    text = decoded
  }
  const parser = new Parser(text, file, options.maxDepth ?? Limits.inputDepth, undefined)
  const result = parser.parseDocument()
  return result === FAILED
    ? Either.left(parser.failure as Diagnostic)
    : Either.right({ value: result, text, file, locator: makeLocator(text) })
}

/** The diagnostic for an input over the byte cap. */
export const tooLarge = (size: number, max: number, file: string | undefined): Diagnostic =>
  diagnostic("file_too_large", `input is ${size} bytes; the cap is ${max} bytes`, {
    file,
    path: "",
    line: 1,
    column: 1,
    details: { size, limit: max, actual: size }
  })

/**
 * Where a JSON pointer starts in a document's text, as 1-based line and
 * column. Falls back to the nearest existing ancestor, then to 1:1. Uses the
 * document's own locator when it has one (a parsed document does), so the
 * diagnostics of one file share one position index; a bare `{ text }` gets a
 * locator for this call.
 */
export const locate = (
  doc: Pick<JsonDocument, "text"> & { readonly locator?: Locator },
  pointer: string
): { line: number; column: number } => (doc.locator ?? makeLocator(doc.text)).locate(pointer)

/** A locator for `text`; its position index (re-parsing with position tracking) is built on first use. */
export const makeLocator = (text: string): Locator => {
  let pointers: Map<string, number> | undefined
  // Announced pointers and every ancestor of theirs (scanned), and where those that exist start.
  const scanned = new Set<string>()
  const found = new Map<string, number>()
  let lineStarts: ReadonlyArray<number> | undefined
  const starts = (): ReadonlyArray<number> => {
    if (lineStarts === undefined) {
      const out = [0]
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) out.push(i + 1)
      lineStarts = out
    }
    return lineStarts
  }
  const at = (offset: number): { line: number; column: number } => {
    const s = starts()
    let lo = 0
    let hi = s.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((s[mid] as number) <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - (s[lo] as number) + 1 }
  }
  /**
   * Where the value at `pointer`, or else its nearest ancestor in `index`, starts (the document's start
   * for none); undefined when the walk leaves `within` (pointers whose ancestors were all scanned) first.
   */
  const nearest = (
    index: ReadonlyMap<string, number>,
    pointer: string,
    within?: ReadonlySet<string>
  ): { line: number; column: number } | undefined => {
    for (let p = pointer; within === undefined || within.has(p); p = p.slice(0, p.lastIndexOf("/"))) {
      const offset = index.get(p)
      if (offset !== undefined) return at(offset)
      if (p === "") return { line: 1, column: 1 }
    }
    return undefined
  }
  const locate = (pointer: string): { line: number; column: number } => {
    if (pointers === undefined) {
      const announced = nearest(found, pointer, scanned)
      if (announced !== undefined) return announced
      pointers = new Map<string, number>()
      new Parser(text, undefined, Number.MAX_SAFE_INTEGER, pointers).parseDocument()
    }
    return nearest(pointers, pointer) ?? { line: 1, column: 1 }
  }
  return {
    lineColumn: at,
    prepare: (announced) => {
      if (pointers !== undefined) return
      const wanted = new Set<string>()
      for (const pointer of announced) {
        let p = pointer
        while (!scanned.has(p) && !wanted.has(p)) {
          wanted.add(p)
          if (p === "") break
          p = p.slice(0, p.lastIndexOf("/"))
        }
      }
      if (wanted.size === 0) return
      new Parser(text, undefined, Number.MAX_SAFE_INTEGER, found, wanted).parseDocument()
      for (const p of wanted) scanned.add(p)
    },
    locate,
    locateKey: (pointer) => {
      const value = locate(pointer)
      const key = (pointers ?? found).get(keyEntry(pointer))
      return key === undefined ? value : at(key)
    }
  }
}

/** 1-based line and column (UTF-16 code units) of an offset in text (one scan; a {@link Locator} indexes lines once). */
export const lineColumn = (text: string, offset: number): { line: number; column: number } => {
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}

/** Escapes one JSON pointer segment (RFC 6901). */
export const pointerSegment = (key: string | number): string =>
  typeof key === "number"
    ? String(key)
    : key.includes("~") || key.includes("/")
    ? key.replace(/~/g, "~0").replace(/\//g, "~1")
    : key

/** Builds a JSON pointer from path segments. */
export const toPointer = (segments: ReadonlyArray<string | number | symbol>): string => {
  let out = ""
  for (const s of segments) out += "/" + pointerSegment(typeof s === "symbol" ? String(s) : s)
  return out
}

const FAILED: unique symbol = Symbol("FAILED")

class Parser {
  i = 0
  depth = 0
  failure: Diagnostic | undefined
  readonly path: Array<string | number> = []
  /**
   * With `positions`: the pointer of each open value, so a child's is its parent's plus one segment;
   * undefined for a value outside `wanted` (its subtree is not recorded).
   */
  readonly pointers: Array<string | undefined> = [""]

  constructor(
    readonly text: string,
    readonly file: string | undefined,
    readonly maxDepth: number,
    readonly positions: Map<string, number> | undefined,
    /** The pointers to record (with every ancestor of each); all when undefined. */
    readonly wanted?: ReadonlySet<string> | undefined
  ) {}

  /** The pointer of an open value's child, when it is recorded. */
  child(segment: string | number): string | undefined {
    const parent = this.pointers[this.pointers.length - 1]
    if (parent === undefined) return undefined
    const p = `${parent}/${typeof segment === "number" ? String(segment) : pointerSegment(segment)}`
    return this.wanted === undefined || this.wanted.has(p) ? p : undefined
  }

  parseDocument(): JsonValue | typeof FAILED {
    this.ws()
    if (this.i >= this.text.length) {
      return this.fail("empty_file", "the file is empty", 0)
    }
    const v = this.value()
    if (v === FAILED) return FAILED
    this.ws()
    if (this.i < this.text.length) return this.fail("json_syntax", "unexpected content after the JSON value", this.i)
    return v
  }

  fail(
    code: DiagnosticCode,
    message: string,
    offset: number,
    details?: Record<string, number | string>
  ): typeof FAILED {
    const { line, column } = lineColumn(this.text, offset)
    this.failure = diagnostic(code, message, {
      file: this.file,
      path: toPointer(this.path),
      line,
      column,
      details
    })
    return FAILED
  }

  ws(): void {
    const t = this.text
    let i = this.i
    for (;;) {
      const c = t.charCodeAt(i)
      if (c === 32 || c === 10 || c === 13 || c === 9) i++
      else break
    }
    this.i = i
  }

  value(): JsonValue | typeof FAILED {
    if (this.positions !== undefined) {
      const p = this.pointers[this.pointers.length - 1]
      if (p !== undefined) this.positions.set(p, this.i)
    }
    const c = this.text.charCodeAt(this.i)
    switch (c) {
      case 123: // {
        return this.object()
      case 91: // [
        return this.array()
      case 34: // "
        return this.string()
      case 116: // t
        return this.literal("true", true)
      case 102: // f
        return this.literal("false", false)
      case 110: // n
        return this.literal("null", null)
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number()
        if (Number.isNaN(c)) return this.fail("json_syntax", "unexpected end of input", this.i)
        return this.fail("json_syntax", `unexpected character ${JSON.stringify(this.text[this.i])}`, this.i)
    }
  }

  enter(): boolean {
    if (++this.depth > this.maxDepth) {
      this.fail("depth_limit", `nesting deeper than ${this.maxDepth} levels`, this.i, {
        limit: this.maxDepth,
        actual: this.depth
      })
      return false
    }
    return true
  }

  object(): JsonValue | typeof FAILED {
    if (!this.enter()) return FAILED
    this.i++
    const out: Record<string, JsonValue> = {}
    this.ws()
    if (this.text.charCodeAt(this.i) === 125) {
      this.i++
      this.depth--
      return out
    }
    for (;;) {
      this.ws()
      if (this.text.charCodeAt(this.i) !== 34) return this.fail("json_syntax", "expected a string key", this.i)
      const keyStart = this.i
      const key = this.string()
      if (key === FAILED) return FAILED
      this.path.push(key)
      if (FORBIDDEN_KEYS.has(key)) {
        return this.fail("forbidden_key", `the key ${JSON.stringify(key)} is not allowed`, keyStart)
      }
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        return this.fail("duplicate_key", `the key ${JSON.stringify(key)} appears more than once`, keyStart)
      }
      this.ws()
      if (this.text.charCodeAt(this.i) !== 58) return this.fail("json_syntax", "expected ':' after a key", this.i)
      this.i++
      this.ws()
      if (this.positions !== undefined) {
        const p = this.child(key)
        this.pointers.push(p)
        if (p !== undefined) this.positions.set(keyEntry(p), keyStart)
      }
      const v = this.value()
      if (v === FAILED) return FAILED
      out[key] = v
      this.path.pop()
      if (this.positions !== undefined) this.pointers.pop()
      this.ws()
      const c = this.text.charCodeAt(this.i)
      if (c === 44) {
        this.i++
        continue
      }
      if (c === 125) {
        this.i++
        this.depth--
        return out
      }
      return this.fail("json_syntax", "expected ',' or '}' in an object", this.i)
    }
  }

  array(): JsonValue | typeof FAILED {
    if (!this.enter()) return FAILED
    this.i++
    const out: Array<JsonValue> = []
    this.ws()
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++
      this.depth--
      return out
    }
    for (let index = 0;; index++) {
      this.ws()
      this.path.push(index)
      if (this.positions !== undefined) this.pointers.push(this.child(index))
      const v = this.value()
      if (v === FAILED) return FAILED
      out.push(v)
      this.path.pop()
      if (this.positions !== undefined) this.pointers.pop()
      this.ws()
      const c = this.text.charCodeAt(this.i)
      if (c === 44) {
        this.i++
        continue
      }
      if (c === 93) {
        this.i++
        this.depth--
        return out
      }
      return this.fail("json_syntax", "expected ',' or ']' in an array", this.i)
    }
  }

  string(): string | typeof FAILED {
    const t = this.text
    const start = ++this.i
    let i = start
    // Fast path: no escapes.
    for (;;) {
      const c = t.charCodeAt(i)
      if (c === 34) {
        this.i = i + 1
        return t.slice(start, i)
      }
      if (c === 92) break
      if (c < 32 || Number.isNaN(c)) {
        return Number.isNaN(c)
          ? this.fail("json_syntax", "unterminated string", start - 1)
          : this.fail("json_syntax", "control character in a string", i)
      }
      i++
    }
    let out = t.slice(start, i)
    for (;;) {
      const c = t.charCodeAt(i)
      if (Number.isNaN(c)) return this.fail("json_syntax", "unterminated string", start - 1)
      if (c === 34) {
        this.i = i + 1
        return out
      }
      if (c < 32) return this.fail("json_syntax", "control character in a string", i)
      if (c !== 92) {
        out += t[i]
        i++
        continue
      }
      const e = t.charCodeAt(i + 1)
      switch (e) {
        case 34:
          out += "\""
          break
        case 92:
          out += "\\"
          break
        case 47:
          out += "/"
          break
        case 98:
          out += "\b"
          break
        case 102:
          out += "\f"
          break
        case 110:
          out += "\n"
          break
        case 114:
          out += "\r"
          break
        case 116:
          out += "\t"
          break
        case 117: {
          const hex = t.slice(i + 2, i + 6)
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.fail("json_syntax", "invalid \\u escape", i)
          out += String.fromCharCode(parseInt(hex, 16))
          i += 4
          break
        }
        default:
          return this.fail("json_syntax", "invalid escape in a string", i)
      }
      i += 2
    }
  }

  number(): number | typeof FAILED {
    const t = this.text
    const start = this.i
    let i = start
    let integral = true
    if (t.charCodeAt(i) === 45) i++
    const firstDigit = t.charCodeAt(i)
    if (firstDigit === 48) i++
    else if (firstDigit >= 49 && firstDigit <= 57) { while (isDigit(t.charCodeAt(i))) i++ }
    else return this.fail("json_syntax", "invalid number", start)
    if (t.charCodeAt(i) === 46) {
      integral = false
      i++
      if (!isDigit(t.charCodeAt(i))) return this.fail("json_syntax", "invalid number", start)
      while (isDigit(t.charCodeAt(i))) i++
    }
    const e = t.charCodeAt(i)
    if (e === 101 || e === 69) {
      integral = false
      i++
      const s = t.charCodeAt(i)
      if (s === 43 || s === 45) i++
      if (!isDigit(t.charCodeAt(i))) return this.fail("json_syntax", "invalid number", start)
      while (isDigit(t.charCodeAt(i))) i++
    }
    const literal = t.slice(start, i)
    const n = Number(literal)
    if (!Number.isFinite(n)) {
      return this.fail("unsafe_number", `the number ${literal} is not finite`, start)
    }
    if (Math.abs(n) > Number.MAX_SAFE_INTEGER || (integral && !Number.isSafeInteger(n))) {
      return this.fail("unsafe_number", `the number ${literal} is outside the safe-integer range`, start)
    }
    this.i = i
    return n
  }

  literal<V extends JsonValue>(word: string, v: V): V | typeof FAILED {
    if (this.text.startsWith(word, this.i)) {
      this.i += word.length
      return v
    }
    return this.fail("json_syntax", `unexpected token`, this.i)
  }
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Decodes UTF-8 (dropping a BOM), or gives the offset of the first invalid byte. */
const decodeUtf8 = (bytes: Uint8Array): string | { offset: number } => {
  try {
    return utf8.decode(bytes)
  } catch {
    return { offset: firstInvalidUtf8(bytes) }
  }
}

/** Offset of the first byte that starts an invalid UTF-8 sequence. */
export const firstInvalidUtf8 = (b: Uint8Array): number => {
  let i = 0
  while (i < b.length) {
    const c = b[i] as number
    let n = 0
    let min = 0
    if (c < 0x80) {
      i++
      continue
    } else if (c >= 0xc2 && c <= 0xdf) {
      n = 1
      min = 0x80
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2
      min = 0x800
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3
      min = 0x10000
    } else return i
    if (i + n >= b.length) return i
    let cp = c & (0x3f >> n)
    for (let k = 1; k <= n; k++) {
      const cc = b[i + k] as number
      if ((cc & 0xc0) !== 0x80) return i
      cp = (cp << 6) | (cc & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i
    i += n + 1
  }
  return b.length
}

const lineColumnOfBytes = (bytes: Uint8Array, offset: number): { line: number; column: number } => {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}
