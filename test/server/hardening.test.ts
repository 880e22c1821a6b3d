/**
 * Hostile requests: a 50 MB body (declared and chunked), a slow client (withholds or dribbles its body),
 * hostile JSON, and the status column of the diagnostic table. Each gets a 4xx with a code within a second,
 * and the server keeps serving.
 */
import { request } from "node:http"
import { connect } from "node:net"
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

/** Sends the headers of a 100-byte body and 7 bytes of it, then withholds the rest or dribbles one byte per 100 ms. */
const slowClient = (url: string, dribble: boolean): Promise<{ status: number; code: string; ms: number }> =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const started = Date.now()
    let text = ""
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        "POST /v1/assess HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"card"
      )
    })
    const ticker = dribble ? setInterval(() => socket.write(" "), 100) : undefined
    // Bounded: a server that never answers fails the test after 5 s instead of hanging it.
    const limit = setTimeout(() => socket.destroy(new Error(`no answer within 5 s: ${text}`)), 5000)
    const done = (e?: Error) => {
      clearInterval(ticker)
      clearTimeout(limit)
      if (e !== undefined && text === "") return reject(e)
      const [head = "", body = ""] = text.split("\r\n\r\n")
      resolve({
        status: Number(head.split(" ")[1]),
        code: (JSON.parse(body) as { code: string }).code,
        ms: Date.now() - started
      })
    }
    socket.on("data", (d: Buffer) => {
      text += d.toString()
      // The answer is complete once its declared length is in; the client does not wait for the close.
      const m = /content-length: (\d+)/i.exec(text)
      const [, body = ""] = text.split("\r\n\r\n")
      if (m !== null && Buffer.byteLength(body) >= Number(m[1])) {
        socket.destroy()
        done()
      }
    })
    socket.on("error", (e) => done(e))
  })

const post = async (url: string, body: string) => {
  const started = Date.now()
  const r = await fetch(`${url}/v1/assess`, { method: "POST", headers: { "content-type": "application/json" }, body })
  return { status: r.status, code: ((await r.json()) as { code: string }).code, ms: Date.now() - started }
}

const healthy = async (url: string) => (await fetch(`${url}/v1/health`)).status

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
    expect(await healthy(s.url)).toBe(200)
  })

  it.each([["withholds", false], ["dribbles", true]] as const)(
    "a client that %s its body is 408 request_timeout within a second, and the server keeps serving",
    async (_, dribble) => {
      const [a, b] = await Promise.all([slowClient(s.url, dribble), slowClient(s.url, dribble)])
      for (const r of [a, b]) {
        expect([r.status, r.code]).toEqual([408, "request_timeout"])
        expect(r.ms).toBeLessThan(1000)
      }
      expect(await healthy(s.url)).toBe(200)
    }
  )

  it.each(
    [
      ["1e5 nesting levels", "[".repeat(1e5) + "]".repeat(1e5), 400, "depth_limit"],
      ["a __proto__ key", "{\"cardId\":\"basic_attack\",\"x\":{\"__proto__\":{\"polluted\":1}}}", 400, "forbidden_key"],
      ["a 1e400 number", "{\"cardId\":\"basic_attack\",\"n\":1e400}", 400, "unsafe_number"],
      ["a 1 MiB + 1 string", `"${"x".repeat(1024 * 1024)}"`, 413, "body_too_large"]
    ] as const
  )("hostile JSON (%s) is %d %s within a second", async (_, body, status, code) => {
    const r = await post(s.url, body)
    expect([r.status, r.code]).toEqual([status, code])
    expect(r.ms).toBeLessThan(1000)
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
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
