/**
 * A tolerant JSON scanner for the editor: every value and every property key
 * of a document with its JSON pointer and its offsets, even while the text is
 * being typed (it stops at the first syntax error and keeps what it read).
 * The hardened parser (kernel/Json.ts) decides validity; this only answers
 * "what is at this offset" and "where is this value". Pure.
 *
 * @since 0.1.0
 */

/** A value (or, with `key`, a property name) at a JSON pointer, with its offsets [start, end). */
export interface Node {
  readonly pointer: string
  /** The pointer's segments (array indexes as numbers). */
  readonly segments: ReadonlyArray<string | number>
  readonly start: number
  readonly end: number
  readonly kind: "object" | "array" | "string" | "number" | "literal" | "key"
  /** For strings and keys: the decoded text. */
  readonly text?: string
}

export interface Scan {
  /** Values and keys in document order (a container before its members). */
  readonly nodes: ReadonlyArray<Node>
  /** The parsed value, as far as it could be read (undefined when nothing could). */
  readonly value: unknown
}

const segment = (s: string | number): string => String(s).replace(/~/g, "~0").replace(/\//g, "~1")

/** Scans a JSON text. */
export const scanJson = (text: string): Scan => {
  const nodes: Array<Node> = []
  let i = 0
  // The first syntax error stops the scan; what was read so far stays.
  let ok = true
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] ?? "")) i++
  }
  const str = (): string => {
    if (text[i] !== "\"") {
      ok = false
      return ""
    }
    i++
    let out = ""
    while (i < text.length && text[i] !== "\"" && text[i] !== "\n") {
      if (text[i] === "\\") {
        const c = text[i + 1]
        if (c === "u") {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
          i += 6
        } else {
          out += c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : c === "b" ? "\b" : c === "f" ? "\f" : c ?? ""
          i += 2
        }
      } else out += text[i++]
    }
    if (text[i] !== "\"") ok = false
    else i++
    return out
  }
  const value = (segments: ReadonlyArray<string | number>): unknown => {
    ws()
    const pointer = segments.map((s) => `/${segment(s)}`).join("")
    const start = i
    const c = text[i]
    if (c === "{" || c === "[") {
      const at = nodes.length
      const kind = c === "{" ? "object" : "array"
      nodes.push({ pointer, segments, start, end: start, kind })
      i++
      const obj: Record<string, unknown> = {}
      const arr: Array<unknown> = []
      const close = c === "{" ? "}" : "]"
      ws()
      if (text[i] === close) i++
      else {
        for (let n = 0; ok; n++) {
          ws()
          if (kind === "object") {
            const keyStart = i
            const key = str()
            if (!ok) break
            nodes.push({
              pointer: `${pointer}/${segment(key)}`,
              segments: [...segments, key],
              start: keyStart,
              end: i,
              kind: "key",
              text: key
            })
            ws()
            if (text[i] !== ":") {
              ok = false
              break
            }
            i++
            obj[key] = value([...segments, key])
          } else arr.push(value([...segments, n]))
          if (!ok) break
          ws()
          if (text[i] === ",") {
            i++
            continue
          }
          if (text[i] === close) {
            i++
            break
          }
          ok = false
        }
      }
      nodes[at] = { pointer, segments, start, end: i, kind }
      return kind === "object" ? obj : arr
    }
    if (c === "\"") {
      const s = str()
      nodes.push({ pointer, segments, start, end: i, kind: "string", text: s })
      return s
    }
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64))
    if (m === null) {
      ok = false
      return undefined
    }
    const token = m[0]
    i += token.length
    const isNumber = /^-?\d/.test(token)
    nodes.push({ pointer, segments, start, end: i, kind: isNumber ? "number" : "literal" })
    return isNumber ? Number(token) : token === "true" ? true : token === "false" ? false : null
  }
  return { nodes, value: value([]) }
}

/** The innermost node whose range holds the offset (keys and scalars before containers). */
export const nodeAt = (scan: Scan, offset: number): Node | undefined => {
  let best: Node | undefined
  for (const n of scan.nodes) {
    if (offset < n.start || offset > n.end) continue
    if (best === undefined || n.end - n.start <= best.end - best.start) best = n
  }
  return best
}

/** The value node at a pointer. */
export const nodeAtPointer = (scan: Scan, pointer: string): Node | undefined =>
  scan.nodes.find((n) => n.pointer === pointer && n.kind !== "key")

/** Zero-based line and character (UTF-16 code units) of an offset. */
export const positionOf = (text: string, offset: number): { line: number; character: number } => {
  let line = 0
  let lineStart = 0
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === "\n") {
      line++
      lineStart = k + 1
    }
  }
  return { line, character: offset - lineStart }
}

/** The offset of a zero-based line and character. */
export const offsetOf = (text: string, position: { line: number; character: number }): number => {
  let line = 0
  let k = 0
  while (line < position.line && k < text.length) {
    if (text[k] === "\n") line++
    k++
  }
  return Math.min(text.length, k + position.character)
}

/**
 * Where the thing a diagnostic points at ends: from `start` (an offset where
 * a value or, with `key`, a property key starts) to the end of that value or
 * key, on its first line only (a whole object or array is long); at least one
 * character. The same range for the editor (LSP) and for SARIF regions.
 */
export const extentEnd = (text: string, scan: Scan, start: number, key = false): number => {
  const node = scan.nodes.find((n) => n.start === start && (n.kind === "key") === key) ?? nodeAt(scan, start)
  let end = node !== undefined && node.start === start ? node.end : text.indexOf("\n", start)
  if (end < 0) end = text.length
  if (end <= start) end = Math.min(text.length, start + 1)
  const newline = text.indexOf("\n", start)
  if (newline >= 0 && newline < end) end = newline
  return Math.max(end, Math.min(text.length, start + 1))
}
