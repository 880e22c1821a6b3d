/**
 * cardfx: the public API. Services are `Context.Tag` classes with live and
 * test layers (`CardfxLive` / `CardfxTest` provide all of them at once), the
 * content Schemas, the tagged error union (`CardfxError`, `errorClassByCode`)
 * and the diagnostic table (`DiagnosticCodeTable`). Hallyu Hex lives under the
 * `Hallyu` namespace (its `Card`, `Effect` and `Condition` are not the
 * composition core's). Generative-testing helpers are in `cardfx/testing`.
 * Nothing else is importable: the package's `exports` map lists only `.` and
 * `./testing`.
 *
 * @since 0.1.0
 */

// ---- the library: everything but the faces (src/Library.ts)
export * from "./Library.js"

// ---- the HTTP API's documents (the server and the typed client `cardfx/client` use the same Schemas)
export * from "./api/Documents.js"
// ---- the HTTP face's server layer and the hot-reload check (what `cardfx serve` and `cardfx ledger check` run)
export { reload as reloadServedContent } from "./server/Handlers.js"
export { checkStoredInstances, runtimeInfo } from "./server/Reload.js"
export { batchedJsonLog, type BatchedLog } from "./server/RequestLog.js"
export { drain, makeLifecycle, serverLayer, serverUrl } from "./server/Server.js"

// ---- across machines: simulation shards on an @effect/cluster cluster over PostgreSQL
export * as Cluster from "./cluster/index.js"
