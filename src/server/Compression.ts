/**
 * Response compression and page-asset ETags for `cardfx serve`, with
 * `node:zlib`: when `Accept-Encoding` asks for `br` or `gzip`, a JSON answer
 * or a page asset of 1 KiB or more is sent compressed (`Content-Encoding`,
 * `Vary: Accept-Encoding`). Page assets (the workbench page, `/docs`,
 * `/openapi.json`) carry a strong `ETag` per representation (`"<hash>"`,
 * `"<hash>-br"`, `"<hash>-gzip"`), and `If-None-Match` with the asset's
 * hash is answered 304 with no body.
 *
 * Compressed bytes are kept per body (a `WeakMap` keyed by the body's
 * `Uint8Array`): the page's files and the server's cached answers are the
 * same array on every request, so each is compressed once; a fresh answer
 * is compressed once and dropped with its body. Large bodies are compressed
 * off the event loop (zlib's thread pool), small ones inline. Nothing here
 * runs unless a request asks for it ({@link plan}).
 *
 * @since 0.1.0
 */
import { HttpBody, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib"
import { Canonical } from "../services/index.js"

export type Encoding = "br" | "gzip"

/** What a request asks of its response: an encoding, and an ETag check for page assets. */
export interface Plan {
  readonly encoding: Encoding | undefined
  readonly asset: boolean
  readonly ifNoneMatch: string | undefined
}

/** Bodies smaller than this go as they are. */
export const MIN_BYTES = 1024
/** Bodies from this size up are compressed on zlib's thread pool rather than inline. */
const INLINE_MAX = 64 * 1024

/** The encoding `Accept-Encoding` prefers (br, then gzip; `;q=0` refuses one). */
export const negotiate = (accept: string | undefined): Encoding | undefined => {
  if (accept === undefined || accept === "") return undefined
  let br = false
  let gz = false
  for (const part of accept.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim())
    const q = params.find((p) => p.startsWith("q="))
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue
    if (name === "br") br = true
    else if (name === "gzip" || name === "*") gz = true
  }
  return br ? "br" : gz ? "gzip" : undefined
}

/** The plan of a request (undefined: nothing to do, the usual case). */
export const plan = (
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  asset: boolean
): Plan | undefined => {
  const encoding = negotiate(acceptEncoding)
  if (encoding === undefined && !asset) return undefined
  return { encoding, asset, ifNoneMatch }
}

const COMPRESSIBLE = /^(application\/json|text\/|application\/javascript)/

interface Entry {
  hash?: string
  br?: Promise<Uint8Array> | Uint8Array
  gzip?: Promise<Uint8Array> | Uint8Array
}

const entries = new WeakMap<Uint8Array, Entry>()

const entryOf = (bytes: Uint8Array): Entry => {
  const found = entries.get(bytes)
  if (found !== undefined) return found
  const entry: Entry = {}
  entries.set(bytes, entry)
  return entry
}

const hashOf = (
  bytes: Uint8Array,
  entry: Entry
): string => (entry.hash ??= Canonical.sha256Base64url(bytes).slice(0, 27))

const brotliOptions = (bytes: Uint8Array, asset: boolean) => ({
  params: {
    // Page assets are compressed once and kept: the best ratio; answers are fresh: a fast level.
    [constants.BROTLI_PARAM_QUALITY]: asset ? 9 : 4,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength
  }
})

const compress = (bytes: Uint8Array, encoding: Encoding, asset: boolean): Promise<Uint8Array> | Uint8Array => {
  if (bytes.byteLength < INLINE_MAX && !asset) {
    return encoding === "br" ? brotliCompressSync(bytes, brotliOptions(bytes, asset)) : gzipSync(bytes)
  }
  return new Promise((resolve, reject) => {
    const done = (e: Error | null, out: Buffer) => (e === null ? resolve(out) : reject(e))
    if (encoding === "br") brotliCompress(bytes, brotliOptions(bytes, asset), done)
    else gzip(bytes, { level: 9 }, done)
  })
}

/** The etag list of If-None-Match names this hash (any representation of it, weak or strong, or `*`). */
const matches = (ifNoneMatch: string, hash: string): boolean =>
  ifNoneMatch.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "")
    return tag === "*" || tag === `"${hash}"` || tag.startsWith(`"${hash}-`)
  })

/**
 * The pre-response handler of a plan: a 304 for a fresh page asset, the
 * body compressed when asked; other responses as they are.
 */
export const handler = (p: Plan) =>
(
  _request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const body = response.body
  if (body._tag !== "Uint8Array") return Effect.succeed(response)
  const bytes = body.body
  const type = body.contentType
  const asset = p.asset && response.status === 200
  const compressible = p.encoding !== undefined && bytes.byteLength >= MIN_BYTES && COMPRESSIBLE.test(type)
  if (!asset && !compressible) return Effect.succeed(response)
  const entry = entryOf(bytes)
  const encoding = compressible ? p.encoding : undefined
  const headers: Record<string, string> = { vary: "accept-encoding" }
  if (asset) {
    const hash = hashOf(bytes, entry)
    headers["etag"] = encoding === undefined ? `"${hash}"` : `"${hash}-${encoding}"`
    if (p.ifNoneMatch !== undefined && matches(p.ifNoneMatch, hash)) {
      const cacheControl = response.headers["cache-control"]
      return Effect.succeed(HttpServerResponse.empty({
        status: 304,
        headers: cacheControl === undefined ? headers : { ...headers, "cache-control": cacheControl }
      }))
    }
  }
  if (encoding === undefined) return Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  headers["content-encoding"] = encoding
  const done = entry[encoding] ??= compress(bytes, encoding, p.asset)
  const withBody = (out: Uint8Array) =>
    HttpServerResponse.setHeaders(HttpServerResponse.setBody(response, HttpBody.uint8Array(out, type)), headers)
  if (done instanceof Uint8Array) return Effect.succeed(withBody(done))
  return Effect.map(
    Effect.promise(() => done),
    withBody
  )
}
