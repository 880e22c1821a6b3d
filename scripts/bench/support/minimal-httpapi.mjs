/**
 * The floor of the framework cardfx serve is built on: a minimal `HttpApi`
 * server with the same package versions (@effect/platform, -node), tracer
 * off, no middleware: `GET /v1/health` answering a small JSON document and
 * `POST /v1/assess` decoding a small Schema body (the shape of cardfx's
 * assess request) and answering a fixed document of `ANSWER_B64`'s bytes
 * (so the answer has the size of cardfx's). Prints
 * `{"event":"listening","url":...}` like `cardfx serve`.
 *
 * Run by scripts/bench/serve.mjs as its own process (pinned to a core).
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpMiddleware,
  HttpServer,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"

const answer = Buffer.from(process.env.ANSWER_B64 ?? "e30=", "base64")

const Health = Schema.Struct({ status: Schema.Literal("ok") })
const Command = Schema.Struct({ kind: Schema.Literal("apply"), upgradeId: Schema.String })
const AssessRequest = Schema.Struct({
  cardId: Schema.String,
  command: Command,
  activity: Schema.optional(Schema.String)
})

class Group extends HttpApiGroup.make("bench")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Health))
  .add(HttpApiEndpoint.post("assess", "/assess").setPayload(AssessRequest).addSuccess(Schema.Unknown))
{}
class Api extends HttpApi.make("minimal").add(Group).prefix("/v1") {}

const GroupLive = HttpApiBuilder.group(Api, "bench", (handlers) =>
  handlers
    .handle("health", () => Effect.succeed({ status: "ok" }))
    // The decoded body is used (its card ID is checked), the answer is the fixed bytes.
    .handle("assess", ({ payload }) =>
      Effect.succeed(
        payload.cardId === ""
          ? HttpServerResponse.unsafeJson({ code: "unknown_card" }, { status: 404 })
          : HttpServerResponse.uint8Array(answer, { contentType: "application/json" })
      )))

const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(GroupLive))

const ServerLive = HttpApiBuilder.serve().pipe(
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(ApiLive),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 }))
)

NodeRuntime.runMain(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const a = server.address
    console.log(JSON.stringify({ event: "listening", url: `http://127.0.0.1:${a._tag === "TcpAddress" ? a.port : 0}` }))
    return yield* Effect.never
  }).pipe(Effect.provide(ServerLive))
)
