/**
 * The cardfx worker thread: answers {@link WorkerRequest}s with the
 * services' pure cores (simulation ranges, fuzz ranges, file validation).
 * Bundled beside the CLI bin as `dist/cli/cardfx-worker.mjs` (see
 * scripts/bundle-cli.mjs); the library's pool spawns `dist/workers/worker.js`.
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
import { Effect, Layer } from "effect"
import { documentKinds } from "../services/DocumentKinds.js"
import { fuzzRangeRunner } from "../services/Fuzz.js"
import { validateFile } from "../services/Validation.js"
import { WorkerRequest } from "./Requests.js"
import { simulateGamesHandler } from "./SimulateGames.js"

const handlers = () => {
  const fuzzRange = fuzzRangeRunner()
  const fs = NodeFileSystem.layer
  return {
    SimulateGames: simulateGamesHandler(),
    FuzzRuns: (r: WorkerRequest & { readonly _tag: "FuzzRuns" }) => fuzzRange(r).pipe(Effect.provide(fs)),
    ValidateFiles: (r: { files: ReadonlyArray<string> }) =>
      Effect.forEach(r.files, (f) => validateFile(f, documentKinds)).pipe(Effect.provide(fs))
  }
}

const WorkerLive = WorkerRunner.layerSerialized(WorkerRequest, handlers()).pipe(Layer.provide(NodeWorkerRunner.layer))

NodeRuntime.runMain(WorkerRunner.launch(WorkerLive), { disableErrorReporting: true })
