/**
 * The server's log sink: Effect's JSON log lines (`Logger.jsonLogger`, one
 * object a line) written in batches — one write per turn of the event loop
 * (or per 256 lines) instead of one per line. Standard output is usually a
 * pipe, which Node writes synchronously on Linux: a write per request was
 * a blocking system call in every request's path.
 *
 * @since 0.1.0
 */
import { Logger } from "effect"

export interface BatchedLog {
  /** The logger (install with `Logger.replace(Logger.defaultLogger, logger)`). */
  readonly logger: Logger.Logger<unknown, void>
  /** Writes the lines not yet written (the command calls it before it exits). */
  readonly flush: () => void
}

const BATCH_LINES = 256

/** A JSON-lines logger writing to `write` in batches. */
export const batchedJsonLog = (write: (chunk: string) => void): BatchedLog => {
  let lines: Array<string> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (lines.length === 0) return
    const chunk = `${lines.join("\n")}\n`
    lines = []
    write(chunk)
  }
  const logger = Logger.make<unknown, void>((options) => {
    lines.push(Logger.jsonLogger.log(options))
    if (lines.length >= BATCH_LINES) flush()
    else if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  })
  return { logger, flush }
}
