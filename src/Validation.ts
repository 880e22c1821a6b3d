/**
 * Batch validation over files and folders, for designers and CI: every
 * problem with its file, JSON path and code, never a crash and never a file
 * skipped silently.
 *
 * Classification: a folder holding `manifest.json` is a composition content
 * package (every file below it belongs to it); any other `.json` file is
 * classified by its content (a Hallyu Hex deck, a scenario, ...); Markdown
 * files are documentation and are not validated; anything else is
 * `unclassified_file`. Packages are published together with the packages
 * they depend on (and that depend on them) among those found.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { type DecodedPackage, loadPackage } from "./composition/ContentPackage.js"
import { publish } from "./composition/Publication.js"
import { Diagnostic, diagnostic, sortDiagnostics } from "./kernel/Diagnostic.js"
import type { JsonDocument } from "./kernel/Json.js"
import { listFiles, readJsonFile } from "./kernel/JsonFile.js"
import { compareOrdinal } from "./kernel/Ordinal.js"

/** A kind of standalone JSON document `validate` recognizes. */
export interface DocumentKind {
  readonly name: string
  /** Cheap structural check on the parsed value (a discriminating key). */
  readonly matches: (value: unknown) => boolean
  readonly validate: (doc: JsonDocument) => ReadonlyArray<Diagnostic>
}

export interface ValidationReport {
  /** Files looked at (documentation excluded). */
  readonly files: number
  readonly packages: ReadonlyArray<DecodedPackage>
  /** What each standalone document was classified as: file → kind name. */
  readonly documents: ReadonlyArray<{ readonly file: string; readonly kind: string }>
  /** Sorted and de-duplicated. */
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

const isDocumentation = (file: string): boolean => file.endsWith(".md")

/** One standalone file checked: what it was classified as (or null) and its diagnostics. */
export const FileValidation = Schema.Struct({
  file: Schema.String,
  kind: Schema.NullOr(Schema.String),
  diagnostics: Schema.Array(Diagnostic)
})
export type FileValidation = typeof FileValidation.Type

/** Reads, classifies and validates one standalone (non-package, non-documentation) file. */
export const validateFile = (file: string, kinds: ReadonlyArray<DocumentKind>): Effect.Effect<FileValidation, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    if (!file.endsWith(".json")) {
      return { file, kind: null, diagnostics: [diagnostic("unclassified_file", `${file} is not a JSON file cardfx knows`, { file, path: "" })] }
    }
    const parsed = yield* readJsonFile(file)
    if (Either.isLeft(parsed)) return { file, kind: null, diagnostics: [parsed.left] }
    const kind = kinds.find((k) => k.matches(parsed.right.value))
    if (kind === undefined) {
      return {
        file,
        kind: null,
        diagnostics: [
          diagnostic("unclassified_file", `${file} is not a content package file (no manifest.json above it), a Hallyu Hex deck or a scenario`, {
            file,
            path: "",
            line: 1,
            column: 1
          })
        ]
      }
    }
    return { file, kind: kind.name, diagnostics: kind.validate(parsed.right) }
  })

