/**
 * The `cardfx` bin's composition root: the one module that knows every face.
 * The CLI (src/cli) is written against the services and their scale-out
 * ports only (`ScaleOut`, `Clustering`, `Serving` in src/services); here
 * each port gets its implementation — the worker pools (src/workers), the
 * cluster (src/cluster) and the HTTP server (src/server) — and `main.ts`
 * runs the command line over them. The in-process test runner
 * (test/support/cli.ts) provides the same layer, so it runs what the bin runs.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Layer } from "effect"
import type { Ports } from "../cli/Command.js"
import { clusteringLayer } from "../cluster/index.js"
import { servingLayer } from "../server/index.js"
import * as ScaleOut from "../workers/index.js"

/** The scale-out ports of the command line, each over its implementation (worker threads read files from the disk). */
export const layer: Layer.Layer<Ports, never, FileSystem.FileSystem> = Layer.mergeAll(
  ScaleOut.layer,
  clusteringLayer,
  servingLayer
)
