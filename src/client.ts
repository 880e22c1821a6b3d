/**
 * `cardfx/client`: a typed client of `cardfx serve`, made by
 * `HttpApiClient.make` from the same API definition the server is built
 * from, so every call is typed and every error response arrives as a typed
 * error (`NotFound`, `Conflict`, `Unprocessable`, ...: each `{code, message,
 * diagnostics}`, matchable with `Effect.catchTag`). Provide an `HttpClient`
 * (`FetchHttpClient.layer` from `@effect/platform`, or `NodeHttpClient`).
 *
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { makeClient } from "cardfx/client"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* makeClient("http://127.0.0.1:8787")
 *   return yield* client.cards.assess({ payload: { cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } } })
 * }).pipe(Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * @since 0.1.0
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { Effect } from "effect"
import { CardfxApi } from "./api/Api.js"

export * from "./api/Api.js"
export * from "./api/Documents.js"

/** The client's type: one property per endpoint group (`runtime`, `cards`, `instances`, `scenarios`, `hhx`, `admin`). */
export type CardfxClient = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** A client of the server at `baseUrl`; `token` is sent as `Authorization: Bearer` on every request. */
export const makeClient = (baseUrl: string, options: { readonly token?: string | undefined } = {}) =>
  HttpApiClient.make(CardfxApi, {
    baseUrl,
    transformClient: (client) => {
      const token = options.token
      return token === undefined ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(token))
    }
  })
