/**
 * The server's door (src/server/Door.ts) through the built bin on an
 * ephemeral 127.0.0.1 port, one server for the file (with a token, an
 * allowed host and a CORS origin): the request ID on every answer, 405 with
 * `Allow`, 415, the `Host` guard, CORS and foreign origins, the token
 * checked before the body, 413 closing the connection, gzip/br and the page
 * assets' ETags. Every request is bounded in time.
 */
import { mkdtempSync } from "node:fs"
import { type IncomingHttpHeaders, request } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveBin, type ServedBin } from "../support/served.js"
import { PACKAGE } from "./support.js"

const TOKEN = "door-s3cret"
const CORS_ORIGIN = "http://app.example:3000"

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly raw: Buffer
  readonly body: { readonly code?: string; readonly status?: string; readonly diagnostics?: ReadonlyArray<unknown> }
}

let server: ServedBin | undefined
const base = (): string => {
  if (server === undefined) throw new Error("the server did not start")
  return server.url
}

/** One request with full control of the headers (Host included); answers within 10 s or fails. */
const send = (
  method: string,
  path: string,
  options: { readonly headers?: Record<string, string>; readonly body?: string } = {}
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const u = new URL(base())
    const req = request({
      host: u.hostname,
      port: u.port,
      path,
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(options.body)) }),
        ...options.headers
      },
      agent: false,
      timeout: 10_000
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const raw = Buffer.concat(chunks)
        const text = res.headers["content-encoding"] === undefined && raw.length > 0 ? raw.toString("utf8") : ""
        const body = ((): Answer["body"] => {
          try {
            return text === "" ? {} : (JSON.parse(text) as Answer["body"])
          } catch {
            return {}
          }
        })()
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body })
      })
    })
    req.on("timeout", () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)))
    req.on("error", reject)
    req.end(options.body)
  })

const json = { "content-type": "application/json" }
const assess = JSON.stringify({ cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } })

/** `serveBin` with a longer start-up allowance (a loaded CI machine loads the content slowly). */
const start = async (args: ReadonlyArray<string>): Promise<ServedBin> => {
  for (let attempt = 0;; attempt++) {
    try {
      return await serveBin(args)
    } catch (e) {
      if (attempt >= 2) throw e
    }
  }
}

beforeAll(async () => {
  process.env["CARDFX_DOOR_TOKEN"] = TOKEN
  server = await start([
    "--package",
    PACKAGE,
    "--store",
    join(mkdtempSync(join(tmpdir(), "cardfx-door-")), "ledger.db"),
    "--token-env",
    "CARDFX_DOOR_TOKEN",
    "--allowed-host",
    "game.example",
    "--cors-origin",
    CORS_ORIGIN
  ])
})
afterAll(() => server?.kill())

