/**
 * The import graph of src/, against the layers drawn in
 * ../shared/spec/whiteboard.json (its "never" arrows) and issue 21: the
 * kernel knows no rule set; the two rule sets (composition, Hallyu Hex) share
 * only the kernel; the services know no face; the HTTP contract (src/api)
 * sits below its faces; no face imports another face or an engine internal;
 * the client and the page import src/api, never src/server; production code
 * never imports the test kit. The rules are written here, part by part,
 * since issue 21 moves the folders.
 *
 * Every import of every src file is read with TypeScript's own pre-processor
 * (static, `export … from`, `import type` and dynamic `import()`; comments
 * and strings are not imports). The violations that still exist on main are
 * listed by name in KNOWN_VIOLATIONS (empty now), each with the issue item
 * that removes it: the test fails on any violation not in the list, and on
 * any entry of the list that no longer occurs (delete it then).
 *
 * The `cardfx` bin's entry (src/bin) is the composition root: the CLI knows
 * the services' scale-out ports only, and the bin provides them with the
 * worker pools, the cluster and the HTTP server.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

// ---------------------------------------------------------------- the parts

type Part =
  | "Kernel"
  | "Composition"
  | "Hallyu"
  | "Services"
  | "Api"
  | "Root"
  | "Testing"
  | "Cli"
  | "Server"
  | "Page"
  | "Client"
  | "Workers"
  | "Cluster"
  | "Lsp"
  | "Bin"

/** Which part a file of src/ belongs to (the first prefix that matches). */
const PARTS: ReadonlyArray<readonly [prefix: string, part: Part]> = [
  ["src/kernel/", "Kernel"],
  // src/composition/testing/ holds the composition's limit walkers, which the fuzz service runs: composition code.
  ["src/composition/", "Composition"],
  ["src/hallyu/", "Hallyu"],
  ["src/services/", "Services"],
  ["src/api/", "Api"],
  ["src/index.ts", "Root"],
  ["src/engine.ts", "Root"],
  ["src/testing/", "Testing"],
  ["src/cli/", "Cli"],
  ["src/server/", "Server"],
  ["src/page/", "Page"],
  ["src/client.ts", "Client"],
  ["src/workers/", "Workers"],
  ["src/cluster/", "Cluster"],
  ["src/lsp/", "Lsp"],
  ["src/bin/", "Bin"]
]

const partOf = (file: string): Part | undefined => PARTS.find(([prefix]) => file.startsWith(prefix))?.[1]

const FACES: ReadonlyArray<Part> = ["Cli", "Server", "Page", "Client", "Workers", "Cluster", "Lsp"]

// ---------------------------------------------------------------- the rules

/**
 * What each part may import of src/ (besides itself), and why. Faces import
 * only the HTTP contract and the services (src/services/index.ts is their
 * flat door to the public modules); the kernel is a public module too, except
 * for the server, the page and the client (the whiteboard's "the server is a
 * face over the public API", "the page is a client of the API"; the client
 * knows only the HTTP contract).
 */
const MAY_IMPORT: { readonly [P in Part]: { readonly parts: ReadonlyArray<Part>; readonly why: string } } = {
  Kernel: { parts: [], why: "the kernel knows no rule set, no service and no face" },
  Composition: { parts: ["Kernel"], why: "the rule sets share only the kernel; the core knows no service layer" },
  Hallyu: { parts: ["Kernel"], why: "the rule sets share only the kernel; the core knows no service layer" },
  Services: { parts: ["Kernel", "Composition", "Hallyu"], why: "services know no face and no scale-out" },
  Api: { parts: ["Kernel", "Composition", "Hallyu"], why: "the HTTP contract is Schemas over the rule sets' Schemas" },
  Root: {
    parts: ["Kernel", "Composition", "Hallyu", "Services", "Api", "Workers"],
    why: "the package root loads no face but the services' scale-out (cardfx/server, cardfx/cluster are subpaths)"
  },
  Testing: { parts: ["Kernel", "Composition", "Hallyu", "Services"], why: "the kit generates content for the engines" },
  Cli: {
    parts: ["Api", "Services", "Kernel"],
    why:
      "the CLI is a face over the public API; faces never call each other (`cardfx lsp` asks the services' LanguageServer port)"
  },
  Server: { parts: ["Api", "Services"], why: "the server is a face over the public API; faces never call each other" },
  Page: { parts: ["Api"], why: "the page is a client of the API: it knows only the HTTP contract" },
  Client: { parts: ["Api"], why: "the client knows only the HTTP contract" },
  Workers: {
    parts: ["Services", "Kernel"],
    why: "scale-out is a face over the services; production never imports the kit"
  },
  Cluster: {
    parts: ["Services", "Kernel", "Workers"],
    why:
      "scale-out is a face over the services; a runner plays its shards on the worker pools (the whiteboard draws Cluster → Workers)"
  },
  Lsp: {
    parts: ["Services", "Kernel"],
    why: "the language server is a face over the services (an editor's requests), beside the CLI"
  },
  Bin: {
    parts: ["Kernel", "Services", "Api", "Cli", "Server", "Workers", "Cluster", "Lsp"],
    why:
      "the bin's composition root: the one part that knows every face, it provides the services' scale-out ports (workers, cluster, server) to the CLI"
  }
}

