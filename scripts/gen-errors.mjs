import fs from "node:fs"
const src = fs.readFileSync("src/kernel/DiagnosticCode.ts", "utf8")
const rows = [
  ...src.matchAll(
    /^\s+(\w+): \{\s*tag: "(\w+)",\s*domain: "(\w+)",\s*meaning: "([^"]*)",?(?:\s*limit: "\w+",?)?(?:\s*status: \d+,?)?\s*\}/gm
  )
]
let out = `/**
 * One \`Schema.TaggedError\` class per diagnostic code, one-to-one with
 * {@link DiagnosticCodeTable}: the class's \`_tag\` is the table's tag and its
 * \`code\` field is the code. Callers match on \`_tag\` (or \`code\`), never on
 * message text. \`errorFromDiagnostic\` and \`diagnosticFromError\` are total.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { type Diagnostic, DiagnosticContextFields, diagnostic } from "./Diagnostic.js"
import { type DiagnosticCode, DiagnosticCodeTable } from "./DiagnosticCode.js"

const fields = {
  message: Schema.String,
  ...DiagnosticContextFields
}

`
for (const [, code, tag, , meaning] of rows) {
  out +=
    `/** \`${code}\`: ${meaning} */\nexport class ${tag} extends Schema.TaggedError<${tag}>()("${tag}", { code: Schema.tag("${code}"), ...fields }) {}\n`
}
out += `
/** The error class of every code. */
export const errorClassByCode = {
${rows.map(([, code, tag]) => `  ${code}: ${tag}`).join(",\n")}
} as const satisfies { readonly [C in DiagnosticCode]: unknown }

/** The union of every cardfx error. */
export type CardfxError = InstanceType<(typeof errorClassByCode)[DiagnosticCode]>

/** The error class carrying code \`C\`. */
export type ErrorOf<C extends DiagnosticCode> = InstanceType<(typeof errorClassByCode)[C]>

type ErrorInit = ConstructorParameters<typeof TransformationInvalid>[0]

/** Builds the tagged error for a diagnostic (total over codes). */
export const errorFromDiagnostic = <C extends DiagnosticCode>(d: Diagnostic & { readonly code: C }): ErrorOf<C> => {
  const Ctor = errorClassByCode[d.code] as unknown as new (init: ErrorInit) => ErrorOf<C>
  const { code: _code, severity: _severity, ...init } = d
  return new Ctor(init)
}

/** The diagnostic an error stands for. */
export const diagnosticFromError = (e: CardfxError): Diagnostic => {
  const { _tag, code, message, ...context } = e
  return diagnostic(code, message, context)
}

const tags: ReadonlySet<string> = new Set(Object.values(DiagnosticCodeTable).map((entry) => entry.tag))

/** True for any cardfx tagged error. */
export const isCardfxError = (u: unknown): u is CardfxError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && tags.has(u._tag) && "code" in u
`
fs.writeFileSync("src/kernel/Errors.ts", out)
console.log(rows.length)
