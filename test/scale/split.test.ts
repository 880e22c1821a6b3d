/**
 * `runSplit`: this thread and a worker thread both play, claims cover the
 * range once, and the answers come back in range order (so the merge sees one
 * sequence whoever played what).
 */
import { Deferred, Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { mergeAllPartials, simulate, simulateRange, summarize } from "../../src/hallyu/engine/Simulate.js"
import { CardfxWorkerPool, inProcess, layer, workerEntry } from "../../src/workers/Pool.js"
import { SimulateGames } from "../../src/workers/Requests.js"
import { REQUESTS_PER_THREAD, runSplit } from "../../src/workers/Split.js"
import { engine } from "../hallyu/engine-fixtures.js"

const deckFile = "data/hallyu-hex/starter-deck.v0.json"
const deckJson = readFileSync(deckFile, "utf8")

describe("runSplit", () => {
  it("this thread and a worker thread share the games; answers in range order merge to the one-process summary", async () => {
    const total = 300
    const { answers, ranges } = await Effect.runPromise(
      Effect.gen(function*() {
        // This thread starts playing only once the worker thread has answered: both surely play.
        const threadAnswered = yield* Deferred.make<void>()
        const ranges: Array<{ who: string; from: number; to: number }> = []
        const answers = yield* runSplit({
          total,
          threads: 1,
          entry: workerEntry("simulation"),
          localChunk: 32,
          remoteChunk: 512,
          local: (from, to) =>
            Effect.zipRight(
              Deferred.await(threadAnswered),
              inProcess(() => simulateRange(engine, from, to, { seed: "split" }))
            ).pipe(Effect.tap(() => void ranges.push({ who: "here", from, to }))),
          remote: (pool, from, to) =>
            pool.simulateGames(new SimulateGames({ deckJson, deckFile, seed: "split", from, to, logs: false })).pipe(
              Effect.map((a) => a.partial),
              Effect.tap(() => void ranges.push({ who: "thread", from, to })),
              Effect.zipLeft(Deferred.succeed(threadAnswered, undefined))
            )
        })
        return { answers, ranges }
      })
    )
    expect(new Set(ranges.map((r) => r.who))).toEqual(new Set(["here", "thread"]))
    // Every game claimed once: the answers' ranges tile [0, total) in order.
    expect(answers.map((a) => [a.from, a.to])).toEqual(
      [...ranges].sort((a, b) => a.from - b.from).map((r) => [r.from, r.to])
    )
    expect(answers[0]?.from).toBe(0)
    for (let i = 1; i < answers.length; i++) expect(answers[i]?.from).toBe(answers[i - 1]?.to)
    expect(answers.at(-1)?.to).toBe(total)
    const merged = mergeAllPartials("split", 0, answers)
    const one = simulate(engine, { seed: "split", games: total })
    expect(Either.isRight(merged) && Either.isRight(one)).toBe(true)
    if (Either.isRight(merged) && Either.isRight(one)) {
      expect(JSON.stringify(summarize(merged.right))).toBe(JSON.stringify(one.right))
    }
  })

  it("on a running pool (threads kept warm across runs): the same merged partial as one process", async () => {
    const parts = await Effect.runPromise(
      Effect.flatMap(CardfxWorkerPool, (pool) =>
        Effect.forEach([0, 1], () =>
          runSplit({
            total: 200,
            threads: 1,
            pool,
            entry: workerEntry("simulation"),
            localChunk: 32,
            remoteChunk: 512,
            local: (from, to) => inProcess(() => simulateRange(engine, from, to, { seed: "warm" })),
            remote: (pool, from, to) =>
              Effect.map(
                pool.simulateGames(new SimulateGames({ deckJson, deckFile, seed: "warm", from, to, logs: false })),
                (a) => a.partial
              )
          }))).pipe(Effect.provide(layer(1, workerEntry("simulation"), { concurrency: REQUESTS_PER_THREAD })))
    )
    const one = simulate(engine, { seed: "warm", games: 200 })
    for (const answers of parts) {
      const merged = mergeAllPartials("warm", 0, answers)
      expect(Either.isRight(merged) && Either.isRight(one)).toBe(true)
      if (Either.isRight(merged) && Either.isRight(one)) {
        expect(JSON.stringify(summarize(merged.right))).toBe(JSON.stringify(one.right))
      }
    }
  })

  it("with no threads, this thread plays everything in order", async () => {
    const answers = await Effect.runPromise(
      runSplit({
        total: 100,
        threads: 0,
        entry: workerEntry("simulation"),
        localChunk: 32,
        remoteChunk: 512,
        local: (from, to) => Effect.succeed([from, to] as const),
        remote: () => Effect.die("no thread")
      })
    )
    expect(answers).toEqual([[0, 32], [32, 64], [64, 96], [96, 100]])
  })
})
