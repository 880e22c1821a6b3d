/**
 * The HTTP server behind the `Serving` port (src/services/Serving.ts): what
 * `cardfx serve` runs, as the `cardfx` bin's composition root provides it to
 * the CLI.
 *
 * @since 0.1.0
 */
import { Effect, Layer } from "effect"
import { ContentCatalog } from "../services/index.js"
import { Serving } from "../services/Serving.js"
import { batchedJsonLog } from "./RequestLog.js"
import { drain, makeLifecycle, serverLayer, serverUrl } from "./Server.js"
import { memberSlot, sendListening, sendLog, supervise } from "./Workers.js"

/** The `Serving` service: `serverLayer` built for a scope, drained before the store closes. */
export const layer: Layer.Layer<Serving> = Layer.succeed(Serving, {
  serve: (o) =>
    Effect.gen(function*() {
      const lifecycle = yield* makeLifecycle
      const context = yield* Layer.build(serverLayer(o, lifecycle))
      // Runs before the layers' own finalizers: stop taking requests, let in-flight ones finish, then the store closes.
      yield* Effect.addFinalizer(() => drain(lifecycle))
      const url = yield* Effect.provide(serverUrl, context)
      return {
        url,
        reload: Effect.provide(Effect.flatMap(ContentCatalog.ContentCatalog, (catalog) => catalog.reload), context)
      }
    }),
  batchedJsonLog,
  workers: { slot: memberSlot, sendLog, sendListening, supervise }
})
