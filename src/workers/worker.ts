/**
 * The cardfx worker thread: answers {@link WorkerRequest}s with the pure
 * cores (simulation ranges, fuzz ranges, file validation). Bundled beside the
 * CLI bin as `dist/cli/cardfx-worker.mjs` (see scripts/bundle-cli.mjs); the
 * library's pool spawns `dist/workers/worker.js`.
 *
 * The worker keeps engines, decks and loaded packages it built from
 * requests' bytes, keyed by those bytes, so a long run validates its deck once
 * per thread; a request never depends on what came before it.
 *
 * @since 0.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import { Effect, Either, Layer } from "effect"
import { type DecodedPackage, loadPackage } from "../composition/ContentPackage.js"
import type { StarterDeck } from "../hallyu/Schema.js"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { documentKinds } from "../services/DocumentKinds.js"
import { validateFile } from "../services/Validation.js"
import { runFuzzRange } from "../testing/fuzz.js"
import { deckFromJson } from "./Deck.js"
import { WorkerRequest } from "./Requests.js"
import { memo, simulateGamesHandler } from "./SimulateGames.js"

const handlers = () => {
  const decks = memo<Either.Either<StarterDeck, Diagnostic>>()
  const packages = memo<Effect.Effect<ReadonlyArray<DecodedPackage>, Diagnostic, never>>()
  const fs = NodeFileSystem.layer
  return {
    SimulateGames: simulateGamesHandler(),
    FuzzRuns: (r: {
      seed: number
      property: string
      from: number
      to: number
      path?: string | undefined
      deck?: { json: string; file: string } | undefined
      packages?: ReadonlyArray<string> | undefined
    }) =>
      Effect.gen(function*() {
        const deck = r.deck === undefined
          ? undefined
          : decks(r.deck.json, () => deckFromJson(r.deck?.json ?? "", r.deck?.file ?? ""))
        if (deck !== undefined && Either.isLeft(deck)) return yield* Effect.fail(deck.left)
        const dirs = r.packages
        const loaded = dirs === undefined
          ? undefined
          : yield* packages(JSON.stringify(dirs), () =>
            Effect.cached(
              Effect.forEach(dirs, loadPackage).pipe(
                Effect.flatMap((ls) => {
                  const problem = ls.flatMap((l) => l.diagnostics).find((d) => d.severity === "error")
                  return problem !== undefined
                    ? Effect.fail(problem)
                    : Effect.succeed(ls.flatMap((l) => (l.package === undefined ? [] : [l.package])))
                }),
                Effect.provide(fs)
              )
            ).pipe(Effect.runSync))
        return runFuzzRange(
          {
            seed: r.seed,
            runs: r.to,
            deck: deck === undefined ? undefined : deck.right,
            packages: loaded,
            ...(r.path !== undefined ? { path: r.path } : {})
          },
          r.property,
          r.from,
          r.to
        )
      }),
    ValidateFiles: (r: { files: ReadonlyArray<string> }) =>
      Effect.forEach(r.files, (f) => validateFile(f, documentKinds)).pipe(Effect.provide(fs))
  }
}

const WorkerLive = WorkerRunner.layerSerialized(WorkerRequest, handlers()).pipe(Layer.provide(NodeWorkerRunner.layer))

NodeRuntime.runMain(WorkerRunner.launch(WorkerLive), { disableErrorReporting: true })
