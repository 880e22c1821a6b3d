/**
 * The public surface of the built package: the embedding files reach cardfx
 * through dist/*.d.ts (the `types` of package.json's `exports`; `npm test`'s
 * type-check of the project checks them against those), only `.`
 * and the subpaths `./engine`, `./server`, `./client`, `./cluster` and
 * `./testing` are importable, the root exports namespaces only and loads no
 * face, the per-call engine Tags are `cardfx/engine`'s (not the root's), and
 * `CardfxTest` provides every service with no leftover requirement.
 */
import {
  BundleCompiler,
  CardCompiler,
  Cardfx,
  Catalog,
  DiagnosticCode,
  Errors,
  Hallyu,
  LedgerStore,
  ScaleOut
} from "cardfx"
import { Executor, Planner, Resolver } from "cardfx/engine"
import { type Context, Effect, Layer } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

describe("the built package's public types", () => {
  // The type-check itself is `npm test`'s (scripts/test.mjs: `tsc -p .` includes test/, so these files are
  // checked in the same program as the rest, against what their imports resolve to). What is checked here is
  // what they resolve to: following every import from the embedding files (relative ones into test/support
  // included), each `cardfx…` specifier resolves, by package.json's `exports`, to dist/*.d.ts, and no file
  // reached is under src/.
  it("test/embedding's imports reach cardfx through dist/*.d.ts (never src/)", () => {
    const options = ts.parseJsonConfigFileContent(
      ts.readConfigFile("test/embedding/tsconfig.json", (f) => ts.sys.readFile(f)).config,
      ts.sys,
      "test/embedding"
    ).options
    const entries = new Map<string, string>()
    const reached = new Set<string>()
    const walk = (path: string): void => {
      if (reached.has(path)) return
      reached.add(path)
      for (const { fileName } of ts.preProcessFile(readFileSync(path, "utf8"), true, true).importedFiles) {
        const to = ts.resolveModuleName(fileName, path, options, ts.sys).resolvedModule?.resolvedFileName
        const rel = relative(process.cwd(), to ?? `unresolved:${fileName}`)
        if (fileName === "cardfx" || fileName.startsWith("cardfx/")) entries.set(fileName, rel)
        else if (fileName.startsWith(".")) walk(to ?? `unresolved:${fileName}`)
      }
    }
    for (const file of readdirSync("test/embedding").filter((f) => f.endsWith(".ts"))) {
      walk(resolve("test/embedding", file))
    }
    expect(entries.get("cardfx")).toBe("dist/index.d.ts")
    expect(entries.get("cardfx/testing")).toBe("dist/testing/index.d.ts")
    expect(entries.get("cardfx/engine")).toBe("dist/engine.d.ts")
    expect([...entries].filter(([, to]) => !/^dist\/.*\.d\.ts$/.test(to))).toEqual([])
    const local = [...reached].map((f) => relative(process.cwd(), f))
    expect(local.some((f) => f.startsWith("test/support/"))).toBe(true)
    expect(local.filter((f) => !f.startsWith("test/"))).toEqual([])
  })

  it("only cardfx and its subpaths engine, server, client, cluster and testing are importable; internal modules are not", () => {
    // One process imports them all, one after another (each entry point loads hundreds of modules).
    const specifiers = [
      "cardfx",
      "cardfx/engine",
      "cardfx/server",
      "cardfx/client",
      "cardfx/cluster",
      "cardfx/testing",
      "cardfx/dist/index.js",
      "cardfx/dist/composition/Resolver.js",
      "cardfx/dist/server/Server.js",
      "cardfx/services",
      "cardfx/src/index.ts",
      "cardfx/composition/Resolver",
      "cardfx/package.json"
    ]
    const script = `const out = {}
for (const s of ${JSON.stringify(specifiers)}) out[s] = await import(s).then(() => "ok", (e) => e.code ?? e.message)
console.log(JSON.stringify(out))`
    const answers = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
    ) as Record<string, string>
    expect(answers).toEqual(
      Object.fromEntries(specifiers.map((s, i) => [s, i < 6 ? "ok" : "ERR_PACKAGE_PATH_NOT_EXPORTED"]))
    )
  })

  it("the error union and the diagnostic table are one-to-one", () => {
    for (const [code, entry] of Object.entries(DiagnosticCode.DiagnosticCodeTable)) {
      const Class = Errors.errorClassByCode[code as keyof typeof Errors.errorClassByCode]
      const e = new Class({ message: "m" })
      expect(e._tag).toBe(entry.tag)
      expect(e.code).toBe(code)
    }
  })
})

