/**
 * `cardfx/server`: the HTTP server `cardfx serve` runs, as a layer an
 * embedder can run itself — `serverLayer(options, lifecycle)` over the
 * services, the API definition of `src/api` (the same one `cardfx/client`
 * is made from), the workbench page's routes, a graceful `drain` and the
 * batched JSON request log; the reload-with-check of `POST /v1/admin/reload`
 * (what `cardfx ledger check` runs); `servingLayer`, the `Serving` service of
 * src/services over them. The package root `cardfx` does not load
 * this module.
 *
 * @since 0.1.0
 */
export { reload as reloadServedContent } from "./Handlers.js"
export { batchedJsonLog, type BatchedLog } from "./RequestLog.js"
export {
  DEFAULT_BODY_LIMIT,
  DEFAULT_BODY_TIMEOUT,
  drain,
  type Lifecycle,
  makeLifecycle,
  type ServeOptions,
  serverLayer,
  serverUrl
} from "./Server.js"
export { layer as servingLayer } from "./Serving.js"