describe("the door of cardfx serve", () => {
  it("sends x-request-id on every answer: handlers', the platform's and the door's own, echoing a sane one", async () => {
    const answers = [
      await send("GET", "/v1/health"),
      await send("GET", "/v1/cards/basic_attack/effective"),
      await send("POST", "/v1/assess", { headers: json, body: assess }),
      await send("POST", "/v1/assess", { headers: json, body: "{\"cardId\":\"basic_attack\"}" }),
      await send("GET", "/v1/cards/no_such_card/effective"),
      await send("GET", "/v1/nope"),
      await send("DELETE", "/v1/health"),
      await send("POST", "/v1/assess", { headers: { "content-type": "text/plain" }, body: assess }),
      await send("GET", "/openapi.json"),
      await send("GET", "/")
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 400, 404, 404, 405, 415, 200, 200])
    const ids = answers.map((a) => a.headers["x-request-id"])
    for (const id of ids) expect(id).toMatch(/^r\d+$/)
    expect(new Set(ids).size).toBe(ids.length)
    const echoed = await send("GET", "/v1/health", { headers: { "x-request-id": "client-42" } })
    expect(echoed.headers["x-request-id"]).toBe("client-42")
    const insane = await send("GET", "/v1/health", { headers: { "x-request-id": "a b" } })
    expect(insane.headers["x-request-id"]).toMatch(/^r\d+$/)
  })

  it("answers a known path with a method it does not take 405 method_not_allowed with Allow", async () => {
    const del = await send("DELETE", "/v1/health")
    expect([del.status, del.body.code, del.headers["allow"]]).toEqual([405, "method_not_allowed", "GET, HEAD"])
    const get = await send("GET", "/v1/assess")
    expect([get.status, get.body.code, get.headers["allow"]]).toEqual([405, "method_not_allowed", "POST"])
    const put = await send("PUT", "/v1/instances/some-instance/commands", { headers: json, body: "{}" })
    expect([put.status, put.body.code, put.headers["allow"]]).toEqual([405, "method_not_allowed", "POST"])
    // An unknown path stays 404, and HEAD is a GET without a body.
    expect((await send("DELETE", "/v1/nope")).body.code).toBe("unknown_route")
    const head = await send("HEAD", "/v1/health")
    expect([head.status, head.raw.length]).toEqual([200, 0])
  })

  it("takes request bodies only as Content-Type: application/json (415 unsupported_media_type otherwise)", async () => {
    for (
      const type of [
        "text/plain",
        "text/plain; x=application/json",
        "application/x-www-form-urlencoded",
        "application/jsonx"
      ]
    ) {
      const r = await send("POST", "/v1/assess", { headers: { "content-type": type }, body: assess })
      expect([type, r.status, r.body.code]).toEqual([type, 415, "unsupported_media_type"])
    }
    const none = await send("POST", "/v1/assess", { body: assess })
    expect([none.status, none.body.code]).toEqual([415, "unsupported_media_type"])
    const charset = await send("POST", "/v1/assess", {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: assess
    })
    expect(charset.status).toBe(200)
  })

  it("accepts only loopback names, --host and --allowed-host in the Host header (403 host_not_allowed)", async () => {
    const port = new URL(base()).port
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "game.example", "GAME.example:80"]) {
      expect([host, (await send("GET", "/v1/health", { headers: { host } })).status]).toEqual([host, 200])
    }
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.evil.example"]) {
      const r = await send("GET", "/v1/health", { headers: { host } })
      expect([host, r.status, r.body.code]).toEqual([host, 403, "host_not_allowed"])
      expect(r.headers["x-request-id"]).toMatch(/^r\d+$/)
    }
  })

  it("answers CORS only for --cors-origin (preflight 204) and refuses mutations from other origins", async () => {
    const preflight = await send("OPTIONS", "/v1/hhx/games", {
      headers: {
        origin: CORS_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization"
      }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers["access-control-allow-origin"]).toBe(CORS_ORIGIN)
    expect(preflight.headers["access-control-allow-methods"]).toBe("POST")
    expect(preflight.headers["access-control-allow-headers"]).toContain("authorization")
    const read = await send("GET", "/v1/health", { headers: { origin: CORS_ORIGIN } })
    expect(read.headers["access-control-allow-origin"]).toBe(CORS_ORIGIN)
    expect(read.headers["access-control-expose-headers"]).toContain("x-request-id")

    // Another origin: no CORS answer, its preflight is a plain 405, its mutations are refused outright.
    const other = "http://evil.example"
    const otherRead = await send("GET", "/v1/health", { headers: { origin: other } })
    expect([otherRead.status, otherRead.headers["access-control-allow-origin"]]).toEqual([200, undefined])
    const otherPreflight = await send("OPTIONS", "/v1/hhx/games", {
      headers: { origin: other, "access-control-request-method": "POST" }
    })
    expect([otherPreflight.status, otherPreflight.body.code]).toEqual([405, "method_not_allowed"])
    // A no-cors form post or fetch from another origin (no JSON type needed for a body-less reload).
    const reload = await send("POST", "/v1/admin/reload", { headers: { origin: other } })
    expect([reload.status, reload.body.code]).toEqual([403, "origin_not_allowed"])
    const form = await send("POST", "/v1/assess", {
      headers: { origin: other, "content-type": "text/plain" },
      body: assess
    })
    expect([form.status, form.body.code]).toEqual([403, "origin_not_allowed"])
    // The server's own page (same origin) may post.
    const own = await send("POST", "/v1/assess", { headers: { ...json, origin: base() }, body: assess })
    expect(own.status).toBe(200)
  })

  it("checks the bearer token before reading the body: a malformed body without the token is 401, not 400", async () => {
    const none = await send("POST", "/v1/hhx/games", { headers: json, body: "{" })
    expect([none.status, none.body.code]).toEqual([401, "unauthorized"])
    const wrong = await send("POST", "/v1/hhx/games", {
      headers: { ...json, authorization: "Bearer nope" },
      body: "{"
    })
    expect([wrong.status, wrong.body.code]).toEqual([403, "forbidden"])
    const right = await send("POST", "/v1/hhx/games", {
      headers: { ...json, authorization: `Bearer ${TOKEN}` },
      body: "{"
    })
    expect([right.status, right.body.code]).toEqual([400, "json_syntax"])
    const created = await send("POST", "/v1/hhx/games", {
      headers: { ...json, authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ seed: 7 })
    })
    expect(created.status).toBe(201)
  })

  it("answers a 50 MB body 413 body_too_large and closes the connection without reading the rest", async () => {
    const u = new URL(base())
    const total = 50 * 1024 * 1024
    const result = await new Promise<{ text: string; sent: number; closed: boolean }>((resolve, reject) => {
      let text = ""
      let sent = 0
      let closed = false
      const socket = connect(Number(u.port), u.hostname, () => {
        socket.write(
          `POST /v1/assess HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`
        )
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        const pump = () => {
          while (!closed && sent < total) {
            sent += chunk.length
            if (!socket.write(chunk)) return void socket.once("drain", pump)
          }
        }
        pump()
      })
      const limit = setTimeout(() => {
        socket.destroy()
        reject(new Error(`the connection was not closed within 15 s (sent ${sent} bytes): ${text}`))
      }, 15_000)
      socket.on("data", (d: Buffer) => (text += d.toString()))
      const end = () => {
        if (closed) return
        closed = true
        clearTimeout(limit)
        socket.destroy()
        resolve({ text, sent, closed })
      }
      socket.on("end", end)
      socket.on("close", end)
      socket.on("error", () => end())
    })
    const [head = "", body = ""] = result.text.split("\r\n\r\n")
    expect(head.split(" ")[1]).toBe("413")
    expect(head.toLowerCase()).toContain("connection: close")
    expect((JSON.parse(body) as { code: string }).code).toBe("body_too_large")
    // The server closed the connection long before the client could push 50 MB.
    expect(result.sent).toBeLessThan(total)
    expect((await send("GET", "/v1/health")).status).toBe(200)
  })

  it("compresses JSON and page assets when asked (br, gzip), with ETags and 304 for the page assets", async () => {
    const plain = await send("GET", "/openapi.json")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    const etag = plain.headers["etag"]
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const br = await send("GET", "/openapi.json", { headers: { "accept-encoding": "gzip, deflate, br" } })
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.headers["vary"]).toContain("accept-encoding")
    expect(brotliDecompressSync(br.raw).equals(plain.raw)).toBe(true)
    expect(br.raw.length).toBeLessThan(plain.raw.length / 3)
    expect(br.headers["etag"]).toBe(`${etag?.slice(0, -1)}-br"`)
    const gz = await send("GET", "/openapi.json", { headers: { "accept-encoding": "gzip" } })
    expect(gz.headers["content-encoding"]).toBe("gzip")
    expect(gunzipSync(gz.raw).equals(plain.raw)).toBe(true)
    const refused = await send("GET", "/openapi.json", { headers: { "accept-encoding": "br;q=0, gzip;q=0" } })
    expect(refused.headers["content-encoding"]).toBeUndefined()

    // An API answer (JSON over 1 KiB) is compressed too; a small one is not.
    const effective = await send("GET", "/v1/cards/basic_attack/effective")
    const effectiveGz = await send("GET", "/v1/cards/basic_attack/effective", {
      headers: { "accept-encoding": "gzip" }
    })
    expect(effectiveGz.headers["content-encoding"]).toBe("gzip")
    expect(gunzipSync(effectiveGz.raw).equals(effective.raw)).toBe(true)
    expect(effectiveGz.headers["etag"]).toBeUndefined() // ETags are for the page assets
    // A POST answer: compressed from 1 KiB up (the assess document's size decides which).
    const assessPlain = await send("POST", "/v1/assess", { headers: json, body: assess })
    const assessBr = await send("POST", "/v1/assess", {
      headers: { ...json, "accept-encoding": "br" },
      body: assess
    })
    if (assessPlain.raw.length >= 1024) {
      expect(assessBr.headers["content-encoding"]).toBe("br")
      expect(brotliDecompressSync(assessBr.raw).equals(assessPlain.raw)).toBe(true)
    } else {
      expect([assessBr.headers["content-encoding"], assessBr.raw.equals(assessPlain.raw)]).toEqual([undefined, true])
    }
    const small = await send("GET", "/v1/health", { headers: { "accept-encoding": "gzip" } })
    expect([small.headers["content-encoding"], small.body.status]).toEqual([undefined, "ok"])

    // The page: a fresh copy is 304 with no body, whichever representation the client holds; files of 1 KiB or
    // more go compressed.
    for (const path of ["/", "/app.js", "/app.css", "/docs"]) {
      const identity = await send("GET", path)
      const encoding = identity.raw.length >= 1024 ? "br" : undefined
      const first = await send("GET", path, { headers: { "accept-encoding": "br" } })
      expect([path, first.status, first.headers["content-encoding"]]).toEqual([path, 200, encoding])
      const tag = first.headers["etag"] ?? ""
      expect(tag).toMatch(encoding === undefined ? /^"[A-Za-z0-9_-]+"$/ : /^"[A-Za-z0-9_-]+-br"$/)
      if (encoding !== undefined) expect(brotliDecompressSync(first.raw).equals(identity.raw)).toBe(true)
      const again = await send("GET", path, { headers: { "accept-encoding": "br", "if-none-match": tag } })
      expect([path, again.status, again.raw.length, again.headers["etag"]]).toEqual([path, 304, 0, tag])
      const otherHolder = await send("GET", path, { headers: { "if-none-match": identity.headers["etag"] ?? "" } })
      expect([path, otherHolder.status]).toEqual([path, 304])
      const stale = await send("GET", path, { headers: { "if-none-match": "\"stale\"" } })
      expect([path, stale.status]).toEqual([path, 200])
    }
    expect((await send("GET", "/app.js")).raw.length).toBeGreaterThan(1024) // the bundle itself is compressed above
  })
})
