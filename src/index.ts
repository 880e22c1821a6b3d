/**
 * `cardfx`: the public API, as Effect's own packages shape theirs — one
 * namespace per module, nothing at the top level but namespaces, and no
 * namespace named like a module of `effect` or a global:
 *
 * ```ts
 * import { Bundled, Cards, Instances, Served } from "cardfx"
 *
 * const layer = Served.layer({ packages: Bundled.packages, deckFile: Bundled.starterDeck, store: "app.db" })
 * const program = Effect.gen(function*() {
 *   const assessment = yield* (yield* Cards.Cards).assess({ cardId, command, activity, source })
 *   const outcome = yield* (yield* Instances.Instances).command({ instanceId, cardId, commandId, ... })
 * })
 * ```
 *
 * The services an application calls are `Context.Tag` classes with their
 * layers (`Cards.Cards`, `Instances.Instances`, `Games.Games`,
 * `Scenarios.Scenarios`, `Simulation.Simulation`, `Catalog.Catalog`, ...;
 * `Served.layer` provides what `cardfx serve` runs, without HTTP;
 * `Cardfx.CardfxLive` / `Cardfx.CardfxTest` the catalog, the store and the
 * engine's per-call services), errors are `Schema.TaggedError` classes
 * (`Errors`), one per code of the diagnostic table (`DiagnosticCode`).
 * Hallyu Hex is the `Hallyu` namespace; the content shipped in data/ is
 * `Bundled`. The per-call engine Tags (`Planner`, `Resolver`, `Executor`)
 * are the subpath `cardfx/engine`.
 *
 * The faces are subpaths of their own, so importing `cardfx` loads neither
 * the HTTP server nor the cluster: `cardfx/server` (the HTTP server
 * `cardfx serve` runs), `cardfx/client` (its typed client),
 * `cardfx/cluster` (simulation shards on `@effect/cluster`) and
 * `cardfx/testing` (the generative testing kit); `cardfx/engine` is no face,
 * the engine's per-call services.
 *
 * @since 0.1.0
 */

// ---------------------------------------------------------------- the kernel

/** Diagnostics: `{code, severity, message, ...}` with file/line/pointer, the `Diagnostic` Schema. @since 0.1.0 */
export * as Diagnostic from "./kernel/Diagnostic.js"
/** The one table of diagnostic codes: each code's error tag, exit class and HTTP status. @since 0.1.0 */
export * as DiagnosticCode from "./kernel/DiagnosticCode.js"
/** One `Schema.TaggedError` per code (`CardfxError`, `errorClassByCode`, `errorFromDiagnostic`). @since 0.1.0 */
export * as Errors from "./kernel/Errors.js"
/** Every limit (sizes, counts, depths) and the code that enforces it. @since 0.1.0 */
export * as Limits from "./kernel/Limits.js"
/** Step budgets. @since 0.1.0 */
export * as Budget from "./kernel/Budget.js"
/** Canonical JSON and sha256. @since 0.1.0 */
export * as Canonical from "./kernel/Canonical.js"
/** Schema decoding into located diagnostics. @since 0.1.0 */
export * as Decode from "./kernel/Decode.js"
/** Hardened JSON parsing (caps, duplicate keys, positions). @since 0.1.0 */
export * as Json from "./kernel/Json.js"
/** JSON files and folders through `@effect/platform`'s FileSystem. @since 0.1.0 */
export * as JsonFile from "./kernel/JsonFile.js"
/** Ordinal (code-unit) comparison. @since 0.1.0 */
export * as Ordinal from "./kernel/Ordinal.js"
/** The seeded RNG (xoshiro128**, state as data) and its service `Rng.Rng`. @since 0.1.0 */
export * as Rng from "./kernel/Rng.js"
/** Schema helpers (`SchemaExt.optional`). @since 0.1.0 */
export * as SchemaExt from "./kernel/SchemaExt.js"

// ---------------------------------------------------------------- composition: the content Schemas

/** Card bundles. @since 0.1.0 */
export * as Bundle from "./composition/schema/Bundle.js"
/** Cards and their effect components (`Card.Card`, `Card.Effect`, `Card.EffectComponent`, ...). @since 0.1.0 */
export * as Card from "./composition/schema/Card.js"
/** Modifiers: relics, buffs, attributes. @since 0.1.0 */
export * as Modifier from "./composition/schema/Modifier.js"
/** Package manifests and content documents. @since 0.1.0 */
export * as Package from "./composition/schema/Package.js"
/** Statuses. @since 0.1.0 */
export * as Status from "./composition/schema/Status.js"
/** Authored IDs and the vocabulary of symbols. @since 0.1.0 */
export * as Symbols from "./composition/schema/Symbols.js"
/** Transformations (upgrades), slots and activities. @since 0.1.0 */
export * as Transformation from "./composition/schema/Transformation.js"

// ---------------------------------------------------------------- composition: the engine

