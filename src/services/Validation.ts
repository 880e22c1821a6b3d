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
import { type DecodedPackage, loadPackage } from "../composition/ContentPackage.js"
import { publish } from "../composition/Publication.js"
import { Diagnostic, diagnostic, sortDiagnostics } from "../kernel/Diagnostic.js"
import { isCardfxJsonSchema, type JsonDocument } from "../kernel/Json.js"
import { fsReason, readJsonFile } from "../kernel/JsonFile.js"
import { compareOrdinal } from "../kernel/Ordinal.js"

/** A kind of standalone JSON document `validate` recognizes. */
export interface DocumentKind {
  readonly name: string
  /** Cheap structural check on the parsed value (a discriminating key). */
  readonly matches: (value: unknown) => boolean
  readonly validate: (doc: JsonDocument) => ReadonlyArray<Diagnostic>
  /** What a valid document refers to (files, published IDs), checked against the file system. */
  readonly references?: (doc: JsonDocument) => Effect.Effect<ReadonlyArray<Diagnostic>, never, FileSystem.FileSystem>
}

/** Options of a validation walk. */
export interface ValidationOptions {
  /** Also walk `node_modules` and dot-folders (`.git`, `.cardfx`, ...); skipped by default. */
  readonly includeHidden?: boolean
}

/** How {@link validatePaths} may be run: the walk's options, and where the standalone files are checked. */
export interface ValidatePathsOptions<E> extends ValidationOptions {
  /**
   * Validates the standalone files (sorted; the report is the same whatever
   * order the answers are computed in, as long as they come back in this
   * order): worker pools plug in here. Default: {@link validateFile}, one by one.
   */
  readonly validateFiles?: (files: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<FileValidation>, E>
}

/** The `$id` prefix of the JSON Schemas `cardfx schema` writes: such files are recognized, not reported. */
export { JSON_SCHEMA_ID_PREFIX } from "../kernel/Json.js"

const isSkipped = (name: string): boolean => name.startsWith(".") || name === "node_modules"

/**
 * Every regular file under a folder, sorted, and a diagnostic for every entry
 * that is not one: a dangling symbolic link, a symbolic link loop, a FIFO, a
 * socket or a device. Folders are entered once each (by real path), so a
 * link to an ancestor is reported instead of walked forever.
 */
export const walkFolder = (
  dir: string,
  options: ValidationOptions = {}
): Effect.Effect<
  { readonly files: ReadonlyArray<string>; readonly diagnostics: ReadonlyArray<Diagnostic> },
  never,
  FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const files: Array<string> = []
    const diagnostics: Array<Diagnostic> = []
    const visited = new Set<string>()
    const problem = (file: string, why: string) =>
      diagnostics.push(diagnostic("file_unreadable", `cannot read ${file}: ${why}`, { file, path: "" }))
    const visit = (folder: string): Effect.Effect<void> =>
      Effect.gen(function*() {
        const real = yield* Effect.either(fs.realPath(folder))
        const key = Either.isRight(real) ? real.right : folder
        if (visited.has(key)) return problem(folder, "a symbolic link loop (this folder is already being walked)")
        visited.add(key)
        const entries = yield* Effect.either(fs.readDirectory(folder))
        if (Either.isLeft(entries)) return problem(folder, fsReason(entries.left))
        for (const name of [...entries.right].sort(compareOrdinal)) {
          const full = `${folder === "/" ? "" : folder}/${name}`
          const info = yield* Effect.either(fs.stat(full))
          if (Either.isLeft(info)) {
            const link = yield* Effect.either(fs.readLink(full))
            const loop = /ELOOP|too many symbolic links/i.test(info.left.message)
            problem(
              full,
              loop
                ? "a symbolic link loop"
                : Either.isRight(link)
                ? `a dangling symbolic link (to ${link.right})`
                : fsReason(info.left)
            )
            continue
          }
          const type = info.right.type
          if (type === "Directory") {
            if (!options.includeHidden && isSkipped(name)) continue
            yield* visit(full)
          } else if (type === "File") files.push(full)
          else problem(full, `not a regular file (a ${type === "FIFO" ? "FIFO" : type.toLowerCase()})`)
        }
      })
    yield* visit(dir)
    return { files, diagnostics }
  })

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

