/**
 * The contract machinery over cardfx's command table: every command's help
 * (descriptions, defaults, optional marks, 80 columns, no ANSI), the table,
 * `--help`, docs/cli.md's command table and its exit statuses agree,
 * the `@effect/cli` command built from each entry accepts and rejects what
 * the entry's usage check does, and the in-process runner's exit codes (a
 * defect is 70). The import rules of src/cli: test/architecture/imports.test.ts.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { copyFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { rootCommand } from "../../src/cli/Cli.js"
import * as Command from "../../src/cli/Command.js"
import { commands } from "../../src/cli/commands.js"
import { HELP_WIDTH, optionUsage, renderHelp, synopsis } from "../../src/cli/Help.js"
import { usageDiagnostic } from "../../src/cli/Preflight.js"
import {
  allCommands,
  commandAt,
  type CommandSpec,
  leaves,
  type OptionSpec,
  sharedExits,
  specOf
} from "../../src/cli/Spec.js"
import { check, didYouMean } from "../../src/cli/Usage.js"
import { diagnostic } from "../../src/kernel/Diagnostic.js"
import { runArgs, runCli } from "../support/cli.js"
import { runProcess } from "../support/proc.js"
import { tempDir } from "../support/tmp.js"

const table = rootCommand(commands)
const root = specOf(table)
const flat = (s: string) => s.replace(/\s+/g, " ").trim()

/** docs/cli.md's command table: synopsis (backquoted, `\|` unescaped) → description. */
export const commandTable = (): Map<string, string> => {
  const lines = readFileSync("docs/cli.md", "utf8").split("\n")
  // The one table headed `| command | what it does |` (the exit statuses' table below it has rows like it).
  const head = lines.indexOf("| command | what it does |")
  expect(head).toBeGreaterThanOrEqual(0)
  expect(lines.lastIndexOf("| command | what it does |")).toBe(head)
  const end = lines.findIndex((l, i) => i > head && !l.startsWith("|"))
  const rows = new Map<string, string>()
  for (const line of lines.slice(head + 2, end)) {
    const m = /^\| `(cardfx [^`]*)` \| (.*) \|$/.exec(line)
    expect(m, `not a command row: ${line}`).not.toBeNull()
    if (m !== null) rows.set((m[1] ?? "").replace(/\\\|/g, "|"), (m[2] ?? "").replace(/\\\|/g, "|"))
  }
  return rows
}

describe("the command tree", () => {
  it("is derived from the registrations: every top-level command, the ledger and hhx groups", () => {
    expect(root.subcommands.map((s) => s.path.join(" "))).toEqual(commands.map((c) => c.name))
    const ledger = root.subcommands.find((s) => s.path[0] === "ledger")
    expect(ledger?.subcommands.map((s) => s.path[1])).toContain("apply")
    const simulate = leaves(root).find((s) => s.path.join(" ") === "simulate")
    expect(simulate?.options.find((o) => o.names[0] === "--games")).toMatchObject({
      kind: "integer",
      optional: true,
      defaultValue: "1000"
    })
  })

  it("every --help: each option and argument described, defaults stated, optional marked, ≤ 80 columns, no ANSI", () => {
    for (const spec of [root, ...allCommands(root)]) {
      const help = renderHelp(spec, "0.1.0")
      const where = ["cardfx", ...spec.path].join(" ")
      expect({ where, description: spec.description }).not.toEqual({ where, description: "" })

      expect(help).not.toMatch(/\u001b\[/)
      for (const line of help.split("\n")) {
        expect({ where, line, fits: line.length <= HELP_WIDTH }).toEqual({ where, line, fits: true })
      }
      for (const o of spec.options) {
        expect({ where, option: o.names[0], described: o.description.length > 0 }).toEqual({
          where,
          option: o.names[0],
          described: true
        })
        expect(o.description).not.toMatch(/A user-defined piece of text|^A file\.$|^An integer\.$/)
        if (o.defaultValue !== undefined) {
          // Stated once: as the value, or in words by a description that names it (never a machine's absolute path).
          const flat = help.replace(/\s+/g, " ")
          if (o.description.includes("(default:")) expect(flat).not.toContain(`default: ${o.defaultValue}`)
          else expect(flat).toContain(`default: ${o.defaultValue}`)
          expect({ where, option: o.names[0], absolute: flat.includes(`default: ${process.cwd()}`) }).toEqual({
            where,
            option: o.names[0],
            absolute: false
          })
        }
        if (o.optional) expect(help).toMatch(new RegExp(`\\[${o.names[0]}`))
      }
      for (const a of spec.args) {
        expect({ where, arg: a.name, described: a.description.length > 0 }).toEqual({
          where,
          arg: a.name,
          described: true
        })
      }
    }
  })

  it("the table, every --help and docs/cli.md's command table agree: one row per command, same synopsis and description", () => {
    const rows = commandTable()
    const expected = new Map(leaves(root).map((s) => [synopsis(s).join(" "), s.description]))
    // The row to add or fix is printed in full by the failing assertion.
    expect([...rows.entries()].sort()).toEqual([...expected.entries()].sort())
    for (const spec of [root, ...allCommands(root)]) {
      const where = ["cardfx", ...spec.path].join(" ")
      const help = flat(renderHelp(spec, "0.1.0"))
      const head = spec.path.length === 0 ? `cardfx 0.1.0: ${spec.description}` : `${where}: ${spec.description}`
      expect({ where, head: help.startsWith(head) }).toEqual({ where, head: true })
      expect(help).toContain(`Usage: ${synopsis(spec).join(" ")}`)
      for (const s of spec.subcommands) expect(help).toContain(`${s.path[s.path.length - 1]} ${flat(s.description)}`)
      for (const o of spec.options) expect(help).toContain(`${optionUsage(o)}`)
      for (const o of spec.options) expect(help).toContain(flat(o.description).replace(/\.$/, ""))
      for (const a of spec.args) expect(help).toContain(`${a.name} ${flat(a.description).replace(/\.$/, "")}`)
    }
  })

  it("every leaf states its exit statuses, and docs/cli.md lists them: the shared ones and each command's own", () => {
    const rows = readFileSync("docs/cli.md", "utf8").split("\n").flatMap((line) => {
      const m = /^\| (`cardfx[^`]*`|every command) \| (\d+) \| (.*) \|$/.exec(line)
      return m === null ? [] : [`${(m[1] ?? "").replace(/`/g, "")} ${m[2]}: ${m[3]}`]
    })
    const expected = [
      ...sharedExits.map((e) => `every command ${e.code}: ${e.when}`),
      ...leaves(root).flatMap((s) => s.exits.map((e) => `${["cardfx", ...s.path].join(" ")} ${e.code}: ${e.when}`))
    ]
    expect(rows).toEqual(expected)
    // A command's own statuses are what the shared contract does not already say (1 or 2 for a reason of its own).
    for (const s of leaves(root)) for (const e of s.exits) expect([1, 2]).toContain(e.code)
    expect(leaves(root).find((s) => s.path.join(" ") === "assess")?.exits).toEqual([
      { code: 1, when: "the command is incompatible" }
    ])
  })
})

/** A value each kind of option accepts (paths that exist, for the kinds that check). */
const goodValue = (o: OptionSpec): string =>
  o.kind === "integer"
    ? "1"
    : o.kind === "float"
    ? "1.5"
    : o.kind === "choice"
    ? o.choices[0] ?? ""
    : o.kind === "path"
    ? o.placeholder === "DIR" ? "src" : "package.json"
    : "x"

const optionWords = (o: OptionSpec, value: string = goodValue(o)): Array<string> =>
  o.kind === "flag" ? [o.names[0] ?? ""] : [o.names[0] ?? "", value]

/** A command line of a leaf: its required arguments, then the options given. */
const line = (spec: CommandSpec, options: ReadonlyArray<OptionSpec>): Array<string> => [
  ...spec.path,
  ...spec.args.filter((a) => !a.optional).map(() => "x"),
  ...options.flatMap((o) => o.repeatable ? [...optionWords(o), ...optionWords(o)] : optionWords(o))
]

describe("the @effect/cli command built from each entry", () => {
  /** Whether the usage check and the entry's `@effect/cli` parser accept a command line. */
  const verdicts = (spec: CommandSpec, argv: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const runner = commandAt(table, spec.path)?.runner
      if (runner === undefined) return yield* Effect.dieMessage(`no runner for ${spec.path.join(" ")}`)
      const usage = check(root, argv)._tag !== "Problem"
      const parsed = yield* runner.parse([spec.path[spec.path.length - 1] ?? "", ...argv.slice(spec.path.length)]).pipe(
        Effect.as(true),
        Effect.catchAll(() => Effect.succeed(false))
      )
      return { line: argv.join(" "), usage, parsed }
    })

  it.effect("accepts what the usage check accepts and rejects a missing option or a bad value as it does", () =>
    Effect.gen(function*() {
      let lines = 0
      for (const spec of leaves(root)) {
        const required = spec.options.filter((o) => !o.optional)
        const accepted = [line(spec, required), line(spec, spec.options)]
        for (const argv of accepted) {
          expect(yield* verdicts(spec, argv)).toEqual({ line: argv.join(" "), usage: true, parsed: true })
        }
        const rejected = [
          ...required.map((o) => line(spec, required.filter((r) => r !== o))),
          ...spec.options.filter((o) => o.kind === "integer" || o.kind === "float" || o.kind === "choice").map((o) => [
            ...line(spec, required.filter((r) => r !== o)),
            ...optionWords(o, "nope")
          ])
        ]
        for (const argv of rejected) {
          expect(yield* verdicts(spec, argv)).toEqual({ line: argv.join(" "), usage: false, parsed: false })
        }
        lines += accepted.length + rejected.length
      }
      // Every leaf was tried, with more than its two accepted lines for most.
      expect(lines).toBeGreaterThan(leaves(root).length * 2)
    }).pipe(Effect.provide(NodeContext.layer)))
})

describe("usage checks", () => {
  it("suggest the nearest flag or subcommand and list a group's subcommands", () => {
    expect(didYouMean("--fromat", ["--format", "--seed"])).toBe("--format")
    expect(didYouMean("valdate", ["validate", "schema"])).toBe("validate")
    expect(didYouMean("zzz", ["validate", "schema"])).toBeUndefined()
    expect(didYouMean("--wiht", ["--with", "--ledger"])).toBe("--with")
    const r = check(root, ["ledger", "nope"])
    expect(r._tag === "Problem" && r.message).toMatch(/unknown ledger subcommand 'nope'.*apply, remove, replace/)
    const ok = check(root, ["simulate", "--games", "-1"])
    expect(ok._tag).toBe("Run")
  })
})

describe("the in-process runner reports what the bin reports", () => {
  it("a defect is internal_error, exit 70 (never mistaken for a usage error); a usage error is 2", async () => {
    const boom = Command.make("boom", {}, () => Effect.die(new Error("kaput")))
    const r = await runCli(boom)
    expect(r.code).toBe(70)
    expect(r.err).toBe("cardfx: internal_error internal error (a defect in cardfx, please report it): Error: kaput")
    expect(r.err).not.toMatch(/\n\s+at /)
    const u = await runCli(boom, "--nope")
    expect(u.code).toBe(2)
    expect(u.err).toBe("cardfx boom: usage_error unknown option --nope (see 'cardfx boom --help')")
  })
})

describe("environment problems are checked before long work", () => {
  it("an unwritable --log is file_unwritable (exit 1) before a game is played; a folder given as --log is a usage error", async () => {
    const { simulateCommand } = await import("../../src/cli/hhx.js")
    const r = await runCli(simulateCommand, "--games", "1000000", "--log", "/no/such/dir/x.log")
    expect(r.code).toBe(1)
    expect(r.out).toBe("")
    expect(r.err).toBe(
      "/no/such/dir/x.log file_unwritable cannot write /no/such/dir/x.log: the folder /no/such/dir does not exist"
    )
    const folder = await runCli(simulateCommand, "--games", "1", "--log", "/tmp")
    expect(folder.code).toBe(2)
  })
})

// The import rules of every face (src/cli among them) and what the package root exports:
// test/architecture/imports.test.ts.

describe("the bin's front (src/bin/front.ts) answers usage errors, --help and --version alone", () => {
  it("its command table is the table's spec, written by the same build", () => {
    const written: unknown = JSON.parse(readFileSync("dist/cli/cardfx.spec.json", "utf8"))
    expect(written).toEqual(JSON.parse(JSON.stringify(root)))
  })

  it("its usage diagnostic is diagnostic()'s, key order included", () => {
    const m = "unknown option --x"
    expect(JSON.stringify(usageDiagnostic(m))).toBe(JSON.stringify(diagnostic("usage_error", m)))
  })

  it("answers without the bundle, the same bytes and status as runCardfx; what must run needs the bundle", async () => {
    // The loader, the front and the table in a folder without the bundle (cardfx.cjs).
    const dir = tempDir("cardfx-front-")
    for (const f of ["cardfx.mjs", "cardfx-front.cjs", "cardfx.spec.json"]) copyFileSync(`dist/cli/${f}`, join(dir, f))
    const lines: ReadonlyArray<ReadonlyArray<string>> = [
      ["--version"],
      ["simulate", "--help"],
      ["ledger", "apply", "--wiht", "x"],
      ["simulate", "--games", "abc", "--format", "json"],
      ["nope"]
    ]
    for (const argv of lines) {
      const bin = await runProcess(process.execPath, [join(dir, "cardfx.mjs"), ...argv])
      const inProcess = await runArgs(table, argv)
      expect({ argv, code: bin.status, out: bin.stdout, err: bin.stderr }).toEqual({
        argv,
        code: inProcess.code,
        out: inProcess.out === "" ? "" : `${inProcess.out}\n`,
        err: inProcess.err === "" ? "" : `${inProcess.err}\n`
      })
    }
    const run = await runProcess(process.execPath, [join(dir, "cardfx.mjs"), "simulate", "--games", "1"])
    expect(run.status).not.toBe(0)
    expect(run.stderr).toContain("cardfx.cjs")
  })
})
