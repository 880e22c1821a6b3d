/**
 * What every cardfx error class is made of: the message, the diagnostic
 * context fields and every diagnostic of the failure (the `fields` of each
 * `Schema.TaggedError`), and how a class completes what it is built from.
 *
 * @since 0.1.0
 */
import type { Array as Arr, Cause } from "effect"
import { Schema } from "effect"
import {
  type Diagnostic,
  Diagnostic as DiagnosticSchema,
  diagnostic,
  type DiagnosticContext,
  DiagnosticContextFields
} from "../Diagnostic.js"
import { type DiagnosticCode, diagnosticCodes, DiagnosticCodeTable, type DiagnosticTag } from "../DiagnosticCode.js"

export const fields = {
  message: Schema.String,
  ...DiagnosticContextFields,
  /**
   * Every diagnostic of the failure, the one the error stands for first
   * (a failure keeps all of them, so no face has to go around a service to
   * get the rest).
   */
  diagnostics: Schema.NonEmptyArray(DiagnosticSchema)
}

/**
 * What an error is built from: its message and context, and optionally every
 * diagnostic of the failure (without them, the error's own diagnostic is the
 * only one).
 */
export interface ErrorProps extends DiagnosticContext {
  readonly message: string
  readonly diagnostics?: Arr.NonEmptyReadonlyArray<Diagnostic> | undefined
}

const contextKeys = Object.keys(DiagnosticContextFields) as ReadonlyArray<keyof DiagnosticContext>

export const complete = (code: DiagnosticCode, props: ErrorProps) => {
  if (props.diagnostics !== undefined) return { ...props, diagnostics: props.diagnostics }
  const context: Record<string, unknown> = {}
  for (const k of contextKeys) if (props[k] !== undefined) context[k] = props[k]
  return { ...props, diagnostics: [diagnostic(code, props.message, context)] as const }
}

/** The code → tag pairs of the table, turned around: the code a tag carries. */
type CodeByTag = { readonly [C in DiagnosticCode as (typeof DiagnosticCodeTable)[C]["tag"]]: C }

/** The code the error class of `Tag` carries (the table's row whose `tag` is `Tag`). */
export type CodeOfTag<Tag extends DiagnosticTag> = CodeByTag[Tag]

// The table read backwards, once. A tag is unique in the table (test/kernel/diagnostic-table.test.ts), so the pair
// built here is exactly `CodeByTag`; the one assertion of the error model says so.
const codeByTag = Object.fromEntries(diagnosticCodes.map((c) => [DiagnosticCodeTable[c].tag, c])) as CodeByTag

/** The fields of the error class of one code: the code as a literal tag, then the common {@link fields}. */
export type CodedFields<C extends DiagnosticCode> = { readonly code: Schema.tag<C> } & typeof fields

/** The struct of a coded error class, `_tag` included. */
export type CodedStruct<Tag extends DiagnosticTag> =
  & { readonly _tag: Schema.tag<Tag> }
  & CodedFields<CodeOfTag<Tag>>

/**
 * The class {@link CodedError} makes: a `Schema.TaggedError` whose `_tag` is
 * `Tag` and whose `code` is the table's code for it, constructed from
 * {@link ErrorProps} (the diagnostics default to the error's own).
 */
export interface CodedErrorClass<Self, Tag extends DiagnosticTag>
  extends Schema.TaggedErrorClass<Self, Tag, CodedStruct<Tag>>
{
  new(props: ErrorProps, options?: Schema.MakeOptions): Schema.Struct.Type<CodedStruct<Tag>> & Cause.YieldableError
}

/**
 * The one way an error class is made: from its tag, everything else follows
 * from the code table (the code, the fields, how the diagnostics are
 * completed). A code is listed once, in the table; its class is the line
 *
 * ```ts
 * export class Tag extends CodedError<Tag>()("Tag") {} // Tag: a tag of the table
 * ```
 *
 * and the code → class map and the typed makers (`./Table.ts`) are computed
 * from the classes.
 *
 * @category constructors
 * @since 0.1.0
 */
export const CodedError = <Self = never>() => <Tag extends DiagnosticTag>(tag: Tag): CodedErrorClass<Self, Tag> => {
  const code: CodeOfTag<Tag> = codeByTag[tag]
  // `TaggedError<Self>()` answers a "missing Self" message type when `Self` is `never`; `Self` is a type parameter
  // here, which TypeScript cannot resolve, so the class is named by its type (every caller passes its own class).
  const Base = Schema.TaggedError<Self>()(tag, { code: Schema.tag(code), ...fields }) as Schema.TaggedErrorClass<
    Self,
    Tag,
    CodedStruct<Tag>
  >
  return class extends Base {
    constructor(props: ErrorProps, options?: Schema.MakeOptions) {
      super(complete(code, props), options)
    }
  }
}
