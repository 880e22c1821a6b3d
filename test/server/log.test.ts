/**
 * The server's request log sink (src/server/RequestLog.ts): Effect's JSON
 * lines, written in batches (one write per turn of the event loop), nothing
 * lost at the flush before exit.
 */
import { Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { accessLine } from "../../src/server/Door.js"
import { batchedJsonLog } from "../../src/server/RequestLog.js"

const logLines = (n: number, write: (chunk: string) => void) => {
  const log = batchedJsonLog(write)
  Effect.runSync(
    Effect.forEach(
      Array.from({ length: n }, (_, i) => i),
      (i) => Effect.logInfo("request").pipe(Effect.annotateLogs({ status: 200, requestId: `r${i}` }))
    ).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, log.logger)))
  )
  return log
}

describe("the batched JSON request log", () => {
  it("writes one JSON object a line, in one write per turn of the event loop", async () => {
    const writes: Array<string> = []
    logLines(3, (c) => writes.push(c))
    expect(writes).toEqual([]) // nothing written synchronously
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toHaveLength(1)
    const lines = (writes[0] ?? "").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.map((l) => [l["message"], l["logLevel"], l["annotations"]])).toEqual([
      ["request", "INFO", { status: 200, requestId: "r0" }],
      ["request", "INFO", { status: 200, requestId: "r1" }],
      ["request", "INFO", { status: 200, requestId: "r2" }]
    ])
  })

  it("writes a full batch at once, and flush writes the rest before the process ends", () => {
    const writes: Array<string> = []
    const log = logLines(300, (c) => writes.push(c))
    expect(writes.map((c) => c.split("\n").length - 1)).toEqual([256])
    log.flush()
    expect(writes.map((c) => c.split("\n").length - 1)).toEqual([256, 44])
    log.flush()
    expect(writes).toHaveLength(2)
  })
})

describe("the door's access line", () => {
  it("is the JSON a JSON.stringify of the same object writes, key for key, with any route", () => {
    const routes = ["/v1/health", "/v1/cards/a\"b/effective", "/x\\y", "/\u00e9\u4e2d", "/q?with=a&b=\"", "/%22%5C"]
    for (const url of routes) {
      for (const ms of [0, 0.1234567, 12.5, 1000]) {
        const line = accessLine({ method: "POST", url }, 404, ms, "r17")
        const parsed = JSON.parse(line) as { timestamp: string }
        const q = url.indexOf("?")
        expect(line).toBe(JSON.stringify({
          message: "request",
          logLevel: "INFO",
          timestamp: parsed.timestamp,
          annotations: {
            method: "POST",
            route: q < 0 ? url : url.slice(0, q),
            status: 404,
            durationMs: Math.round(ms * 1000) / 1000,
            requestId: "r17"
          }
        }))
        expect(new Date(parsed.timestamp).toISOString()).toBe(parsed.timestamp)
      }
    }
  })
})
