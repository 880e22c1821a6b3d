/**
 * Benchmark: ledger commands per second on a SQLite file at
 * `synchronous=FULL` (WAL), batched (`LedgerStore.executeBatch`, 100 commands
 * per transaction), against raw better-sqlite3 inserts of the very rows the
 * store wrote (events, snapshots, commands, contexts), into the same schema,
 * with the same pragmas and the same batch size, in the same run. Goal: the
 * store reaches ≥ 40 % of raw. Each ledger command is complete: read the
 * card's state, plan (seal, compose the candidate, fingerprint), write the
 * event, snapshot and outcome.
 *
 * Also CPU time (process.cpuUsage, user + system) per ledger command and per
 * raw row set in the same windows, so a loaded machine's figures can be read
 * (the load average is in each row's `load`).
 *
 * Also: single-command latency (one command per transaction, so one commit
 * and its fsyncs each), median of 60, wall time; the store's size in bytes
 * per command after 10,000 commands on ONE instance (alternately applying
 * and removing, so its ledger history grows to 5,000 entries; goal ≤ 4 KB),
 * and replay time of that instance at 10,000 events over 5,000 (linear: ≈ 2).
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { NodeFileSystem } from "@effect/platform-node"
import Database from "better-sqlite3"
import { Effect, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { loadPackage } from "../../dist/composition/ContentPackage.js"
import { decideWith } from "../../dist/composition/planner/Planner.js"
import { PlanningCache } from "../../dist/composition/planner/PlanningCache.js"
import { publish } from "../../dist/composition/Publication.js"
import { LedgerStore } from "../../dist/composition/store/LedgerStore.js"
import { migrations } from "../../dist/composition/store/Migrations.js"
import { median } from "./timing.mjs"

const BATCH = 100
const BATCHES = 20
export const INSTANCES = 50

const loadRuntime = async () => {
  const loaded = await Effect.runPromise(
    Effect.forEach(["data/heroscript.base"], loadPackage).pipe(Effect.provide(NodeFileSystem.layer))
  )
  const r = publish(loaded.map((l) => l.package))
  if (r.runtime === undefined) throw new Error(JSON.stringify(r.diagnostics))
  return r.runtime
}

/** Command i: instance i mod 50 alternates applying and removing core.sharpened_strike (always succeeds). */
export const commandAt = (i, prefix) => {
  const j = Math.floor(i / INSTANCES)
  return {
    commandId: `${prefix}${i}`,
    branch: "main",
    instanceId: `card${i % INSTANCES}`,
    cardId: "basic_attack",
    expectedRevision: j,
    activity: "scenario",
    command: j % 2 === 0
      ? { kind: "apply", upgradeId: "core.sharpened_strike" }
      : { kind: "remove", entryId: `e${(j + 1) / 2}` }
  }
}

const TABLES = ["events", "snapshots", "commands", "contexts"]

const SIZE_COMMANDS = 10_000

/** 10,000 commands on one instance (batches of 100): bytes per command, and replay time at 5,000 and 10,000 events. */
const sizeAndReplay = async (runtime, dir) => {
  const planning = new PlanningCache(runtime)
  const file = join(dir, "size.db")
  const rt = ManagedRuntime.make(LedgerStore.layerSqlite({ filename: file }))
  const store = await rt.runPromise(LedgerStore)
  const replayMs = []
  for (let b = 0; b < SIZE_COMMANDS / BATCH; b++) {
    const items = Array.from({ length: BATCH }, (_, k) => {
      const j = b * BATCH + k
      const r = {
        commandId: `s${j}`,
        branch: "main",
        instanceId: "one",
        cardId: "basic_attack",
        expectedRevision: j,
        activity: "scenario",
        command: j % 2 === 0
          ? { kind: "apply", upgradeId: "core.sharpened_strike" }
          : { kind: "remove", entryId: `e${(j + 1) / 2}` }
      }
      return [r, decideWith(runtime, r, planning)]
    })
    const outs = await rt.runPromise(store.executeBatch(items))
    if (outs.some((o) => o.status !== "applied")) throw new Error("bench: a ledger command was rejected")
    const done = (b + 1) * BATCH
    if (done === SIZE_COMMANDS / 2 || done === SIZE_COMMANDS) {
      // warm (JIT, context cache) before the timed replay
      if (replayMs.length === 0) await rt.runPromise(store.replay("main"))
      const t = performance.now()
      const steps = await rt.runPromise(store.replay("main"))
      replayMs.push(performance.now() - t)
      if (steps.length !== done) throw new Error("bench: replay step count")
    }
  }
  await rt.dispose()
  const db = new Database(file)
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
  const bytes = statSync(file).size
  const perCommand = bytes / SIZE_COMMANDS
  const ratio = replayMs[1] / replayMs[0]
  return [
    {
      name: "store bytes per command (10,000 commands, one instance)",
      value: perCommand,
      unit: "B",
      goal: "≤ 4096 B",
      ok: perCommand <= 4096
    },
    { name: "replay of one instance, 5,000 events", value: replayMs[0], unit: "ms" },
    { name: "replay time 10,000 / 5,000 events (linear ≈ 2)", value: ratio, unit: "×", goal: "≤ 2.5", ok: ratio <= 2.5 }
  ]
}

