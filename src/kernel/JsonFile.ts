/**
 * Reading JSON files through `@effect/platform`'s FileSystem with the
 * hardened parser: the size cap is checked on `stat` before a byte is read,
 * and every failure (missing file, unreadable file, bad JSON) comes back as a
 * diagnostic value, never as a defect.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import { type Diagnostic, diagnostic } from "./Diagnostic.js"
import { type JsonDocument, type JsonOptions, parseJson, tooLarge } from "./Json.js"
import { Limits } from "./Limits.js"
import { compareOrdinal } from "./Ordinal.js"

const unreadable = (file: string, reason: string): Diagnostic =>
  diagnostic("file_unreadable", `cannot read ${file}: ${reason}`, { file, path: "" })

/** A platform error as a short reason, said once ("no such file or folder"), not the errno text twice. */
export const fsReason = (e: { readonly message: string; readonly reason?: string }): string =>
  e.reason === "NotFound"
    ? "no such file or folder"
    : e.reason === "PermissionDenied"
    ? "permission denied"
    : e.reason === "BadResource"
    ? "not a readable file"
    : e.message.replace(/^.*?: [A-Z]+: /, "")

/** Reads and parses one JSON file. */
export const readJsonFile = (
  file: string,
  options: Omit<JsonOptions, "file"> = {}
): Effect.Effect<Either.Either<JsonDocument, Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* Effect.either(fs.stat(file))
    if (Either.isLeft(info)) return Either.left(unreadable(file, fsReason(info.left)))
    if (info.right.type !== "File") return Either.left(unreadable(file, "not a regular file"))
    const max = options.maxBytes ?? Limits.inputBytes
    const size = Number(info.right.size)
    if (size > max) return Either.left(tooLarge(size, max, file))
    const bytes = yield* Effect.either(fs.readFile(file))
    if (Either.isLeft(bytes)) return Either.left(unreadable(file, fsReason(bytes.left)))
    return parseJson(bytes.right, { ...options, file })
  })

/** Every file under a folder, recursively, as sorted (ordinal) paths joined with "/". */
export const listFiles = (
  dir: string
): Effect.Effect<Either.Either<ReadonlyArray<string>, Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const entries = yield* Effect.either(fs.readDirectory(dir, { recursive: true }))
    if (Either.isLeft(entries)) return Either.left(unreadable(dir, fsReason(entries.left)))
    const files: Array<string> = []
    for (const entry of [...entries.right].sort(compareOrdinal)) {
      const full = `${dir.replace(/\/+$/, "")}/${entry}`
      const info = yield* Effect.either(fs.stat(full))
      if (Either.isRight(info) && info.right.type === "File") files.push(full)
    }
    return Either.right(files)
  })
