/**
 * The computer seats' worker thread: answers {@link DecideAction} (one
 * agent's decision from one seat's knowledge) and {@link SimulateGames}, so
 * a server's agents and simulations can share its threads. Loads the engine,
 * the agents and the deck's validation only. Bundled beside the CLI bin as
 * `dist/cli/cardfx-agent-worker.mjs` (see scripts/bundle-cli.mjs); the
 * library's pool spawns `dist/workers/agent-worker.js`.
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
  DecideAction: decideActionHandler(),
  SimulateGames: simulateGamesHandler()
}).pipe(Layer.provide(NodeWorkerRunner.layer))

NodeRuntime.runMain(WorkerRunner.launch(WorkerLive), { disableErrorReporting: true })
