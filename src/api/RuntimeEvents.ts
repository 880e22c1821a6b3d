/**
 * The runtime-change stream's document (`GET /v1/runtime/events`): what the
 * server serves now and the last reload's rejection, one server-sent event
 * each time a reload switches or is rejected (`cardfx serve --watch`'s and
 * `POST /v1/admin/reload`'s alike). The workbench page follows it to redraw
 * from the new content without a reload and to show a rejected save's
 * diagnostics until a good save replaces them.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Diagnostic } from "../kernel/Diagnostic.js"
import { RuntimeInfo } from "./Documents.js"

/** A reload that did not switch: its code and message, and each diagnostic (file, line, column, code, message). */
export const RejectedReload = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  diagnostics: Schema.Array(Diagnostic)
})

/** One `event: runtime` of the stream. */
export const ServedState = Schema.Struct({
  runtime: RuntimeInfo,
  /** The last reload's rejection, while no reload has switched since; null otherwise. */
  rejected: Schema.NullOr(RejectedReload)
})
export type ServedState = typeof ServedState.Type

/** `?once=true`: end the stream after the first event (the current state): a one-shot read for scripts. */
export const RuntimeEventsParams = Schema.Struct({
  once: Schema.optional(Schema.Literal("true", "false"))
})
