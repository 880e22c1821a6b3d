/**
 * The simulation-only worker thread: answers {@link SimulateGames} and
 * nothing else. Simulations spawn it rather than the full worker
 * (`worker.ts`) because a thread's start-up is mostly loading code: this
 * entry loads the engine, the deck's validation and the worker runner — no
 * content packages, fuzzing or document kinds. Bundled beside the CLI bin as
 * `dist/cli/cardfx-simulation-worker.mjs` (see scripts/bundle-cli.mjs).
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import { Layer, Schema } from "effect"
import { SimulateGames, simulateGamesHandler } from "./SimulateGames.js"

const WorkerLive = WorkerRunner.layerSerialized(Schema.Union(SimulateGames), {
  SimulateGames: simulateGamesHandler()
}).pipe(Layer.provide(NodeWorkerRunner.layer))

NodeRuntime.runMain(WorkerRunner.launch(WorkerLive), { disableErrorReporting: true })
