/** Timing helpers shared by the benchmark modules: wall and CPU time of a call, medians, the reference loop. */
import { performance } from "node:perf_hooks"

/** Milliseconds one call of `f` takes. */
export const time = (f) => {
  const t0 = performance.now()
  f()
  return performance.now() - t0
}

/** CPU milliseconds of this process so far (user + system): the machines are shared. */
export const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** CPU milliseconds one call of `f` takes. */
export const cpuTime = (f) => {
  const t0 = cpuMs()
  f()
  return cpuMs() - t0
}

/** Median of a list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * CPU milliseconds of a plain loop of 10^7 additions, best of `times`: printed
 * beside a module's figures so they can be read against the machine's load.
 * `| 0` keeps the sum a small integer (a plain `x += i` turns into doubles
 * part-way, a deoptimization that made the loop itself vary 3×).
 */
export const referenceMs = (times = 3) => {
  let best = Infinity
  for (let k = 0; k < times; k++) {
    let x = 0
    const t = cpuMs()
    for (let i = 0; i < 1e7; i++) x = (x + i) | 0
    best = Math.min(best, cpuMs() - t)
    if (x === 1) throw new Error("unreachable")
  }
  return best
}

/** The reference row every engine module prints beside its figures. */
export const referenceRow = (module) => ({
  name: `${module}: reference loop of 10^7 additions (best of 3, machine load)`,
  value: Number(referenceMs().toFixed(1)),
  unit: "ms CPU"
})
