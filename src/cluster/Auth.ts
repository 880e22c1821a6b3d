/**
 * Members trust only members: the `@effect/cluster` socket transport
 * (msgpack over TCP between runners, and from a `simulate --cluster` client
 * to the runners) with a shared-secret handshake in front of it.
 *
 * With `CARDFX_CLUSTER_SECRET` set (every member must have the same value),
 * a runner's listening socket sends each new connection a challenge — the
 * 8 bytes `CFXAUTH1` and a 32-byte random nonce — and reads back, within
 * {@link HANDSHAKE_TIMEOUT_MS}, HMAC-SHA256(secret, `cardfx-cluster/1` ‖
 * nonce). Only then is the connection handed to the cluster's RPC server;
 * anything else (no answer, a wrong one, a peer that sends its messages
 * straight away) is closed before a byte of it is read as a message, and
 * logged as one warning line (`cluster: refused a connection`, with the
 * peer's address and why). The secret itself never crosses the wire, and a
 * recorded answer is worthless for the next nonce. Outgoing connections
 * (a runner to another, a client to a runner) answer the challenge first.
 *
 * Without the secret the transport is the library's (no handshake): a
 * runner then only listens on a loopback address (`ClusterLayer` refuses a
 * start on another host), so only the machine's own processes reach it.
 *
 * The channel is not encrypted: the handshake authenticates who may send
 * work, it does not hide the work (decks and seeds) from the network; run
 * members over a private network or a tunnel when that matters
 * (docs/scale.md).
 *
 * @since 0.1.0
 */
import { Runners, ShardingConfig } from "@effect/cluster"
import { Socket, SocketServer } from "@effect/platform"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { Cause, Config, Deferred, Effect, Exit, FiberSet, Layer, Option, Redacted, Runtime, Scope } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import * as Net from "node:net"

/** The environment variable holding the members' shared secret. */
export const SECRET_ENV = "CARDFX_CLUSTER_SECRET"

const MAGIC = Buffer.from("CFXAUTH1")
const NONCE_BYTES = 32
const MAC_BYTES = 32
/** A peer that has not answered the challenge by then is refused. */
export const HANDSHAKE_TIMEOUT_MS = 5_000

/** The members' secret from the environment (none when unset or empty). */
export const clusterSecret: Effect.Effect<Option.Option<Redacted.Redacted<string>>> = Config.option(
  Config.redacted(SECRET_ENV)
).pipe(
  Effect.map(Option.filter((s) => Redacted.value(s) !== "")),
  Effect.orElseSucceed(() => Option.none())
)

/** The answer to a nonce. */
export const answerOf = (secret: Redacted.Redacted<string>, nonce: Buffer): Buffer =>
  createHmac("sha256", Redacted.value(secret)).update("cardfx-cluster/1").update(nonce).digest()

/** Reads exactly `n` bytes in paused mode (what follows stays buffered for the cluster's reader). */
const readExactly = (conn: Net.Socket, n: number, timeoutMs: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer)
      conn.off("readable", tryRead)
      conn.off("end", ended)
      conn.off("close", ended)
      conn.off("error", failed)
    }
    const tryRead = () => {
      const b: Buffer | null = conn.read(n)
      if (b === null) return
      cleanup()
      if (b.length < n) reject(new Error("the peer closed the connection during the handshake"))
      else resolve(b)
    }
    const ended = () => {
      cleanup()
      reject(new Error("the peer closed the connection during the handshake"))
    }
    const failed = (e: Error) => {
      cleanup()
      reject(e)
    }
    const timer = setTimeout(() => {
      cleanup()
      reject(new Error(`no answer to the challenge within ${timeoutMs} ms`))
    }, timeoutMs)
    conn.on("readable", tryRead)
    conn.once("end", ended)
    conn.once("close", ended)
    conn.once("error", failed)
    tryRead()
  })

