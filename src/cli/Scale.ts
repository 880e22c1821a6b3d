/**
 * Options and progress shared by the long-running commands (`simulate`,
 * `fuzz`, `validate`): `--workers N` and `--quiet`, and a progress line on
 * stderr — only when stderr is a TTY, not `--quiet`, and the work has run for
 * more than a second (done/total, rate, time left). The line is erased when
 * the work ends, so the terminal holds only the result.
 *
 * @since 0.1.0
 */
import { Effect, Option } from "effect"
import { defaultWorkers } from "../services/index.js"
import { usageError } from "./Exit.js"
import * as Options from "./Options.js"

export const workersOption = Options.integer("workers").pipe(
  Options.optional,
  Options.withDescription(
    "Threads working: this process's and N − 1 worker threads (default: the machine's available parallelism); 1 runs in this process only. The result is the same for any number."
  )
)

export const quietOption = Options.boolean("quiet").pipe(
  Options.withDescription("No progress line on stderr (default: shown on a TTY after a second).")
)

/** `--workers` resolved: its default, or a usage error (exit 2) when below 1. */
export const resolveWorkers = (workers: Option.Option<number>) => {
  const n = Option.getOrElse(workers, defaultWorkers)
  return n >= 1 && n <= 1024
    ? Effect.succeed(n)
    : Effect.fail(usageError(`--workers must be between 1 and 1024 (got ${n})`))
}

const duration = (seconds: number): string => {
  if (!Number.isFinite(seconds)) return "?"
  const s = Math.round(seconds)
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
    ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
    : `${s}s`
}

/** A progress reporter: `update(done, total)` as work completes, `end()` when it stops. */
export interface Progress {
  readonly update: (done: number, total: number) => void
  readonly end: () => void
}

/** The progress line's text. */
export const progressLine = (unit: string, done: number, total: number, elapsedMs: number): string => {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0
  const left = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY
  return `${done}/${total} ${unit}, ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s, ${duration(left)} left`
}

/** Progress on stderr when it is a TTY and not `quiet`, starting after a second; otherwise nothing. */
export const makeProgress = (unit: string, quiet: boolean): Progress => {
  const stream = process.stderr
  if (quiet || stream.isTTY !== true) return { update: () => undefined, end: () => undefined }
  // The clock paces the progress line only; it never reaches a result.
  // eslint-disable-next-line no-restricted-syntax
  const start = Date.now()
  let last = 0
  let shown = false
  return {
    update: (done, total) => {
      // eslint-disable-next-line no-restricted-syntax
      const now = Date.now()
      if (now - start < 1000 || (now - last < 200 && done < total)) return
      last = now
      shown = true
      stream.write(`\r\x1b[2K${progressLine(unit, done, total, now - start)}`)
    },
    end: () => {
      if (shown) stream.write("\r\x1b[2K")
    }
  }
}

/** Runs `work` with a progress reporter, erasing the line however the work ends (an interrupt included). */
export const withProgress = <A, E, R>(unit: string, quiet: boolean, work: (p: Progress) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => makeProgress(unit, quiet)),
    work,
    (p) => Effect.sync(() => p.end())
  )
