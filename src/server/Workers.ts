/**
 * `cardfx serve --workers N`: N processes answering one port, through
 * Node's `node:cluster`. The command's process is the *primary*: it serves
 * no request; it forks the workers (each runs the same command line and
 * serves as `cardfx serve` does, on the shared listening socket — the
 * primary accepts and hands connections round-robin), and is the one
 * voice of the server:
 *
 * - **one log**: workers write their log lines (access log and events) to
 *   the standard output they share with the primary, in whole-line writes
 *   of at most `PIPE_BUF` bytes (atomic on a pipe: lines never interleave);
 * - **one health**: the primary keeps every worker's state (`starting`,
 *   `ok`, `down`, its pid, its restarts) and sends the table to every worker
 *   on each change; `GET /v1/health`, whichever worker answers, lists them
 *   all;
 * - **one start**: the first worker starts alone (it migrates the store and
 *   runs the start check), then the others; the `listening` line is printed
 *   once all listen. A worker that cannot start ends the command with its
 *   exit status (its error line is its own, on the shared stderr);
 * - **one stop**: SIGTERM/SIGINT to the primary drains every worker (each as
 *   one server drains) and ends once all have exited (a worker still alive
 *   after 15 s is killed). A worker that dies while serving is replaced;
 *   workers end with the primary (Node's cluster exits a worker whose
 *   primary is gone);
 * - **steps**: on a SQLite store the primary relays the workers' step
 *   notices (src/services/StepBus.ts) to the other workers.
 *
 * @since 0.1.0
 */
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import cluster, { type Worker } from "node:cluster"
import { isIpcNotice } from "../services/StepBus.js"

/** One worker as `/v1/health` reports it. */
export interface WorkerHealth {
  /** The worker's slot, 1..N (a replacement keeps the slot of the worker it replaces). */
  readonly worker: number
  readonly pid: number
  readonly status: "starting" | "ok" | "down"
  /** Times the slot's worker was replaced after dying. */
  readonly restarts: number
}

/** The environment variable that gives a forked worker its slot. */
const SLOT_ENV = "CARDFX_SERVE_WORKER"

/** Messages between a worker and its primary (every one carries `cardfx`). */
type ToPrimary =
  | { readonly cardfx: "log"; readonly chunk: string }
  | { readonly cardfx: "listening"; readonly url: string }
type ToWorker = { readonly cardfx: "workers"; readonly workers: ReadonlyArray<WorkerHealth> }

const isMessage = <T extends { readonly cardfx: string }>(m: unknown, kind: T["cardfx"]): m is T =>
  typeof m === "object" && m !== null && "cardfx" in m && m.cardfx === kind

/** This process's slot when it is a worker of `serve --workers`; undefined in any other process. */
export const memberSlot: number | undefined = cluster.isWorker && process.env[SLOT_ENV] !== undefined
  ? Number(process.env[SLOT_ENV])
  : undefined

const toPrimary = (m: ToPrimary) => {
  if (process.connected) process.send?.(m)
}

/** Bytes a write to a pipe may hold and stay atomic (POSIX `PIPE_BUF` on Linux). */
const PIPE_BUF = 4096

/**
 * A worker's log lines, written to the standard output it shares with its
 * primary (the one log): in writes of whole lines of at most `PIPE_BUF`
 * bytes, so two workers' lines never interleave. (Sending them to the
 * primary over IPC cost the primary ~0.1 ms of CPU per request, measured.)
 * A line longer than `PIPE_BUF` goes through the primary.
 */
export const sendLog = (chunk: string): void => {
  let piece = ""
  let bytes = 0
  for (const line of chunk.split("\n")) {
    if (line === "") continue
    const size = Buffer.byteLength(line) + 1
    if (size > PIPE_BUF) {
      toPrimary({ cardfx: "log", chunk: `${line}\n` })
      continue
    }
    if (bytes + size > PIPE_BUF) {
      process.stdout.write(piece)
      piece = ""
      bytes = 0
    }
    piece += `${line}\n`
    bytes += size
  }
  if (piece !== "") process.stdout.write(piece)
}

/** A worker tells its primary it listens. */
export const sendListening = (url: string): void => toPrimary({ cardfx: "listening", url })

