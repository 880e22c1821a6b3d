/**
 * One layer that provides every cardfx service with no leftover requirement:
 * `CardfxLive` (files through the real FileSystem, the SQLite ledger store by
 * default, PostgreSQL when `store` is a `postgres://` URL) and `CardfxTest`
 * (an in-memory file map or a runtime built by hand, and an in-memory SQLite
 * store). Files — content packages and Hallyu Hex decks — are read through
 * one `FileSystem`: the disk in the live layer, the file map in the test one. The catalog is loaded and published once, when the layer is built;
 * the executor works against that catalog.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Effect, Layer } from "effect"
import { CardBundleCompiler } from "../composition/BundleCompiler.js"
import { CardExecutor, make as makeExecutor } from "../composition/executor/CardExecutor.js"
import { CardTransformationPlanner } from "../composition/planner/Planner.js"
import { CardResolver } from "../composition/Resolver.js"
import type { Runtime } from "../composition/Runtime.js"
import { LedgerStore, type StoreOpenError } from "../composition/store/LedgerStore.js"
import { HallyuHex } from "../hallyu/Service.js"
import { CardCompiler } from "./CardCompiler.js"
import { Catalog, ContentLoader, type LoadError, memoryFileSystem } from "./Catalog.js"

/** Every service `CardfxLive` and `CardfxTest` provide. */
export type CardfxServices =
  | ContentLoader
  | Catalog
  | CardCompiler
  | CardBundleCompiler
  | CardResolver
  | CardTransformationPlanner
  | LedgerStore
  | CardExecutor
  | HallyuHex

/** The default ledger store location (a SQLite file, relative to the working directory). */
export const DEFAULT_STORE = ".cardfx/ledger.db"

/** Options of the live layer. */
export interface CardfxLiveOptions {
  /** Content package folders published together as the catalog. */
  readonly packages: ReadonlyArray<string>
  /** A SQLite file path (default `.cardfx/ledger.db`) or a `postgres://` / `postgresql://` URL. */
  readonly store?: string
  /** Table prefix, to keep several stores in one database. */
  readonly tablePrefix?: string
}

/** Options of the test layer: content from an in-memory file map (`packages` are folders in it) or a ready runtime. */
export type CardfxTestOptions =
  | { readonly files: Readonly<Record<string, string>>; readonly packages: ReadonlyArray<string> }
  | { readonly runtime: Runtime; readonly files?: Readonly<Record<string, string>> }

/** What building the all-in-one layers can fail with: loading the content, opening the ledger store. */
export type CardfxLayerError = LoadError | StoreOpenError

const pure = Layer.mergeAll(CardCompiler.layer, CardBundleCompiler.layer, CardResolver.layer)

const executorFromCatalog: Layer.Layer<CardExecutor, never, Catalog> = Layer.effect(
  CardExecutor,
  Effect.map(Catalog, (c) => makeExecutor(c.runtime))
)

const assemble = (
  fileSystem: Layer.Layer<FileSystem.FileSystem>,
  catalog: Layer.Layer<Catalog, LoadError, ContentLoader>,
  store: Layer.Layer<LedgerStore, StoreOpenError>
): Layer.Layer<CardfxServices, CardfxLayerError> => {
  const files = Layer.mergeAll(ContentLoader.layer, HallyuHex.layer).pipe(Layer.provide(fileSystem))
  const content = catalog.pipe(Layer.provideMerge(files))
  const planning = CardTransformationPlanner.layer.pipe(Layer.provideMerge(store))
  const execution = executorFromCatalog.pipe(Layer.provideMerge(content))
  return Layer.mergeAll(pure, planning, execution)
}

const memory = (files: Readonly<Record<string, string>>): Layer.Layer<FileSystem.FileSystem> =>
  Layer.succeed(FileSystem.FileSystem, memoryFileSystem(files))

/** The live layer: packages read from disk, the ledger store in a SQLite file or PostgreSQL. */
export const CardfxLive = (options: CardfxLiveOptions): Layer.Layer<CardfxServices, CardfxLayerError> =>
  assemble(
    NodeFileSystem.layer,
    Catalog.load(options.packages),
    LedgerStore.layerFor(
      options.store ?? DEFAULT_STORE,
      options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }
    )
  )

/** The test layer: content in memory, the ledger store in an in-memory SQLite database. */
export const CardfxTest = (options: CardfxTestOptions): Layer.Layer<CardfxServices, CardfxLayerError> =>
  "runtime" in options
    ? assemble(memory(options.files ?? {}), Catalog.fromRuntime(options.runtime), LedgerStore.layerMemory)
    : assemble(memory(options.files), Catalog.load(options.packages), LedgerStore.layerMemory)
