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
import { type CardfxError, errorFromDiagnostic } from "./Errors.js"
import { type JsonDocument, type JsonOptions, parseJson, tooLarge } from "./Json.js"
import { Limits } from "./Limits.js"
import { compareOrdinal } from "./Ordinal.js"

/** The one wording of a file that cannot be read: `file_unreadable` "cannot read FILE: reason". */
export const unreadable = (file: string, reason: string): Diagnostic =>
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

/** A file's bytes: a regular file within the size cap (checked on `stat` before a byte is read). */
const readBytes = (
  file: string,
  maxBytes: number | undefined
): Effect.Effect<Either.Either<Uint8Array, Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* Effect.either(fs.stat(file))
    if (Either.isLeft(info)) return Either.left(unreadable(file, fsReason(info.left)))
    if (info.right.type !== "File") return Either.left(unreadable(file, "not a regular file"))
    const max = maxBytes ?? Limits.inputBytes
    const size = Number(info.right.size)
    if (size > max) return Either.left(tooLarge(size, max, file))
    const bytes = yield* Effect.either(fs.readFile(file))
    return Either.isLeft(bytes) ? Either.left(unreadable(file, fsReason(bytes.left))) : Either.right(bytes.right)
  })

/** Reads and parses one JSON file. */
export const readJsonFile = (
  file: string,
  options: Omit<JsonOptions, "file"> = {}
): Effect.Effect<Either.Either<JsonDocument, Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.map(
    readBytes(file, options.maxBytes),
    Either.flatMap((bytes) => parseJson(bytes, { ...options, file }))
  )

/**
 * The one deck reader: a deck file's text as the simulation services take it
 * (`DeckSource.json`; they parse and validate it themselves), read as
 * {@link readJsonFile} reads (a regular file within the size cap). A file that
 * cannot be read fails with `file_unreadable` "cannot read FILE: reason"; a
 * file past the cap with `input_too_large`. The CLI, the `Simulation`
 * service's `readDeck` and the worker pools' `ScaleOut` read decks through it.
 */
export const readDeckText = (file: string): Effect.Effect<string, CardfxError, FileSystem.FileSystem> =>
  Effect.flatMap(readBytes(file, undefined), (bytes) =>
    Either.isLeft(bytes)
      ? Effect.fail(errorFromDiagnostic(bytes.left))
      : Effect.succeed(new TextDecoder().decode(bytes.right)))

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
