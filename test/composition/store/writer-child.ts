/**
 * A writer process for the store's crash and concurrency tests. The test
 * bundles this file with esbuild (no build of dist/ needed) and runs it with
 * plain node. It prints one line per command AFTER the store returned its
 * outcome, i.e. after the transaction committed: a line the parent receives is
 * an acknowledged command.
 *
 * - `kill DB START`: runs the deterministic command list from index START on,
 *   forever; the parent SIGKILLs it. Command i is retried with the same ID and
 *   request after a restart, so an unacknowledged command that did land is
 *   returned, not applied twice.
 * - `race DB N LABEL`: N times, reads the `race` instance and applies or
 *   removes `core.sharpened_strike` with the revision it read.
 * - any other mode: loads and exits (the run that writes the code cache).
 */
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import type { LedgerCommand } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
import { LedgerStore } from "../../../src/composition/store/LedgerStore.js"

import { decodePackage } from "../../../src/composition/ContentPackage.js"
import { publish } from "../../../src/composition/Publication.js"
import { parseJson } from "../../../src/kernel/Json.js"
import { killCommand } from "./killPlan.js"

const [mode, db, arg, label] = process.argv.slice(2)
// The base package, read with node:fs (not @effect/platform-node, whose import alone doubles start-up time).
const loadBase = () => {
  const dir = "data/heroscript.base"
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort()
  const doc = (f: string) => {
    const d = parseJson(readFileSync(`${dir}/${f}`), { file: `${dir}/${f}` })
    if (Either.isLeft(d)) throw new Error(d.left.message)
    return d.right
  }
  const decoded = decodePackage(dir, doc("manifest.json"), files.filter((f) => f !== "manifest.json").map(doc))
  if (decoded.package === undefined) throw new Error(JSON.stringify(decoded.diagnostics))
  const published = publish([decoded.package])
  if (published.runtime === undefined) throw new Error(JSON.stringify(published.diagnostics))
  return published.runtime
}
const runtime = loadBase()
const rt = ManagedRuntime.make(
  Layer.provideMerge(CardTransformationPlanner.layer, LedgerStore.layerSqlite({ filename: db ?? "" }))
)
const out = (line: string) => process.stdout.write(`${line}\n`)

// CommonJS, so no top-level await: the bundle runs from V8's code cache (childProcess.ts).
const main = async () => {
  if (mode === "kill") {
    for (let i = Number(arg);; i++) {
      const outcome = await rt.runPromise(
        Effect.flatMap(CardTransformationPlanner, (p) => p.execute(runtime, killCommand(i)))
      )
      out(`ack ${i} ${outcome.status} ${outcome.diagnostics[0]?.code ?? "-"}`)
    }
  } else if (mode === "race") {
    const n = Number(arg)
    for (let k = 0; k < n; k++) {
      const outcome = await rt.runPromise(
        Effect.gen(function*() {
          const store = yield* LedgerStore
          const planner = yield* CardTransformationPlanner
          const s = yield* store.read("main", "race", "basic_attack")
          const active = s.ledger.entries.find((e) => e.state === "active")
          const command: LedgerCommand = active === undefined
            ? { kind: "apply", upgradeId: "core.sharpened_strike" }
            : { kind: "remove", entryId: active.entryId }
          return yield* planner.execute(runtime, {
            commandId: `${label}-${k}`,
            branch: "main",
            instanceId: "race",
            cardId: "basic_attack",
            expectedRevision: s.revision,
            activity: "scenario",
            command
          })
        })
      )
      out(`race ${outcome.status} ${outcome.revision} ${outcome.diagnostics[0]?.code ?? "-"}`)
    }
    await rt.dispose()
  }
}
void main()
