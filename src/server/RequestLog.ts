/**
 * The server's log sink: Effect's JSON log lines (`Logger.jsonLogger`, one
 * object a line) and the door's access log lines (plain JSON strings, no
 * Effect logger in a request's path) written in batches — one write per turn of the event loop
 * (or per 256 lines) instead of one per line. Standard output is usually a
 * pipe, which Node writes synchronously on Linux: a write per request was
 * a blocking system call in every request's path.
 *
 * @since 0.1.0
 */
import { Logger } from "effect"
import type { BatchedLog } from "../services/Serving.js"

export type { BatchedLog }

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
  const line = (text: string) => {
    lines.push(text)
    if (lines.length >= BATCH_LINES) flush()
    else if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
  const logger = Logger.make<unknown, void>((options) => line(Logger.jsonLogger.log(options)))
  return { logger, line, flush }
}
