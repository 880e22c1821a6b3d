/**
 * Loading a content package: a folder with `manifest.json` and content files
 * (`*.json`, any depth, read in ordinal path order). Markdown files are the
 * package's documentation and are not content, nor are the JSON Schemas
 * `cardfx schema` writes (recognized by their `$id`); any other file is reported as
 * `unclassified_file`, never skipped silently.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import { makeDecoder } from "../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { isCardfxJsonSchema, type JsonDocument } from "../kernel/Json.js"
import { listFiles, readJsonFile } from "../kernel/JsonFile.js"
import { ContentFile, Manifest } from "./schema/Package.js"

/** One decoded content file of a package. */
export interface PackageFile {
  readonly file: string
  readonly content: ContentFile
  /** The file's text, to locate diagnostics found after decoding. */
  readonly text: string
}

/** A package whose files all decoded. */
export interface DecodedPackage {
  readonly dir: string
  readonly manifestFile: string
  readonly manifest: Manifest
  readonly files: ReadonlyArray<PackageFile>
}

export interface LoadedPackage {
  /** Present when every file decoded; the diagnostics may still hold warnings. */
  readonly package: DecodedPackage | undefined
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** Files looked at (for the validate summary). */
  readonly files: ReadonlyArray<string>
  /**
   * Standalone documents inside the package folder that are not content: a
   * scenario (a document with a `scenario` key; `cardfx init DIR` puts one in
   * `DIR/scenarios/`). `validate` checks them as scenarios; they are not part
   * of the package (nor of its content hash).
   */
  readonly documents?: ReadonlyArray<string>
}

/** True when a path relative to the package root lies in a dot-folder or node_modules. */
const inSkippedFolder = (relative: string): boolean =>
  relative.split("/").slice(0, -1).some((segment) => segment.startsWith(".") || segment === "node_modules")

/** A document with a `scenario` key is a scenario, never content (a content file's Schema has no such key). */
const isStandaloneDocument = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.prototype.hasOwnProperty.call(value, "scenario")

const decodeManifest = makeDecoder(Manifest)
const decodeContent = makeDecoder(ContentFile)

/** Decodes a manifest document. */
export const decodeManifestDocument = (doc: JsonDocument): Either.Either<Manifest, ReadonlyArray<Diagnostic>> =>
  decodeManifest(doc.value, doc)

/** Decodes a content-file document. */
export const decodeContentDocument = (doc: JsonDocument): Either.Either<ContentFile, ReadonlyArray<Diagnostic>> =>
  decodeContent(doc.value, doc)

/** Decodes a package from parsed documents (pure). */
export const decodePackage = (
  dir: string,
  manifest: JsonDocument,
  content: ReadonlyArray<JsonDocument>
): { readonly package: DecodedPackage | undefined; readonly diagnostics: ReadonlyArray<Diagnostic> } => {
  const diagnostics: Array<Diagnostic> = []
  const m = decodeManifestDocument(manifest)
  if (Either.isLeft(m)) diagnostics.push(...m.left)
  const files: Array<PackageFile> = []
  for (const doc of content) {
    const c = decodeContentDocument(doc)
    if (Either.isLeft(c)) diagnostics.push(...c.left)
    else files.push({ file: doc.file ?? "", content: c.right, text: doc.text })
  }
  if (diagnostics.length > 0 || Either.isLeft(m)) return { package: undefined, diagnostics }
  return { package: { dir, manifestFile: manifest.file ?? "", manifest: m.right, files }, diagnostics }
}

/** True when a file name is the package manifest. */
export const isManifestFile = (file: string): boolean => file === "manifest.json" || file.endsWith("/manifest.json")

/** Reads and decodes a package folder. */
export const loadPackage = (dir: string): Effect.Effect<LoadedPackage, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const root = dir.replace(/\/+$/, "")
    const all = yield* listFiles(root)
    if (Either.isLeft(all)) return { package: undefined, diagnostics: [all.left], files: [] }
    // Files inside dot-folders (.vscode, .git, ...) and node_modules are not the package's, as `validate` skips them.
    const listed = { right: all.right.filter((f) => !inSkippedFolder(f.slice(root.length + 1))) }
    const manifestFile = `${root}/manifest.json`
    const diagnostics: Array<Diagnostic> = []
    const docs: Array<JsonDocument> = []
    let manifest: JsonDocument | undefined
    const documents: Array<string> = []
    for (const file of listed.right) {
      if (file.endsWith(".md")) continue
      if (!file.endsWith(".json")) {
        diagnostics.push(diagnostic("unclassified_file", `${file} is not a JSON content file`, { file, path: "" }))
        continue
      }
      const parsed = yield* readJsonFile(file)
      if (Either.isLeft(parsed)) {
        diagnostics.push(parsed.left)
        continue
      }
      if (file === manifestFile) manifest = parsed.right
      // A scenario beside the content is checked as a scenario, not as content.
      else if (isStandaloneDocument(parsed.right.value)) documents.push(file)
      // A JSON Schema `cardfx schema` wrote (for the editor) is not content.
      else if (!isCardfxJsonSchema(parsed.right.value)) docs.push(parsed.right)
    }
    const files = listed.right.filter((f) => !f.endsWith(".md") && !documents.includes(f))
    if (manifest === undefined) {
      if (!listed.right.includes(manifestFile)) {
        diagnostics.push(
          diagnostic("file_unreadable", `${root} has no manifest.json, so it is not a content package`, {
            file: manifestFile,
            path: ""
          })
        )
      }
      return { package: undefined, diagnostics, files, documents }
    }
    const decoded = decodePackage(root, manifest, docs)
    diagnostics.push(...decoded.diagnostics)
    return { package: diagnostics.length === 0 ? decoded.package : undefined, diagnostics, files, documents }
  })
