/**
 * The simulation-only worker thread: answers {@link SimulateGames} and, for
 * `cardfx serve`'s computer seats, {@link DecideAction} (one agent's decision
 * from one seat's knowledge; src/workers/AgentPool.ts) — nothing else.
 * Simulations spawn it rather than the full worker (`worker.ts`) because a
 * thread's start-up is mostly loading code: this entry loads the engine, the
 * agents, the deck's validation and the worker runner — no content packages,
 * fuzzing or document kinds. Bundled beside the CLI bin as
 * `dist/cli/cardfx-simulation-worker.mjs` (see scripts/bundle-cli.mjs); the
 * agents share its bundle rather than ship one of their own (the package
 * stays under 2 MB).
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import { Layer } from "effect"
import { AgentRequest, decideActionHandler } from "./DecideAction.js"
import { simulateGamesHandler } from "./SimulateGames.js"

const WorkerLive = WorkerRunner.layerSerialized(AgentRequest, {
  SimulateGames: simulateGamesHandler(),
  DecideAction: decideActionHandler()
}).pipe(Layer.provide(NodeWorkerRunner.layer))

NodeRuntime.runMain(WorkerRunner.launch(WorkerLive), { disableErrorReporting: true })
