/**
 * `cardfx/engine`: the composition core's per-call engine services, for
 * code that drives the engine itself — a caller-held ledger resolved,
 * assessed or played one call at a time, with the runtime passed in:
 *
 * ```ts
 * import { Cardfx, Catalog } from "cardfx"
 * import { Executor, Planner, Resolver } from "cardfx/engine"
 *
 * const program = Effect.gen(function*() {
 *   const { runtime } = yield* Catalog.Catalog
 *   const assessment = yield* (yield* Planner.CardTransformationPlanner).assessStored(runtime, card, command, "scenario")
 *   // ... (yield* Resolver.CardResolver).resolve(...), (yield* Executor.CardExecutor).play(...)
 * }).pipe(Effect.provide(Cardfx.CardfxLive({ packages: Bundled.packages })))
 * ```
 *
 * An embedder starts at the root, `cardfx`: its services (`Cards`,
 * `Instances`, `Games`, `Scenarios`, `Simulation`, ... over one `Served.layer`)
 * hold the rules an application needs — request IDs checked, the runtime
 * current when a call starts, commands planned and stored in one step,
 * retries answered from the store. The Tags here are what those services are
 * built on (`Cardfx.CardfxLive` provides them too). Namespaces only, as at
 * the root; none is exported by both.
 *
 * @since 0.1.0
 */

/** The transformation planner (`Planner.CardTransformationPlanner`): assess, discover, apply against a runtime. @since 0.1.0 */
export * as Planner from "./composition/planner/Planner.js"
/** The resolver (`Resolver.CardResolver`): a base card and a sealed ledger to the effective card. @since 0.1.0 */
export * as Resolver from "./composition/Resolver.js"
/** The executor (`Executor.CardExecutor`), combat state, the bucket pipeline, statuses. @since 0.1.0 */
export * as Executor from "./composition/executor/index.js"
