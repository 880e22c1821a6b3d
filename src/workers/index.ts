/**
 * Across cores: simulation, fuzzing and batch validation on worker threads
 * (the `ScaleOut` port of src/services and its implementation here: `layer`,
 * `simulationLayer`, `pooledSimulationLayer`), and how many threads a run
 * gets. The package root exports this module as the `ScaleOut` namespace.
 *
 * @since 0.1.0
 */
export { defaultWorkers } from "./Pool.js"
export { MIN_GAMES_PER_WORKER, simulationWorkers } from "./Runs.js"
export { layer, pooledSimulationLayer, ScaleOut, type ScaleOutService, simulationLayer } from "./ScaleOut.js"
