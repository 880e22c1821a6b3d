/**
 * `@effect/cluster` over PostgreSQL for cardfx: the socket runner (or a
 * client-only member for `simulate --cluster`), its message and runner
 * storage in the cluster's database (`SqlMessageStorage`,
 * `SqlRunnerStorage`), and the shared timings of `Config.ts`. Composed here
 * rather than through `NodeClusterSocket.layer`, which also reads the
 * sharding settings from environment variables (`HOST`, `PORT`, ...): a
 * cardfx runner's settings are its command line.
 *
 * @since 0.1.0
 */
import { RunnerAddress, RunnerHealth, Runners, ShardingConfig, SocketRunner } from "@effect/cluster"
import type { Sharding } from "@effect/cluster/Sharding"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import { layerClientProtocol, layerSocketServer } from "@effect/platform-node/NodeClusterSocket"
import { RpcSerialization } from "@effect/rpc"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted } from "effect"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import * as Auth from "./Auth.js"
import { clusterTimings } from "./Config.js"

const messageOf = (e: unknown): string => {
  if (typeof e !== "object" || e === null) return String(e)
  const own = "message" in e ? String(e.message) : String(e)
  const cause = "cause" in e && e.cause instanceof Error ? e.cause.message : ""
  return cause !== "" && cause !== own ? `${own}: ${cause}` : own
}

/** A URL as it may be shown: a password is hidden. */
export const displayUrl = (url: string): string => url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/, "$1:***@")

/** The cluster's PostgreSQL client; a connection that fails is `cluster_unreachable`. */
export const pgLayer = (url: string): Layer.Layer<SqlClient.SqlClient, Diagnostic> =>
  PgClient.layer({
    url: Redacted.make(url),
    maxConnections: 8,
    connectTimeout: "15 seconds",
    applicationName: "cardfx-cluster"
  }).pipe(
    Layer.mapError((e) =>
      diagnostic(
        "cluster_unreachable",
        `cannot reach the cluster's PostgreSQL at ${displayUrl(url)}: ${messageOf(e)}`,
        {
          subject: displayUrl(url)
        }
      )
    )
  )

/** Where a runner listens and how other members reach it. */
export interface RunnerAddressOptions {
  readonly host: string
  readonly port: number
}

const shardingConfig = (address: RunnerAddressOptions | undefined) =>
  ShardingConfig.layer({
    ...clusterTimings,
    runnerAddress: address === undefined
      ? Option.none()
      : Option.some(RunnerAddress.make(address.host, address.port)),
    runnerListenAddress: Option.none()
  })

const storage = Layer.mergeAll(Layer.orDie(SqlMessageStorage.layer), Layer.orDie(SqlRunnerStorage.layer))

/**
 * A member of the cluster on PostgreSQL: a runner at `address` (it hosts
 * entities and listens there), or a client only (`address` undefined). It
 * starts under the cluster's start lock ({@link startSerialized}).
 */
export const clusterLayer = (
  address: RunnerAddressOptions | undefined
): Layer.Layer<Sharding, Diagnostic, SqlClient.SqlClient> => startSerialized(memberLayer(address))

const memberLayer = (
  address: RunnerAddressOptions | undefined
): Layer.Layer<Sharding, Diagnostic, SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    // Members trust only members (src/cluster/Auth.ts): with the shared secret, every connection is challenged.
    const secret = yield* Auth.clusterSecret
    if (address !== undefined && Option.isNone(secret) && !Auth.isLoopback(address.host)) {
      return yield* Effect.fail(diagnostic(
        "usage_error",
        `a runner listening on ${address.host} needs ${Auth.SECRET_ENV} (the members' shared secret): without it anyone who reaches the port could send work; see docs/scale.md`,
        { subject: address.host }
      ))
    }
    return transportLayer(
      address,
      Option.isSome(secret) ? Auth.layerClientProtocol(secret.value) : layerClientProtocol,
      Option.isSome(secret) ? Auth.layerSocketServer(secret.value) : layerSocketServer
    )
  }))

const transportLayer = (
  address: RunnerAddressOptions | undefined,
  clientProtocol: Layer.Layer<Runners.RpcClientProtocol, never, RpcSerialization.RpcSerialization>,
  socketServer: typeof layerSocketServer | ReturnType<typeof Auth.layerSocketServer>
): Layer.Layer<Sharding, Diagnostic, SqlClient.SqlClient> => {
  const config = shardingConfig(address)
  const serialization = RpcSerialization.layerMsgPack
  const member = address === undefined
    ? SocketRunner.layerClientOnly.pipe(Layer.provide(clientProtocol))
    : SocketRunner.layer.pipe(
      Layer.provide(RunnerHealth.layerPing.pipe(Layer.provide(Runners.layerRpc), Layer.provide(clientProtocol))),
      Layer.provide([socketServer, clientProtocol])
    )
  return member.pipe(
    Layer.provide(storage),
    Layer.provide(config),
    Layer.provide(serialization),
    Layer.mapError((e) =>
      diagnostic(
        "cluster_port_in_use",
        `a cluster runner cannot listen on ${address?.host ?? "?"}:${address?.port ?? "?"}: ${messageOf(e)}`,
        { subject: `${address?.host ?? ""}:${address?.port ?? ""}` }
      )
    ),
    Effect.succeed,
    Layer.unwrapEffect
  )
}

/** The PostgreSQL advisory lock key members take while they start ("cfxs"). */
const START_LOCK = 0x63667873

/**
 * Builds `layer` (a cluster member) while holding a PostgreSQL session
 * advisory lock on a connection of its own, so that members starting at the
 * same moment on one database join one after another: their start-up
 * (creating the cluster's tables, registering the runner) is not safe against
 * a concurrent twin (seen: 1 start in 4 failed with a SQL error when three
 * runners started at once on a new database). The lock is released once the
 * member is built, or when its connection ends with the process.
 */
export const startSerialized = <A, E, R>(
  layer: Layer.Layer<A, E, R>
): Layer.Layer<A, E | Diagnostic, R | SqlClient.SqlClient> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outer = yield* Effect.scope
      return yield* Effect.scoped(
        Effect.gen(function*() {
          const conn = yield* sql.reserve
          yield* conn.executeRaw("SELECT pg_advisory_lock($1)", [START_LOCK])
          return yield* Layer.buildWithScope(layer, outer).pipe(
            Effect.ensuring(Effect.ignore(conn.executeRaw("SELECT pg_advisory_unlock($1)", [START_LOCK])))
          )
        }).pipe(
          Effect.catchTag("SqlError", (e) =>
            Effect.fail(
              diagnostic("cluster_unreachable", `cannot take the cluster's start lock: ${messageOf(e)}`)
            ))
        )
      )
    })
  )
