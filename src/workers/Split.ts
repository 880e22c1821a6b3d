/**
 * Work units [0, total) shared between this thread and a pool of worker
 * threads. Every participant claims the next range from one cursor when it is
 * free, so a fast one takes more; answers are returned in range order, so
 * whoever played a range, the merge sees the same sequence.
 *
 * Why this thread plays too: a new worker thread spends its first second
 * loading code and then plays slowly while V8 compiles the engine for it
 * (threads share no compiled code). Playing here from the first moment, a
 * run is never slower than one process by more than the messages it handles,
 * and a thread adds its speed once it is warm — `workers: N` is this thread
 * and N − 1 worker threads.
 *
 * Requests to a thread start small and double up to `remoteChunk` (a cold
 * thread holds only a little work; a warm one pays the message cost over many
 * units). Each thread holds two requests at once, so it never waits for this
 * thread — busy with its own chunk — to send the next. Near the end no claim
 * is larger than a share of what is left, so participants finish together.
 *
 * @since 0.1.0
 */
import { Context, Deferred, Effect, Layer } from "effect"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { CardfxWorkerPool, type CardfxWorkerPoolService, layer } from "./Pool.js"

/** Requests each worker thread holds at once. */
export const REQUESTS_PER_THREAD = 2

export interface SplitOptions<A> {
  readonly total: number
  /** Worker threads besides this one (0: everything in this thread). */
  readonly threads: number
  /**
   * Whether this thread plays too (default true). A cluster runner's does not:
   * its thread serves the cluster (lock refreshes, messages), and a chunk of
   * games on it would delay them. Ignored without threads.
   */
  readonly here?: boolean
  /** The threads' entry, for a pool started for this run. */
  readonly entry: URL
  /**
   * A running pool of `threads` threads, each taking {@link REQUESTS_PER_THREAD}
   * requests at once (its threads stay warm across runs, e.g. a cluster
   * runner's shards); without it, a pool is started for this run and closed after.
   */
  readonly pool?: CardfxWorkerPoolService
  /** Plays [from, to) in this thread (and yields to the event loop). */
  readonly local: (from: number, to: number) => Effect.Effect<A, Diagnostic>
  /** Plays [from, to) on a worker thread of the pool. */
  readonly remote: (pool: CardfxWorkerPoolService, from: number, to: number) => Effect.Effect<A, Diagnostic>
  /** Units per claim of this thread, and the first request to a thread. */
  readonly localChunk: number
  /** Units per request to a warm thread. */
  readonly remoteChunk: number
  /** Called with each answered range. */
  readonly onDone?: (from: number, to: number) => void
}

/** Plays [0, total) on this thread and `threads` worker threads; the answers in range order. */
export const runSplit = <A>(o: SplitOptions<A>): Effect.Effect<Array<A>, Diagnostic> =>
  Effect.suspend(() => {
    const answers: Array<readonly [number, A]> = []
    let cursor = 0
    let sentToThreads = 0
    const playsHere = o.here !== false || o.threads <= 0
    const participants = o.threads + (playsHere ? 1 : 0)
    const claim = (want: number): readonly [number, number] | undefined => {
      if (cursor >= o.total) return undefined
      const share = Math.ceil((o.total - cursor) / (2 * participants))
      const size = Math.max(1, Math.min(want, Math.max(o.localChunk, share)))
      const from = cursor
      cursor = Math.min(o.total, from + size)
      return [from, cursor]
    }
    const play = (range: readonly [number, number], run: Effect.Effect<A, Diagnostic>) =>
      Effect.map(run, (a) => {
        answers.push([range[0], a])
        o.onDone?.(range[0], range[1])
      })
    const whileWork = (body: () => Effect.Effect<void, Diagnostic>) =>
      Effect.whileLoop({ while: () => cursor < o.total, body, step: () => undefined })
    const here = whileWork(() =>
      Effect.suspend(() => {
        const r = claim(o.localChunk)
        return r === undefined ? Effect.void : play(r, o.local(r[0], r[1]))
      })
    )
    const feeder = (pool: CardfxWorkerPoolService) =>
      Effect.suspend(() => {
        let want = o.localChunk
        return whileWork(() =>
          Effect.suspend(() => {
            const r = claim(want)
            if (r === undefined) return Effect.void
            sentToThreads += 1
            want = Math.min(o.remoteChunk, want * 2)
            return play(r, o.remote(pool, r[0], r[1]))
          })
        )
      })
    const sorted = () => answers.sort((a, b) => a[0] - b[0]).map(([, a]) => a)
    if (o.threads <= 0) return Effect.map(here, sorted)
    const feeders = (pool: CardfxWorkerPoolService) =>
      Effect.all(Array.from({ length: o.threads * REQUESTS_PER_THREAD }, () => feeder(pool)), {
        concurrency: "unbounded",
        discard: true
      })
    if (o.pool !== undefined) {
      const pool = o.pool
      return Effect.map(
        playsHere
          ? Effect.all([here, feeders(pool)], { concurrency: "unbounded", discard: true })
          : feeders(pool),
        sorted
      )
    }
    if (!playsHere) {
      return Effect.scoped(
        Effect.flatMap(
          Layer.build(layer(o.threads, o.entry, { concurrency: REQUESTS_PER_THREAD })),
          (context) => Effect.map(feeders(Context.get(context, CardfxWorkerPool)), sorted)
        )
      )
    }
    return Effect.scoped(Effect.gen(function*() {
      const hereDone = yield* Deferred.make<void>()
      // The pool starts while this thread plays; its threads join when ready.
      const threads = Effect.flatMap(
        Layer.build(layer(o.threads, o.entry, { concurrency: REQUESTS_PER_THREAD })),
        (context) => feeders(Context.get(context, CardfxWorkerPool))
      )
      // This thread played everything before any thread was ready: stop waiting for the pool.
      const unneeded = Effect.zipRight(
        Deferred.await(hereDone),
        Effect.suspend(() => (sentToThreads === 0 ? Effect.void : Effect.never))
      )
      yield* Effect.all([
        Effect.zipRight(here, Deferred.succeed(hereDone, undefined)),
        Effect.raceFirst(threads, unneeded)
      ], { concurrency: "unbounded", discard: true })
      return sorted()
    }))
  })
