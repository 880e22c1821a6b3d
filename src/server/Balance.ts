/**
 * The balance endpoint's handler (`POST /v1/hhx/balance`): a face over the
 * `Simulation` service's `balance`, played in this process in chunks (so the
 * server keeps answering, and a closed connection interrupts the run between
 * two chunks). The served deck file is read when a run starts: a designer
 * edits a card, reruns, and the run plays the edited deck. One run at a
 * time; the next waits for the permit (its connection may close meanwhile).
 *
 * @since 0.1.0
 */
import { FileSystem, HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Context, Effect, Layer, Stream } from "effect"
import { apiError, Authorization, CardfxApi } from "../api/Api.js"
import type { BalanceProgress, BalanceRequest } from "../api/Balance.js"
import { type CardfxError, type DeckSource, readDeck, Simulation, type SimulationService } from "../services/index.js"
import { answered, ServedPackages, withOnly } from "./Handlers.js"

const encoder = new TextEncoder()
const frame = (event: "progress" | "result" | "error", json: string): Uint8Array =>
  encoder.encode(`event: ${event}\ndata: ${json}\n\n`)

const progressFrame = (p: BalanceProgress): Uint8Array => frame("progress", JSON.stringify(p))

const errorFrame = (e: CardfxError): Uint8Array => {
  const body = apiError(e.diagnostics)
  return frame("error", JSON.stringify({ code: body.code, message: body.message, diagnostics: body.diagnostics }))
}

/** The run's events: progress (first `done: 0` once the run has the permit), then its result or its error. */
const runFrames = (
  simulation: SimulationService,
  permit: Effect.Semaphore,
  deck: DeckSource,
  request: BalanceRequest
): Stream.Stream<Uint8Array> =>
  Stream.asyncPush<Uint8Array>((emit) =>
    Effect.forkScoped(
      Effect.gen(function*() {
        emit.single(progressFrame({ done: 0, total: request.games }))
        const report = yield* simulation.balance({
          deck,
          games: request.games,
          seed: String(request.seed),
          onProgress: (done, total) => void emit.single(progressFrame({ done, total }))
        })
        // The bytes of `cardfx simulate --stats --format json`.
        emit.single(frame("result", JSON.stringify(report)))
      }).pipe(
        Effect.catchAll((e) => Effect.sync(() => emit.single(errorFrame(e)))),
        permit.withPermits(1),
        Effect.ensuring(Effect.sync(() => emit.end()))
      )
    ), { bufferSize: "unbounded" })

/** The `balance` group's handlers, with the in-process simulation. */
export const BalanceLive = HttpApiBuilder.group(CardfxApi, "balance", (handlers) =>
  Effect.gen(function*() {
    const served = yield* ServedPackages
    const simulation = yield* Simulation
    const fs = yield* FileSystem.FileSystem
    const permit = yield* Effect.makeSemaphore(1)
    return handlers.handle("run", ({ payload }) =>
      Effect.map(
        // A deck that cannot be read is an error response; one that does not validate is the run's error event.
        Effect.mapError(
          Effect.provideService(readDeck(served.deckFile), FileSystem.FileSystem, fs),
          (e) => apiError(e.diagnostics)
        ),
        (deck) =>
          HttpServerResponse.stream(runFrames(simulation, permit, deck, payload), {
            contentType: "text/event-stream",
            headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
          })
      ).pipe(answered))
  })).pipe(
    Layer.provide(Simulation.layer),
    Layer.provide(NodeFileSystem.layer),
    // Built with only what it requires, as every group is (see `withOnly`).
    (layer) => withOnly(layer, Context.pick(ServedPackages, Authorization))
  )
