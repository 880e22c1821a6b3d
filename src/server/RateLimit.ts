/**
 * The creation rate limit of `cardfx serve`: a token bucket per client
 * address and per kind of creation (games, branches), for requests without
 * the operator's token. A bucket holds at most `burst` tokens and refills at
 * `perMinute`; a creation takes one, and an empty bucket is answered 429
 * `rate_limited` with `Retry-After` (whole seconds until a token is back).
 * Plain code, no timer: a bucket is refilled when it is next asked. The
 * buckets are bounded: past {@link MAX_BUCKETS} the full ones go, then the
 * oldest.
 *
 * @since 0.1.0
 */

export interface RateLimitOptions {
  /** Tokens added per minute (0: no limit). */
  readonly perMinute: number
  /** The most a bucket holds: how many creations may come at once. */
  readonly burst: number
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perMinute: 60, burst: 20 }

const MAX_BUCKETS = 10_000

interface Bucket {
  tokens: number
  at: number
}

/** A taker of tokens: undefined when one was taken, else the seconds to wait. */
export type Take = (key: string, nowMs: number) => number | undefined

export const makeRateLimit = (options: RateLimitOptions): Take => {
  const buckets = new Map<string, Bucket>()
  const perMs = options.perMinute / 60_000
  const burst = Math.max(1, options.burst)
  const refill = (b: Bucket, nowMs: number) => {
    b.tokens = Math.min(burst, b.tokens + (nowMs - b.at) * perMs)
    b.at = nowMs
  }
  const prune = (nowMs: number) => {
    for (const [k, b] of buckets) {
      refill(b, nowMs)
      if (b.tokens >= burst) buckets.delete(k)
    }
    while (buckets.size >= MAX_BUCKETS) {
      const oldest = buckets.keys().next()
      if (oldest.done === true) break
      buckets.delete(oldest.value)
    }
  }
  return (key, nowMs) => {
    if (options.perMinute <= 0) return undefined
    let b = buckets.get(key)
    if (b === undefined) {
      if (buckets.size >= MAX_BUCKETS) prune(nowMs)
      b = { tokens: burst, at: nowMs }
      buckets.set(key, b)
    } else refill(b, nowMs)
    if (b.tokens >= 1) {
      b.tokens -= 1
      return undefined
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000))
  }
}
