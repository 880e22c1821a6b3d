/**
 * The library: the public API without its faces. `src/index.ts` is this
 * module plus the HTTP face's exports; the faces' own modules (src/server)
 * import from here (or from `Schemas.ts`), never from internal modules, and
 * not from `index.ts`, which re-exports them (that would be an import cycle).
 * Every name exported here is exported by `index.ts` (test/cli/spec.test.ts).
 * Modules of helpers are namespaces (`export * as Json from ...`), as in
 * Effect's own packages, so `parseJson`, `spend` or `next` are not
 * top-level names; services, Schemas, errors and layers are.
 *
 * @since 0.1.0
 */

// ---- the kernel: diagnostics, the code table, tagged errors, JSON, hashing, RNG, budgets, limits
// The main names at the top level: diagnostics, the code table, the tagged errors, limits, the Rng service.
export * from "./kernel/Diagnostic.js"
export * from "./kernel/DiagnosticCode.js"
export * from "./kernel/Errors.js"
export * from "./kernel/Limits.js"
export { Rng, RngState, RngStream } from "./kernel/Rng.js"
// Helpers as namespaces, the way Effect's packages export modules (`Json.parseJson`, `Random.next`, ...).
export * as Budget from "./kernel/Budget.js"
export * as Canonical from "./kernel/Canonical.js"
export * as Decode from "./kernel/Decode.js"
export * as Json from "./kernel/Json.js"
export * as JsonFile from "./kernel/JsonFile.js"
export * as Ordinal from "./kernel/Ordinal.js"
export * as Random from "./kernel/Rng.js"
export * as SchemaExt from "./kernel/SchemaExt.js"

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
export { HallyuHex, type HallyuHexService } from "./hallyu/Service.js"

// ---- batch validation and JSON Schemas
export * from "./services/DocumentKinds.js"
export * from "./services/JsonSchemas.js"
export * from "./services/Validation.js"

// ---- simulation (one service: in process, on worker threads, on a cluster) and fuzzing
export * as Fuzz from "./services/Fuzz.js"
export {
  type DeckSource,
  type OnProgress,
  Simulation,
  type SimulationRequest,
  type SimulationRun,
  type SimulationService
} from "./services/Simulation.js"

// ---- across cores: simulation, fuzzing and batch validation on worker threads
export { defaultWorkers } from "./workers/Pool.js"
export { MIN_GAMES_PER_WORKER, simulationWorkers } from "./workers/Runs.js"
export { ScaleOut, type ScaleOutService } from "./workers/ScaleOut.js"

// ---- services and the all-in-one layers
export * from "./services/CardCompiler.js"
export * from "./services/Cardfx.js"
export * from "./services/Catalog.js"
