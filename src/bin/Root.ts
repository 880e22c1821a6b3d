/**
 * The `cardfx` bin's composition root: the one module that knows every face.
 * The CLI (src/cli) is written against the services and their scale-out
 * ports only (`ScaleOut`, `Clustering`, `Serving` in src/services); here
 * each port gets its implementation — the worker pools (src/workers), the
 * cluster (src/cluster), the HTTP server (src/server) and the language
 * server (src/lsp, the `LanguageServer` port) — and `main.ts`
 * runs the command line over them. The in-process test runner
 * (test/support/cli.ts) provides the same layer, so it runs what the bin runs.
 *
 * The cluster and the server are loaded when a command first uses them
 * (`import()`, which the bin's bundle keeps as a lazily initialized module):
 * the cluster, the HTTP server and their packages are about half of the
 * bundle, and initializing them cost every command — `--version` included —
 * about 40 % of its start-up CPU.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { type Context, Effect, Layer } from "effect"
import type { Ports } from "../cli/Command.js"
import { batchedJsonLog } from "../server/RequestLog.js"
import * as Workers from "../server/Workers.js"
import { Clustering } from "../services/Clustering.js"
import { DEFAULT_AGENT_POOL_SIZE } from "../services/ComputerSeats.js"
import { LanguageServer } from "../services/LanguageServer.js"
import { Serving } from "../services/Serving.js"
import * as AgentPool from "../workers/AgentPool.js"
import * as ScaleOut from "../workers/index.js"

/** A port's service from its implementation's layer, the module loaded on first use (then cached by the loader). */
const loaded = <I, S>(tag: Context.Tag<I, S>, load: () => Promise<Layer.Layer<I>>): Effect.Effect<S> =>
  Effect.flatMap(Effect.promise(load), (layer) => Effect.provide(tag, layer))

const cluster = loaded(Clustering, () => import("../cluster/index.js").then((m) => m.clusteringLayer))
const server = loaded(Serving, () => import("../server/index.js").then((m) => m.servingLayer))
const lsp = loaded(LanguageServer, () => import("../lsp/index.js").then((m) => m.languageServerLayer))

const clusteringLayer: Layer.Layer<Clustering> = Layer.succeed(Clustering, {
  simulation: (o) => Layer.unwrapEffect(Effect.map(cluster, (c) => c.simulation(o))),
  runner: (o) => Effect.flatMap(cluster, (c) => c.runner(o)),
  logAt: (level) => Layer.unwrapEffect(Effect.map(cluster, (c) => c.logAt(level)))
})

const servingLayer: Layer.Layer<Serving> = Layer.succeed(Serving, {
  // Computer seats decide on worker threads of their own (started on the first decision).
  serve: (o) =>
    Effect.flatMap(server, (s) =>
      s.serve({
        ...o,
        agentDecider: o.agentDecider ?? AgentPool.layer(o.computerSeats?.poolSize ?? DEFAULT_AGENT_POOL_SIZE)
      })),
  // The request log is a small module of its own: `serve` sets it up before it starts the server.
  batchedJsonLog,
  // `serve --workers N` (small, node:cluster only): a worker knows its slot before the server loads.
  workers: {
    slot: Workers.memberSlot,
    sendLog: Workers.sendLog,
    sendListening: Workers.sendListening,
    supervise: Workers.supervise
  }
})

// The language server and its protocol packages load only for `cardfx lsp` (the other commands start without them).
const languageServerLayer: Layer.Layer<LanguageServer> = Layer.succeed(LanguageServer, {
  run: (input, output) => Effect.flatMap(lsp, (l) => l.run(input, output))
})

/** The scale-out ports of the command line, each over its implementation (worker threads read files from the disk). */
export const layer: Layer.Layer<Ports, never, FileSystem.FileSystem> = Layer.mergeAll(
  ScaleOut.layer,
  clusteringLayer,
  servingLayer,
  languageServerLayer
)
