/**
 * `Scenarios`: deterministic combat scenarios — a scenario file run from
 * scratch N times (`cardfx run`: every run must be byte-identical, else
 * `nondeterminism`), and a scenario document run against the served runtime
 * (`POST /v1/scenarios/run`: its `packages` must be IDs of served packages).
 * Failures are tagged errors carrying every diagnostic.
 *
 * @since 0.1.0
 */
import { FileSystem, Path } from "@effect/platform"
import { Context, Effect, Either, Layer, Option } from "effect"
import {
  runScenarioFile,
  runScenarioWith,
  type ScenarioError,
  scenarioErrors,
  type ScenarioReport
} from "../composition/scenario/Runner.js"
import { decodeScenario } from "../composition/scenario/Scenario.js"
import { invalidRequestId } from "../composition/schema/Symbols.js"
import { diagnostic } from "../kernel/Diagnostic.js"
import { parseJson } from "../kernel/Json.js"
import { readJsonFile } from "../kernel/JsonFile.js"
import { traced } from "../kernel/Tracing.js"
import { LiveCatalog } from "./Catalog.js"
import { documentKinds } from "./DocumentKinds.js"

// The scenario runner's error channel (the codes a scenario can fail with), named here as the service's too.
export { type ScenarioError, scenarioErrors }

/** The scenario operations. */
export interface ScenariosService {
  /**
   * Checks a scenario file as `validate` does (size cap, a valid scenario,
   * package folders that exist, published cards and transformations), then
   * runs it `times` times from scratch.
   */
  readonly runFile: (
    file: string,
    options?: { readonly seed?: number | undefined; readonly times?: number | undefined }
  ) => Effect.Effect<ScenarioReport, ScenarioError>
  /** Runs a scenario document (already JSON) against the served runtime. */
  readonly runServed: (document: unknown) => Effect.Effect<ScenarioReport, ScenarioError>
}

const make = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const live = yield* Effect.serviceOption(LiveCatalog)
  const scenarioKind = documentKinds.find((k) => k.name === "scenario")
  const provide = <A, E>(eff: Effect.Effect<A, E, FileSystem.FileSystem | Path.Path>) =>
    eff.pipe(Effect.provideService(FileSystem.FileSystem, fs), Effect.provideService(Path.Path, path))
  const service: ScenariosService = {
    runFile: (file, options = {}) =>
      provide(Effect.gen(function*() {
        const doc = yield* readJsonFile(file)
        if (Either.isLeft(doc)) return yield* scenarioErrors.fail([doc.left])
        const own = scenarioKind === undefined ? [] : scenarioKind.validate(doc.right)
        if (own.length > 0) return yield* scenarioErrors.fail(own)
        const refs = scenarioKind?.references === undefined ? [] : yield* scenarioKind.references(doc.right)
        if (refs.length > 0) return yield* scenarioErrors.fail(refs)
        return yield* runScenarioFile(file, { seed: options.seed, times: options.times })
      })),
    runServed: (document) =>
      Effect.gen(function*() {
        if (Option.isNone(live)) return yield* Effect.dieMessage("Scenarios: runServed needs a LiveCatalog")
        const runtime = yield* live.value.current
        const packages = typeof document === "object" && document !== null && "packages" in document &&
            Array.isArray(document.packages)
          ? document.packages
          : []
        // Served package IDs are IDs the request names: `invalid_id` past 128 characters, as over HTTP.
        const invalid = invalidRequestId(
          packages.flatMap((p, i) => typeof p === "string" ? [[`/packages/${i}`, p] as const] : [])
        )
        if (invalid !== undefined) return yield* Effect.fail(invalid)
        const served = new Set(runtime.pin.packages.map((p) => p.packageId))
        const unknown = packages.flatMap((p, i) =>
          typeof p === "string" && served.has(p)
            ? []
            : [
              diagnostic(
                "unknown_reference",
                `package ${String(p)} is not served (give a served package ID, not a path)`,
                {
                  path: `/packages/${i}`,
                  subject: String(p)
                }
              )
            ]
        )
        if (unknown.length > 0) return yield* scenarioErrors.fail(unknown)
        // The in-document reference checks come with decodeScenario.
        const doc = parseJson(JSON.stringify(document))
        if (Either.isLeft(doc)) return yield* scenarioErrors.fail([doc.left])
        const scenario = decodeScenario(doc.right)
        if (Either.isLeft(scenario)) return yield* scenarioErrors.fail(scenario.left)
        const report = runScenarioWith(runtime, scenario.right)
        if (Either.isLeft(report)) return yield* scenarioErrors.fail(report.left)
        return report.right
      })
  }
  return service
})

/** Scenarios. */
export class Scenarios extends Context.Tag("cardfx/Scenarios")<Scenarios, ScenariosService>() {
  /** Over the platform's file system; `runServed` uses the application's `LiveCatalog`. */
  static readonly layer: Layer.Layer<Scenarios, never, FileSystem.FileSystem | Path.Path> = Layer.effect(
    Scenarios,
    Effect.map(make, (s) => traced("Scenarios", s))
  )
}