/** The runner's side: challenge, then check the answer; a refusal says why. */
const admit = async (conn: Net.Socket, secret: Redacted.Redacted<string>): Promise<string | undefined> => {
  const nonce = randomBytes(NONCE_BYTES)
  conn.write(Buffer.concat([MAGIC, nonce]))
  try {
    const mac = await readExactly(conn, MAC_BYTES, HANDSHAKE_TIMEOUT_MS)
    return timingSafeEqual(mac, answerOf(secret, nonce))
      ? undefined
      : "wrong answer to the challenge (not this cluster's secret)"
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

/** The connecting side: answer the runner's challenge. */
const answer = (conn: Net.Socket, secret: Redacted.Redacted<string>): Promise<void> =>
  readExactly(conn, MAGIC.length + NONCE_BYTES, HANDSHAKE_TIMEOUT_MS).then((challenge) =>
    challenge.subarray(0, MAGIC.length).equals(MAGIC)
      ? void conn.write(answerOf(secret, challenge.subarray(MAGIC.length)))
      : Promise.reject(new Error("the peer is not a cardfx cluster member"))
  )

/**
 * The RPC client protocol of members that share `secret`: as
 * `NodeClusterSocket.layerClientProtocol`, each new connection answering the
 * runner's challenge before its first message.
 */
export const layerClientProtocol = (secret: Redacted.Redacted<string>): Layer.Layer<
  Runners.RpcClientProtocol,
  never,
  RpcSerialization.RpcSerialization
> =>
  Layer.effect(
    Runners.RpcClientProtocol,
    Effect.gen(function*() {
      const serialization = yield* RpcSerialization.RpcSerialization
      return (address) =>
        Effect.gen(function*() {
          const socket = yield* NodeSocket.fromDuplex(
            Effect.acquireRelease(
              Effect.tryPromise({
                try: () =>
                  new Promise<Net.Socket>((resolve, reject) => {
                    const conn = Net.createConnection({ host: address.host, port: address.port })
                    conn.once("error", reject)
                    conn.once("connect", () => {
                      answer(conn, secret).then(() => {
                        conn.off("error", reject)
                        resolve(conn)
                      }, (e) => {
                        conn.destroy()
                        reject(e)
                      })
                    })
                  }),
                catch: (cause) => new Socket.SocketGenericError({ reason: "Open", cause })
              }),
              (conn) => Effect.sync(() => conn.destroySoon())
            ),
            { openTimeout: 1000 + HANDSHAKE_TIMEOUT_MS }
          )
          return yield* RpcClient.makeProtocolSocket().pipe(
            Effect.provideService(Socket.Socket, socket),
            Effect.provideService(RpcSerialization.RpcSerialization, serialization)
          )
        }).pipe(Effect.orDie)
    })
  )

/**
 * The runner's listening socket for members that share `secret`: as
 * `NodeSocketServer.layer` at the sharding config's address, a connection
 * reaching the cluster's RPC server only once it answered the challenge;
 * every refusal is logged once.
 */
export const layerSocketServer = (secret: Redacted.Redacted<string>): Layer.Layer<
  SocketServer.SocketServer,
  SocketServer.SocketServerError,
  ShardingConfig.ShardingConfig
> =>
  Layer.scoped(
    SocketServer.SocketServer,
    Effect.gen(function*() {
      const config = yield* ShardingConfig.ShardingConfig
      const address = Option.getOrUndefined(Option.orElse(config.runnerListenAddress, () => config.runnerAddress))
      if (address === undefined) return yield* Effect.dieMessage("a runner needs an address to listen on")
      const runtime = yield* Effect.runtime<never>()
      const failed = yield* Deferred.make<never, SocketServer.SocketServerError>()
      const pending: Array<Net.Socket> = []
      let onConnection: (conn: Net.Socket) => void = (conn) => void pending.push(conn)
      const server = Net.createServer((conn) => {
        const peer = `${conn.remoteAddress ?? "?"}:${conn.remotePort ?? "?"}`
        conn.on("error", () => undefined)
        void admit(conn, secret).then((refused) => {
          if (refused === undefined) return onConnection(conn)
          conn.destroy()
          Runtime.runFork(runtime)(
            Effect.logWarning("cluster: refused a connection").pipe(Effect.annotateLogs({ peer, reason: refused }))
          )
        })
      })
      yield* Effect.addFinalizer(() => Effect.async<void>((resume) => void server.close(() => resume(Effect.void))))
      server.on("error", (cause) =>
        Deferred.unsafeDone(failed, Exit.fail(new SocketServer.SocketServerError({ reason: "Open", cause }))))
      yield* Effect.async<void>((resume) =>
        void server.listen(address.port, address.host, () => resume(Effect.void))
      )
        .pipe(Effect.raceFirst(Deferred.await(failed)))
      const run = <R, E, _>(handler: (socket: Socket.Socket) => Effect.Effect<_, E, R>) =>
        Effect.gen(function*() {
          const scope = yield* Scope.make()
          const fibers = yield* FiberSet.make().pipe(Scope.extend(scope))
          const fork = yield* FiberSet.runtime(fibers)<R>()
          const accept = (conn: Net.Socket) =>
            void fork(
              NodeSocket.fromDuplex(
                Effect.acquireRelease(
                  Effect.suspend(() =>
                    conn.closed
                      ? Effect.fail(new Socket.SocketCloseError({ reason: "Close", code: 1000 }))
                      : Effect.succeed(conn)
                  ),
                  (c) => Effect.sync(() => c.closed || c.destroySoon())
                )
              ).pipe(
                Effect.flatMap(handler),
                Effect.catchAllCause((cause) =>
                  Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logDebug("cluster: connection ended", cause)
                ),
                Effect.provideService(NodeSocket.NetSocket, conn)
              )
            )
          return yield* Effect.async<never>(() => {
            const previous = onConnection
            onConnection = accept
            for (const conn of pending.splice(0)) accept(conn)
            return Effect.suspend(() => {
              onConnection = previous
              return Scope.close(scope, Exit.void)
            })
          }).pipe(Effect.raceFirst(Deferred.await(failed)))
        })
      const bound = server.address()
      return SocketServer.SocketServer.of({
        address: bound === null || typeof bound === "string"
          ? { _tag: "UnixAddress", path: bound ?? "" }
          : { _tag: "TcpAddress", hostname: bound.address, port: bound.port },
        run
      })
    })
  )

/** Whether `host` is a loopback address or name (a runner without the secret listens only there). */
export const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host)