/**
 * The packages the browser-side parts may import (the page's bundle stays
 * light: no Node built-in, no server package).
 */
const BROWSER_PACKAGES: ReadonlyArray<RegExp> = [/^effect(\/|$)/, /^@effect\/platform(\/|$)/, /^preact(\/|$)/]
const BROWSER_PARTS: ReadonlyArray<Part> = ["Page", "Client", "Api"]

/**
 * The violations that exist on main today, by `file → part`, each with the
 * item of issue 21 that removes it. Empty this list as those branches land;
 * never add to it.
 */
const KNOWN_VIOLATIONS: Readonly<Record<string, string>> = {}

// ---------------------------------------------------------------- the graph

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [p] : []
  })

interface Edge {
  readonly from: string
  readonly specifier: string
  /** The src file a relative specifier names; undefined for a package. */
  readonly to: string | undefined
}

const exists = (file: string): boolean => {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/** A relative specifier (`./x.js`) to the src file it names (x.ts, x.tsx, x/index.ts, or a file as named: style.css). */
const resolveRelative = (from: string, specifier: string): string => {
  const base = resolve(dirname(from), specifier)
  const candidates = [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base, join(base, "index.ts")]
  return relative(process.cwd(), candidates.find(exists) ?? base)
}

const edgesOf = (files: ReadonlyArray<string>): ReadonlyArray<Edge> =>
  files.flatMap((from) =>
    ts.preProcessFile(readFileSync(from, "utf8"), true, true).importedFiles.map(({ fileName }) => ({
      from,
      specifier: fileName,
      to: fileName.startsWith(".") ? resolveRelative(from, fileName) : undefined
    }))
  )

/** Every rule an edge breaks, as `file → part` (relative imports) or `file → package` (browser parts). */
const violationsOf = (edges: ReadonlyArray<Edge>): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const e of edges) {
    const from = partOf(e.from)
    if (from === undefined) {
      out.add(`${e.from} → (a src file of no part)`)
      continue
    }
    if (e.to === undefined) {
      if (BROWSER_PARTS.includes(from) && !BROWSER_PACKAGES.some((p) => p.test(e.specifier))) {
        out.add(`${e.from} → package ${e.specifier}`)
      }
      continue
    }
    const to = partOf(e.to)
    if (to === undefined) {
      out.add(`${e.from} → ${e.to} (a src file of no part)`)
      continue
    }
    if (to !== from && !MAY_IMPORT[from].parts.includes(to)) out.add(`${e.from} → ${to}`)
  }
  return [...out].sort()
}

const files = walk("src")
const edges = edgesOf(files)

