/**
 * Benchmark: effective-card resolutions per second for basic_attack +
 * core.ember.affinity + a numeric upgrade (test.heavy_strike, from the
 * resolver's test fixture package), fingerprint included. Goals (issue 24):
 * ≥ 200,000/s on one core in the best window whatever ran before it in the
 * process (the full `npm run bench` runs it after cluster, discovery,
 * executor and hallyu), and the median window within 1.5× of the best.
 *
 * Rows, all timed in CPU time of this process (the machines are shared):
 * - `warm`: the same ledger value resolved again and again — what a server
 *   holding a card instance does. Caches keyed by immutable sealed objects
 *   apply (prepared rules, lowered members, structural states, serialized
 *   pieces); the selection, lowering, the compile of the composed container,
 *   the canonical fingerprint document and its sha256 run on every call.
 * - `cold`: every resolution gets a ledger freshly decoded from JSON (a pool
 *   built before timing, each object used once), so no per-object cache
 *   helps: what a process pays the first time it resolves a reloaded ledger.
 *
 * Stability: every measuring window sits between two reference loops (10^7
 * additions); the ratio row gives resolutions per reference loop, which
 * stays put when a loaded machine slows both alike, and the reference row
 * shows the load itself. The goal row uses the best window's raw rate.
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { sealById } from "../../dist/composition/BundleCompiler.js"
import { loadPackage } from "../../dist/composition/ContentPackage.js"
import { appendEntry, emptyLedger } from "../../dist/composition/ledger/Ledger.js"
import { publish } from "../../dist/composition/Publication.js"
import { ResolutionCache } from "../../dist/composition/ResolutionCache.js"
import { resolveEffectiveCard } from "../../dist/composition/Resolver.js"

const GOAL = 200_000
const GOAL_SPREAD = 1.5

const runtime = async () => {
  const loaded = await Effect.runPromise(
    Effect.forEach(["data/heroscript.base", "test/fixtures/resolver/numeric-upgrade"], loadPackage).pipe(
      Effect.provide(NodeFileSystem.layer)
    )
  )
  const r = publish(loaded.map((l) => l.package))
  if (r.runtime === undefined) throw new Error(JSON.stringify(r.diagnostics))
  return r.runtime
}

// CPU time of this process, not wall time: the benchmark machines are shared,
// and CPU time is what "per second on one core" means.
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

// A reference loop of 10^7 additions, CPU time: timed next to every window so a
// window's rate can be read against the machine's speed at that moment.
// `| 0` keeps the sum a small integer: a plain `x += i` turns into double
// arithmetic part-way (a deoptimization), which made the loop itself vary 3×.
const referenceMs = () => {
  let x = 0
  const t = cpuMs()
  for (let i = 0; i < 1e7; i++) x = (x + i) | 0
  const ms = cpuMs() - t
  if (x === 1) throw new Error("unreachable")
  return ms
}

// Seven 600 ms windows, each between two reference loops. Neighbours on a shared
// machine slow a window and its reference loops alike, so the ratio
// rate × reference time (resolutions per reference loop) is stable across load;
// the best window's raw rate is the closest to the code's own speed.
const measure = (fn, windows = 7, minMs = 600) => {
  for (let i = 0; i < 5000; i++) fn(i) // warm-up
  for (let i = 0; i < 5; i++) referenceMs() // the reference loop is optimized too before it counts
  const rows = []
  for (let w = 0; w < windows; w++) {
    // Best of three: the collector's background threads, busy after a window
    // that allocated, add to this process's CPU time while the loop runs.
    const before = Math.min(referenceMs(), referenceMs(), referenceMs())
    let n = 0
    const start = cpuMs()
    let elapsed = 0
    while (elapsed < minMs) {
      for (let i = 0; i < 1000; i++) fn(n++)
      elapsed = cpuMs() - start
    }
    const ref = Math.min(before, referenceMs(), referenceMs(), referenceMs())
    const rate = (n / elapsed) * 1000
    rows.push({ rate, ref, perReference: (rate * ref) / 1000 })
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  return {
    best: Math.max(...rows.map((r) => r.rate)),
    median: med(rows.map((r) => r.rate)),
    perReference: med(rows.map((r) => r.perReference)),
    referenceMs: med(rows.map((r) => r.ref))
  }
}

export async function run() {
  const rt = await runtime()
  let ledger = emptyLedger("basic_attack")
  for (const [i, id] of ["test.heavy_strike", "core.ember.affinity"].entries()) {
    const sealed = sealById(rt, id)
    if (Either.isLeft(sealed)) throw new Error(JSON.stringify(sealed.left))
    const next = appendEntry(ledger, sealed.right, {
      entryId: `e${i + 1}`,
      captured: { revision: i, sequence: 0, step: i }
    })
    if (Either.isLeft(next)) throw new Error(JSON.stringify(next.left))
    ledger = next.right
  }
  const baseCard = rt.cards.get("basic_attack")
  const input = { baseCard, ledger, statuses: rt.statuses }
  // What a server holding a card instance does: one resolution cache (the
  // CardResolver service's or the Runtime's) across resolutions.
  const cache = new ResolutionCache()
  const check = resolveEffectiveCard(input, cache)
  if (Either.isLeft(check)) throw new Error(JSON.stringify(check.left))
  let sink = 0
  const warm = measure(() => {
    const r = resolveEffectiveCard(input, cache)
    sink += r.right.fingerprint.length
  })
  const json = JSON.stringify(ledger)
  const pool = Array.from({ length: 20_000 }, () => JSON.parse(json))
  const start = cpuMs()
  for (const l of pool) {
    const r = resolveEffectiveCard({ baseCard, ledger: l, statuses: rt.statuses }, cache)
    sink += r.right.fingerprint.length
  }
  const cold = (pool.length / (cpuMs() - start)) * 1000
  if (sink === 0) throw new Error("unreachable")
  // The goal (200,000/s) expressed per reference loop: the loop takes 3.4 ms CPU
  // on the benchmark machine (2 cores, Node 20; median of 15, measured while
  // the machine was loaded, which CPU time barely shows), so 680 per loop.
  const QUIET_REF_MS = 3.4
  const goalPerReference = (GOAL * QUIET_REF_MS) / 1000
  return [
    {
      name: "resolver: basic_attack + numeric + ember (warm, best of 7 windows)",
      value: Math.round(warm.best),
      unit: "resolutions/s",
      goal: "≥ 200,000",
      ok: warm.best >= GOAL
    },
    { name: "resolver: warm, median window", value: Math.round(warm.median), unit: "resolutions/s" },
    {
      name: "resolver: warm, best window / median window",
      value: Number((warm.best / warm.median).toFixed(2)),
      unit: "×",
      goal: `≤ ${GOAL_SPREAD}`,
      ok: warm.best / warm.median <= GOAL_SPREAD
    },
    {
      name: "resolver: warm, resolutions per reference loop (median; load-independent ratio)",
      value: Math.round(warm.perReference),
      unit: "per loop",
      goal: `≥ ${goalPerReference.toLocaleString("en-US")} (200,000/s at ${QUIET_REF_MS} ms)`,
      ok: warm.perReference >= goalPerReference
    },
    {
      name: "resolver: reference loop of 10^7 additions (median, machine load)",
      value: Number(warm.referenceMs.toFixed(1)),
      unit: "ms CPU"
    },
    {
      name: "resolver: same, a freshly decoded ledger each time (cold)",
      value: Math.round(cold),
      unit: "resolutions/s"
    }
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then((rows) => console.table(rows))
}