/** The common compiler (`compileContainer`). @since 0.1.0 */
export * as Compiler from "./composition/Compiler.js"
/** Compiled trees. @since 0.1.0 */
export * as Compiled from "./composition/Compiled.js"
/** Loading a package folder. @since 0.1.0 */
export * as ContentPackage from "./composition/ContentPackage.js"
/** Publishing packages into a pinned runtime. @since 0.1.0 */
export * as Publication from "./composition/Publication.js"
/** The published runtime (`ContentRuntime.Runtime`) and its package pins. @since 0.1.0 */
export * as ContentRuntime from "./composition/Runtime.js"
/** Sealing transformations into ledger entries (`BundleCompiler.CardBundleCompiler`, `seal`). @since 0.1.0 */
export * as BundleCompiler from "./composition/BundleCompiler.js"
/** Card ledgers. @since 0.1.0 */
export * as Ledger from "./composition/ledger/Ledger.js"
/** Expansion IDs. @since 0.1.0 */
export * as Expansion from "./composition/Expansion.js"
/** The effective card, its composition trace and inspection. @since 0.1.0 */
export * as Effective from "./composition/Effective.js"
/** Assessment and discovery documents, ledger commands. @since 0.1.0 */
export * as Plan from "./composition/planner/Plan.js"
/** The ledger store (`LedgerStore.LedgerStore`, `LedgerStore.MAIN`): SQLite or PostgreSQL. @since 0.1.0 */
export * as LedgerStore from "./composition/store/LedgerStore.js"
/** Scenario documents and their runner. @since 0.1.0 */
export * as Scenario from "./composition/scenario/index.js"

// ---------------------------------------------------------------- Hallyu Hex

/** Hallyu Hex: the deck Schemas, the validator, the engine and its service `Hallyu.HallyuHex`. @since 0.1.0 */
export * as Hallyu from "./hallyu/index.js"
/** Hallyu Hex agents (random, greedy, ismcts; cheater for measurement), `playGame`, matches and tournaments. @since 0.1.0 */
export * as Agents from "./hallyu/agents/index.js"

// ---------------------------------------------------------------- services

/** The content shipped in the package's data/ (`Bundled.packages`, `Bundled.starterDeck`): absolute paths. @since 0.1.0 */
export * as Bundled from "./services/Bundled.js"
/** The services and the all-in-one layers (`Cardfx.CardfxLive`, `Cardfx.CardfxTest`). @since 0.1.0 */
export * as Cardfx from "./services/Cardfx.js"
/** The content loader and the served catalog (`Catalog.ContentLoader`, `Catalog.Catalog`). @since 0.1.0 */
export * as Catalog from "./services/Catalog.js"
/** The card compiler service (`CardCompiler.CardCompiler`). @since 0.1.0 */
export * as CardCompiler from "./services/CardCompiler.js"
/** Batch validation of files and folders (what `cardfx validate` runs). @since 0.1.0 */
export * as Validation from "./services/Validation.js"
/** The document kinds cardfx reads. @since 0.1.0 */
export * as DocumentKinds from "./services/DocumentKinds.js"
/** The JSON Schemas of every document kind (what `cardfx schema` writes). @since 0.1.0 */
export * as JsonSchemas from "./services/JsonSchemas.js"
/** Hallyu Hex simulation behind one service: in process, on worker threads or on a cluster (`Simulation.Simulation`). @since 0.1.0 */
export * as Simulation from "./services/Simulation.js"
/** The fuzz properties behind `cardfx fuzz` (`Fuzz.runFuzz`). @since 0.1.0 */
export * as Fuzz from "./services/Fuzz.js"
/** Cards: inspect, effective, assess and discover against an empty, a caller-supplied or a stored ledger (`Cards.Cards`). @since 0.1.0 */
export * as Cards from "./services/Cards.js"
/** The served content: check stored instances, reload serialized with writes (`ContentCatalog.ContentCatalog`). @since 0.1.0 */
export * as ContentCatalog from "./services/ContentCatalog.js"
/** Computer seats of served Hallyu Hex games (`ComputerSeats.ComputerSeats`, `ComputerSeats.AgentDecider`). @since 0.1.0 */
export * as ComputerSeats from "./services/ComputerSeats.js"
/** Hallyu Hex game sessions and their persistence (`Games.Games`). @since 0.1.0 */
export * as Games from "./services/Games.js"
/** The game sessions' store. @since 0.1.0 */
export * as GameStore from "./services/GameStore.js"
/** Stored card instances: commands, history, replay, branches (`Instances.Instances`). @since 0.1.0 */
export * as Instances from "./services/Instances.js"
/** The language server port (`LanguageServer.LanguageServer`; `cardfx lsp` runs it, an editor host may provide its own). @since 0.1.0 */
export * as LanguageServer from "./services/LanguageServer.js"
/** Hallyu Hex game logs replayed against a deck, every fingerprint checked (`Replays.Replays`). @since 0.1.0 */
export * as Replays from "./services/Replays.js"
/** Scenario runs (`Scenarios.Scenarios`). @since 0.1.0 */
export * as Scenarios from "./services/Scenarios.js"
/** Every service `cardfx serve` runs, minus HTTP, over one store (`Served.layer`). @since 0.1.0 */
export * as Served from "./services/Served.js"
/** Simulation, fuzzing and validation on worker threads (`ScaleOut.ScaleOut`, `ScaleOut.layer`). @since 0.1.0 */
export * as ScaleOut from "./workers/index.js"
/** The cluster's port (`Clustering.Clustering`; `cardfx/cluster` implements it). @since 0.1.0 */
export * as Clustering from "./services/Clustering.js"
/** The HTTP server's port (`Serving.Serving`; `cardfx/server` implements it). @since 0.1.0 */
export * as Serving from "./services/Serving.js"

// ---------------------------------------------------------------- the HTTP documents

/** The JSON documents of the HTTP API (the server and `cardfx/client` use the same Schemas). @since 0.1.0 */
export * as Documents from "./api/Documents.js"
