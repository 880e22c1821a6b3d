/**
 * The validator's report: every diagnostic with file, JSON pointer, line and
 * column, plus the paths the field pass already explained, so a Schema issue
 * under such a path is dropped and one mistake gives one diagnostic.
 *
 * @since 0.1.0
 */
import { MISSING_FIELD } from "../../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../../kernel/DiagnosticCode.js"
import { type JsonDocument, locate, pointerSegment } from "../../kernel/Json.js"

export interface Where {
  readonly cardCode?: string | undefined
  readonly effectId?: string | undefined
  readonly subject?: string | undefined
}

export class Report {
  readonly diagnostics: Array<Diagnostic> = []
  readonly covered: Array<string> = []
  constructor(readonly doc: JsonDocument) {}

  add(code: DiagnosticCode, message: string, path: string, where: Where = {}, cover = false): void {
    const { line, column } = locate(this.doc, path)
    this.diagnostics.push(
      diagnostic(code, message, {
        file: this.doc.file,
        path,
        line,
        column,
        cardCode: where.cardCode,
        effectId: where.effectId,
        subject: where.subject
      })
    )
    if (cover) this.covered.push(path)
  }

  /**
   * Schema diagnostics not under a path the raw pass already explained, one
   * line per mistake: a union whose members all fail reports each member's
   * failure, so a `schema_invalid` at a path is dropped when the same decode
   * found a problem strictly under that path (the member the value was meant
   * to be explains it). A missing key is `missing_field` at its record,
   * naming the field.
   */
  addSchema(ds: ReadonlyArray<Diagnostic>, where: Where = {}): void {
    const paths = ds.map((d) => d.path ?? "")
    ds.forEach((d, i) => {
      const p = paths[i] ?? ""
      if (this.covered.some((c) => p === c || p.startsWith(c + "/"))) return
      if (d.code === "schema_invalid" && paths.some((q) => q.startsWith(p + "/"))) return
      const w = {
        ...d,
        cardCode: where.cardCode ?? effectWhere(this.doc.value, p).cardCode,
        effectId: where.effectId ?? effectWhere(this.doc.value, p).effectId
      }
      // The kernel reports a missing key as "at <path>: missing field `key`", at the key's own path.
      if (d.code === "schema_invalid" && d.message.includes(`: ${MISSING_FIELD} \``)) {
        const parent = p.slice(0, p.lastIndexOf("/"))
        const key = unescapeSegment(p.slice(p.lastIndexOf("/") + 1))
        this.add("missing_field", missingField(key), parent, { ...w, subject: key })
        return
      }
      this.diagnostics.push(diagnostic(d.code, d.message, w, d.severity))
    })
  }
}

export const unescapeSegment = (s: string): string => s.replace(/~1/g, "/").replace(/~0/g, "~")

/** The one wording of a missing field, naming it. */
export const missingField = (field: string, why?: string): string =>
  `missing field \`${field}\`${why === undefined ? "" : ` (${why})`}`

/** Reports each required field `record` lacks at `path` (covering the field's own path), or nothing when it is not an object. */
export const requireFields = (
  record: unknown,
  fields: ReadonlyArray<string>,
  why: string,
  path: string,
  where: Where,
  r: Report
): void => {
  if (!isObject(record)) return
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(record, f)) {
      r.add("missing_field", missingField(f, why), path, { ...where, subject: f })
      r.covered.push(`${path}/${pointerSegment(f)}`)
    }
  }
}

export type Obj = Record<string, unknown>
export const isObject = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** Card code and effect ID of the card/effect a pointer points into. */
export const effectWhere = (raw: unknown, path: string): Where => {
  const m = /^\/cards\/(\d+)(?:\/effects\/(\d+))?/.exec(path)
  if (m === null || !isObject(raw) || !Array.isArray(raw["cards"])) return {}
  const card: unknown = raw["cards"][Number(m[1])]
  if (!isObject(card)) return {}
  const cardCode = typeof card["code"] === "string" ? card["code"] : undefined
  if (m[2] === undefined || !Array.isArray(card["effects"])) return { cardCode }
  const effect: unknown = card["effects"][Number(m[2])]
  return { cardCode, effectId: isObject(effect) && typeof effect["id"] === "string" ? effect["id"] : undefined }
}
