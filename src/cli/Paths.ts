/**
 * Where the CLI's defaults live and how output paths are checked. Defaults
 * (the starter deck, the bundled packages) resolve from the installed
 * package — `dist/cli/` or `src/cli/` two levels below its root — never from
 * the working directory, so `cardfx simulate` works from anywhere. Output
 * paths (`--out`, `--log`) are checked before any long work starts: a folder
 * where a file is expected is a usage error (exit 2), an unwritable place is
 * `file_unwritable` (exit 1).
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { type CardfxError, diagnostic, errorFromDiagnostic, JsonFile } from "../services/index.js"
import { usageError } from "./Exit.js"

/** A path inside the installed cardfx package. */
export const packagePath = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url))

/** The bundled content folder (`data/`). */
export const dataDir = packagePath("data")

/** The Hallyu Hex starter deck every Hallyu Hex command uses unless `--deck` names another. */
export const defaultDeckPath = packagePath("data/hallyu-hex/starter-deck.v0.json")

/** The composition package `fuzz` publishes generated content beside unless `--package` names others. */
export const defaultPackage = packagePath("data/heroscript.base")

const unwritable = (file: string, why: string): CardfxError =>
  errorFromDiagnostic(diagnostic("file_unwritable", `cannot write ${file}: ${why}`, { file }))

const checkFolderWritable = (fs: FileSystem.FileSystem, folder: string, target: string) =>
  Effect.gen(function*() {
    const info = yield* Effect.either(fs.stat(folder))
    if (Either.isLeft(info)) return yield* Effect.fail(unwritable(target, `the folder ${folder} does not exist`))
    if (info.right.type !== "Directory") return yield* Effect.fail(unwritable(target, `${folder} is not a folder`))
    const ok = yield* Effect.either(fs.access(folder, { writable: true }))
    if (Either.isLeft(ok)) return yield* Effect.fail(unwritable(target, `the folder ${folder} is not writable`))
  })

/** `--log FILE` and the like: the file may exist (as a file) and its folder must be writable. */
export const checkOutputFile = (
  option: string,
  file: string
): Effect.Effect<void, CardfxError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* Effect.either(fs.stat(file))
    if (Either.isRight(info) && info.right.type === "Directory") {
      return yield* Effect.fail(usageError(`${option} ${file} is a folder; give a file`))
    }
    if (Either.isRight(info) && info.right.type !== "File") {
      return yield* Effect.fail(unwritable(file, "not a regular file"))
    }
    yield* checkFolderWritable(fs, dirname(file), file)
  })

/** `--out DIR`: an existing writable folder, or one created (one level, never a retry loop) in a writable folder. */
export const prepareOutputFolder = (
  option: string,
  folder: string
): Effect.Effect<void, CardfxError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* Effect.either(fs.stat(folder))
    if (Either.isRight(info)) {
      if (info.right.type !== "Directory") {
        return yield* Effect.fail(usageError(`${option} ${folder} is a file; give a folder`))
      }
      return yield* checkFolderWritable(fs, folder, folder)
    }
    yield* checkFolderWritable(fs, dirname(folder), folder)
    const made = yield* Effect.either(fs.makeDirectory(folder))
    if (Either.isLeft(made)) return yield* Effect.fail(unwritable(folder, JsonFile.fsReason(made.left)))
  })
