/**
 * How cluster members log: Effect's JSON log lines (`Logger.jsonLogger`'s
 * fields) on standard error, one object a line, the cause as its message
 * only (no stack trace). Standard output stays the command's own (a runner's
 * one `{"event":"runner",...}` line, a client's summary). `@effect/cluster`
 * logs assignments at Info; members keep warnings and errors.
 *
 * @since 0.1.0
 */
import { Cause, Layer, Logger, LogLevel } from "effect"

/** The first line of each failure in a cause (a timeout's message, a SQL error's), without stack traces. */
const causeText = (cause: Cause.Cause<unknown>): string | undefined => {
  if (Cause.isEmpty(cause)) return undefined
  const lines = Cause.prettyErrors(cause).map((e) => e.message.split("\n")[0] ?? "")
  return lines.length > 0 ? lines.join("; ") : Cause.isInterruptedOnly(cause) ? "interrupted" : undefined
}

/** One JSON line per log entry. */
export const jsonLine = (options: Logger.Logger.Options<unknown>): string => {
  const entry = Logger.structuredLogger.log(options)
  const cause = causeText(options.cause)
  return JSON.stringify({
    timestamp: entry.timestamp,
    logLevel: entry.logLevel,
    message: entry.message,
    ...(cause !== undefined ? { cause } : {}),
    ...(Object.keys(entry.annotations).length > 0 ? { annotations: entry.annotations } : {}),
    fiberId: entry.fiberId
  })
}

/** The logger: JSON lines on stderr. */
export const logger: Logger.Logger<unknown, void> = Logger.make((options) => {
  process.stderr.write(`${jsonLine(options)}\n`)
})

/** Replaces the default (pretty, stdout) logger of a cluster member: JSON on stderr, from `level` up. */
export const layerAt = (level: LogLevel.LogLevel): Layer.Layer<never> =>
  Layer.mergeAll(
    Logger.replace(Logger.defaultLogger, logger),
    // The runtime's pretty logger (NodeRuntime.runMain installs it) writes to stdout.
    Logger.remove(Logger.prettyLoggerDefault),
    Logger.minimumLogLevel(level)
  )

/** A runner's logging: JSON lines on stderr, warnings and errors. */
export const layer: Layer.Layer<never> = layerAt(LogLevel.Warning)
