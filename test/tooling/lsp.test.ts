/**
 * `cardfx lsp` driven by a real LSP client library (vscode-languageserver-protocol's
 * connection over the child's stdio) on the built bin, on a copy of the
 * shipped data/: open → diagnostics (with range, code and message) → fix →
 * diagnostics cleared; a change in one file re-checks its package and the
 * scenarios that load it; hover (a property's description, a card's summary);
 * completion of IDs; go-to-definition; a game log replayed as it is edited.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { cpSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  CompletionRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  type Location,
  type MarkupContent,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter
} from "vscode-languageserver-protocol/node"
import { tempDir } from "../support/tmp.js"

const BIN = "dist/cli/cardfx.mjs"

let child: ChildProcess
let connection: ProtocolConnection
let workspace: string
const latest = new Map<string, PublishDiagnosticsParams>()
const waiters: Array<() => void> = []
let stderr = ""

const uri = (rel: string) => pathToFileURL(join(workspace, rel)).href

/** Resolves when the latest diagnostics of `rel` satisfy `ok` (checked on every publication). */
const diagnosticsOf = (rel: string, ok: (p: PublishDiagnosticsParams) => boolean, ms = 30_000) =>
  new Promise<PublishDiagnosticsParams>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`no matching diagnostics for ${rel}: ${stderr}`)), ms)
    const check = () => {
      const p = latest.get(uri(rel))
      if (p !== undefined && ok(p)) {
        clearTimeout(deadline)
        resolve(p)
        return true
      }
      return false
    }
    if (!check()) waiters.push(() => void check())
  })

let version = 1
const open = (rel: string, text: string) =>
  connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: uri(rel), languageId: "json", version: version++, text }
  })
const change = (rel: string, text: string) =>
  connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: uri(rel), version: version++ },
    contentChanges: [{ text }]
  })

/** The zero-based position of the n-th occurrence of `needle` in `text`, plus `shift` characters. */
const positionIn = (text: string, needle: string, shift = 1, nth = 0) => {
  let offset = -1
  for (let k = 0; k <= nth; k++) offset = text.indexOf(needle, offset + 1)
  if (offset < 0) throw new Error(`${needle} not found`)
  const before = text.slice(0, offset + shift)
  const lines = before.split("\n")
  return { line: lines.length - 1, character: (lines[lines.length - 1] ?? "").length }
}

beforeAll(async () => {
  workspace = join(tempDir("cardfx-lsp-"), "data")
  cpSync("data", workspace, { recursive: true })
  child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] })
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString()))
  if (child.stdout === null || child.stdin === null) throw new Error("no stdio")
  connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    latest.set(p.uri, p)
    for (const w of [...waiters]) w()
  })
  connection.listen()
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(workspace).href,
    capabilities: {},
    workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "data" }]
  })
  expect(init.capabilities.hoverProvider).toBe(true)
  expect(init.capabilities.definitionProvider).toBe(true)
  expect(init.capabilities.completionProvider).toBeDefined()
  await connection.sendNotification(InitializedNotification.type, {})
})

afterAll(async () => {
  if (connection !== undefined) {
    await connection.sendRequest(ShutdownRequest.type)
    await connection.sendNotification(ExitNotification.type)
  }
  const code = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode)
    child.on("exit", (c) => resolve(c))
    setTimeout(() => {
      child.kill("SIGKILL")
      resolve(-1)
    }, 10_000)
  })
  connection?.dispose()
  expect(code).toBe(0)
})

