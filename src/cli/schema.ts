/**
 * `cardfx schema --out DIR`: writes the JSON Schemas derived from the Schemas
 * (each declares its draft and has an `$id`), for editors
 * (`"$schema": "./content.schema.json"`) and other tools. The folder is
 * checked (and created, one level) before anything is written.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Console, Effect } from "effect"
import { diagnostic, errorFromDiagnostic, jsonSchemas } from "../services/index.js"
import * as Command from "./Command.js"
import * as Options from "./Options.js"
import { resultFormatOption } from "./Output.js"
import { prepareOutputFolder } from "./Paths.js"

const out = Options.text("out").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Folder to write the *.schema.json files into (created if its parent exists).")
)

export const schemaCommand = Command.make(
  "schema",
  { out, format: resultFormatOption },
  ({ format, out }) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      yield* prepareOutputFolder("--out", out)
      const files: Array<string> = []
      for (const [name, schema] of Object.entries(jsonSchemas())) {
        const file = `${out.replace(/\/+$/, "")}/${name}.schema.json`
        yield* fs
          .writeFileString(file, JSON.stringify(schema, null, 2) + "\n")
          .pipe(
            Effect.mapError((e) =>
              errorFromDiagnostic(diagnostic("file_unwritable", `cannot write ${file}: ${e.message}`, { file }))
            )
          )
        files.push(file)
      }
      yield* Console.log(format === "json" ? JSON.stringify({ ok: true, files }, null, 2) : files.join("\n"))
    })
).pipe(Command.withDescription("Write the JSON Schemas of every content format (each with its draft and $id)."))
