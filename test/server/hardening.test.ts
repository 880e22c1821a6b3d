/**
 * Hostile requests: a 50 MB body (declared and chunked), and the status column of the diagnostic table. Each gets a 4xx with a code
 * within a second, and the server keeps serving.
 */
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diagnosticCodes, DiagnosticCodeTable, httpStatusOf } from "../../src/kernel/DiagnosticCode.js"
import { freshStore, type Running, startServer } from "./support.js"

/** Sends `chunks` of `size` bytes (declared with Content-Length when `declared`); resolves with the status and body. */
const flood = (url: string, total: number, declared: boolean): Promise<{ status: number; code: string; ms: number }> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const u = new URL(`${url}/v1/assess`)
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: { "content-type": "application/json", ...(declared ? { "content-length": String(total) } : {}) }
      },
      (res) => {
        let body = ""
        res.on("data", (c: Buffer) => (body += c.toString()))
        res.on(
          "end",
          () =>
            resolve({
              status: res.statusCode ?? 0,
              code: (JSON.parse(body) as { code: string }).code,
              ms: Date.now() - started
            })
        )
      }
    )
    req.on("error", (e) => (e.message.includes("EPIPE") || e.message.includes("ECONNRESET") ? undefined : reject(e)))
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const pump = () => {
      while (sent < total) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      req.end()
    }
    req.write("{\"cardId\":\"")
    pump()
  })

describe("hostile requests", () => {
  let s: Running
  beforeAll(async () => {
    s = await startServer({ ...freshStore("sqlite"), bodyTimeout: "300 millis" })
  })
  afterAll(() => s.close())

  it("a declared 50 MB body is 413 body_too_large within a second", async () => {
    const r = await flood(s.url, 50 * 1024 * 1024, true)
    expect([r.status, r.code]).toEqual([413, "body_too_large"])
    expect(r.ms).toBeLessThan(1000)
  })

  it("a chunked 50 MB body (no Content-Length) is refused with 400 schema_invalid within a second", async () => {
    const r = await flood(s.url, 50 * 1024 * 1024, false)
    expect([r.status, r.code]).toEqual([400, "schema_invalid"])
    expect(r.ms).toBeLessThan(1000)
  })
})

describe("the status column of the diagnostic table", () => {
  it("maps each domain as the API documents it", () => {
    expect(httpStatusOf("json_syntax")).toBe(400)
    expect(httpStatusOf("unauthorized")).toBe(401)
    expect(httpStatusOf("forbidden")).toBe(403)
    expect(httpStatusOf("unknown_card")).toBe(404)
    expect(httpStatusOf("request_timeout")).toBe(408)
    expect(httpStatusOf("revision_conflict")).toBe(409)
    expect(httpStatusOf("command_conflict")).toBe(409)
    expect(httpStatusOf("body_too_large")).toBe(413)
    expect(httpStatusOf("not_authorized")).toBe(422)
    expect(httpStatusOf("internal_error")).toBe(500)
    expect(httpStatusOf("unavailable")).toBe(503)
    // bad input is never a 5xx: every input-domain code is a 4xx
    for (const code of diagnosticCodes) {
      if (DiagnosticCodeTable[code].domain === "input" || DiagnosticCodeTable[code].domain === "content") {
        expect(httpStatusOf(code), code).toBeLessThan(500)
      }
    }
  })
})
