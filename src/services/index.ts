/**
 * The public modules a face is written against, as flat names: the kernel
 * (diagnostics, the code table, tagged errors, limits; helpers as
 * namespaces), the content Schemas, the engines' services and the
 * all-in-one layers. The CLI and the HTTP server import from here (or from
 * `src/api` for the HTTP contract), never from an engine's internal module;
 * the package root `cardfx` (src/index.ts) exports the same modules as
 * namespaces, and the faces never import it (it is the embedder's door).
 * Nothing here imports a face (test/architecture/imports.test.ts).
 *
 * @since 0.1.0
 */

// ---- the kernel: diagnostics, the code table, tagged errors, JSON, hashing, RNG, budgets, limits
// The main names at the top level: diagnostics, the code table, the tagged errors, limits, the Rng service.
export * from "../kernel/Diagnostic.js"
export * from "../kernel/DiagnosticCode.js"
export * from "../kernel/Errors.js"
export * from "../kernel/Limits.js"
export { Rng, RngState, RngStream } from "../kernel/Rng.js"
// Helpers as namespaces, the way Effect's packages export modules (`Json.parseJson`, `Random.next`, ...).
export * as Budget from "../kernel/Budget.js"
export * as Canonical from "../kernel/Canonical.js"
export * as Decode from "../kernel/Decode.js"
export * as Json from "../kernel/Json.js"
export * as JsonFile from "../kernel/JsonFile.js"
export * as Ordinal from "../kernel/Ordinal.js"
export * as Random from "../kernel/Rng.js"
export * as SchemaExt from "../kernel/SchemaExt.js"

// ---- composition content Schemas
export * from "../composition/schema/Bundle.js"
export * from "../composition/schema/Card.js"
export * from "../composition/schema/Modifier.js"
export * from "../composition/schema/Package.js"
export * from "../composition/schema/Status.js"
export * from "../composition/schema/Symbols.js"
export * from "../composition/schema/Transformation.js"

// ---- the common compiler, packages, publication, runtime
export type {
  CompiledContainer as CompiledContainerType,
  CompiledEffect as CompiledEffectType,
  CompiledNode as CompiledNodeType
} from "../composition/Compiled.js"
export { compileContainer, type CompileInput, type CompileOptions } from "../composition/Compiler.js"
export * from "../composition/ContentPackage.js"
export * from "../composition/Publication.js"
export type { PackagePin as RuntimePackagePin, Runtime } from "../composition/Runtime.js"

// ---- ledger, seal, resolver, effective card
export { CardBundleCompiler, seal, sealById } from "../composition/BundleCompiler.js"
export * from "../composition/Effective.js"
export * from "../composition/Expansion.js"
export * from "../composition/ledger/Ledger.js"
export * from "../composition/Resolver.js"

// ---- planner and ledger store
export * from "../composition/planner/Plan.js"
export * from "../composition/planner/Planner.js"
export * from "../composition/store/LedgerStore.js"

// ---- executor and scenarios
export * from "../composition/executor/index.js"
export * from "../composition/scenario/index.js"

// ---- Hallyu Hex (namespaced) and its service
export * as Hallyu from "../hallyu/index.js"
export { HallyuHex, type HallyuHexService } from "../hallyu/Service.js"

// ---- batch validation and JSON Schemas
export * from "./DocumentKinds.js"
export * from "./JsonSchemas.js"
export * from "./Validation.js"

// ---- simulation (one service: in process, on worker threads, on a cluster) and fuzzing
export * as Fuzz from "./Fuzz.js"
export {
  balanceOfRun,
  type DeckSource,
  type OnProgress,
  readDeck,
  Simulation,
  type SimulationRequest,
  type SimulationRun,
  type SimulationService
} from "./Simulation.js"
// The scale-out ports: their interfaces and Tags (src/workers, src/cluster and src/server implement them; the
// `cardfx` bin's composition root, src/bin, provides the implementations).
export * as Clustering from "./Clustering.js"
export { LanguageServer, type LanguageServerService } from "./LanguageServer.js"
export { defaultWorkers, MIN_GAMES_PER_WORKER, ScaleOut, type ScaleOutService, simulationWorkers } from "./ScaleOut.js"
export * as Serving from "./Serving.js"

// ---- services and the all-in-one layers
export * from "./CardCompiler.js"
export * from "./Cardfx.js"
export * from "./Catalog.js"

// ---- the services every face calls (one namespace each: `Cards.Cards` is the tag, `Cards.InspectError` ...)
export * as Cards from "./Cards.js"
export * as ComputerSeats from "./ComputerSeats.js"
export * as ContentCatalog from "./ContentCatalog.js"
export * as Games from "./Games.js"
export * as GameStore from "./GameStore.js"
export * as Instances from "./Instances.js"
export * as Replays from "./Replays.js"
export * as Scenarios from "./Scenarios.js"
export * as Served from "./Served.js"
