/**
 * `cardfx fuzz [--seed N] [--runs N] [--only NAME]... [--path P] [--package DIR]... [--deck FILE] [--format human|json]`:
 * generated-vocabulary fuzzing (see `src/testing/fuzz.ts`). Generates valid
 * composition content and Schema-shaped content, runs compile → plan →
 * resolve → execute, generates valid Hallyu Hex decks and plays a seeded
 * random game on each, and checks that nothing throws and that every
 * rejection is a typed diagnostic. A failing property is shrunk to a minimal
 * case, printed with the seed and path that replay it. Exit 0 when every
 * property holds, 1 when one fails, 2 on a bad command line.
 *
 * CI runs a small budget from a fixed seed (test/fuzz); run longer with
 * `cardfx fuzz --runs 100000 --seed N`.
 *
 * @since 0.1.0
 */
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { FileSystem } from "@effect/platform"
import { type FuzzOptions, renderFuzzReport } from "../testing/fuzz.js"
import { runFuzzJob } from "../workers/Runs.js"
import { quietOption, resolveWorkers, withProgress, workersOption } from "./Scale.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { deckOption, loadDeck } from "./hhx.js"
import { humanLine, resultFormatOption } from "./Output.js"
import { loadPackage } from "../composition/ContentPackage.js"

/** The package the generated content is published beside unless `--package` names others. */
export const defaultPackage = "data/heroscript.base"

/** The `fuzz` command. */
export const fuzzCommand = Command.make(
  "fuzz",
  {
    seed: Options.integer("seed").pipe(Options.withDefault(42), Options.withDescription("fast-check seed (default 42); the same seed gives the same cases.")),
    runs: Options.integer("runs").pipe(Options.withDefault(100), Options.withDescription("Cases per property (default 100).")),
    only: Options.text("only").pipe(
      Options.repeated,
      Options.withDescription("Only the properties whose names start with this (repeatable): composition.valid, composition.shapes, hallyu.valid, hallyu.shapes.")
    ),
    path: Options.text("path").pipe(Options.optional, Options.withDescription("Replay one case: the path printed with a failure (with its --seed and --only).")),
    packages: Options.directory("package").pipe(
      Options.repeated,
      Options.withDescription(`A content package the generated content is published beside (repeatable; default ${defaultPackage}).`)
    ),
    deck: deckOption,
    workers: workersOption,
    quiet: quietOption,
    format: resultFormatOption
  },
  ({ seed, runs, only, path, packages, deck, workers, quiet, format }) =>
    Effect.gen(function* () {
      if (runs < 1 || !Number.isSafeInteger(seed)) {
        yield* Console.error("cardfx fuzz: --runs must be at least 1 and --seed a safe integer")
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
      }
      const threads = yield* resolveWorkers(workers)
      const starter = yield* loadDeck(deck)
      const deckJson = yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(deck)).pipe(Effect.orDie) // read by loadDeck just before
      const dirs = packages.length > 0 ? packages : [defaultPackage]
      const loaded = yield* Effect.forEach(dirs, loadPackage)
      const problems = loaded.flatMap((l) => l.diagnostics).filter((d) => d.severity === "error")
      if (problems.length > 0) {
        yield* Effect.forEach(problems, (d) => Console.error(humanLine(d)), { discard: true })
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
      }
      const options: FuzzOptions = {
        seed,
        runs,
        deck: starter,
        packages: loaded.flatMap((l) => (l.package === undefined ? [] : [l.package])),
        ...(only.length > 0 ? { only } : {}),
        ...(Option.isSome(path) ? { path: path.value } : {})
      }
      const report = yield* withProgress("runs", quiet, (progress) =>
        runFuzzJob({ options, deck: { json: deckJson, file: deck }, packageDirs: dirs, workers: threads, onProgress: progress.update })
      ).pipe(
        Effect.catchAll((d) => Console.error(humanLine(d)).pipe(Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.internal })))))
      )
      yield* Console.log(format === "json" ? JSON.stringify(report, null, 2) : renderFuzzReport(report))
      if (!report.ok) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
).pipe(Command.withDescription("Fuzz the composition core and Hallyu Hex with generated content; shrink any failure to a minimal case."))
