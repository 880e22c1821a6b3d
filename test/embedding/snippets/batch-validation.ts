import { Catalog } from "cardfx"
import { Effect } from "effect"

// Validate every package folder, deck and scenario under some paths in one pass:
// the same classification and diagnostics as `cardfx validate` (Catalog.ContentLoader.layerMemory for in-memory files).
export const validate = (paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const report = yield* (yield* Catalog.ContentLoader).validate(paths)
    return {
      files: report.files,
      errors: report.diagnostics.filter((d) => d.severity === "error").map((d) =>
        `${d.file}:${d.line ?? 1} ${d.code} ${d.message}`
      )
    }
  }).pipe(Effect.provide(Catalog.ContentLoader.layerNode), Effect.runPromise)

// const { files, errors } = await validate(["data"])
