/**
 * `cardfx fuzz [--seed N] [--runs N] [--only NAME]... [--path P] [--package DIR]... [--deck FILE] [--format human|json]`:
 * generated-vocabulary fuzzing (see `src/services/Fuzz.ts`). Generates valid
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
import { Console, Effect, Option } from "effect"
import { ContentLoader, diagnostic, errorFromDiagnostics, Fuzz, ScaleOut } from "../services/index.js"
import * as Command from "./Command.js"
import { atLeastOne, CommandExit, ExitCode, usageError } from "./Exit.js"
import { deckOption, loadDeck } from "./hhx.js"
import * as Options from "./Options.js"
import { resultFormatOption } from "./Output.js"
import { defaultDeckPath, defaultPackage } from "./Paths.js"
import { quietOption, resolveWorkers, withProgress, workersOption } from "./Scale.js"

export { defaultPackage }

/** The `fuzz` command. */
export const fuzzCommand = Command.make(
  "fuzz",
  {
    seed: Options.integer("seed").pipe(
      Options.withDefault(42),
      Options.withDescription("Seed, an integer as for run and simulate; the same seed gives the same cases.")
    ),
    runs: Options.integer("runs").pipe(
      Options.withDefault(100),
      Options.withDescription("Cases per property, at least 1.")
    ),
    only: Options.text("only").pipe(
      Options.repeated,
      Options.withDescription(`Only the properties whose names start with this: ${Fuzz.fuzzPropertyNames.join(", ")}.`)
    ),
    path: Options.text("path").pipe(
      Options.optional,
      Options.withDescription("Replay one case: the path printed with a failure (with its --seed and --only).")
    ),
    packages: Options.directory("package").pipe(
      Options.repeated,
      Options.withDescription(
        "A content package the generated content is published beside (default: heroscript.base of the installed package)."
      )
    ),
    deck: deckOption,
    workers: workersOption,
    quiet: quietOption,
    format: resultFormatOption
  },
  ({ seed, runs, only, path, packages, deck, workers, quiet, format }) =>
    Effect.gen(function*() {
      yield* atLeastOne("--runs", runs)
      const unknown = only.filter((o) => !Fuzz.fuzzPropertyNames.some((n) => n.startsWith(o)))
      if (unknown.length > 0) {
        return yield* Effect.fail(
          usageError(`--only ${unknown.join(", ")} names no property; properties: ${Fuzz.fuzzPropertyNames.join(", ")}`)
        )
      }
      const threads = yield* resolveWorkers(workers)
      const starter = yield* loadDeck(deck)
      const loader = yield* ContentLoader
      const dirs = packages.length > 0 ? packages : [defaultPackage]
      const loaded = yield* loader.loadPackages(dirs)
      const diagnostics = loaded.flatMap((l) => l.diagnostics)
      if (diagnostics.some((d) => d.severity === "error") || loaded.some((l) => l.package === undefined)) {
        // The first error stands for the failure (else the fallback); every diagnostic of the folders is carried.
        return yield* Effect.fail(
          errorFromDiagnostics(diagnostics, diagnostic("file_unreadable", "a --package folder could not be loaded"))
        )
      }
      const options = {
        seed,
        runs,
        deck: starter,
        packages: loaded.flatMap((l) => (l.package === undefined ? [] : [l.package])),
        ...(only.length > 0 ? { only } : {}),
        ...(Option.isSome(path) ? { path: path.value } : {})
      }
      const scale = yield* ScaleOut
      const report = yield* withProgress("runs", quiet, (progress) =>
        scale.fuzz({ options, deckFile: deck, packageDirs: dirs, workers: threads, onProgress: progress.update }))
      const contentArgs = [
        ...packages.flatMap((dir) => ["--package", dir]),
        ...(deck !== defaultDeckPath ? ["--deck", deck] : [])
      ]
      yield* Console.log(
        format === "json" ? JSON.stringify(report, null, 2) : Fuzz.renderFuzzReport(report, contentArgs)
      )
      if (!report.ok) {
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
      }
    })
).pipe(
  Command.withDescription(
    "Fuzz the composition core and Hallyu Hex with generated content; shrink any failure to a minimal case."
  ),
  Command.withExit(1, "a property fails (the shrunk case is printed)")
)
