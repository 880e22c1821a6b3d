/**
 * The cluster behind the `Clustering` port (src/services/Clustering.ts):
 * `simulate --cluster`'s `Simulation` service and a runner joining the
 * cluster, as the `cardfx` bin's composition root provides them to the CLI.
 *
 * @since 0.1.0
 */
import { Effect, Layer } from "effect"
import { errorFromDiagnostic } from "../kernel/Errors.js"
import { Clustering } from "../services/Clustering.js"
import { simulationLayer } from "./Client.js"
import { layerAt } from "./Log.js"
import { runnerLayer, runnerName } from "./Runner.js"

/** The `Clustering` service: this module's cluster client, runner and logging. */
export const layer: Layer.Layer<Clustering> = Layer.succeed(Clustering, {
  simulation: simulationLayer,
  runner: (o) =>
    Layer.build(runnerLayer(o)).pipe(
      Effect.mapError(errorFromDiagnostic),
      Effect.as(runnerName(o))
    ),
  logAt: layerAt
})
