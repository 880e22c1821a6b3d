/**
 * Members trust only members (src/cluster/Auth.ts), through the built bin on
 * a throw-away PostgreSQL database: a runner started with
 * CARDFX_CLUSTER_SECRET challenges every connection. A peer without the
 * secret that sends a well-formed shard message (the library's own RPC
 * client, msgpack over TCP, a `PlayShard` request for the cardfx entity) is
 * refused: nothing played or stored, one log line. With the secret,
 * `simulate --cluster` prints byte for byte what a local simulate prints.
 * A runner on a non-loopback address without the secret does not start.
 */
import { EntityAddress, EntityId, EntityType, RunnerAddress, Runners, ShardId, Snowflake } from "@effect/cluster"
import { Headers } from "@effect/platform"
import { layerClientProtocol } from "@effect/platform-node/NodeClusterSocket"
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { Effect, Exit } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { clusterFixture, freePort, sqlAt, until } from "../support/cluster.js"
import { PG_REQUIRED, pgReachable } from "../support/pg.js"

const up = await pgReachable()
if (!up && PG_REQUIRED) throw new Error("PostgreSQL is required (CARDFX_REQUIRE_POSTGRES=1) but unreachable")

const SECRET = "cluster-auth-test-secret"
const DECK = "data/hallyu-hex/starter-deck.v0.json"

/** A well-formed `PlayShard` request sent the way a member sends it (no handshake: the library's plain transport). */
const sendShardWithoutSecret = (port: number) =>
  Effect.gen(function*() {
    const makeProtocol = yield* Runners.RpcClientProtocol
    const protocol = yield* makeProtocol(RunnerAddress.make("127.0.0.1", port))
    const client = yield* Runners.makeRpcClient.pipe(Effect.provideService(RpcClient.Protocol, protocol))
    return yield* client.Effect({
      request: {
        _tag: "Request",
        requestId: Snowflake.Snowflake(BigInt("7000000000000000001")),
        address: EntityAddress.make({
          shardId: ShardId.make("default", 1),
          entityType: EntityType.EntityType.make("CardfxSimulationShard"),
          entityId: EntityId.make("intruder/0")
        }),
        tag: "PlayShard",
        payload: {
          runId: "intruder",
          index: 0,
          deckJson: readFileSync(DECK, "utf8"),
          deckFile: DECK,
          seed: "1",
          from: 0,
          to: 50
        },
        headers: Headers.empty
      },
      persisted: true
    })
  }).pipe(
    Effect.scoped,
    Effect.provide(layerClientProtocol),
    Effect.provide(RpcSerialization.layerMsgPack),
    Effect.timeout("8 seconds"),
    Effect.exit
  )

describe.skipIf(!up)("cluster members authenticate each other (CARDFX_CLUSTER_SECRET)", () => {
  const fx = clusterFixture("cardfx_cluster_auth")
  afterAll(() => {
    delete process.env["CARDFX_CLUSTER_SECRET"]
  })

  it(
    "a shard message without the secret is refused (nothing played or stored, one log line); with it, simulate --cluster prints a local run's bytes",
    async () => {
      fx.dumpOnFailure()
      const db = await fx.freshDatabase()
      const port = await freePort()
      process.env["CARDFX_CLUSTER_SECRET"] = SECRET
      const runner = fx.start(["cluster", "runner", "--pg", db, "--port", String(port), "--workers", "1"])
      await until(
        () => `the runner to join (stderr: ${runner.err().slice(0, 400)})`,
        60_000,
        () => runner.out().includes("\"event\":\"runner\"") ? true : undefined
      )

      const refused = await Effect.runPromise(sendShardWithoutSecret(port))
      expect(Exit.isSuccess(refused)).toBe(false)
      const lines = await until(() => "the refusal's log line", 10_000, () => {
        const found = runner.err().split("\n").filter((l) => l.includes("cluster: refused a connection"))
        return found.length > 0 ? found : undefined
      })
      // Give a late second line (or a late play) the time to show, then count.
      await new Promise((r) => setTimeout(r, 1_500))
      expect(runner.err().split("\n").filter((l) => l.includes("cluster: refused a connection"))).toHaveLength(
        lines.length
      )
      expect(lines).toHaveLength(1)
      expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ logLevel: "WARN" })
      const stored = await sqlAt(db, (sql) =>
        Effect.all([
          sql<{ n: number }>`SELECT count(*)::int AS n FROM cardfx_shard_ledger`,
          sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages WHERE entity_id = 'intruder/0'`
        ]))
      expect(stored.map((rows) => rows[0]?.n)).toEqual([0, 0])

      // With the secret: a whole run through the runner, the local run's bytes.
      const args = ["--games", "300", "--seed", "5", "--format", "json"]
      const local = fx.start(["simulate", ...args])
      const client = fx.start(["simulate", "--cluster", db, "--shard-games", "100", ...args])
      expect(await local.exited).toEqual({ code: 0, signal: null })
      expect(await client.exited).toEqual({ code: 0, signal: null })
      expect(client.out()).toBe(local.out())
      const played = await sqlAt(db, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM cardfx_shard_ledger`)
      expect(played[0]?.n).toBe(3)
      runner.child.kill("SIGTERM")
      expect((await runner.exited).code).toBe(130)
    },
    180_000
  )

  it("a runner on a non-loopback address without the secret does not start (usage_error, exit 2)", async () => {
    fx.dumpOnFailure()
    delete process.env["CARDFX_CLUSTER_SECRET"]
    const db = await fx.freshDatabase()
    const r = fx.start(["cluster", "runner", "--pg", db, "--host", "0.0.0.0", "--port", String(await freePort())])
    expect((await r.exited).code).toBe(2)
    expect(r.err()).toContain("CARDFX_CLUSTER_SECRET")
  }, 60_000)
})
