/**
 * Benchmark: ledger commands per second on a SQLite file at
 * `synchronous=FULL` (WAL), batched (`LedgerStore.executeBatch`, 100 commands
 * per transaction), against raw better-sqlite3 inserts of the very rows the
 * store wrote (events, snapshots, commands, contexts), into the same schema,
 * with the same pragmas and the same batch size, in the same run: after a
 * warm-up (`WARM_STORES` × `WARM_BATCHES`, both sides, on files of its own), five paired
 * windows, each the same 2,000 commands on a new store file, then raw on the
 * rows that window wrote, into a new file; the ratio is the median of the
 * five (each window starts from empty files, as the single window before). Goal: the store reaches
 * ≥ 40 % of raw. Each ledger command is complete: read the card's state,
 * plan (seal, compose the candidate, fingerprint), write the event,
 * snapshot and outcome.
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
/** Batches per timed window (2,000 commands), and paired windows (store, then raw on the rows it wrote). */
const BATCHES = 20
const WINDOWS = 5
/**
 * Warm-up before the first window, not timed: `WARM_STORES` stores of their own, `WARM_BATCHES` batches
 * each (6,000 commands), each followed by raw on the rows it wrote. With the 200 commands of warm-up
 * this bench had before (the store README, issue 23 round 7), its one window timed V8's compiler: the first
 * 4,000 commands of a process ran at 160-280 µs a command with more CPU than wall time (compiling
 * on background threads), later ones at 93-125 µs with less. With one warm-up store (round 8), each
 * window's new store still re-optimized what was specialized on the one before: a store's functions
 * are closures made per store, and optimized code that inlined the first store's closures is
 * deoptimized ("wrong call target") by the second's; `--trace-opt` counted 52 optimizations in the
 * first window and 52 in the second. After warm-up stores of their own it counts 19, then 18, 8, 4, 3:
 * the windows time the store as a server runs it, not its code being respecialized.
 */
const WARM_STORES = 6
const WARM_BATCHES = 10
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
    // --- the ledger store, batched, against raw better-sqlite3 in paired windows
    const openStore = async (name) => {
      const rt = ManagedRuntime.make(LedgerStore.layerSqlite({ filename: join(dir, name) }))
      return { rt, store: await rt.runPromise(LedgerStore) }
    }
    const runBatch = async ({ rt, store }, b, prefix) => {
      const items = Array.from({ length: BATCH }, (_, k) => {
        const r = commandAt(b * BATCH + k, prefix)
        return [r, decideWith(runtime, r, planning)]
      })
      const outs = await rt.runPromise(store.executeBatch(items))
      if (outs.some((o) => o.status !== "applied")) throw new Error("bench: a ledger command was rejected")
    }
    /** The rows a store file holds, in the order they were written. */
    const rowsOf = (name, count) => {
      const src = new Database(join(dir, name), { readonly: true })
      const rows = {
        events: src.prepare("SELECT * FROM events ORDER BY sequence").all(),
        snapshots: src.prepare("SELECT * FROM snapshots ORDER BY sequence").all(),
        commands: src.prepare("SELECT * FROM commands ORDER BY sequence").all(),
        contexts: src.prepare("SELECT * FROM contexts").all()
      }
      src.close()
      if (rows.events.length !== count || rows.snapshots.length !== count || rows.commands.length !== count) {
        throw new Error("bench: unexpected row counts")
      }
      return rows
    }
    /** Raw better-sqlite3: the rows into a new file with the store's schema and pragmas, batch by batch. */
    const rawInsert = (name, rows, batches) => {
      const raw = new Database(join(dir, name))
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
      const t = performance.now()
      const c = process.cpuUsage()
      for (let b = 0; b < batches; b++) batch(b * BATCH)
      const ms = performance.now() - t
      const cpu = process.cpuUsage(c)
      raw.close()
      return { ms, cpu: cpu.user + cpu.system }
    }

    // Warm-up (not timed), on files of its own so every timed window starts from new files.
    for (let k = 0; k < WARM_STORES; k++) {
      const warm = await openStore(`warm-${k}.db`)
      for (let b = 0; b < WARM_BATCHES; b++) await runBatch(warm, b, "w")
      await warm.rt.dispose()
      rawInsert(`warm-raw-${k}.db`, rowsOf(`warm-${k}.db`, WARM_BATCHES * BATCH), WARM_BATCHES)
    }

    const perWindow = BATCHES * BATCH
    const windows = []
    let timed
    for (let w = 0; w < WINDOWS; w++) {
      // Each window: a new store file and the same 2,000 commands; then raw on the rows it wrote.
      const s = await openStore(`ledger-${w}.db`)
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      for (let b = 0; b < BATCHES; b++) await runBatch(s, b, "c")
      const storeMs = performance.now() - t0
      const storeCpu = process.cpuUsage(c0)
      if (w < WINDOWS - 1) await s.rt.dispose()
      else timed = s
      const r = rawInsert(`raw-${w}.db`, rowsOf(`ledger-${w}.db`, perWindow), BATCHES)
      windows.push({ storeMs, storeCpu: storeCpu.user + storeCpu.system, rawMs: r.ms, rawCpu: r.cpu })
    }
    const { rt, store } = timed

    // --- single-command latency (one transaction per command)
    const lat = []
    for (let i = 0; i < 60; i++) {
      const r = commandAt(perWindow + i, "c")
      const s = performance.now()
      await rt.runPromise(store.execute(r, decideWith(runtime, r, planning)))
      lat.push(performance.now() - s)
    }
    await rt.dispose()

    const storeRate = median(windows.map((x) => perWindow / x.storeMs)) * 1000
    const rawRate = median(windows.map((x) => perWindow / x.rawMs)) * 1000
    const ratio = median(windows.map((x) => x.rawMs / x.storeMs))
    const cpuUs = (us) => us / perWindow
    const load = loadavg()[0]
    const size = await sizeAndReplay(runtime, dir)
    return [
      {
        name: "ledger commands/s (synchronous=FULL, batch 100; median of 5 windows)",
        value: storeRate,
        unit: "cmd/s",
        load
      },
      {
        name: "raw better-sqlite3 rows/s (same rows, pragmas, batches; median of 5 windows)",
        value: rawRate,
        unit: "cmd/s",
        load
      },
      {
        name: "ledger vs raw (median of 5 paired windows)",
        value: ratio * 100,
        unit: "%",
        goal: "≥ 40 %",
        ratio,
        windows: windows.map((x) => Math.round((1000 * x.rawMs) / x.storeMs) / 10),
        ok: ratio >= 0.4,
        load
      },
      {
        name: "ledger command CPU (batch 100)",
        value: cpuUs(median(windows.map((x) => x.storeCpu))),
        unit: "µs",
        load
      },
      {
        name: "raw row set CPU (same rows, batch 100)",
        value: cpuUs(median(windows.map((x) => x.rawCpu))),
        unit: "µs",
        load
      },
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
