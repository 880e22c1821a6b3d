/**
 * `cardfx run SCENARIO [--seed N] [--times N] [--format human|json]`.
 *
 * Runs a scenario file (see `composition/scenario/Scenario.ts`). `--seed`
 * overrides the scenario's seed; `--times N` runs it N times from scratch
 * and fails with `nondeterminism` (exit 1) if any run differs from the first
 * in a single byte of its canonical report. `--format json` prints one
 * document: `{"ok": true, "runs": N, "report": {...}}` or
 * `{"ok": false, "diagnostics": [...]}`. Exit 0 ok, 1 content/run errors,
 * 2 usage errors. An adapter over the `Scenarios` service's `runFile`.
 *
 * @since 0.1.0
 */
import { Console, Effect, Option } from "effect"
import { renderEvent, type ScenarioReport, Scenarios } from "../services/index.js"
import * as Args from "./Args.js"
import * as Command from "./Command.js"
import { atLeastOne } from "./Exit.js"
import * as Options from "./Options.js"
import { resultFormatOption } from "./Output.js"

const scenarioArg = Args.text({ name: "SCENARIO" }).pipe(
  Args.withDescription("A scenario JSON file (top-level \"scenario\": 1).")
)

const seedOption = Options.integer("seed").pipe(
  Options.optional,
  Options.withDescription("Seed of the scenario's random stream, an integer (default: the scenario file's seed).")
)

const timesOption = Options.integer("times").pipe(
  Options.withDefault(1),
  Options.withDescription(
    "Run N times from scratch (at least 1); fail (nondeterminism) if any run differs in a single byte."
  )
)

/** The human rendering of a report. */
export const renderReport = (report: ScenarioReport, runs: number): Array<string> => {
  const lines: Array<string> = []
  lines.push(`scenario: ${report.name ?? "(unnamed)"}  seed ${report.seed}`)
  for (const p of report.packages) lines.push(`package: ${p}`)
  for (const s of report.steps) {
    const head = s.op === "play"
      ? `#${s.index} play ${s.card ?? ""} by ${s.actor ?? ""}${
        s.targets !== undefined && s.targets.length > 0 ? ` at ${s.targets.join(", ")}` : ""
      }`
      : `#${s.index} ${s.op} ${s.side ?? ""}`
    lines.push(head)
    for (const e of s.events) lines.push(`    ${renderEvent(e)}`)
  }
  lines.push("final:")
  for (const c of report.finalState.characters) {
    const statuses = c.statuses.map((s) =>
      `${s.statusId}×${s.stacks}${s.remaining !== undefined ? ` (${s.remaining})` : ""}`
    ).join(", ")
    lines.push(`    ${c.characterId} (${c.side}) hp ${c.hp}/${c.maxHp}${statuses === "" ? "" : `  [${statuses}]`}`)
  }
  lines.push(`fingerprint: ${report.fingerprint}`)
  if (runs > 1) lines.push(`${runs} runs, byte-identical`)
  return lines
}

/** The `run` subcommand. */
export const runCommand = Command.make(
  "run",
  { scenario: scenarioArg, seed: seedOption, times: timesOption, format: resultFormatOption },
  ({ format, scenario, seed, times }) =>
    Effect.gen(function*() {
      yield* atLeastOne("--times", times)
      // The Scenarios service checks the file as validate does (size cap, a valid scenario, its references), then runs it.
      const report = yield* Effect.flatMap(
        Scenarios.Scenarios,
        (s) => s.runFile(scenario, { seed: Option.getOrUndefined(seed), times })
      ).pipe(Effect.provide(Scenarios.Scenarios.layer))
      if (format === "json") yield* Console.log(JSON.stringify({ ok: true, runs: times, report }, null, 2))
      else for (const line of renderReport(report, times)) yield* Console.log(line)
    })
).pipe(Command.withDescription("Run a combat scenario deterministically; --times N checks N runs are byte-identical."))
