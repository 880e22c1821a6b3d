/**
 * The contract machinery over the registered command tree: every command's
 * help (descriptions, defaults, optional marks, 80 columns, no ANSI), the
 * README command table (one row per command, the same synopsis and
 * description as `--help`), the import graph of src/cli (only the public API
 * and @effect/*), and the in-process runner's exit codes (a defect is 70).
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import { HELP_WIDTH, renderHelp, synopsis } from "../../src/cli/Help.js"
import { allCommands, leaves, specOf } from "../../src/cli/Spec.js"
import { check, didYouMean } from "../../src/cli/Usage.js"
import { runCli } from "../support/cli.js"

const root = specOf(rootCommand(commands))

/** The README's command table: synopsis (backquoted, `\|` unescaped) → description. */
export const readmeTable = (): Map<string, string> => {
  const text = readFileSync("README.md", "utf8")
  const rows = new Map<string, string>()
  for (const line of text.split("\n")) {
    const m = /^\| `(cardfx [^`]*)` \| (.*) \|$/.exec(line)
    if (m !== null) rows.set((m[1] ?? "").replace(/\\\|/g, "|"), (m[2] ?? "").replace(/\\\|/g, "|"))
  }
  return rows
}

describe("the command tree", () => {
  it("is derived from the registrations: every top-level command, the ledger and hhx groups", () => {
    expect(root.subcommands.map((s) => s.path.join(" "))).toEqual(commands.map((c) => [...Command.getNames(c)][0]))
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

  it("the README command table and every --help agree: one row per command, same synopsis and description", () => {
    const table = readmeTable()
    const expected = new Map(leaves(root).map((s) => [synopsis(s).join(" "), s.description]))
    // The row to add or fix is printed in full by the failing assertion.
    expect([...table.entries()].sort()).toEqual([...expected.entries()].sort())
  })
})

describe("usage checks", () => {
  it("suggest the nearest flag or subcommand and list a group's subcommands", () => {
    expect(didYouMean("--fromat", ["--format", "--seed"])).toBe("--format")
    expect(didYouMean("valdate", ["validate", "schema"])).toBe("validate")
    expect(didYouMean("zzz", ["validate", "schema"])).toBeUndefined()
    expect(didYouMean("--wiht", ["--with", "--ledger"])).toBe("--with")
    const r = check(root, ["ledger", "nope"])
    expect(r._tag === "Left" && r.left.message).toMatch(/unknown ledger subcommand 'nope'.*apply, remove, replace/)
    const ok = check(root, ["simulate", "--games", "-1"])
    expect(ok._tag).toBe("Right")
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

describe("src/cli imports only the public API", () => {
  it("every import of src/cli is src/index.ts, src/testing/index.ts, another src/cli module, effect, @effect/* or node:*", () => {
    const bad: Array<string> = []
    for (const f of readdirSync("src/cli").filter((x) => x.endsWith(".ts"))) {
      const text = readFileSync(join("src/cli", f), "utf8")
      for (
        const m of text.matchAll(
          /(?:import|export)[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm
        )
      ) {
        const spec = m[1] ?? m[2] ?? m[3] ?? ""
        const ok = spec === "../index.js" || spec === "../testing/index.js" || /^\.\/[A-Za-z-]+\.js$/.test(spec) ||
          spec === "effect" || spec.startsWith("@effect/") || spec.startsWith("node:")
        if (!ok) bad.push(`${f}: ${spec}`)
      }
    }
    expect(bad).toEqual([])
  })
})

describe("src/server imports only the public API", () => {
  // src/index.ts re-exports the server's modules, so the server imports the same public names through
  // src/Library.ts (the public API without its faces), src/Schemas.ts (the documents' Schemas, light enough
  // for the typed client and the workbench page); Hallyu Hex through Library's `Hallyu` namespace, as an embedder.
  const allowed = ["../Library.js", "../Schemas.js", "../api/Api.js", "../api/Documents.js"]
  it("every import of src/server is Library, Schemas, the HTTP contract (src/api), another src/server module, effect, @effect/* or node:*", () => {
    const bad: Array<string> = []
    for (const f of readdirSync("src/server").filter((x) => x.endsWith(".ts"))) {
      const text = readFileSync(join("src/server", f), "utf8")
      for (
        const m of text.matchAll(
          /(?:import|export)[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm
        )
      ) {
        const spec = m[1] ?? m[2] ?? m[3] ?? ""
        const ok = allowed.includes(spec) || /^\.\/[A-Za-z-]+\.js$/.test(spec) || spec === "./page/Page.js" ||
          spec === "effect" || spec.startsWith("@effect/") || spec.startsWith("node:")
        if (!ok) bad.push(`${f}: ${spec}`)
      }
    }
    expect(bad).toEqual([])
  })

  it("every value Library, Schemas and the Hallyu namespace export is the package root's", async () => {
    const root: Record<string, unknown> = await import("../../src/index.js")
    const hallyu = root["Hallyu"] as Record<string, unknown>
    const notPublic: Array<string> = []
    const modules = [
      ["Library", await import("../../src/Library.js")],
      ["Schemas", await import("../../src/Schemas.js")],
      ["hallyu/index", await import("../../src/hallyu/index.js")]
    ] as const
    for (const [module, mod] of modules) {
      for (const [name, value] of Object.entries(mod)) {
        if (root[name] !== value && hallyu[name] !== value) notPublic.push(`${module}: ${name}`)
      }
    }
    expect(notPublic).toEqual([])
    // And the check can fail: an internal helper is not among them.
    const internal: Record<string, unknown> = await import("../../src/hallyu/validate/Report.js")
    expect(Object.keys(internal).filter((k) => root[k] === internal[k] || hallyu[k] === internal[k])).toEqual([])
  })
})
