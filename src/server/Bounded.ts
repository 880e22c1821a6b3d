/**
 * Error answers of bounded size, whatever the request: a message quotes at
 * most a short prefix of an offending value (a 1 MB `actionId` once came back
 * twice, as a 2 MB 400), a diagnostic's `details` past a few KiB are dropped
 * (`{truncated: 1}`), and an answer lists at most {@link MAX_DIAGNOSTICS}
 * diagnostics (the count of the rest in the last one's place).
 *
 * @since 0.1.0
 */
import { type Diagnostic, diagnostic } from "../services/index.js"

/** The longest message an error answer carries (characters). */
export const MAX_MESSAGE = 512
/** The most diagnostics one error answer lists. */
export const MAX_DIAGNOSTICS = 100
const MAX_DETAILS = 4096

/** A message cut to {@link MAX_MESSAGE} characters, saying how much was left out. */
export const boundedMessage = (message: string): string =>
  message.length <= MAX_MESSAGE
    ? message
    : `${message.slice(0, MAX_MESSAGE)}… (${message.length - MAX_MESSAGE} more characters)`

const boundedDiagnostic = (d: Diagnostic): Diagnostic => {
  const message = boundedMessage(d.message)
  const details = d.details !== undefined && JSON.stringify(d.details).length > MAX_DETAILS
    ? { truncated: 1 }
    : d.details
  const subject = d.subject !== undefined && d.subject.length > MAX_MESSAGE ? boundedMessage(d.subject) : d.subject
  if (message === d.message && details === d.details && subject === d.subject) return d
  return { ...d, message, ...(details === undefined ? {} : { details }), ...(subject === undefined ? {} : { subject }) }
}

/** The diagnostics of an error answer, each bounded, at most {@link MAX_DIAGNOSTICS} of them. */
export const boundedDiagnostics = (ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> => {
  const out = ds.slice(0, MAX_DIAGNOSTICS).map(boundedDiagnostic)
  if (ds.length > MAX_DIAGNOSTICS) {
    const last = ds[MAX_DIAGNOSTICS] ?? ds[0]
    out[MAX_DIAGNOSTICS - 1] = diagnostic(
      last?.code ?? "internal_error",
      `${ds.length - MAX_DIAGNOSTICS + 1} more diagnostics not listed`,
      {},
      last?.severity ?? "error"
    )
  }
  return out
}
