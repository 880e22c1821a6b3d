/** Timing helpers shared by the benchmark modules: wall time of a call, medians. */
import { performance } from "node:perf_hooks"

/** Milliseconds one call of `f` takes. */
export const time = (f) => {
  const t0 = performance.now()
  f()
  return performance.now() - t0
}

/** Median of a list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}