export async function run() {
  const runtime = await loadRuntime()
  // The planning cache the planner service holds for this runtime.
  const planning = new PlanningCache(runtime)
  const dir = mkdtempSync(join(tmpdir(), "cardfx-bench-store-"))
  try {
    // --- the ledger store, batched
    const file = join(dir, "ledger.db")
    const rt = ManagedRuntime.make(LedgerStore.layerSqlite({ filename: file }))
    const store = await rt.runPromise(LedgerStore)
    const total = BATCH * BATCHES
    // warm-up on other instances' prefix (not counted): 2 batches
    for (let b = 0; b < 2; b++) {
      const items = Array.from({ length: BATCH }, (_, k) => {
        const r = commandAt(b * BATCH + k, "w")
        return [
          { ...r, instanceId: `warm${r.instanceId}` },
          decideWith(runtime, { ...r, instanceId: `warm${r.instanceId}` }, planning)
        ]
      })
      await rt.runPromise(store.executeBatch(items))
    }
    let t0 = performance.now()
    let c0 = process.cpuUsage()
    for (let b = 0; b < BATCHES; b++) {
      const items = Array.from({ length: BATCH }, (_, k) => {
        const r = commandAt(b * BATCH + k, "c")
        return [r, decideWith(runtime, r, planning)]
      })
      const outs = await rt.runPromise(store.executeBatch(items))
      if (outs.some((o) => o.status !== "applied")) throw new Error("bench: a ledger command was rejected")
    }
    const storeMs = performance.now() - t0
    const storeCpu = process.cpuUsage(c0)
    const storeRate = (total / storeMs) * 1000

    // --- single-command latency (one transaction per command)
    const lat = []
    for (let i = 0; i < 60; i++) {
      const r = commandAt(total + i, "c")
      const s = performance.now()
      await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))
      lat.push(performance.now() - s)
    }
    await rt.dispose()

    // --- raw better-sqlite3: the same rows, same schema, same pragmas, same batches
    const src = new Database(file, { readonly: true })
    // only the timed commands' rows (IDs c0..c1999), in the order the store wrote them
    const timed = (id) => /^c\d+$/.test(id) && Number(id.slice(1)) < total
    const events = src.prepare("SELECT * FROM events ORDER BY sequence").all().filter((r) => timed(r.command_id))
    const seqs = new Set(events.map((r) => r.sequence))
    const rows = {
      events,
      snapshots: src.prepare("SELECT * FROM snapshots ORDER BY sequence").all().filter((r) => seqs.has(r.sequence)),
      commands: src.prepare("SELECT * FROM commands").all().filter((r) => timed(r.command_id)),
      contexts: src.prepare("SELECT * FROM contexts").all()
    }
    if (rows.events.length !== total || rows.snapshots.length !== total || rows.commands.length !== total) {
      throw new Error("bench: unexpected row counts")
    }
    src.close()
    const rawFile = join(dir, "raw.db")
    const raw = new Database(rawFile)
    raw.pragma("journal_mode = WAL")
    raw.pragma("synchronous = FULL")
    // The store's schema as its migrations leave it (tables and indexes).
    for (const migration of migrations) for (const step of migration) raw.exec(step.replaceAll("{p}", ""))
    const insert = {}
    for (const t of TABLES) {
      const cols = Object.keys(rows[t][0] ?? {})
      insert[t] = raw.prepare(
        `INSERT INTO ${t} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`
      )
    }
    const ctx = rows.contexts[0]
    const batch = raw.transaction((from) => {
      for (let k = from; k < from + BATCH; k++) {
        if (ctx !== undefined) insert.contexts.run(...Object.values(ctx))
        insert.events.run(...Object.values(rows.events[k]))
        insert.snapshots.run(...Object.values(rows.snapshots[k]))
        insert.commands.run(...Object.values(rows.commands[k]))
      }
    })
    t0 = performance.now()
    c0 = process.cpuUsage()
    for (let b = 0; b < BATCHES; b++) batch(b * BATCH)
    const rawMs = performance.now() - t0
    const rawCpu = process.cpuUsage(c0)
    raw.close()
    const rawRate = (total / rawMs) * 1000
    const ratio = storeRate / rawRate
    const cpuUs = (u) => (u.user + u.system) / total
    const load = loadavg()[0]
    const size = await sizeAndReplay(runtime, dir)
    return [
      { name: "ledger commands/s (synchronous=FULL, batch 100)", value: storeRate, unit: "cmd/s", load },
      { name: "raw better-sqlite3 rows/s (same rows, pragmas, batches)", value: rawRate, unit: "cmd/s", load },
      { name: "ledger vs raw", value: ratio * 100, unit: "%", goal: "≥ 40 %", ratio, ok: ratio >= 0.4, load },
      { name: "ledger command CPU (batch 100)", value: cpuUs(storeCpu), unit: "µs", load },
      { name: "raw row set CPU (same rows, batch 100)", value: cpuUs(rawCpu), unit: "µs", load },
      { name: "single-command latency (median, own transaction)", value: median(lat), unit: "ms" },
      ...size
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(row)
}
