/**
 * `cardfx init [DIR]`: scaffolds a content package that `cardfx validate DIR`
 * passes straight away — DIR itself is the package (manifest, one card, one status, one
 * transformation), `scenarios/first.scenario.json`, `schemas/` (the JSON
 * Schemas), every file naming its schema in `$schema`, and `.vscode/`
 * (schema mapping, the extension recommended). Writes only new files: if any
 * of them exists, nothing is written (`file_unwritable`).
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Console, Effect } from "effect"
import { basename, dirname, join, resolve } from "node:path"
import { diagnostic, errorFromDiagnostic } from "../services/index.js"
import { packageIdFor, scaffoldFiles } from "../services/Scaffold.js"
import * as Args from "./Args.js"
import * as Command from "./Command.js"
import { resultFormatOption } from "./Output.js"
import { prepareOutputFolder } from "./Paths.js"

const dir = Args.text({ name: "DIR" }).pipe(
  Args.withDefault("."),
  Args.withDescription("The folder to scaffold (created if its parent exists; default: the current folder).")
)

const unwritable = (file: string, why: string) =>
  errorFromDiagnostic(diagnostic("file_unwritable", `cannot write ${file}: ${why}`, { file }))

export const initCommand = Command.make(
  "init",
  { dir, format: resultFormatOption },
  ({ dir, format }) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      yield* prepareOutputFolder("DIR", dir)
      const files = scaffoldFiles(packageIdFor(basename(resolve(dir))))
      for (const f of files) {
        const target = join(dir, f.path)
        if (yield* fs.exists(target).pipe(Effect.orElseSucceed(() => true))) {
          return yield* Effect.fail(unwritable(target, "it already exists (cardfx init writes only new files)"))
        }
      }
      const written: Array<string> = []
      for (const f of files) {
        const target = join(dir, f.path)
        yield* fs.makeDirectory(dirname(target), { recursive: true }).pipe(
          Effect.mapError((e) => unwritable(dirname(target), e.message))
        )
        yield* fs.writeFileString(target, f.text).pipe(Effect.mapError((e) => unwritable(target, e.message)))
        written.push(target)
      }
      if (format === "json") yield* Console.log(JSON.stringify({ ok: true, files: written }, null, 2))
      else {
        for (const w of written) yield* Console.log(w)
        yield* Console.log(`next: cardfx validate ${dir}`)
      }
    })
).pipe(
  Command.withDescription(
    "Scaffold a content package (manifest, card, status, transformation, scenario) with schemas and editor settings."
  ),
  Command.withExit(1, "a file it would write already exists or cannot be written")
)