describe("the import graph of src/", () => {
  it("reads every import of every src file", () => {
    expect(files.length).toBeGreaterThan(150)
    // Static, re-export, type-only and dynamic imports are all edges; a comment is not.
    const sample = edgesOf(["src/client.ts"]).map((e) => e.specifier)
    expect(sample).toContain("./api/Api.js")
    expect(sample).not.toContain("cardfx/client")
    // Every relative import resolves to a file of src/ (a dangling one would slip past the rules).
    const dangling = edges.filter((e) => e.to !== undefined && !exists(e.to))
    expect(dangling.map((e) => `${e.from} → ${e.specifier}`)).toEqual([])
  })

  it("every src file belongs to a part", () => {
    expect(files.filter((f) => partOf(f) === undefined)).toEqual([])
  })

  it("no import breaks the rules, except the known violations, each named with the item that removes it", () => {
    const found = violationsOf(edges)
    const added = found.filter((v) => KNOWN_VIOLATIONS[v] === undefined)
    expect(added, "new violations (see MAY_IMPORT for the rule each one breaks)").toEqual([])
    const gone = Object.keys(KNOWN_VIOLATIONS).filter((v) => !found.includes(v))
    expect(gone, "fixed: delete these entries from KNOWN_VIOLATIONS").toEqual([])
  })

  it("the rules can fail: a face importing another face, an engine internal, the kit or the server is caught", () => {
    const made: ReadonlyArray<Edge> = [
      { from: "src/page/App.tsx", specifier: "../server/Server.js", to: "src/server/Server.ts" },
      { from: "src/client.ts", specifier: "./composition/Resolver.js", to: "src/composition/Resolver.ts" },
      { from: "src/server/Games.ts", specifier: "../hallyu/index.js", to: "src/hallyu/index.ts" },
      { from: "src/server/Games.ts", specifier: "../kernel/Json.js", to: "src/kernel/Json.ts" },
      { from: "src/composition/Resolver.ts", specifier: "../hallyu/index.js", to: "src/hallyu/index.ts" },
      { from: "src/kernel/Json.ts", specifier: "../composition/Runtime.js", to: "src/composition/Runtime.ts" },
      { from: "src/services/Catalog.ts", specifier: "../cli/main.js", to: "src/cli/main.ts" },
      { from: "src/hallyu/index.ts", specifier: "../testing/index.js", to: "src/testing/index.ts" },
      { from: "src/index.ts", specifier: "./server/index.js", to: "src/server/index.ts" },
      { from: "src/page/App.tsx", specifier: "node:fs", to: undefined },
      { from: "src/api/Api.ts", specifier: "@effect/sql", to: undefined }
    ]
    expect(violationsOf(made)).toEqual([
      "src/api/Api.ts → package @effect/sql",
      "src/client.ts → Composition",
      "src/composition/Resolver.ts → Hallyu",
      "src/hallyu/index.ts → Testing",
      "src/index.ts → Server",
      "src/kernel/Json.ts → Composition",
      "src/page/App.tsx → Server",
      "src/page/App.tsx → package node:fs",
      "src/server/Games.ts → Hallyu",
      "src/server/Games.ts → Kernel",
      "src/services/Catalog.ts → Cli"
    ])
  })

  it("no face may import another face but as the whiteboard draws it; only the bin knows every face", () => {
    // The one face-to-face arrow of ../shared/spec/whiteboard.json: a cluster runner plays its shards on worker threads.
    const drawn: ReadonlyArray<string> = ["Cluster → Workers"]
    for (const face of FACES) {
      const faces = MAY_IMPORT[face].parts.filter((p) => FACES.includes(p)).map((p) => `${face} → ${p}`)
      expect(faces.filter((arrow) => !drawn.includes(arrow)), face).toEqual([])
      expect(MAY_IMPORT[face].parts, face).not.toContain("Testing")
    }
    // The composition root is no face: nothing imports it, and it is the one part that may import the CLI.
    const parts = Object.keys(MAY_IMPORT) as ReadonlyArray<Part>
    expect(parts.filter((p) => MAY_IMPORT[p].parts.includes("Bin"))).toEqual([])
    expect(parts.filter((p) => MAY_IMPORT[p].parts.includes("Cli"))).toEqual(["Bin"])
    expect(MAY_IMPORT.Bin.parts).not.toContain("Testing")
  })

  it("the services import no face (the language server included) and not the composition root", () => {
    expect(MAY_IMPORT.Services.parts.filter((p) => FACES.includes(p) || p === "Bin")).toEqual([])
    expect(FACES).toContain("Lsp")
    const made: ReadonlyArray<Edge> = [
      { from: "src/services/Cards.ts", specifier: "../lsp/Server.js", to: "src/lsp/Server.ts" },
      { from: "src/services/Cards.ts", specifier: "../bin/Root.js", to: "src/bin/Root.ts" },
      { from: "src/cli/lsp.ts", specifier: "../lsp/Server.js", to: "src/lsp/Server.ts" },
      { from: "src/lsp/Server.ts", specifier: "../cli/Cli.js", to: "src/cli/Cli.ts" }
    ]
    expect(violationsOf(made)).toEqual([
      "src/cli/lsp.ts → Lsp",
      "src/lsp/Server.ts → Cli",
      "src/services/Cards.ts → Bin",
      "src/services/Cards.ts → Lsp"
    ])
  })
})