/** How {@link validatePaths} may be run. */
export interface ValidatePathsOptions<E> {
  /**
   * Validates the standalone files (sorted; the report is the same whatever
   * order the answers are computed in, as long as they come back in this
   * order): worker pools plug in here. Default: {@link validateFile}, one by one.
   */
  readonly validateFiles?: (files: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<FileValidation>, E>
}

/** Validates files and folders. */
export const validatePaths = <E = never>(
  paths: ReadonlyArray<string>,
  kinds: ReadonlyArray<DocumentKind>,
  options?: ValidatePathsOptions<E>
): Effect.Effect<ValidationReport, E, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const diagnostics: Array<Diagnostic> = []
    const packageDirs = new Set<string>()
    const looseFiles = new Set<string>()
    for (const raw of paths) {
      const path = raw.length > 1 ? raw.replace(/\/+$/, "") : raw
      const info = yield* Effect.either(fs.stat(path))
      if (Either.isLeft(info)) {
        diagnostics.push(diagnostic("file_unreadable", `cannot read ${path}: ${info.left.message}`, { file: path, path: "" }))
        continue
      }
      if (info.right.type === "File") {
        if (path === "manifest.json" || path.endsWith("/manifest.json")) packageDirs.add(dirOf(path))
        else looseFiles.add(path)
        continue
      }
      const listed = yield* listFiles(path)
      if (Either.isLeft(listed)) {
        diagnostics.push(listed.left)
        continue
      }
      const roots = listed.right.filter((f) => f.endsWith("/manifest.json")).map(dirOf)
      for (const r of roots) packageDirs.add(r)
      for (const f of listed.right) if (!roots.some((r) => f.startsWith(`${r}/`))) looseFiles.add(f)
    }

    // A package nested in another is part of the outer one: keep the outermost roots.
    const roots = [...packageDirs].sort(compareOrdinal).filter((d, _, all) => !all.some((o) => o !== d && d.startsWith(`${o}/`)))
    const loaded = yield* Effect.forEach(roots, loadPackage)
    let files = 0
    const packages: Array<DecodedPackage> = []
    for (const l of loaded) {
      files += l.files.length
      diagnostics.push(...l.diagnostics)
      if (l.package !== undefined) packages.push(l.package)
    }
    for (const group of dependencyGroups(packages)) diagnostics.push(...publish(group).diagnostics)

    const documents: Array<{ file: string; kind: string }> = []
    const loose = [...looseFiles].sort(compareOrdinal).filter((f) => !isDocumentation(f))
    const checked = options?.validateFiles !== undefined ? yield* options.validateFiles(loose) : yield* Effect.forEach(loose, (f) => validateFile(f, kinds))
    for (const c of checked) {
      files++
      if (c.kind !== null) documents.push({ file: c.file, kind: c.kind })
      diagnostics.push(...c.diagnostics)
    }
    return { files, packages, documents, diagnostics: dedupe(sortDiagnostics(diagnostics)) }
  })

const dirOf = (file: string): string => {
  const i = file.lastIndexOf("/")
  return i < 0 ? "." : file.slice(0, i)
}

const dedupe = (ds: ReadonlyArray<Diagnostic>): Array<Diagnostic> => {
  const seen = new Set<string>()
  return ds.filter((d) => {
    const key = JSON.stringify(d)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Packages connected by dependencies, each group sorted by package ID. */
export const dependencyGroups = (packages: ReadonlyArray<DecodedPackage>): Array<Array<DecodedPackage>> => {
  const byId = new Map<string, Array<DecodedPackage>>()
  for (const p of packages) byId.set(p.manifest.packageId, [...(byId.get(p.manifest.packageId) ?? []), p])
  const parent = new Map<DecodedPackage, DecodedPackage>()
  const find = (p: DecodedPackage): DecodedPackage => {
    let r = p
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r) as DecodedPackage
    return r
  }
  const union = (a: DecodedPackage, b: DecodedPackage): void => {
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent.set(rb, ra)
  }
  for (const p of packages) {
    parent.set(p, parent.get(p) ?? p)
    for (const same of byId.get(p.manifest.packageId) ?? []) union(p, same)
    for (const dep of p.manifest.dependencies ?? []) for (const d of byId.get(dep) ?? []) union(p, d)
  }
  const groups = new Map<DecodedPackage, Array<DecodedPackage>>()
  for (const p of packages) {
    const r = find(p)
    groups.set(r, [...(groups.get(r) ?? []), p])
  }
  return [...groups.values()]
    .map((g) => g.sort((a, b) => compareOrdinal(a.manifest.packageId, b.manifest.packageId) || compareOrdinal(a.dir, b.dir)))
    .sort((a, b) => compareOrdinal(a[0]?.dir ?? "", b[0]?.dir ?? ""))
}
