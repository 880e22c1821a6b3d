#!/usr/bin/env node
/**
 * The store bench's ledger workload alone, for a CPU profile: 50 instances of
 * basic_attack alternately applying and removing core.sharpened_strike,
 * batches of 100 through `LedgerStore.executeBatch` on a SQLite file
 * (`synchronous=FULL`), as scripts/bench/store.mjs times it. Prints the CPU
 * time per command. Imports the built dist/ (`npm run build` first).
 *
 *   node --cpu-prof --cpu-prof-dir=prof scripts/profile-store.mjs   (BATCHES=200 for more samples; default 60)
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadPackage } from "../dist/composition/ContentPackage.js"
import { decideWith } from "../dist/composition/planner/Planner.js"
import { PlanningCache } from "../dist/composition/planner/PlanningCache.js"
import { publish } from "../dist/composition/Publication.js"
import { LedgerStore } from "../dist/composition/store/LedgerStore.js"
import { commandAt as benchCommandAt } from "./bench/store.mjs"
const BATCH = 100
const BATCHES = Number(process.env.BATCHES ?? 60)

const loaded = await Effect.runPromise(
  Effect.forEach(["data/heroscript.base"], loadPackage).pipe(Effect.provide(NodeFileSystem.layer))
)
const runtime = publish(loaded.map((l) => l.package)).runtime
const planning = new PlanningCache(runtime)

/** Command i, as the bench's: instance i mod 50 alternates applying and removing the upgrade. */
const commandAt = (i) => benchCommandAt(i, "c")

const dir = mkdtempSync(join(tmpdir(), "cardfx-profile-store-"))
try {
  const rt = ManagedRuntime.make(LedgerStore.layerSqlite({ filename: join(dir, "ledger.db") }))
  const store = await rt.runPromise(LedgerStore)
  const c0 = process.cpuUsage()
  for (let b = 0; b < BATCHES; b++) {
    const items = Array.from({ length: BATCH }, (_, k) => {
      const r = commandAt(b * BATCH + k)
      return [r, decideWith(runtime, r, planning)]
    })
    const outs = await rt.runPromise(store.executeBatch(items))
    if (outs.some((o) => o.status !== "applied")) throw new Error("profile-store: a ledger command was rejected")
  }
  const c = process.cpuUsage(c0)
  console.log(`${((c.user + c.system) / (BATCH * BATCHES)).toFixed(1)} µs CPU per ledger command`)
  await rt.dispose()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
