/**
 * The balance run's client: `POST /v1/hhx/balance` on the browser's `fetch`,
 * read as its server-sent events arrive (the typed client answers a
 * response once it is complete; a progress bar needs it while it streams).
 * The request and the result are the API's Schemas (src/api/Balance.ts): the
 * body is encoded and the report decoded with them. Aborting the signal
 * closes the connection, which cancels the run on the server.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { BalanceProgress, BalanceReport, BalanceRequest } from "../api/Balance.js"
import { ApiError } from "./Api.js"
import { authorizationFor } from "./model/Auth.js"
import { type BalanceReportDoc, takeEvents } from "./model/Balance.js"
import type { DiagnosticDoc } from "./model/Docs.js"

const decodeReport = Schema.decodeUnknownEither(Schema.parseJson(BalanceReport))
const decodeProgress = Schema.decodeUnknownEither(Schema.parseJson(BalanceProgress))
const encodeRequest = Schema.encodeSync(BalanceRequest)

interface ErrorBodyDoc {
  readonly code?: string
  readonly message?: string
  readonly diagnostics?: ReadonlyArray<DiagnosticDoc>
}

const apiErrorOf = (status: number, text: string): ApiError => {
  const body = ((): ErrorBodyDoc => {
    const parsed: unknown = (() => {
      try {
        return JSON.parse(text)
      } catch {
        return null
      }
    })()
    return typeof parsed === "object" && parsed !== null ? (parsed as ErrorBodyDoc) : {}
  })()
  return new ApiError(status, body.code ?? "client_error", body.message ?? text, body.diagnostics ?? [])
}

/** Runs a balance; `onProgress` hears each progress event. Rejects with an `ApiError` (an abort: `cancelled`). */
export const runBalance = async (
  origin: string,
  token: string,
  /**
   * `agents`: who plays each seat (`<agent>[:<iterations>]`, as `cardfx simulate --agents`), an optional field the
   * server's request takes once the agents work lands; left out, both seats are random.
   */
  request: { readonly games: number; readonly seed: number; readonly agents?: ReadonlyArray<string> },
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal
): Promise<BalanceReportDoc> => {
  const authorization = authorizationFor("POST", token)
  const response = await fetch(`${origin}/v1/hhx/balance`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(authorization === undefined ? {} : { authorization })
    },
    body: JSON.stringify({
      ...encodeRequest({ games: request.games, seed: request.seed }),
      ...(request.agents === undefined ? {} : { agents: request.agents })
    }),
    signal
  }).catch((e: unknown) => Promise.reject(new ApiError(0, signal.aborted ? "cancelled" : "client_error", String(e))))
  if (!response.ok || response.body === null) return Promise.reject(apiErrorOf(response.status, await response.text()))
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  for (;;) {
    const chunk = await reader.read().catch(() => null)
    if (chunk === null) {
      return Promise.reject(new ApiError(0, signal.aborted ? "cancelled" : "client_error", "the stream broke"))
    }
    if (chunk.done) return Promise.reject(new ApiError(0, "client_error", "the run ended without a result"))
    const { events, rest } = takeEvents(buffer + chunk.value)
    buffer = rest
    for (const e of events) {
      if (e.event === "progress") {
        const p = decodeProgress(e.data)
        if (Either.isRight(p)) onProgress(p.right.done, p.right.total)
      } else if (e.event === "result") {
        const r = decodeReport(e.data)
        void reader.cancel()
        return Either.isRight(r)
          ? r.right
          : Promise.reject(new ApiError(0, "client_error", "the result does not decode"))
      } else if (e.event === "error") {
        void reader.cancel()
        return Promise.reject(apiErrorOf(response.status, e.data))
      }
    }
  }
}