/** In a worker: every worker of the server, as its primary last said. */
export class ServerWorkers extends Context.Tag("cardfx/server/ServerWorkers")<ServerWorkers, {
  readonly table: () => ReadonlyArray<WorkerHealth>
}>() {
  /** Follows the primary's table (this worker alone, starting, until the first arrives). */
  static readonly layer: Layer.Layer<ServerWorkers> = Layer.scoped(
    ServerWorkers,
    Effect.gen(function*() {
      let table: ReadonlyArray<WorkerHealth> = [{
        worker: memberSlot ?? 1,
        pid: process.pid,
        status: "starting",
        restarts: 0
      }]
      const onMessage = (m: unknown) => {
        if (isMessage<ToWorker>(m, "workers")) table = m.workers
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => void process.on("message", onMessage)),
        () => Effect.sync(() => void process.off("message", onMessage))
      )
      return { table: () => table }
    })
  )
}

/** Why the workers could not start: a worker's exit status (it printed its own error line). */
export class WorkerStartFailed {
  readonly _tag = "WorkerStartFailed"
  constructor(readonly exitCode: number) {}
}

const STOP_TIMEOUT = Duration.seconds(15)

/**
 * Forks `count` workers of this command line on one port and answers the
 * URL once every one listens. Closing the scope drains them all.
 */
export const supervise = (o: {
  readonly count: number
  /** Where the one log goes (stdout). */
  readonly write: (chunk: string) => void
}): Effect.Effect<{ readonly url: string }, WorkerStartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const slots = new Map<number, { worker: Worker; health: WorkerHealth }>()
    let draining = false
    let started = false
    const logLine = (fields: Record<string, unknown>) =>
      o.write(`${JSON.stringify({ timestamp: new Date().toISOString(), ...fields })}\n`)
    const table = () => [...slots.values()].map((s) => s.health).sort((a, b) => a.worker - b.worker)
    const broadcast = () => {
      const m: ToWorker = { cardfx: "workers", workers: table() }
      for (const s of slots.values()) if (s.worker.isConnected()) s.worker.send(m)
    }
    const setHealth = (slot: number, change: Partial<WorkerHealth>) => {
      const s = slots.get(slot)
      if (s === undefined) return
      s.health = { ...s.health, ...change }
      broadcast()
    }
    /** Forks the worker of `slot`; resolves with its URL once it listens, or with its exit status. */
    const fork = (slot: number, restarts: number) =>
      Effect.async<string, WorkerStartFailed>((resume) => {
        const worker = cluster.fork({ [SLOT_ENV]: String(slot) })
        slots.set(slot, {
          worker,
          health: { worker: slot, pid: worker.process.pid ?? 0, status: "starting", restarts }
        })
        let listening = false
        worker.on("message", (m: unknown) => {
          if (isMessage<ToPrimary & { cardfx: "log" }>(m, "log")) o.write(m.chunk)
          else if (isIpcNotice(m)) {
            // A step (or a content switch) on a SQLite store: to every other worker.
            for (const s of slots.values()) if (s.worker !== worker && s.worker.isConnected()) s.worker.send(m)
          } else if (isMessage<ToPrimary & { cardfx: "listening" }>(m, "listening")) {
            listening = true
            setHealth(slot, { status: "ok" })
            resume(Effect.succeed(m.url))
          }
        })
        worker.on("exit", (code, signal) => {
          if (slots.get(slot)?.worker !== worker) return
          setHealth(slot, { status: "down" })
          if (!listening) resume(Effect.fail(new WorkerStartFailed(code ?? 1)))
          if (draining || !started) return
          logLine({ level: "WARN", message: "worker exited; replacing it", worker: slot, code, signal })
          Effect.runFork(Effect.ignore(fork(slot, restarts + 1)))
        })
      })
    const stopAll = Effect.async<void>((resume) => {
      draining = true
      const alive = [...slots.values()].map((s) => s.worker).filter((w) => !w.isDead())
      if (alive.length === 0) return resume(Effect.void)
      let left = alive.length
      const timer = setTimeout(() => {
        for (const w of alive) if (!w.isDead()) w.process.kill("SIGKILL")
      }, Duration.toMillis(STOP_TIMEOUT))
      for (const w of alive) {
        w.once("exit", () => {
          if (--left === 0) {
            clearTimeout(timer)
            resume(Effect.void)
          }
        })
        w.process.kill("SIGTERM")
      }
    })
    yield* Effect.addFinalizer(() => stopAll)
    // The first worker alone: it migrates the store and runs the start check; then the others together.
    const url = yield* fork(1, 0)
    yield* Effect.forEach(Array.from({ length: o.count - 1 }, (_, i) => i + 2), (slot) => fork(slot, 0), {
      concurrency: "unbounded",
      discard: true
    })
    started = true
    return { url }
  })
