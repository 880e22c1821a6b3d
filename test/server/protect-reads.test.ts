/**
 * `cardfx serve --protect-reads` through the built bin (one server, SQLite):
 * every API request but `/v1/health` needs the operator token — on a game's
 * own endpoints, or one of its seats' secrets (no spectator); the page's files
 * stay public; without `--token-env` the flag is a usage error (exit 2).
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CreatedGame } from "../../src/client.js"
import { BIN, serveBin, type ServedBin } from "../support/served.js"

const TOKEN = "protect-reads-token"
process.env["CARDFX_PROTECT_TOKEN"] = TOKEN

describe("cardfx serve --protect-reads", () => {
  let bin: ServedBin
  beforeAll(async () => {
    const store = join(mkdtempSync(join(tmpdir(), "cardfx-protect-")), "ledger.db")
    bin = await serveBin([
      "--package",
      "data/heroscript.base",
      "--store",
      store,
      "--token-env",
      "CARDFX_PROTECT_TOKEN",
      "--protect-reads"
    ])
  }, 30_000)
  afterAll(() => bin?.kill())

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${bin.url}${path}`, { headers })
    const text = await r.text()
    return { status: r.status, code: r.status >= 400 ? (JSON.parse(text) as { code: string }).code : undefined }
  }
  const operator = { authorization: `Bearer ${TOKEN}` }

  it("reads need the operator token; health and the page's files do not", async () => {
    expect(await get("/v1/cards")).toEqual({ status: 401, code: "unauthorized" })
    expect(await get("/v1/cards", { authorization: "Bearer nope" })).toEqual({ status: 403, code: "forbidden" })
    expect((await get("/v1/cards", operator)).status).toBe(200)
    expect((await get("/v1/runtime", operator)).status).toBe(200)
    const assess = await fetch(`${bin.url}/v1/assess`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } })
    })
    expect(assess.status).toBe(401)
    expect((await get("/v1/health")).status).toBe(200)
    expect((await get("/")).status).toBe(200)
    expect((await get("/openapi.json")).status).toBe(200)
  })

  it("a game's view needs its seat's secret or the operator token: no spectator", async () => {
    const created = await fetch(`${bin.url}/v1/hhx/games`, {
      method: "POST",
      headers: { "content-type": "application/json", ...operator },
      body: JSON.stringify({ seed: "protected" })
    })
    expect(created.status).toBe(201)
    const game = (await created.json()) as CreatedGame
    const path = `/v1/hhx/games/${game.game.gameId}`
    const secret = game.seats[1]?.secret ?? ""
    expect(await get(path)).toEqual({ status: 401, code: "unauthorized" })
    expect(await get(`${path}/events`)).toEqual({ status: 401, code: "unauthorized" })
    expect(await get(`${path}/explain?actionId=pass`)).toEqual({ status: 401, code: "unauthorized" })
    const seat = await fetch(`${bin.url}${path}`, { headers: { "x-seat-secret": secret } })
    expect(seat.status).toBe(200)
    expect(((await seat.json()) as { viewer: number }).viewer).toBe(1)
    // A secret is checked against the game, not merely present.
    expect(await get(path, { "x-seat-secret": "not-a-secret" })).toEqual({ status: 403, code: "forbidden" })
    expect((await get(path, operator)).status).toBe(200)
  })

  it("without --token-env the flag is refused at start-up (usage, exit 2)", () => {
    const r = spawnSync(process.execPath, [
      BIN,
      "serve",
      "--package",
      "data/heroscript.base",
      "--protect-reads",
      "--port",
      "0"
    ], {
      encoding: "utf8",
      timeout: 20_000
    })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain("--protect-reads needs --token-env")
  })
})
