/**
 * Runtime loading as services. `ContentLoader` reads content package folders
 * through `@effect/platform`'s `FileSystem` (the real disk in the live layer,
 * an in-memory file map in the test layer: the same loader code runs in both)
 * and publishes them into a pinned `Runtime`, and runs batch validation over
 * files and folders (the engine of `cardfx validate`). `Catalog` holds the one
 * published `Runtime` the other services of an application work against.
 * (Hallyu Hex decks are read by the `HallyuHex` service over the same
 * `FileSystem`.)
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { SystemError } from "@effect/platform/Error"
import { Context, Effect, Layer, Option, type Stream, SubscriptionRef } from "effect"
import { type LoadedPackage, loadPackage } from "../composition/ContentPackage.js"
import { publish } from "../composition/Publication.js"
import type { Runtime } from "../composition/Runtime.js"
import { type Diagnostic, diagnostic, sortDiagnostics } from "../kernel/Diagnostic.js"
import { type ChannelError, domainChannel } from "../kernel/ErrorChannel.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import { traced } from "../kernel/Tracing.js"
import { documentKinds } from "./DocumentKinds.js"
import { validatePaths, type ValidationReport } from "./Validation.js"

/** Every diagnostic of loading and publishing a set of packages, and the runtime when there is no error. */
export interface CatalogReport {
  readonly runtime: Runtime | undefined
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

const isError = (d: Diagnostic): boolean => d.severity === "error"

/** What loading and publishing content can fail with: the input, content, compiler, composition and planner codes. */
export const loadErrors = domainChannel(["input", "content", "compiler", "composition", "planner"])
/** The tagged errors of loading and publishing content (each with every diagnostic of the report). */
export type LoadError = ChannelError<typeof loadErrors>

/** The operations of the content loader. */
export interface ContentLoaderService {
  /** Reads and decodes package folders (each with its own diagnostics). */
  readonly loadPackages: (dirs: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<LoadedPackage>>
  /** Loads and publishes package folders together; every diagnostic, never a failure. */
  readonly report: (dirs: ReadonlyArray<string>) => Effect.Effect<CatalogReport>
  /** Loads and publishes package folders; fails with the first error's tagged error, carrying every diagnostic. */
  readonly load: (dirs: ReadonlyArray<string>) => Effect.Effect<Runtime, LoadError>
  /**
   * Batch validation of files and folders (packages, Hallyu Hex decks,
   * scenarios), exactly as `cardfx validate` does it: every diagnostic, sorted.
   */
  readonly validate: (paths: ReadonlyArray<string>) => Effect.Effect<ValidationReport>
}

const makeLoader = Effect.map(FileSystem.FileSystem, (fs): ContentLoaderService => {
  const provide = <A>(eff: Effect.Effect<A, never, FileSystem.FileSystem>): Effect.Effect<A> =>
    Effect.provideService(eff, FileSystem.FileSystem, fs)
  const loadPackages = (dirs: ReadonlyArray<string>) => provide(Effect.forEach(dirs, loadPackage))
  const report = (dirs: ReadonlyArray<string>): Effect.Effect<CatalogReport> =>
    Effect.map(loadPackages(dirs), (loaded) => {
      const loadDiagnostics = loaded.flatMap((l) => l.diagnostics)
      const packages = loaded.flatMap((l) => (l.package === undefined ? [] : [l.package]))
      if (loadDiagnostics.some(isError) || packages.length < dirs.length) {
        return { runtime: undefined, diagnostics: sortDiagnostics(loadDiagnostics) }
      }
      const published = publish(packages)
      return {
        runtime: published.runtime,
        diagnostics: sortDiagnostics([...loadDiagnostics, ...published.diagnostics])
      }
    })
  return {
    loadPackages,
    report,
    validate: (paths) => provide(validatePaths(paths, documentKinds)),
    load: (dirs) =>
      Effect.flatMap(
        report(dirs),
        (r) =>
          r.runtime !== undefined
            ? Effect.succeed(r.runtime)
            : loadErrors.fail(
              r.diagnostics.some(isError)
                ? r.diagnostics
                : [diagnostic("file_unreadable", `cannot publish ${dirs.join(", ")}`)]
            )
      )
  }
})

// ---------------------------------------------------------------------------
// An in-memory file system (the test layer)

const normalize = (p: string): string => p.replace(/\/+/g, "/").replace(/^\.\//, "").replace(/\/$/, "")

const notFound = (method: string, path: string) =>
  new SystemError({
    reason: "NotFound",
    module: "FileSystem",
    method,
    pathOrDescriptor: path,
    description: "no such file or directory"
  })

const info = (type: FileSystem.File.Type, size: number): FileSystem.File.Info => ({
  type,
  mtime: Option.none(),
  atime: Option.none(),
  birthtime: Option.none(),
  dev: 0,
  ino: Option.none(),
  mode: 0o644,
  nlink: Option.none(),
  uid: Option.none(),
  gid: Option.none(),
  rdev: Option.none(),
  size: FileSystem.Size(size),
  blksize: Option.none(),
  blocks: Option.none()
})

/**
 * A read-only `FileSystem` over a map of path → text (paths use "/"; folders
 * are implied by the paths). Only what the loaders use is implemented; every
 * other operation fails as the no-op file system does.
 */
export const memoryFileSystem = (files: Readonly<Record<string, string>>): FileSystem.FileSystem => {
  const encoder = new TextEncoder()
  const bytes = new Map<string, Uint8Array>()
  for (const [path, text] of Object.entries(files)) bytes.set(normalize(path), encoder.encode(text))
  const isDir = (p: string): boolean => {
    const prefix = p === "" ? "" : `${p}/`
    for (const k of bytes.keys()) if (k.startsWith(prefix)) return true
    return false
  }
  return FileSystem.makeNoop({
    stat: (path) => {
      const p = normalize(path)
      const b = bytes.get(p)
      if (b !== undefined) return Effect.succeed(info("File", b.byteLength))
      return isDir(p) ? Effect.succeed(info("Directory", 0)) : Effect.fail(notFound("stat", path))
    },
    exists: (path) => Effect.succeed(bytes.has(normalize(path)) || isDir(normalize(path))),
    readFile: (path) => {
      const b = bytes.get(normalize(path))
      return b === undefined ? Effect.fail(notFound("readFile", path)) : Effect.succeed(b)
    },
    readFileString: (path) => {
      const b = bytes.get(normalize(path))
      return b === undefined
        ? Effect.fail(notFound("readFileString", path))
        : Effect.succeed(new TextDecoder().decode(b))
    },
    readDirectory: (path, options) => {
      const p = normalize(path)
      if (!isDir(p)) return Effect.fail(notFound("readDirectory", path))
      const prefix = p === "" ? "" : `${p}/`
      const out = new Set<string>()
      for (const k of bytes.keys()) {
        if (!k.startsWith(prefix)) continue
        const rest = k.slice(prefix.length).split("/")
        if (options?.recursive === true) { for (let i = 1; i <= rest.length; i++) out.add(rest.slice(0, i).join("/")) }
        else if (rest[0] !== undefined) out.add(rest[0])
      }
      return Effect.succeed([...out].sort(compareOrdinal))
    }
  })
}

/** The content loader service. */
export class ContentLoader extends Context.Tag("cardfx/ContentLoader")<ContentLoader, ContentLoaderService>() {
  /** Over whatever `FileSystem` the application provides. */
  static readonly layer: Layer.Layer<ContentLoader, never, FileSystem.FileSystem> = Layer.effect(
    ContentLoader,
    Effect.map(makeLoader, (s) => traced("ContentLoader", s))
  )
  /** Over the real disk (Node). */
  static readonly layerNode: Layer.Layer<ContentLoader> = ContentLoader.layer.pipe(Layer.provide(NodeFileSystem.layer))
  /** Over an in-memory map of path → file text (tests): the same loader code, no disk. */
  static readonly layerMemory = (files: Readonly<Record<string, string>>): Layer.Layer<ContentLoader> =>
    ContentLoader.layer.pipe(Layer.provide(Layer.succeed(FileSystem.FileSystem, memoryFileSystem(files))))
}

/** The published catalog an application works against: one pinned `Runtime`. */
export class Catalog extends Context.Tag("cardfx/Catalog")<Catalog, { readonly runtime: Runtime }>() {
  /** A catalog over a runtime built elsewhere (tests, or a runtime published by hand). */
  static readonly fromRuntime = (runtime: Runtime): Layer.Layer<Catalog> => Layer.succeed(Catalog, { runtime })
  /** Loads and publishes the package folders once, when the layer is built. */
  static readonly load = (dirs: ReadonlyArray<string>): Layer.Layer<Catalog, LoadError, ContentLoader> =>
    Layer.effect(
      Catalog,
      Effect.map(
        Effect.flatMap(ContentLoader, (l) => l.load(dirs)),
        (runtime) => ({ runtime })
      )
    )
}

/**
 * A catalog that can change while an application runs (`cardfx serve`'s hot
 * reload): the published runtime lives in a `SubscriptionRef`, so a request
 * reads the runtime current when it starts and finishes on it, and a reload
 * swaps it in one atomic `set`. Readers never see a half-published runtime.
 */
export interface LiveCatalogService {
  /** The runtime current now. */
  readonly current: Effect.Effect<Runtime>
  /** Publishes a new runtime (atomic). */
  readonly set: (runtime: Runtime) => Effect.Effect<void>
  /** The current runtime, then every later one. */
  readonly changes: Stream.Stream<Runtime>
}

/** The switchable catalog. */
export class LiveCatalog extends Context.Tag("cardfx/LiveCatalog")<LiveCatalog, LiveCatalogService>() {
  /** Over a first runtime. */
  static readonly make = (runtime: Runtime): Effect.Effect<LiveCatalogService> =>
    Effect.map(SubscriptionRef.make(runtime), (ref) =>
      traced("LiveCatalog", {
        current: SubscriptionRef.get(ref),
        set: (r: Runtime) => SubscriptionRef.set(ref, r),
        changes: ref.changes
      }))
  /** Starts from a runtime built elsewhere. */
  static readonly fromRuntime = (runtime: Runtime): Layer.Layer<LiveCatalog> =>
    Layer.effect(LiveCatalog, LiveCatalog.make(runtime))
  /** Loads and publishes the package folders, then serves them switchably. */
  static readonly load = (dirs: ReadonlyArray<string>): Layer.Layer<LiveCatalog, LoadError, ContentLoader> =>
    Layer.effect(LiveCatalog, Effect.flatMap(Effect.flatMap(ContentLoader, (l) => l.load(dirs)), LiveCatalog.make))
}