describe("cardfx lsp over stdio (a real LSP client)", () => {
  const CARDS = "heroscript.base/cards.json"
  const TRANSFORMATIONS = "heroscript.base/transformations.json"
  const SCENARIO = "scenarios/ember-affinity.scenario.json"

  it("publishes cardfx's diagnostics as a file is edited, with range, code and message; a fix clears them", async () => {
    const text = readFileSync(join(workspace, CARDS), "utf8")
    open(CARDS, text)
    const broken = text.replace("\"amount\": 6", "\"amount\": -6")
    expect(broken).not.toBe(text)
    change(CARDS, broken)
    const bad = await diagnosticsOf(CARDS, (p) => p.diagnostics.length > 0)
    const d = bad.diagnostics[0]
    expect(d?.code).toBe("schema_invalid")
    expect(d?.source).toBe("cardfx")
    expect(d?.message).toContain("/cards/0/components/0/effect/amount")
    const at = positionIn(broken, "-6", 0)
    expect(d?.range.start).toEqual(at)
    expect(d?.range.end).toEqual({ line: at.line, character: at.character + 2 })
    change(CARDS, text)
    await diagnosticsOf(CARDS, (p) => p.diagnostics.length === 0)
  })

  it("unknown_field is located at the key (the range is the key)", async () => {
    const text = readFileSync(join(workspace, CARDS), "utf8")
    open(CARDS, text)
    const broken = text.replace("\"cardId\": \"heal\",", "\"cardId\": \"heal\", \"colour\": \"red\",")
    expect(broken).not.toBe(text)
    change(CARDS, broken)
    const bad = await diagnosticsOf(CARDS, (p) => p.diagnostics.some((x) => x.code === "unknown_field"))
    const d = bad.diagnostics.find((x) => x.code === "unknown_field")
    const at = positionIn(broken, "\"colour\"", 0)
    expect(d?.range.start).toEqual(at)
    expect(d?.range.end).toEqual({ line: at.line, character: at.character + "\"colour\"".length })
    change(CARDS, text)
    await diagnosticsOf(CARDS, (p) => p.diagnostics.length === 0)
  })

  it("re-checks the whole package and what loads it: a cross-reference error appears where it is, and clears", async () => {
    const text = readFileSync(join(workspace, TRANSFORMATIONS), "utf8")
    open(TRANSFORMATIONS, text)
    const cards = readFileSync(join(workspace, CARDS), "utf8")
    // Renaming a card breaks the transformations that name it and the scenarios that play it.
    change(CARDS, cards.replace("\"cardId\": \"basic_attack\"", "\"cardId\": \"basic_attack2\""))
    const refs = await diagnosticsOf(TRANSFORMATIONS, (p) => p.diagnostics.some((x) => x.code === "unknown_reference"))
    expect(refs.diagnostics.find((x) => x.code === "unknown_reference")?.message).toContain("basic_attack")
    // The scenario that loads the package fails with it, at its /packages entry (issue 41).
    const loads = await diagnosticsOf(SCENARIO, (p) => p.diagnostics.some((x) => x.code === "unknown_reference"))
    expect(loads.diagnostics.find((x) => x.code === "unknown_reference")?.message).toContain("/packages/0")
    change(CARDS, cards)
    await diagnosticsOf(TRANSFORMATIONS, (p) => p.diagnostics.length === 0)
    await diagnosticsOf(SCENARIO, (p) => p.diagnostics.length === 0)
    // A scenario's references are checked against the packages it loads.
    const scenario = readFileSync(join(workspace, SCENARIO), "utf8")
    open(SCENARIO, scenario)
    change(SCENARIO, scenario.replace("\"card\": \"heal\"", "\"card\": \"heall\""))
    const unknown = await diagnosticsOf(SCENARIO, (p) => p.diagnostics.some((x) => x.code === "unknown_card"))
    expect(unknown.diagnostics.map((x) => x.code)).toEqual(["unknown_card"])
    expect(unknown.diagnostics[0]?.range.start).toEqual(positionIn(scenario, "\"card\": \"heal\"", 8))
    change(SCENARIO, scenario)
    await diagnosticsOf(SCENARIO, (p) => p.diagnostics.length === 0)
  })

  it("hover: a property's description (the schemas' text) and a card's summary", async () => {
    const text = readFileSync(join(workspace, SCENARIO), "utf8")
    const onSeed = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri(SCENARIO) },
      position: positionIn(text, "\"seed\"", 2)
    })
    expect((onSeed?.contents as MarkupContent).value).toContain("The seed of the scenario's random stream")
    const onCard = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri(SCENARIO) },
      position: positionIn(text, "\"basic_attack\"", 3, 1)
    })
    const card = (onCard?.contents as MarkupContent).value
    expect(card).toContain("**basic_attack** — cost 1")
    expect(card).toContain("`strike`: DAMAGE 6 → TARGET")
    const cards = readFileSync(join(workspace, CARDS), "utf8")
    const onCost = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri(CARDS) },
      position: positionIn(cards, "\"cost\"", 2)
    })
    expect((onCost?.contents as MarkupContent).value).toBe("`cost`: The card's energy cost.")
  })

  it("completion of IDs where a reference may stand: cards, statuses, effect types, anchors, characters", async () => {
    const text = readFileSync(join(workspace, SCENARIO), "utf8")
    const labels = async (rel: string, body: string, needle: string, shift: number, nth = 0) => {
      const items = await connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: uri(rel) },
        position: positionIn(body, needle, shift, nth)
      })
      return (Array.isArray(items) ? items : items?.items ?? []).map((i) => i.label)
    }
    // Only IDs in scope: the packages the scenario names (heroscript.base), not scenario.chance's wild_swing.
    const inScope = await labels(SCENARIO, text, "\"card\": \"basic_attack\"", 10)
    expect(inScope).toEqual(expect.arrayContaining(["basic_attack", "heal"]))
    expect(inScope).not.toContain("wild_swing")
    const RANDOM = "scenarios/random-draws.scenario.json"
    const random = readFileSync(join(workspace, RANDOM), "utf8")
    open(RANDOM, random)
    const named = await labels(RANDOM, random, "\"card\": \"", 9)
    expect(named).toEqual(expect.arrayContaining(["basic_attack", "wild_swing"]))
    expect(await labels(SCENARIO, text, "\"actor\": \"hero\"", 11)).toEqual(
      expect.arrayContaining(["hero", "slime"])
    )
    const tr = readFileSync(join(workspace, TRANSFORMATIONS), "utf8")
    expect(await labels(TRANSFORMATIONS, tr, "\"statusId\": \"", 13)).toEqual(
      expect.arrayContaining(["burning", "regeneration"])
    )
    const cards = readFileSync(join(workspace, CARDS), "utf8")
    expect(await labels(CARDS, cards, "\"type\": \"DAMAGE\"", 10)).toEqual(["APPLY_STATUS", "DAMAGE", "HEAL"])
    expect(await labels(TRANSFORMATIONS, tr, "\"bundleId\": \"", 13, 2)).toEqual(
      expect.arrayContaining(["ember.burning", "ember.regeneration"])
    )
  })

  it("go-to-definition from a reference to its declaration", async () => {
    const text = readFileSync(join(workspace, SCENARIO), "utf8")
    const found = await connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: uri(SCENARIO) },
      position: positionIn(text, "\"basic_attack\"", 3, 1)
    })
    const locations = (Array.isArray(found) ? found : found === null ? [] : [found]) as Array<Location>
    expect(locations.map((l) => l.uri)).toEqual([uri(CARDS)])
    const cards = readFileSync(join(workspace, CARDS), "utf8")
    expect(locations[0]?.range.start).toEqual(positionIn(cards, "\"basic_attack\"", 0))
  })

  it("a game log is replayed against the workspace's deck as it is edited", async () => {
    const LOG = "one.log.json"
    const made = spawnSync(process.execPath, [
      BIN,
      "simulate",
      "--games",
      "1",
      "--seed",
      "3",
      "--quiet",
      "--deck",
      join(workspace, "hallyu-hex/starter-deck.v0.json"),
      "--log",
      join(workspace, LOG)
    ], { encoding: "utf8" })
    expect(made.status, made.stderr).toBe(0)
    const text = readFileSync(join(workspace, LOG), "utf8")
    open(LOG, text)
    const fp = /"fingerprints":\s*\[\s*"([0-9a-f]{64})"/.exec(text)?.[1] ?? ""
    expect(fp).not.toBe("")
    change(LOG, text.replace(fp, "0".repeat(64)))
    const bad = await diagnosticsOf(LOG, (p) => p.diagnostics.length > 0)
    expect(bad.diagnostics[0]?.code).toBe("replay_mismatch")
    change(LOG, text)
    await diagnosticsOf(LOG, (p) => p.diagnostics.length === 0)
  })
})
