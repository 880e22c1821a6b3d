/**
 * The diagnostics `cardfx lsp` publishes: exactly what `cardfx validate`
 * reports (every code, with file, line, column and JSON path), computed over
 * the files as they are in the editor — open documents override the disk
 * through an overlay of the platform file system — plus the replay of game
 * logs (`hhx-log/1`) against the Hallyu Hex decks of the workspace with the
 * same hash. A check covers whole folders (the workspace folders), so a
 * change to one file of a package re-checks the package and every scenario
 * that loads it.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Either, Layer } from "effect"
import { makeDecoder } from "../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { parseJson } from "../kernel/Json.js"
import { documentKinds } from "../services/DocumentKinds.js"
import { Hallyu } from "../services/index.js"
import { validatePaths } from "../services/Validation.js"

/** The editor's view of some files: path → text (open, possibly unsaved documents). */
export type Overlay = ReadonlyMap<string, string>

const encoder = new TextEncoder()

/** The file system as the editor sees it: open documents read from the overlay, everything else from below. */
export const overlayFileSystem = (overlay: Overlay): Layer.Layer<FileSystem.FileSystem, never, FileSystem.FileSystem> =>
  Layer.effect(
    FileSystem.FileSystem,
    Effect.map(FileSystem.FileSystem, (below) => {
      const bytes = (path: string) => {
        const text = overlay.get(path)
        return text === undefined ? undefined : encoder.encode(text)
      }
      return FileSystem.make({
        ...below,
        readFile: (path) => {
          const b = bytes(path)
          return b === undefined ? below.readFile(path) : Effect.succeed(b)
        },
        stat: (path) => {
          const b = bytes(path)
          return b === undefined
            ? below.stat(path)
            : Effect.map(below.stat(path), (info) => ({ ...info, size: FileSystem.Size(b.length) }))
        }
      })
    })
  )

const decodeGameLog = makeDecoder(Hallyu.GameLogSchema)

/** A Hallyu Hex game log or a list of them, decoded loosely: what replay needs. */
interface LogShape {
  readonly deckHash: string
}

const gameLogsOf = (value: unknown): ReadonlyArray<unknown> =>
  Array.isArray(value) ? value : typeof value === "object" && value !== null ? [value] : []

const isLog = (v: unknown): v is LogShape & Record<string, unknown> =>
  typeof v === "object" && v !== null && (v as { format?: unknown }).format === "hhx-log/1" &&
  typeof (v as { deckHash?: unknown }).deckHash === "string"

/**
 * Replays the game logs among `files` (already read texts) against the decks among them whose hash
 * matches: a fingerprint that differs, an illegal action or an early end is reported where the
 * replay reports it. A log whose deck is not in the workspace gets one `unknown_reference` warning.
 */
export const checkGameLogs = (
  files: ReadonlyArray<{ readonly file: string; readonly text: string }>
): ReadonlyArray<Diagnostic> => {
  const engines = new Map<string, Hallyu.Engine>()
  for (const f of files) {
    const doc = parseJson(f.text, { file: f.file })
    if (Either.isLeft(doc)) continue
    const value = doc.right.value
    if (typeof value !== "object" || value === null || !("manifest_version" in value)) continue
    const validated = Hallyu.validateDeck(doc.right)
    if (validated.deck === undefined) continue
    const engine = Hallyu.makeEngine(validated.deck)
    if (Either.isRight(engine)) engines.set(engine.right.compiled.hash, engine.right)
  }
  const out: Array<Diagnostic> = []
  for (const f of files) {
    const doc = parseJson(f.text, { file: f.file })
    if (Either.isLeft(doc)) continue
    const logs = gameLogsOf(doc.right.value)
    if (logs.length === 0 || !logs.every(isLog)) continue
    logs.forEach((raw, k) => {
      const at = Array.isArray(doc.right.value) ? `/${k}` : ""
      const decoded = decodeGameLog(raw, doc.right, at)
      if (Either.isLeft(decoded)) return out.push(...decoded.left)
      const engine = engines.get(decoded.right.deckHash)
      if (engine === undefined) {
        return out.push(
          diagnostic(
            "unknown_reference",
            `no Hallyu Hex deck in the workspace has hash ${decoded.right.deckHash}: the log is not replayed`,
            { file: f.file, path: `${at}/deckHash`, subject: decoded.right.deckHash },
            "warning"
          )
        )
      }
      const r = Hallyu.replay(engine, decoded.right)
      if (Either.isLeft(r)) out.push({ ...r.left, file: f.file, path: r.left.path ?? `${at}/actions` })
    })
  }
  return out
}

/** Every diagnostic of the folders and files `roots`, as the editor sees them. */
export const checkRoots = (
  roots: ReadonlyArray<string>,
  overlay: Overlay
): Effect.Effect<ReadonlyArray<Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const report = yield* validatePaths(roots, documentKinds)
    const fs = yield* FileSystem.FileSystem
    // Game logs: standalone JSON files `validate` leaves unclassified; read through the overlay.
    const candidates = report.diagnostics.filter((d) => d.code === "unclassified_file" && d.file !== undefined)
      .map((d) => d.file ?? "")
    const decks = report.documents.filter((d) => d.kind === "Hallyu Hex deck").map((d) => d.file)
    const texts: Array<{ file: string; text: string }> = []
    for (const file of [...decks, ...candidates]) {
      const text = yield* Effect.either(fs.readFileString(file))
      if (Either.isRight(text)) texts.push({ file, text: text.right })
    }
    const logs = checkGameLogs(texts)
    const logFiles = new Set(
      texts.filter((t) => !decks.includes(t.file)).flatMap((t) => {
        const doc = parseJson(t.text, { file: t.file })
        return Either.isRight(doc) && gameLogsOf(doc.right.value).every(isLog) &&
            gameLogsOf(doc.right.value).length > 0
          ? [t.file]
          : []
      })
    )
    const kept = report.diagnostics.filter((d) => !(d.code === "unclassified_file" && logFiles.has(d.file ?? "")))
    return [...kept, ...logs]
  }).pipe(Effect.provide(overlayFileSystem(overlay)))
