/**
 * Benchmark: the common executor on basic_attack + core.ember.affinity
 * against a target with strength (actor attribute) and vulnerable (target
 * status) sources, so every impact runs the bucket pipeline with two
 * contributions. One sequence = the strike impact + the burning application
 * (2 impacts). Batches of 1,000 sequences, each against the same state.
 *
 * Rows: impacts/s and sequences/s through the pure core (`executeSequence`)
 * and through the `CardExecutor` service (`playBatch`, one Effect per batch),
 * measured in the same run with interleaved rounds; and the ratio of the
 * service's time to the pure core's. Goals (issue 24): ≥ 3,000,000 impacts/s
 * through the pure core and ≥ 2,800,000 through `playBatch`, best round, on
 * one core (the median round beside); service ≤ 1.25× the pure core (median
 * rounds). Fingerprints are off in the batch
 * (each is a sha256 over the state; `fingerprint: true` is the default
 * elsewhere). CPU time of this process, not wall time.
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { loadPackage } from "../../dist/composition/ContentPackage.js"
import { CardExecutor } from "../../dist/composition/executor/CardExecutor.js"
import { executeSequence, ExecutionPlans } from "../../dist/composition/executor/Execute.js"
import { publish } from "../../dist/composition/Publication.js"
import { resolveLedgerCard } from "../../dist/composition/scenario/Runner.js"
import { seedState } from "../../dist/kernel/Rng.js"
import { cpuMs, referenceRow } from "./timing.mjs"

const GOAL_PURE = 3_000_000
const GOAL_SERVICE = 2_800_000
const GOAL_RATIO = 1.25
const BATCH = 1000

const runtime = async () => {
  const loaded = await Effect.runPromise(
    Effect.forEach(["data/heroscript.base"], loadPackage).pipe(Effect.provide(NodeFileSystem.layer))
  )
  const r = publish(loaded.map((l) => l.package))
  if (r.runtime === undefined) throw new Error(JSON.stringify(r.diagnostics))
  return r.runtime
}

export async function run() {
  const rt = await runtime()
  const eff = resolveLedgerCard(rt, "basic_attack", ["core.ember.affinity"])
  if (Either.isLeft(eff)) throw new Error(JSON.stringify(eff.left))
  const card = eff.right
  const state = {
    turn: 1,
    activeSide: "ally",
    characters: [
      {
        characterId: "hero",
        side: "ally",
        hp: 40,
        maxHp: 40,
        statuses: [],
        attributes: { strength: 2 },
        relics: [],
        buffs: []
      },
      {
        characterId: "dummy",
        side: "enemy",
        hp: 1_000_000,
        maxHp: 1_000_000,
        statuses: [{ statusId: "vulnerable", stacks: 1, remaining: 2, payload: {}, ticks: 0 }],
        attributes: {},
        relics: [],
        buffs: []
      }
    ]
  }
  const request = { actorId: "hero", targetIds: ["dummy"], rng: seedState(1, "bench"), fingerprint: false }
  const requests = Array.from({ length: BATCH }, () => request)

  // Correctness of what is measured: two impacts per sequence, the pipeline sees both sources.
  const probe = executeSequence(rt, card.compiled, state, request)
  if (!probe.ok) throw new Error(probe.diagnostic.message)
  const impactsPerSequence = probe.result.events.filter((e) => e.type === "impact" || e.type === "statusApplied").length
  const strike = probe.result.events[0]
  if (
    impactsPerSequence !== 2 || strike.type !== "impact" || strike.contributions.length !== 2 || strike.amount !== 12
  ) {
    throw new Error(`unexpected probe: ${JSON.stringify(probe.result.events)}`)
  }

  const service = Effect.runSync(Effect.map(CardExecutor, (s) => s).pipe(Effect.provide(CardExecutor.layer(rt))))
  const compiled = card.compiled
  // The pure core memoizes a container's execution plan in a table its caller owns (as the service does).
  const plans = new ExecutionPlans()
  let sink = 0
  // The same batch as `playBatch`: every result is kept in an array until the batch ends.
  const pureBatch = () => {
    const out = new Array(BATCH)
    for (let i = 0; i < BATCH; i++) {
      const r = executeSequence(rt, compiled, state, requests[i], plans)
      if (!r.ok) throw new Error(r.diagnostic.message)
      out[i] = r.result
    }
    sink += out.length
  }
  const serviceBatch = () => {
    const rs = Effect.runSync(service.playBatch(card, state, requests))
    sink += rs.length
  }

  // Warm-up, then interleaved rounds so both paths see the same machine conditions.
  for (let i = 0; i < 300; i++) {
    pureBatch()
    serviceBatch()
  }
  const rounds = 12
  const roundMs = 150
  const pureRates = []
  const serviceRates = []
  for (let r = 0; r < rounds; r++) {
    // Alternate which path goes first, so garbage one leaves is not always collected in the other's time.
    const pair = [
      [pureBatch, pureRates],
      [serviceBatch, serviceRates]
    ]
    if (r % 2 === 1) pair.reverse()
    for (const [fn, out] of pair) {
      let n = 0
      const start = cpuMs()
      let elapsed = 0
      while (elapsed < roundMs) {
        fn()
        n += BATCH
        elapsed = cpuMs() - start
      }
      out.push((n / elapsed) * 1000)
    }
  }
  if (sink === 0) throw new Error("unreachable")
  // For reference: one Effect.runSync per sequence (no batch), no goal.
  let single = 0
  {
    const start = cpuMs()
    let elapsed = 0
    while (elapsed < 600) {
      for (let i = 0; i < BATCH; i++) sink += Effect.runSync(service.play(card, state, request)).budgetUsed
      single += BATCH
      elapsed = cpuMs() - start
    }
    single = (single / elapsed) * 1000
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.floor(s.length / 2)]
  }
  const pureSeq = median(pureRates)
  const serviceSeq = median(serviceRates)
  const ratio = pureSeq / serviceSeq
  const pureBest = Math.max(...pureRates) * impactsPerSequence
  const serviceBest = Math.max(...serviceRates) * impactsPerSequence
  return [
    {
      name: `basic_attack+ember, strength/vulnerable: pure core (best of ${rounds} rounds)`,
      value: Math.round(pureBest),
      unit: "impacts/s",
      goal: `≥ ${GOAL_PURE.toLocaleString("en-US")}`,
      ok: pureBest >= GOAL_PURE
    },
    { name: "same: pure core, median round", value: Math.round(pureSeq * impactsPerSequence), unit: "impacts/s" },
    { name: "same: pure core, median round", value: Math.round(pureSeq), unit: "sequences/s" },
    {
      name: `same: CardExecutor.playBatch (1,000/batch, best of ${rounds} rounds)`,
      value: Math.round(serviceBest),
      unit: "impacts/s",
      goal: `≥ ${GOAL_SERVICE.toLocaleString("en-US")}`,
      ok: serviceBest >= GOAL_SERVICE
    },
    {
      name: "same: CardExecutor.playBatch, median round",
      value: Math.round(serviceSeq * impactsPerSequence),
      unit: "impacts/s"
    },
    { name: "same: CardExecutor.playBatch, median round", value: Math.round(serviceSeq), unit: "sequences/s" },
    {
      name: "service time / pure-core time, same batch, same run",
      value: Number(ratio.toFixed(3)),
      unit: "×",
      goal: `≤ ${GOAL_RATIO}`,
      ok: ratio <= GOAL_RATIO
    },
    {
      name: "for reference: CardExecutor.play, one runSync per sequence",
      value: Math.round(single),
      unit: "sequences/s"
    },
    referenceRow("executor")
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then((rows) => console.table(rows))
}
