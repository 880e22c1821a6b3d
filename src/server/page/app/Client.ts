/**
 * PHASE-1 PLACEHOLDER (replaced by the typed client `cardfx/client` when the
 * server's API definition lands): the `Api` port over plain `fetch` of the
 * `/v1` routes.
 *
 * @since 0.1.0
 */
import { ApiError, type Api } from "./Api.js"

export const makeApi = (origin: string): Api => {
  const call = async <A>(method: string, path: string, body?: unknown): Promise<A> => {
    const res = await fetch(`${origin}/v1${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const json = (await res.json()) as { code?: string; message?: string; diagnostics?: [] }
    if (!res.ok) throw new ApiError(res.status, json.code ?? "http_error", json.message ?? res.statusText, json.diagnostics ?? [])
    return json as A
  }
  const q = (s: string) => encodeURIComponent(s)
  return {
    runtime: () => call("GET", "/runtime"),
    cards: async () => (await call<{ cards: [] }>("GET", "/cards")).cards,
    effective: async (cardId) => (await call<{ inspection: never }>("GET", `/cards/${q(cardId)}/effective`)).inspection,
    discover: (body) => call("POST", "/discover", body),
    instance: (id, branch) => call("GET", `/instances/${q(id)}?branch=${q(branch)}`),
    history: async (id, branch) => (await call<{ events: [] }>("GET", `/instances/${q(id)}/history?branch=${q(branch)}`)).events,
    command: (id, body) => call("POST", `/instances/${q(id)}/commands`, body),
    branches: async () => (await call<{ branches: [] }>("GET", "/branches")).branches,
    createBranch: (id, body) => call("POST", `/instances/${q(id)}/branches`, body),
    runScenario: async (body) => (await call<{ report: never }>("POST", "/scenarios/run", body)).report,
    deck: () => call("GET", "/hhx/deck"),
    newGame: (seed) => call("POST", "/hhx/games", { seed }),
    act: (id, actionId, expectedStep) => call("POST", `/hhx/games/${q(id)}/actions`, { actionId, expectedStep }),
    explain: (id, actionId) => call("GET", `/hhx/games/${q(id)}/explain?actionId=${q(actionId)}`),
    log: (id) => call("GET", `/hhx/games/${q(id)}/log`)
  }
}
