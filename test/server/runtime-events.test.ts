/**
 * `GET /v1/runtime/events`: the served content's changes as server-sent
 * events (the workbench follows them). In process, over a copy of the
 * content package: the first event is the current state; a reload that
 * switches (`POST /v1/admin/reload`) is the next event with the new content
 * hash and no rejection; a reload refused for a content error is an event
 * with the error's code and its diagnostic's file, line and column, the
 * runtime unchanged; `?once=true` ends after the first event; closing the
 * server ends an open stream.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type Running, startServer } from "./support.js"

interface State {
  readonly runtime: { readonly contentHash: string }
  readonly rejected: null | {
    readonly code: string
    readonly diagnostics: ReadonlyArray<{ code: string; file?: string; line?: number; column?: number }>
  }
}

/** Reads the stream's events one at a time (`next`), and whether it ended. */
const follow = async (url: string) => {
  const response = await fetch(url, { headers: { accept: "text/event-stream" } })
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/event-stream")
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader()
  if (reader === undefined) throw new Error("no body")
  let buffer = ""
  const next = async (): Promise<State | "ended"> => {
    for (;;) {
      const end = buffer.indexOf("\n\n")
      if (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n")
        if (data === "") continue
        expect(block).toContain("event: runtime")
        return JSON.parse(data) as State
      }
      const chunk = await reader.read()
      if (chunk.done) return "ended"
      buffer += chunk.value
    }
  }
  return { next, cancel: () => reader.cancel() }
}

describe("GET /v1/runtime/events", () => {
  let s: Running
  const dir = mkdtempSync(join(tmpdir(), "cardfx-runtime-events-"))
  const pkg = join(dir, "heroscript.base")
  beforeAll(async () => {
    cpSync("data/heroscript.base", pkg, { recursive: true })
    s = await startServer({ ...freshStore("sqlite"), packages: [pkg] })
  })
  afterAll(async () => {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("tells the current state, each switch, and each rejected reload with its file, line and column", async () => {
    const stream = await follow(`${s.url}/v1/runtime/events`)
    const first = await stream.next()
    if (first === "ended") throw new Error("ended")
    expect(first.rejected).toBeNull()
    expect(first.runtime.contentHash).toMatch(/^[0-9a-f]{64}$/)

    // A switch to edited content.
    const locales = join(pkg, "locales.en.json")
    writeFileSync(locales, readFileSync(locales, "utf8").replace("\"Basic Attack\"", "\"Basic Attack 2\""))
    expect((await fetch(`${s.url}/v1/admin/reload`, { method: "POST" })).status).toBe(200)
    const switched = await stream.next()
    if (switched === "ended") throw new Error("ended")
    expect(switched.rejected).toBeNull()
    expect(switched.runtime.contentHash).not.toBe(first.runtime.contentHash)

    // A broken save: refused, told with its diagnostics; the runtime is the one still served.
    const cards = join(pkg, "cards.json")
    const good = readFileSync(cards, "utf8")
    writeFileSync(cards, "{\n  \"cards\": [\n")
    // The reload's own code (422 reload_invalid: the request was fine, the served content is not), naming the file.
    expect((await fetch(`${s.url}/v1/admin/reload`, { method: "POST" })).status).toBe(422)
    const rejected = await stream.next()
    if (rejected === "ended") throw new Error("ended")
    expect(rejected.runtime.contentHash).toBe(switched.runtime.contentHash)
    // The stream carries the content's own first diagnostic (what the designer fixes), the answer the reload's code.
    expect(rejected.rejected?.code).toBe("json_syntax")
    const at = rejected.rejected?.diagnostics.find((d) => d.file?.endsWith("cards.json"))
    expect(at).toMatchObject({ code: "json_syntax", line: expect.any(Number), column: expect.any(Number) })

    // A good save clears it.
    writeFileSync(cards, good)
    expect((await fetch(`${s.url}/v1/admin/reload`, { method: "POST" })).status).toBe(200)
    const fixed = await stream.next()
    if (fixed === "ended") throw new Error("ended")
    expect(fixed.rejected).toBeNull()
    await stream.cancel()
  })

  it("?once=true answers the current state and ends", async () => {
    const stream = await follow(`${s.url}/v1/runtime/events?once=true`)
    const first = await stream.next()
    expect(first === "ended" ? null : first.runtime.contentHash).toMatch(/^[0-9a-f]{64}$/)
    expect(await stream.next()).toBe("ended")
  })
})
