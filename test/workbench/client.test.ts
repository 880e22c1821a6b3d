/**
 * The workbench's requests (src/page/Client.ts over
 * model/Auth.ts) against a server run with a bearer token: reads carry no
 * token and pass; a change without the token is the API's 401
 * `unauthorized`, with a wrong one 403 `forbidden` (both flagged for the
 * page's token hint); with the token entered, the same change is applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError } from "../../src/page/Api.js"
import { makeApi } from "../../src/page/Client.js"
import {
  authorizationFor,
  needsToken,
  readToken,
  TOKEN_KEY,
  type TokenStorage,
  writeToken
} from "../../src/page/model/Auth.js"
import { freshStore, type Running, startServer } from "../server/support.js"

const TOKEN = "s3cret-token"

const memoryStorage = (): TokenStorage & { readonly map: Map<string, string> } => {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k)
  }
}

const rejection = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x)
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`)
  return e
}

describe("the request builder", () => {
  it("sends the token on mutating methods only, and only when one is entered", () => {
    expect(authorizationFor("POST", TOKEN)).toBe(`Bearer ${TOKEN}`)
    expect(authorizationFor("delete", ` ${TOKEN} `)).toBe(`Bearer ${TOKEN}`)
    expect(authorizationFor("GET", TOKEN)).toBeUndefined()
    expect(authorizationFor("POST", "  ")).toBeUndefined()
  })

  it("keeps the token in the given storage, and forgets it when cleared", () => {
    const storage = memoryStorage()
    expect(readToken(storage)).toBe("")
    writeToken(storage, ` ${TOKEN}`)
    expect(storage.map.get(TOKEN_KEY)).toBe(TOKEN)
    expect(readToken(storage)).toBe(TOKEN)
    writeToken(storage, "")
    expect(storage.map.has(TOKEN_KEY)).toBe(false)
  })
})

describe("the workbench's client against a server with --token-env", () => {
  let s: Running
  beforeAll(async () => {
    s = await startServer({ ...freshStore("sqlite"), token: TOKEN })
  })
  afterAll(() => s.close())

  const command = (commandId: string) => ({
    commandId,
    cardId: "basic_attack",
    branch: "main",
    expectedRevision: 0,
    activity: "scenario",
    command: { kind: "apply", upgradeId: "core.ember.affinity" } as const
  })

  it("reads without a token; a change is 401 without it, 403 with a wrong one, applied with it", async () => {
    let token = ""
    const api = makeApi(s.url, () => token)
    expect((await api.cards()).length).toBeGreaterThan(0)

    const missing = await rejection(api.command("hero-token", command("c1")))
    expect([missing.status, missing.code, needsToken(missing.code)]).toEqual([401, "unauthorized", true])

    token = "not-the-token"
    const wrong = await rejection(api.command("hero-token", command("c1")))
    expect([wrong.status, wrong.code, needsToken(wrong.code)]).toEqual([403, "forbidden", true])

    token = TOKEN
    const applied = await api.command("hero-token", command("c1"))
    expect([applied.status, applied.revision]).toEqual(["applied", 1])
    expect(needsToken("revision_conflict")).toBe(false)
  })
})
