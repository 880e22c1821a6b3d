/**
 * The language server `cardfx lsp` runs over stdio (vscode-languageserver):
 *
 * - diagnostics: cardfx's own (Checker.ts: every code, with range, code and
 *   message) for content packages, decks, scenarios and game logs as they
 *   are edited — debounced, and over the whole workspace folder, so a change
 *   to one file re-checks its package and what loads it;
 * - hover: the property's description (the JSON Schemas' text, written once
 *   in the Schemas' annotations) and, on a card ID, the card's summary;
 * - completion of IDs (cards, statuses, transformations, bundles, slots,
 *   anchors, effect types, characters, deck windows, events, counters,
 *   zones) where a reference may stand;
 * - go-to-definition from a reference to its declaration.
 *
 * The pure parts are JsonScan.ts and Language.ts; this module is the wiring
 * (documents, the workspace on disk, the debounce).
 *
 * @since 0.1.0
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import {
  CompletionItemKind,
  createConnection,
  type Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  type InitializeResult,
  MarkupKind,
  TextDocuments,
  TextDocumentSyncKind
} from "vscode-languageserver/node"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { extentEnd, nodeAtPointer, offsetOf, positionOf, type Scan, scanJson } from "../kernel/JsonScan.js"
import type { Overlay } from "./Checker.js"
import {
  completionsAt,
  type Declaration,
  declarations,
  definitionAt,
  hoverAt,
  scenarioPackageFolders,
  scopeOf,
  type SourceFile,
  sourceFile
} from "./Language.js"

/** What the face gives the server: the check (run on the face's Effect runtime) and the debounce. */
export interface LanguageServerHost {
  readonly check: (roots: ReadonlyArray<string>, overlay: Overlay) => Promise<ReadonlyArray<Diagnostic>>
  /** Milliseconds of quiet after the last edit before a check (default 200). */
  readonly debounceMs?: number
}

const toPath = (uri: string): string => (uri.startsWith("file:") ? fileURLToPath(uri) : uri)
const toUri = (path: string): string => pathToFileURL(path).href

const isSkipped = (name: string): boolean => name.startsWith(".") || name === "node_modules"

/** Every `.json` file under a folder (dot-folders and node_modules skipped), sorted. */
const jsonFilesUnder = (dir: string): Array<string> => {
  const out: Array<string> = []
  const visit = (d: string): void => {
    let entries: Array<string> = []
    try {
      entries = readdirSync(d).sort()
    } catch {
      return
    }
    for (const name of entries) {
      const p = join(d, name)
      let isDir = false
      try {
        isDir = statSync(p).isDirectory()
      } catch {
        continue
      }
      if (isDir) {
        if (!isSkipped(name)) visit(p)
      } else if (name.endsWith(".json")) out.push(p)
    }
  }
  visit(dir)
  return out
}

/** The range of a diagnostic: from its line and column to the end of the JSON value there. */
const rangeOf = (d: Diagnostic, text: string | undefined, scan: Scan | undefined) => {
  if (text === undefined || scan === undefined) {
    const line = Math.max(0, (d.line ?? 1) - 1)
    const character = Math.max(0, (d.column ?? 1) - 1)
    return { start: { line, character }, end: { line, character: character + 1 } }
  }
  let start: number | undefined
  if (d.line !== undefined) start = offsetOf(text, { line: d.line - 1, character: Math.max(0, (d.column ?? 1) - 1) })
  else if (d.path !== undefined) start = nodeAtPointer(scan, d.path)?.start
  start = start ?? 0
  // An unknown field is located at its key (the diagnostic's line and column): the range is the key.
  const end = extentEnd(text, scan, start, d.code === "unknown_field")
  return { start: positionOf(text, start), end: positionOf(text, end) }
}

const severity = (d: Diagnostic): DiagnosticSeverity =>
  d.severity === "error"
    ? DiagnosticSeverity.Error
    : d.severity === "warning"
    ? DiagnosticSeverity.Warning
    : DiagnosticSeverity.Information

