/**
 * The public surface of the built package: the embedding files type-check
 * against dist/*.d.ts (the `types` of package.json's `exports`), only `.` and
 * `./testing` are importable, and `CardfxTest` provides every service with no
 * leftover requirement.
 */
import {
  CardBundleCompiler,
  CardCompiler,
  CardExecutor,
  type CardfxError,
  type CardfxServices,
  CardfxTest,
  CardResolver,
  CardTransformationPlanner,
  Catalog,
  ContentLoader,
  DiagnosticCodeTable,
  errorClassByCode,
  HallyuHex,
  LedgerStore,
  MAIN
} from "cardfx"
import { type Context, Effect, type Layer } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

describe("the built package's public types", () => {
  it("test/embedding type-checks against dist/*.d.ts (never src/)", () => {
    const r = spawnSync(process.execPath, [
      "node_modules/typescript/bin/tsc",
      "-p",
      "test/embedding/tsconfig.json",
      "--listFiles"
    ], {
      encoding: "utf8"
    })
    const files = r.stdout.split("\n").filter((l) => l.startsWith("/") && !l.includes("/node_modules/"))
    expect(r.status, r.stdout.split("\n").filter((l) => l.includes("error TS")).join("\n")).toBe(0)
    expect(files.some((f) => f.endsWith("/dist/index.d.ts"))).toBe(true)
    expect(files.some((f) => f.endsWith("/dist/testing/index.d.ts"))).toBe(true)
    expect(files.filter((f) => f.includes("/src/"))).toEqual([])
  }, 60_000)

  it("only cardfx, cardfx/testing and cardfx/client are importable; internal modules are not", () => {
    const probe = (specifier: string): string =>
      execFileSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import(${JSON.stringify(specifier)}).then(() => console.log("ok"), (e) => console.log(e.code ?? e.message))`
        ],
        { encoding: "utf8" }
      ).trim()
    expect(probe("cardfx")).toBe("ok")
    expect(probe("cardfx/testing")).toBe("ok")
    expect(probe("cardfx/client")).toBe("ok")
    for (
      const internal of [
        "cardfx/dist/index.js",
        "cardfx/dist/composition/Resolver.js",
        "cardfx/src/index.ts",
        "cardfx/composition/Resolver",
        "cardfx/package.json"
      ]
    ) {
      expect(probe(internal), internal).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    }
  })

  it("the error union and the diagnostic table are one-to-one", () => {
    for (const [code, entry] of Object.entries(DiagnosticCodeTable)) {
      const Class = errorClassByCode[code as keyof typeof errorClassByCode]
      const e = new Class({ message: "m" })
      expect(e._tag).toBe(entry.tag)
      expect(e.code).toBe(code)
    }
  })
})

describe("helpers are namespaces, services carry their layers", () => {
  it("the kernel's helpers are reached through their module's namespace, never at the top level", async () => {
    const root: Record<string, unknown> = await import("cardfx")
    const namespaced: Record<string, ReadonlyArray<string>> = {
      Json: ["parseJson", "lineColumn", "locate", "toPointer"],
      JsonFile: ["readJsonFile", "listFiles"],
      Canonical: ["canonicalJson", "sha256Hex", "hashCanonical"],
      Decode: ["makeDecoder"],
      Budget: ["spend", "makeBudget", "remaining"],
      Random: ["next", "nextInt", "seedState"],
      Ordinal: ["compareOrdinal"],
      SchemaExt: ["optional"]
    }
    for (const [ns, names] of Object.entries(namespaced)) {
      const m = root[ns] as Record<string, unknown> | undefined
      for (const name of names) {
        expect(typeof m?.[name], `${ns}.${name}`).toBe("function")
        expect(root[name], `top-level ${name}`).toBeUndefined()
      }
    }
    expect(root["hallyuHexLayer"]).toBeUndefined()
    expect(root["scaleOutLayer"]).toBeUndefined()
    for (const tag of ["HallyuHex", "ScaleOut", "ContentLoader", "CardExecutor"]) {
      expect(typeof (root[tag] as { layer?: unknown } | undefined)?.layer, `${tag}.layer`).not.toBe("undefined")
    }
  })
})

/** The requirements left by a service's methods (never when every method is self-contained). */
type Leftover<S> = {
  [K in keyof S]: S[K] extends (...args: never[]) => Effect.Effect<unknown, unknown, infer R> ? R
    : S[K] extends Effect.Effect<unknown, unknown, infer R> ? R
    : never
}[keyof S]
type NoLeftover<S> = [Leftover<S>] extends [never] ? true : false

describe("service methods have no leftover requirements", () => {
  it("holds for every service (checked by the type-checker; this test only records it)", () => {
    // Each line fails to compile when a method of that service leaves a requirement.
    const contentLoader: NoLeftover<Context.Tag.Service<typeof ContentLoader>> = true
    const catalog: NoLeftover<Context.Tag.Service<typeof Catalog>> = true
    const cardCompiler: NoLeftover<Context.Tag.Service<typeof CardCompiler>> = true
    const cardBundleCompiler: NoLeftover<Context.Tag.Service<typeof CardBundleCompiler>> = true
    const cardResolver: NoLeftover<Context.Tag.Service<typeof CardResolver>> = true
    const cardTransformationPlanner: NoLeftover<Context.Tag.Service<typeof CardTransformationPlanner>> = true
    const ledgerStore: NoLeftover<Context.Tag.Service<typeof LedgerStore>> = true
    const cardExecutor: NoLeftover<Context.Tag.Service<typeof CardExecutor>> = true
    const hallyuHex: NoLeftover<Context.Tag.Service<typeof HallyuHex>> = true
    const checks = [
      contentLoader,
      catalog,
      cardCompiler,
      cardBundleCompiler,
      cardResolver,
      cardTransformationPlanner,
      ledgerStore,
      cardExecutor,
      hallyuHex
    ]
    expect(checks.every((c) => c)).toBe(true)
  })
})

/** data/heroscript.base as an in-memory file map. */
const memoryFiles = (folder: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(folder).filter((f) => f.endsWith(".json")).map((
      f
    ) => [`${folder}/${f}`, readFileSync(join(folder, f), "utf8")])
  )

describe("CardfxTest: every service, in memory, no leftover requirement", () => {
  const layer: Layer.Layer<CardfxServices, CardfxError, never> = CardfxTest({
    files: memoryFiles("data/heroscript.base"),
    packages: ["data/heroscript.base"]
  })

  it("provides every service and runs a command against the in-memory store", async () => {
    const out = await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.gen(function*() {
            const tags = [
              ContentLoader,
              Catalog,
              CardCompiler,
              CardBundleCompiler,
              CardResolver,
              CardTransformationPlanner,
              LedgerStore,
              CardExecutor,
              HallyuHex
            ] as const
            for (const tag of tags) yield* tag
            const { runtime } = yield* Catalog
            const base = runtime.cards.get("heal")
            if (base === undefined) return yield* Effect.dieMessage("heal is not published")
            const compiled = yield* (yield* CardCompiler).compileCard(base, runtime.statuses)
            const outcome = yield* (yield* CardTransformationPlanner).apply(runtime, {
              commandId: "c1",
              branch: MAIN,
              instanceId: "hero.heal",
              cardId: "heal",
              expectedRevision: 0,
              activity: "canonical_command",
              command: { kind: "apply", upgradeId: "core.ember.affinity" }
            })
            const missing = yield* Effect.flip((yield* ContentLoader).load(["nowhere"]))
            return { services: tags.length, compiled, outcome, missing }
          }),
          layer
        )
      )
    )
    expect(out.services).toBe(9)
    expect(out.compiled.roots.map((r) => r.componentId)).toEqual(["mend"])
    expect(out.outcome.status).toBe("applied")
    expect(out.missing.code).toBe("file_unreadable")
  })
})

describe("ContentLoader over an in-memory file map", () => {
  it("batch validation and loading run the same code as on disk", async () => {
    const files = {
      ...memoryFiles("data/heroscript.base"),
      "broken/manifest.json": JSON.stringify({ packageId: "broken", version: "1.0.0", engineVersion: 17 }),
      "broken/cards.json": "{ \"cards\": [ { \"cardId\": \"x\", \"cost\": 1, \"cost\": 2 } ] }"
    }
    const { good, bad, runtime } = await Effect.runPromise(
      Effect.provide(
        Effect.gen(function*() {
          const loader = yield* ContentLoader
          return {
            good: yield* loader.validate(["data/heroscript.base"]),
            bad: yield* loader.validate(["broken"]),
            runtime: yield* loader.load(["data/heroscript.base"])
          }
        }),
        ContentLoader.layerMemory(files)
      )
    )
    expect(good.diagnostics.filter((d) => d.severity === "error")).toEqual([])
    expect(bad.diagnostics.map((d) => [d.code, d.file, d.line])).toContainEqual([
      "duplicate_key",
      "broken/cards.json",
      1
    ])
    expect([...runtime.transformations.keys()]).toContain("core.ember.affinity")
  })
})