/**
 * The modules a fresh Node process loads for `import(specifier)` of each
 * specifier in turn: a load hook (`module.register`, run on the loader's
 * thread) appends every URL to a file, and a marker line before each import
 * splits the file into what each one added to what the ones before it loaded.
 */
const loadedBy = (...specifiers: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const log = join(mkdtempSync(join(tmpdir(), "cardfx-loaded-")), "urls.txt")
  const hook = `import { appendFileSync } from "node:fs"
let file
export const initialize = (data) => { file = data.file }
export const load = async (url, context, next) => { appendFileSync(file, url + "\\n"); return next(url, context) }`
  const script = `import { register } from "node:module"
import { appendFileSync } from "node:fs"
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)}, { data: { file: ${
    JSON.stringify(log)
  } } })
for (const s of ${JSON.stringify(specifiers)}) { appendFileSync(${JSON.stringify(log)}, "--\\n"); await import(s) }`
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
  const parts = readFileSync(log, "utf8").split("--\n").slice(1)
  return parts.map((p) => p.split("\n").filter((l) => l !== ""))
}

describe("the root exports namespaces only, and loads no face", () => {
  it("every name of cardfx is a module namespace, none named like a module of effect or a global", async () => {
    const root: Record<string, unknown> = await import("cardfx")
    const effect: Record<string, unknown> = await import("effect")
    const names = Object.keys(root)
    expect(names.length).toBeGreaterThan(30)
    const notNamespace = names.filter((n) => Object.prototype.toString.call(root[n]) !== "[object Module]")
    expect(notNamespace).toEqual([])
    const shadowing = names.filter((n) => n in effect || n in globalThis)
    expect(shadowing).toEqual([])
    // The check can fail: effect's own modules and the globals are module namespaces and names of theirs.
    expect(["Effect", "Scope", "Order", "Random", "Runtime"].every((n) => n in effect)).toBe(true)
    expect(["Symbol", "Map", "Error"].every((n) => n in globalThis)).toBe(true)
  })

  it("one door for embedders: the services at the root, the per-call engine Tags in cardfx/engine only", async () => {
    const root: Record<string, unknown> = await import("cardfx")
    const engine: Record<string, unknown> = await import("cardfx/engine")
    expect(Object.keys(engine).sort()).toEqual(["Executor", "Planner", "Resolver"])
    expect(Object.keys(engine).filter((n) => n in root)).toEqual([])
    for (const service of ["Cards", "Instances", "Games", "Scenarios", "Simulation", "Served", "Bundled"]) {
      expect(Object.prototype.toString.call(root[service]), service).toBe("[object Module]")
    }
    // The same namespaces as inside the package: no copy of a Tag (one identity per service).
    expect(engine["Planner"]).toHaveProperty("CardTransformationPlanner")
    expect(Object.prototype.toString.call(engine["Executor"])).toBe("[object Module]")
  })

  it("the kernel's helpers are reached through their module's namespace", async () => {
    const root: Record<string, unknown> = await import("cardfx")
    const namespaced: Record<string, ReadonlyArray<string>> = {
      Json: ["parseJson", "lineColumn", "locate", "toPointer"],
      JsonFile: ["readJsonFile", "listFiles"],
      Canonical: ["canonicalJson", "sha256Hex", "hashCanonical"],
      Decode: ["makeDecoder"],
      Budget: ["spend", "makeBudget", "remaining"],
      Rng: ["next", "nextInt", "seedState"],
      Ordinal: ["compareOrdinal"],
      SchemaExt: ["optional"]
    }
    for (const [ns, names] of Object.entries(namespaced)) {
      const m = root[ns] as Record<string, unknown> | undefined
      for (const name of names) expect(typeof m?.[name], `${ns}.${name}`).toBe("function")
    }
  })

  it("services carry their layers; a scale-out port's implementation is its namespace's layer", () => {
    const tags = [Hallyu.HallyuHex, Catalog.ContentLoader, Executor.CardExecutor]
    for (const tag of tags) expect(typeof tag.layer, `${tag.key}.layer`).not.toBe("undefined")
    // The ScaleOut port (`ScaleOut.ScaleOut`, declared with the services) and the worker pools implementing it.
    expect(ScaleOut.ScaleOut.key).toBe("cardfx/ScaleOut")
    expect(Layer.isLayer(ScaleOut.layer)).toBe(true)
  })

  it("importing cardfx loads neither the HTTP server nor the cluster; their subpaths do", () => {
    const face = (url: string): string | undefined =>
      /\/dist\/server\//.test(url)
        ? "server"
        : /\/dist\/cluster\/|\/node_modules\/@effect\/cluster\//.test(url)
        ? "cluster"
        : undefined
    // In this order, so the server's and the cluster's parts are what each adds to the root's modules.
    const [root = [], server = [], cluster = []] = loadedBy("cardfx", "cardfx/server", "cardfx/cluster")
    expect(root.some((u) => u.endsWith("/dist/index.js"))).toBe(true)
    expect(root.some((u) => u.includes("/dist/services/"))).toBe(true)
    expect(root.filter((u) => face(u) !== undefined)).toEqual([])
    // The check can fail: the subpaths load what the root does not.
    expect(server.some((u) => face(u) === "server")).toBe(true)
    expect(cluster.some((u) => face(u) === "cluster")).toBe(true)
  }, 60_000)
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
    const contentLoader: NoLeftover<Context.Tag.Service<typeof Catalog.ContentLoader>> = true
    const catalog: NoLeftover<Context.Tag.Service<typeof Catalog.Catalog>> = true
    const cardCompiler: NoLeftover<Context.Tag.Service<typeof CardCompiler.CardCompiler>> = true
    const cardBundleCompiler: NoLeftover<Context.Tag.Service<typeof BundleCompiler.CardBundleCompiler>> = true
    const cardResolver: NoLeftover<Context.Tag.Service<typeof Resolver.CardResolver>> = true
    const cardTransformationPlanner: NoLeftover<Context.Tag.Service<typeof Planner.CardTransformationPlanner>> = true
    const ledgerStore: NoLeftover<Context.Tag.Service<typeof LedgerStore.LedgerStore>> = true
    const cardExecutor: NoLeftover<Context.Tag.Service<typeof Executor.CardExecutor>> = true
    const hallyuHex: NoLeftover<Context.Tag.Service<typeof Hallyu.HallyuHex>> = true
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
  const layer: Layer.Layer<Cardfx.CardfxServices, Errors.CardfxError, never> = Cardfx.CardfxTest({
    files: memoryFiles("data/heroscript.base"),
    packages: ["data/heroscript.base"]
  })

  it("provides every service and runs a command against the in-memory store", async () => {
    const out = await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.gen(function*() {
            const tags = [
              Catalog.ContentLoader,
              Catalog.Catalog,
              CardCompiler.CardCompiler,
              BundleCompiler.CardBundleCompiler,
              Resolver.CardResolver,
              Planner.CardTransformationPlanner,
              LedgerStore.LedgerStore,
              Executor.CardExecutor,
              Hallyu.HallyuHex
            ] as const
            for (const tag of tags) yield* tag
            const { runtime } = yield* Catalog.Catalog
            const base = runtime.cards.get("heal")
            if (base === undefined) return yield* Effect.dieMessage("heal is not published")
            const compiled = yield* (yield* CardCompiler.CardCompiler).compileCard(base, runtime.statuses)
            const outcome = yield* (yield* Planner.CardTransformationPlanner).apply(runtime, {
              commandId: "c1",
              branch: LedgerStore.MAIN,
              instanceId: "hero.heal",
              cardId: "heal",
              expectedRevision: 0,
              activity: "canonical_command",
              command: { kind: "apply", upgradeId: "core.ember.affinity" }
            })
            const missing = yield* Effect.flip((yield* Catalog.ContentLoader).load(["nowhere"]))
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
          const loader = yield* Catalog.ContentLoader
          return {
            good: yield* loader.validate(["data/heroscript.base"]),
            bad: yield* loader.validate(["broken"]),
            runtime: yield* loader.load(["data/heroscript.base"])
          }
        }),
        Catalog.ContentLoader.layerMemory(files)
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