/** Runs the language server on a pair of streams; resolves when the client ends the session. */
export const runLanguageServer = (
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  host: LanguageServerHost
): Promise<void> =>
  new Promise((resolve) => {
    const connection = createConnection(input, output)
    const documents = new TextDocuments(TextDocument)
    const roots: Array<string> = []
    const published = new Set<string>()
    let timer: ReturnType<typeof setTimeout> | undefined
    let running = false
    let again = false

    const overlay = (): Map<string, string> =>
      new Map(documents.all().filter((d) => d.uri.startsWith("file:")).map((d) => [toPath(d.uri), d.getText()]))

    const textOf = (file: string, open: ReadonlyMap<string, string>): string | undefined => {
      const t = open.get(file)
      if (t !== undefined) return t
      try {
        return readFileSync(file, "utf8")
      } catch {
        return undefined
      }
    }

    const inPackage = (file: string, open: ReadonlyMap<string, string>): boolean => {
      for (let d = dirname(file);; d = dirname(d)) {
        const m = join(d, "manifest.json")
        if (open.has(m) || existsSync(m)) return true
        if (dirname(d) === d) return false
      }
    }

    /** The workspace as the editor sees it: every JSON file under the roots and every open document. */
    const workspace = (): { files: Array<SourceFile>; all: Array<Declaration> } => {
      const open = overlay()
      const paths = new Set([...roots.flatMap(jsonFilesUnder), ...open.keys()])
      const files: Array<SourceFile> = []
      const read = (list: Iterable<string>) => {
        for (const p of [...list].sort()) {
          const text = textOf(p, open)
          if (text !== undefined) files.push(sourceFile(p, text, inPackage(p, open)))
        }
      }
      read(paths)
      // The packages a scenario names, wherever they are (outside the workspace folders too).
      const outside = new Set<string>()
      for (const f of files) {
        for (const folder of scenarioPackageFolders(f)) {
          for (const p of jsonFilesUnder(folder)) if (!paths.has(p)) outside.add(p)
        }
      }
      read(outside)
      return { files, all: files.flatMap(declarations) }
    }

    const check = async (): Promise<void> => {
      if (running) {
        again = true
        return
      }
      running = true
      try {
        const open = overlay()
        const outside = [...open.keys()].filter((f) => !roots.some((r) => f.startsWith(`${r}/`)))
        const targets = [...roots, ...outside.map((f) => (inPackage(f, open) ? packageRoot(f, open) : f))]
        const found = targets.length === 0 ? [] : await host.check([...new Set(targets)], open)
        const byFile = new Map<string, Array<Diagnostic>>()
        for (const d of found) {
          if (d.file === undefined) continue
          byFile.set(d.file, [...(byFile.get(d.file) ?? []), d])
        }
        for (const [file, ds] of byFile) {
          const text = textOf(file, open)
          const scan = text === undefined ? undefined : scanJson(text)
          const diagnostics: Array<LspDiagnostic> = ds.map((d) => ({
            range: rangeOf(d, text, scan),
            severity: severity(d),
            code: d.code,
            source: "cardfx",
            message: d.path !== undefined && d.path !== "" ? `${d.message} (at ${d.path})` : d.message
          }))
          await connection.sendDiagnostics({ uri: toUri(file), diagnostics })
        }
        for (const file of published) {
          if (!byFile.has(file)) await connection.sendDiagnostics({ uri: toUri(file), diagnostics: [] })
        }
        published.clear()
        for (const file of byFile.keys()) published.add(file)
      } finally {
        running = false
        if (again) {
          again = false
          schedule()
        }
      }
    }

    const packageRoot = (file: string, open: ReadonlyMap<string, string>): string => {
      for (let d = dirname(file);; d = dirname(d)) {
        if (open.has(join(d, "manifest.json")) || existsSync(join(d, "manifest.json"))) return d
        if (dirname(d) === d) return dirname(file)
      }
    }

    const schedule = (): void => {
      if (timer !== undefined) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = undefined
        void check()
      }, host.debounceMs ?? 200)
    }

    connection.onInitialize((params): InitializeResult => {
      for (const f of params.workspaceFolders ?? []) roots.push(toPath(f.uri).replace(/\/+$/, ""))
      if (roots.length === 0 && params.rootUri !== null) roots.push(toPath(params.rootUri).replace(/\/+$/, ""))
      return {
        capabilities: {
          textDocumentSync: TextDocumentSyncKind.Incremental,
          hoverProvider: true,
          definitionProvider: true,
          completionProvider: { triggerCharacters: ["\""] }
        },
        serverInfo: { name: "cardfx" }
      }
    })
    connection.onInitialized(() => schedule())
    documents.onDidChangeContent(() => schedule())
    documents.onDidClose(() => schedule())
    connection.onDidChangeWatchedFiles(() => schedule())

    const at = (uri: string, position: { line: number; character: number }) => {
      const { files, all } = workspace()
      const file = toPath(uri)
      const f = files.find((x) => x.file === file)
      return f === undefined ? undefined : { f, files, all, offset: offsetOf(f.text, position) }
    }

    connection.onHover((p) => {
      const here = at(p.textDocument.uri, p.position)
      if (here === undefined) return null
      const h = hoverAt(here.f, here.files, here.all, here.offset)
      if (h === undefined) return null
      return {
        contents: { kind: MarkupKind.Markdown, value: h.markdown },
        range: { start: positionOf(here.f.text, h.start), end: positionOf(here.f.text, h.end) }
      }
    })

    connection.onCompletion((p) => {
      const here = at(p.textDocument.uri, p.position)
      if (here === undefined) return []
      // Only the IDs in scope: the file's package and its dependencies, or the packages a scenario names.
      const c = completionsAt(here.f, here.all, here.offset, scopeOf(here.f, here.files))
      if (c === undefined) return []
      return c.items.map((label) => ({ label, kind: CompletionItemKind.Reference, detail: `cardfx ${c.kind} ID` }))
    })

    connection.onDefinition((p) => {
      const here = at(p.textDocument.uri, p.position)
      if (here === undefined) return []
      return definitionAt(here.f, here.all, here.offset).flatMap((d) => {
        const target = here.files.find((x) => x.file === d.file)
        if (target === undefined) return []
        return [{
          uri: toUri(d.file),
          range: { start: positionOf(target.text, d.start), end: positionOf(target.text, d.end) }
        }]
      })
    })

    connection.onShutdown(() => {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    })
    connection.onExit(() => resolve())
    input.on("end", () => resolve())
    documents.listen(connection)
    connection.listen()
  })
