/**
 * `cardfx schema --out DIR`: writes the JSON Schemas (draft-07) derived from
 * the Schemas, for editors (`"$schema": "./content.schema.json"`) and other tools.
 *
 * @since 0.1.0
 */
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect } from "effect"
import { jsonSchemas } from "../JsonSchemas.js"

const out = Options.directory("out").pipe(Options.withDescription("Folder to write the *.schema.json files into."))

export const schemaCommand = Command.make("schema", { out }, ({ out }) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(out, { recursive: true })
    for (const [name, schema] of Object.entries(jsonSchemas())) {
      const file = `${out.replace(/\/+$/, "")}/${name}.schema.json`
      yield* fs.writeFileString(file, JSON.stringify(schema, null, 2) + "\n")
      yield* Console.log(file)
    }
  })
).pipe(Command.withDescription("Write the JSON Schemas (draft-07) of every content format."))
