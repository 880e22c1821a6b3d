/**
 * Issue 41: a scenario is validated together with every package it names,
 * wherever those packages are, and their errors fail it. A regression table
 * of broken packages, each named by a scenario in another folder than the
 * package: `cardfx validate SCENARIOS/` fails (exit 1) in every format
 * (human, json, github, sarif), with the error where it is (in the package's
 * file) and at the scenario's `/packages/i`; `cardfx run` fails with the
 * same code; and the language server, whose workspace is the scenarios'
 * folder only, shows the error on the scenario.
 *
 * (Hallyu Hex decks name no packages: a deck is self-contained, so there is
 * no deck row.)
 */
import { type ChildProcess, spawn } from "node:child_process"
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter
} from "vscode-languageserver-protocol/node"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import { runArgs } from "../support/cli.js"
import { tempDir } from "../support/tmp.js"

const root = rootCommand(commands)
const cardfx = (...args: ReadonlyArray<string>) => runArgs(root, args)

interface Row {
  readonly name: string
  /** Breaks a copy of data/heroscript.base (its folder). */
  readonly breakIt: (pkg: string) => void
  /** The code of the package's error, and the file (relative to the package) it is in. */
  readonly code: string
  readonly file: string
}

const edit = (file: string, from: string, to: string): void => {
  const text = readFileSync(file, "utf8")
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`)
  writeFileSync(file, text.replace(from, to))
}

const rows: ReadonlyArray<Row> = [
  {
    name: "a transformation's eligibility names an unpublished card",
    breakIt: (pkg) =>
      edit(join(pkg, "transformations.json"), `"cardIds": ["basic_attack"]`, `"cardIds": ["basic_atack"]`),
    code: "unknown_reference",
    file: "transformations.json"
  },
  {
    name: "a card applies an undeclared status",
    breakIt: (pkg) => edit(join(pkg, "cards.json"), `"statusId": "vulnerable"`, `"statusId": "vulnerabel"`),
    code: "unknown_reference",
    file: "cards.json"
  },
  {
    name: "a card is declared twice (in two files)",
    breakIt: (pkg) =>
      writeFileSync(
        join(pkg, "more.json"),
        JSON.stringify({
          cards: [{
            cardId: "heal",
            cost: 2,
            tags: [],
            metadata: { nameKey: "card.heal.name", artKey: "art.card.heal" },
            components: []
          }]
        })
      ),
    code: "duplicate_id",
    file: "more.json"
  },
  {
    name: "a content file does not decode",
    breakIt: (pkg) => edit(join(pkg, "cards.json"), `"cost": 1,`, `"cost": -1,`),
    code: "schema_invalid",
    file: "cards.json"
  }
]

/** A workspace: `content/<i>/` a broken package per row, `scenarios/<i>.scenario.json` naming it (made as the file is collected). */
const makeWorkspace = (): string => {
  const dir = tempDir("cardfx-broken-")
  const scenario = JSON.parse(readFileSync("data/scenarios/ember-affinity.scenario.json", "utf8")) as {
    $schema?: string
    packages: Array<string>
  }
  delete scenario.$schema
  mkdirSync(join(dir, "scenarios"))
  rows.forEach((row, i) => {
    const pkg = join(dir, "content", String(i))
    cpSync("data/heroscript.base", pkg, { recursive: true })
    row.breakIt(pkg)
    writeFileSync(
      join(dir, "scenarios", `${i}.scenario.json`),
      JSON.stringify({ ...scenario, packages: [`../content/${i}`] }, null, 2)
    )
  })
  return dir
}
const WORKSPACE = makeWorkspace()
const workspace = (): string => WORKSPACE

interface JsonReport {
  readonly ok: boolean
  readonly diagnostics: ReadonlyArray<{ code: string; file?: string; path?: string; severity: string }>
}

describe("validate SCENARIOS/ fails on a broken package the scenario names (outside the folder)", () => {
  rows.forEach((row, i) => {
    describe(row.name, () => {
      const paths = () => {
        const dir = workspace()
        return {
          scenario: join(dir, "scenarios", `${i}.scenario.json`),
          packageFile: join(dir, "content", String(i), row.file)
        }
      }

      it("json: not ok, the package's error in its file and at the scenario's /packages/0", async () => {
        const { packageFile, scenario } = paths()
        const r = await cardfx("validate", scenario, "--format", "json")
        expect(r.code, r.all).toBe(1)
        const report = JSON.parse(r.out) as JsonReport
        expect(report.ok).toBe(false)
        const errors = report.diagnostics.filter((d) => d.severity === "error")
        expect(errors.some((d) => d.code === row.code && d.file === packageFile), r.out).toBe(true)
        expect(errors.some((d) => d.code === row.code && d.file === scenario && d.path === "/packages/0"), r.out)
          .toBe(true)
      })

      it("human, github and sarif: exit 1 and the error shown", async () => {
        const { packageFile, scenario } = paths()
        const human = await cardfx("validate", scenario)
        expect(human.code).toBe(1)
        expect(human.out).toMatch(/^failed: 1 file\(s\), [1-9]\d* error\(s\)/)
        expect(human.err).toContain(row.code)
        expect(human.err).toContain(scenario)

        const github = await cardfx(
          "validate",
          join(workspace(), "scenarios", `${i}.scenario.json`),
          "--format",
          "github"
        )
        expect(github.code).toBe(1)
        const lines = github.out.split("\n").filter((l) => l.startsWith("::error"))
        expect(lines.some((l) => l.includes(`file=${scenario}`) && l.includes(row.code)), github.out).toBe(true)
        expect(lines.some((l) => l.includes(`file=${packageFile}`)), github.out).toBe(true)

        const sarif = await cardfx("validate", scenario, "--format", "sarif")
        expect(sarif.code).toBe(1)
        const log = JSON.parse(sarif.out) as { runs: Array<{ results: Array<{ ruleId: string; level: string }> }> }
        expect(log.runs[0]?.results.some((x) => x.ruleId === row.code && x.level === "error")).toBe(true)
      })

      it("run fails with the same code (validate and run agree)", async () => {
        const { scenario } = paths()
        const r = await cardfx("run", scenario)
        expect(r.code).toBe(1)
        expect(r.all).toContain(row.code)
      })
    })
  })

  it("the whole scenarios folder in github format: one annotation per broken package at least, exit 1", async () => {
    const r = await cardfx("validate", join(workspace(), "scenarios"), "--format", "github")
    expect(r.code).toBe(1)
    rows.forEach((row, i) => {
      const file = join(workspace(), "scenarios", `${i}.scenario.json`)
      expect(r.out.split("\n").some((l) => l.includes(`file=${file}`) && l.includes(row.code)), r.out).toBe(true)
    })
  })
})

describe("the language server shows a broken package on the scenario that names it", () => {
  const BIN = "dist/cli/cardfx.mjs"
  let child: ChildProcess
  let connection: ProtocolConnection
  const latest = new Map<string, PublishDiagnosticsParams>()
  const waiters: Array<() => void> = []

  beforeAll(async () => {
    const folder = join(workspace(), "scenarios")
    child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] })
    if (child.stdout === null || child.stdin === null) throw new Error("no stdio")
    connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      latest.set(p.uri, p)
      for (const w of [...waiters]) w()
    })
    connection.listen()
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(folder).href,
      capabilities: {},
      workspaceFolders: [{ uri: pathToFileURL(folder).href, name: "scenarios" }]
    })
    await connection.sendNotification(InitializedNotification.type, {})
  })

  afterAll(async () => {
    if (connection !== undefined) {
      await connection.sendRequest(ShutdownRequest.type)
      await connection.sendNotification(ExitNotification.type)
    }
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.on("exit", () => resolve())
      setTimeout(() => {
        child.kill("SIGKILL")
        resolve()
      }, 10_000)
    })
    connection?.dispose()
  })

  const diagnosticsOf = (file: string, ok: (p: PublishDiagnosticsParams) => boolean) =>
    new Promise<PublishDiagnosticsParams>((resolve, reject) => {
      const uri = pathToFileURL(file).href
      const deadline = setTimeout(() => reject(new Error(`no matching diagnostics for ${file}`)), 30_000)
      const check = () => {
        const p = latest.get(uri)
        if (p !== undefined && ok(p)) {
          clearTimeout(deadline)
          resolve(p)
        }
      }
      check()
      waiters.push(check)
    })

  it("every row: the scenario has an error with the package's code, at /packages/0", async () => {
    for (const [i, row] of rows.entries()) {
      const file = join(workspace(), "scenarios", `${i}.scenario.json`)
      const text = readFileSync(file, "utf8")
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: pathToFileURL(file).href, languageId: "json", version: 1, text }
      })
      const p = await diagnosticsOf(file, (x) => x.diagnostics.some((d) => d.code === row.code))
      const d = p.diagnostics.find((x) => x.code === row.code)
      expect(d?.severity).toBe(1)
      expect(d?.message).toContain("/packages/0")
      const line = text.split("\n").findIndex((l) => l.includes(`"../content/${i}"`))
      expect(d?.range.start.line).toBe(line)
    }
  })
})
