/**
 * `cardfx start [DATA]`: the main job of `npm start` — validates the bundled
 * content, shows what it holds and how to open the workbench.
 *
 * @since 0.1.0
 */
import { Console, Effect } from "effect"
import { documentKinds, Ordinal, validatePaths } from "../services/index.js"
import * as Args from "./Args.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { humanLine } from "./Output.js"
import { dataDir } from "./Paths.js"

/** `cardfx serve`'s default port (src/cli/serve.ts). */
const WORKBENCH_PORT = 8787

const data = Args.text({ name: "DATA" }).pipe(
  Args.withDefault(dataDir),
  Args.withDescription("The content folder (default: the data/ folder of the installed package).")
)

export const startCommand = Command.make("start", { data }, ({ data }) =>
  Effect.gen(function*() {
    const report = yield* validatePaths([data], documentKinds)
    yield* Console.log(`cardfx — content in ${data}/`)
    for (const p of report.packages) {
      const count = (k: "cards" | "statuses" | "bundles" | "transformations" | "slots" | "activities"): number =>
        p.files.reduce((n, f) => n + (f.content[k]?.length ?? 0), 0)
      yield* Console.log(
        `  package ${p.manifest.packageId}@${p.manifest.version} (engine ${p.manifest.engineVersion}): ` +
          `${count("cards")} cards, ${count("statuses")} statuses, ${count("bundles")} bundles, ` +
          `${count("transformations")} transformations, ${count("slots")} slots, ${count("activities")} activities`
      )
      const ids = p.files.flatMap((f) => (f.content.transformations ?? []).map((t) => t.upgradeId))
      if (ids.length > 0) yield* Console.log(`    transformations: ${ids.join(", ")}`)
      // Display names per locale: the distinct keys the package's files give each one.
      const names = new Map<string, Set<string>>()
      for (const f of p.files) {
        for (const t of f.content.locales ?? []) {
          const keys = names.get(t.locale) ?? new Set<string>()
          for (const key of Object.keys(t.names)) keys.add(key)
          names.set(t.locale, keys)
        }
      }
      if (names.size > 0) {
        const locales = [...names.keys()].sort(Ordinal.compareOrdinal)
        yield* Console.log(`    display names: ${locales.map((l) => `${l} (${names.get(l)?.size ?? 0})`).join(", ")}`)
      }
    }
    for (const d of report.documents) yield* Console.log(`  ${d.kind}: ${d.file}`)
    for (const d of report.diagnostics) yield* Console.error(humanLine(d))
    const errors = report.diagnostics.filter((d) => d.severity === "error").length
    yield* Console.log(`${errors === 0 ? "ok" : "failed"}: ${report.files} file(s) validated, ${errors} error(s)`)
    if (errors > 0) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    // The next step for a designer: the workbench page (card faces, before/after, the table) on `cardfx serve`.
    // Outside the bundled content, serve the first package found (serve's default is data/heroscript.base).
    const own = data === dataDir ? undefined : report.packages[0]?.dir
    yield* Console.log(
      `\nThe workbench: npx cardfx serve${own === undefined ? "" : ` --package ${own}`}, ` +
        `then open http://127.0.0.1:${WORKBENCH_PORT}/ (Ctrl-C stops it).`
    )
  })).pipe(
    Command.withDescription("Validate the bundled content and show what it holds."),
    Command.withExit(1, "the content has an error")
  )