/** Reads, classifies and validates one standalone (non-package, non-documentation) file, and what it refers to. */
export const validateFile = (
  file: string,
  kinds: ReadonlyArray<DocumentKind>
): Effect.Effect<FileValidation, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    if (!file.endsWith(".json")) {
      return {
        file,
        kind: null,
        diagnostics: [diagnostic("unclassified_file", `${file} is not a JSON file cardfx knows`, { file, path: "" })]
      }
    }
    const parsed = yield* readJsonFile(file)
    if (Either.isLeft(parsed)) return { file, kind: null, diagnostics: [parsed.left] }
    if (isCardfxJsonSchema(parsed.right.value)) return { file, kind: "JSON Schema", diagnostics: [] }
    const kind = kinds.find((k) => k.matches(parsed.right.value))
    if (kind === undefined) {
      const why = `${file} is not a content package file (no manifest.json above it), a Hallyu Hex deck or a scenario`
      return {
        file,
        kind: null,
        diagnostics: [diagnostic("unclassified_file", why, { file, path: "", line: 1, column: 1 })]
      }
    }
    const own = kind.validate(parsed.right)
    const refs = own.length === 0 && kind.references !== undefined ? yield* kind.references(parsed.right) : []
    return { file, kind: kind.name, diagnostics: [...own, ...refs] }
  })

/** Validates files and folders. */
export const validatePaths = <E = never>(
  paths: ReadonlyArray<string>,
  kinds: ReadonlyArray<DocumentKind>,
  options: ValidatePathsOptions<E> = {}
): Effect.Effect<ValidationReport, E, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const diagnostics: Array<Diagnostic> = []
    const packageDirs = new Set<string>()
    const looseFiles = new Set<string>()
    for (const raw of paths) {
      const path = raw.length > 1 ? raw.replace(/\/+$/, "") : raw
      const info = yield* Effect.either(fs.stat(path))
      if (Either.isLeft(info)) {
        diagnostics.push(
          diagnostic("file_unreadable", `cannot read ${path}: ${fsReason(info.left)}`, { file: path, path: "" })
        )
        continue
      }
      if (info.right.type !== "File" && info.right.type !== "Directory") {
        diagnostics.push(
          diagnostic("file_unreadable", `cannot read ${path}: not a regular file or folder`, { file: path, path: "" })
        )
        continue
      }
      if (info.right.type === "File") {
        if (path === "manifest.json" || path.endsWith("/manifest.json")) packageDirs.add(dirOf(path))
        else looseFiles.add(path)
        continue
      }
      const listed = yield* walkFolder(path, options)
      diagnostics.push(...listed.diagnostics)
      const roots = listed.files.filter((f) => f.endsWith("/manifest.json")).map(dirOf)
      for (const r of roots) packageDirs.add(r)
      for (const f of listed.files) if (!roots.some((r) => f.startsWith(`${r}/`))) looseFiles.add(f)
    }

    // A package nested in another is part of the outer one: keep the outermost roots.
    const roots = [...packageDirs].sort(compareOrdinal).filter((d, _, all) =>
      !all.some((o) => o !== d && d.startsWith(`${o}/`))
    )
    const loaded = yield* Effect.forEach(roots, loadPackage)
    let files = 0
    const packages: Array<DecodedPackage> = []
    for (const l of loaded) {
      files += l.files.length
      diagnostics.push(...l.diagnostics)
      if (l.package !== undefined) packages.push(l.package)
      // A scenario inside a package folder is checked as a scenario (cardfx init DIR writes one).
      for (const d of l.documents ?? []) looseFiles.add(d)
    }
    for (const group of dependencyGroups(packages)) diagnostics.push(...publish(group).diagnostics)

    const documents: Array<{ file: string; kind: string }> = []
    const loose = [...looseFiles].sort(compareOrdinal).filter((f) => !isDocumentation(f))
    const checked = options.validateFiles !== undefined
      ? yield* options.validateFiles(loose)
      : yield* Effect.forEach(loose, (f) => validateFile(f, kinds))
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
    .map((g) =>
      g.sort((a, b) => compareOrdinal(a.manifest.packageId, b.manifest.packageId) || compareOrdinal(a.dir, b.dir))
    )
    .sort((a, b) => compareOrdinal(a[0]?.dir ?? "", b[0]?.dir ?? ""))
}
