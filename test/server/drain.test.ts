/**
 * SIGTERM drain of the built bin (`node dist/cli/cardfx.mjs serve`): a
 * request in flight when the signal arrives finishes with its own answer,
 * requests arriving after it get 503 `unavailable`, and the store closes
 * cleanly (the process exits once the drain is over, SQLite leaves no
 * write-ahead log behind, and a restarted server reads the drained
 * request's command). 127.0.0.1 only; every wait is bounded.
 */
import { existsSync, mkdtempSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { serveBin, type ServedBin } from "../support/served.js"
import { PACKAGE } from "./support.js"

const started: Array<ServedBin> = []
afterEach(async () => {
  for (const s of started.splice(0)) await s.kill()
})

interface Answer {
  readonly status: number
  readonly body: { readonly code?: string; readonly status?: string; readonly revision?: number }
}

/** A request whose body is sent in two parts: `finish` sends the rest; `answer` resolves with the response. */
const split = (url: string, path: string, body: string, firstBytes: number) => {
  const u = new URL(url)
  let text = ""
  let socket: Socket | undefined
  let sent: () => void = () => undefined
  const headersSent = new Promise<void>((resolve) => (sent = resolve))
  const answer = new Promise<Answer>((resolve, reject) => {
    const limit = setTimeout(() => socket?.destroy(new Error(`no answer within 15 s: ${text}`)), 15_000)
    socket = connect(Number(u.port), u.hostname, () => {
      socket?.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${
          Buffer.byteLength(body)
        }\r\n\r\n${body.slice(0, firstBytes)}`,
        () => sent()
      )
    })
    socket.on("data", (d: Buffer) => {
      text += d.toString()
      const [head = "", rest = ""] = text.split("\r\n\r\n")
      const length = /content-length: (\d+)/i.exec(head)
      if (length !== null && Buffer.byteLength(rest) >= Number(length[1])) {
        clearTimeout(limit)
        socket?.destroy()
        resolve({ status: Number(head.split(" ")[1]), body: JSON.parse(rest) as Answer["body"] })
      }
    })
    socket.on("error", (e) => {
      clearTimeout(limit)
      reject(e)
    })
  })
  return { headersSent, answer, finish: () => socket?.write(body.slice(firstBytes)) }
}

const exited = (s: ServedBin) =>
  new Promise<number | null>((resolve) => {
    if (s.child.exitCode !== null) return resolve(s.child.exitCode)
    s.child.once("exit", (code) => resolve(code))
  })

describe("cardfx serve on SIGTERM", () => {
  it("finishes the request in flight, answers new ones 503 unavailable, and closes the store", async () => {
    const store = join(mkdtempSync(join(tmpdir(), "cardfx-drain-")), "ledger.db")
    // A generous body timeout: the request in flight waits for its body across the signal.
    const first = await serveBin(["--package", PACKAGE, "--store", store, "--body-timeout", "30000"])
    started.push(first)

    const command = JSON.stringify({
      commandId: "drain-1",
      cardId: "basic_attack",
      expectedRevision: 0,
      command: { kind: "apply", upgradeId: "core.ember.affinity" }
    })
    const inFlight = split(first.url, "/v1/instances/hero-drain/commands", command, 10)
    // The server has the request once it answers one sent after it (requests are handled as they arrive).
    await inFlight.headersSent
    expect((await fetch(`${first.url}/v1/health`)).status).toBe(200)

    const exit = exited(first)
    first.child.kill("SIGTERM")
    // New requests: 503 once the signal is handled (polled, at most 10 s).
    let refused: Response | undefined
    for (let i = 0; i < 500 && refused === undefined; i++) {
      const r = await fetch(`${first.url}/v1/health`, { headers: { connection: "close" } })
      if (r.status === 503) refused = r
      else await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(refused?.status).toBe(503)
    expect(((await refused?.json()) as { code: string }).code).toBe("unavailable")
    const write = await fetch(`${first.url}/v1/assess`, {
      method: "POST",
      headers: { "content-type": "application/json", connection: "close" },
      body: JSON.stringify({ cardId: "basic_attack", command: { kind: "apply", upgradeId: "core.ember.affinity" } })
    })
    expect([write.status, ((await write.json()) as { code: string }).code]).toEqual([503, "unavailable"])
    expect(first.child.exitCode).toBeNull() // still draining: the request in flight holds it

    // The request in flight completes with its own answer, then the process ends.
    inFlight.finish()
    const answer = await inFlight.answer
    expect([answer.status, answer.body.status, answer.body.revision]).toEqual([200, "applied", 1])
    expect(await exit).toBe(130) // an interruption from outside (src/bin/main.ts), after the drain
    expect(existsSync(`${store}-wal`)).toBe(false)

    // The drained request's command is in the store.
    const second = await serveBin(["--package", PACKAGE, "--store", store])
    started.push(second)
    const history = (await (await fetch(`${second.url}/v1/instances/hero-drain/history`)).json()) as {
      events: Array<{ commandId: string }>
    }
    expect(history.events.map((e) => e.commandId)).toEqual(["drain-1"])
  }, 60_000)
})
