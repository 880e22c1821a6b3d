/**
 * cardfx: the public API. Services are `Context.Tag` classes with live and
 * test layers (`CardfxLive` / `CardfxTest` provide all of them at once), the
 * content Schemas, the tagged error union (`CardfxError`, `errorClassByCode`)
 * and the diagnostic table (`DiagnosticCodeTable`). Hallyu Hex lives under the
 * `Hallyu` namespace (its `Card`, `Effect` and `Condition` are not the
 * composition core's). Generative-testing helpers are in `cardfx/testing`.
 * Nothing else is importable: the package's `exports` map lists only `.` and
 * `./testing`.
 *
 * @since 0.1.0
 */

// ---- the kernel: diagnostics, the code table, tagged errors, JSON, hashing, RNG, budgets, limits
export * from "./kernel/index.js"
export { fsReason, listFiles, readJsonFile } from "./kernel/JsonFile.js"

// ---- composition content Schemas
export * from "./composition/schema/Bundle.js"
export * from "./composition/schema/Card.js"
export * from "./composition/schema/Modifier.js"
export * from "./composition/schema/Package.js"
export * from "./composition/schema/Status.js"
export * from "./composition/schema/Symbols.js"
export * from "./composition/schema/Transformation.js"

// ---- the common compiler, packages, publication, runtime
export type {
  CompiledContainer as CompiledContainerType,
  CompiledEffect as CompiledEffectType,
  CompiledNode as CompiledNodeType
} from "./composition/Compiled.js"
export { compileContainer, type CompileInput, type CompileOptions } from "./composition/Compiler.js"
export * from "./composition/ContentPackage.js"
export * from "./composition/Publication.js"
export type { PackagePin as RuntimePackagePin, Runtime } from "./composition/Runtime.js"

// ---- ledger, seal, resolver, effective card
export { CardBundleCompiler, seal, sealById } from "./composition/BundleCompiler.js"
export * from "./composition/Effective.js"
export * from "./composition/Expansion.js"
export * from "./composition/ledger/Ledger.js"
export * from "./composition/Resolver.js"

// ---- planner and ledger store
export * from "./composition/planner/Plan.js"
export * from "./composition/planner/Planner.js"
export * from "./composition/store/LedgerStore.js"

// ---- executor and scenarios
export * from "./composition/executor/index.js"
export * from "./composition/scenario/index.js"

// ---- Hallyu Hex (namespaced) and its service
export * as Hallyu from "./hallyu/index.js"
export { HallyuHex, type HallyuHexService, layer as hallyuHexLayer } from "./hallyu/Service.js"

// ---- batch validation and JSON Schemas
export * from "./DocumentKinds.js"
export * from "./JsonSchemas.js"
export * from "./Validation.js"

// ---- across cores: simulation, fuzzing and batch validation on worker threads
export { defaultWorkers } from "./workers/Pool.js"
export { MIN_GAMES_PER_WORKER, simulationWorkers } from "./workers/Runs.js"
export type { OnProgress, SimulationRun } from "./workers/Runs.js"
export { layer as scaleOutLayer, ScaleOut, type ScaleOutService } from "./workers/ScaleOut.js"

// ---- services and the all-in-one layers
export * from "./services/CardCompiler.js"
export * from "./services/Cardfx.js"
export * from "./services/Catalog.js"

// ---- the HTTP API's documents (the server and the typed client `cardfx/client` use the same Schemas)
export * from "./server/Documents.js"
// ---- the HTTP face's server layer and the hot-reload check (what `cardfx serve` and `cardfx ledger check` run)
export { reload as reloadServedContent } from "./server/Handlers.js"
export { checkStoredInstances, runtimeInfo } from "./server/Reload.js"
export { batchedJsonLog, type BatchedLog } from "./server/RequestLog.js"
export { drain, makeLifecycle, serverLayer, serverUrl } from "./server/Server.js"
