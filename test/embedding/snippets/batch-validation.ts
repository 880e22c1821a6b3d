import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { documentKinds, validatePaths } from "cardfx"

// Validate every package folder, deck and scenario under some paths in one pass:
// the same classification and diagnostics as `cardfx validate`.
export const validate = (paths: ReadonlyArray<string>) =>
  Effect.runPromise(validatePaths(paths, documentKinds).pipe(Effect.provide(NodeFileSystem.layer))).then((report) => ({
    files: report.files,
    errors: report.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line ?? 1} ${d.code} ${d.message}`)
  }))

// const { files, errors } = await validate(["data"])
