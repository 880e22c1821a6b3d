/**
 * What `cardfx lsp` knows about the JSON it edits, as pure functions over
 * texts: which kind a document is, which IDs each file declares (cards,
 * statuses, transformations, bundles, slots, component anchors, deck
 * vocabulary...), which kind of ID a string at a JSON path refers to, and
 * from those: hover text (the property's description from the JSON Schemas,
 * written once in the Schemas' annotations, and a card's summary),
 * completion candidates and the declaration a reference goes to.
 *
 * @since 0.1.0
 */
import { posix } from "node:path"
import { type Node, nodeAt, type Scan, scanJson } from "../kernel/JsonScan.js"
import { describeAt, type JsonSchemaDocument, jsonSchemas } from "../services/JsonSchemas.js"

/** The kinds of document the server checks. */
export type DocumentKind = "manifest" | "content" | "scenario" | "deck" | "gameLog" | "other"

/** The kinds of ID a reference can name. */
export type IdKind =
  | "card"
  | "status"
  | "transformation"
  | "bundle"
  | "slot"
  | "activity"
  | "relic"
  | "buff"
  | "attribute"
  | "anchor"
  | "effectType"
  | "character"
  | "deckCard"
  | "window"
  | "event"
  | "counter"
  | "zone"

/** One analysed file: its text, its scan and its kind. */
export interface SourceFile {
  readonly file: string
  readonly text: string
  readonly scan: Scan
  readonly kind: DocumentKind
}

/** A declared ID: where it is written. */
export interface Declaration {
  readonly kind: IdKind
  readonly id: string
  readonly file: string
  readonly start: number
  readonly end: number
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** A document's kind: `inPackage` says whether a `manifest.json` is in its folder or above it. */
export const documentKind = (file: string, value: unknown, inPackage: boolean): DocumentKind => {
  if (file.endsWith("/manifest.json") || file === "manifest.json") return "manifest"
  if (isRecord(value) && "scenario" in value) return "scenario"
  if (isRecord(value) && "manifest_version" in value) return "deck"
  const log = (v: unknown) => isRecord(v) && v.format === "hhx-log/1"
  if (log(value) || (Array.isArray(value) && value.length > 0 && value.every(log))) return "gameLog"
  if (inPackage) return "content"
  return "other"
}

/** Reads a file for the server. */
export const sourceFile = (file: string, text: string, inPackage: boolean): SourceFile => {
  const scan = scanJson(text)
  return { file, text, scan, kind: documentKind(file, scan.value, inPackage) }
}

const contentDeclarations: Record<string, readonly [string, IdKind]> = {
  cards: ["cardId", "card"],
  statuses: ["statusId", "status"],
  transformations: ["upgradeId", "transformation"],
  bundles: ["bundleId", "bundle"],
  slots: ["slotId", "slot"],
  activities: ["activityId", "activity"],
  relics: ["relicId", "relic"],
  buffs: ["buffId", "buff"],
  attributes: ["attributeId", "attribute"]
}

/** Every ID a file declares. */
export const declarations = (f: SourceFile): ReadonlyArray<Declaration> => {
  const out: Array<Declaration> = []
  const add = (kind: IdKind, n: Node) => {
    if (n.text !== undefined) out.push({ kind, id: n.text, file: f.file, start: n.start, end: n.end })
  }
  for (const n of f.scan.nodes) {
    const s = n.segments
    if (f.kind === "content" && n.kind === "string") {
      const decl = contentDeclarations[String(s[0])]
      if (s.length === 3 && typeof s[1] === "number" && decl !== undefined && s[2] === decl[0]) add(decl[1], n)
      // Component IDs of cards and bundles: what bindings, patches and selectors name.
      if ((s[0] === "cards" || s[0] === "bundles") && s[s.length - 1] === "componentId") add("anchor", n)
    }
    if (f.kind === "scenario" && n.kind === "string" && s[0] === "state" && s[1] === "characters") {
      if (s.length === 4 && s[3] === "characterId") add("character", n)
    }
    if (f.kind === "deck") {
      if (n.kind === "string" && s.length === 3 && s[0] === "cards" && s[2] === "id") add("deckCard", n)
      if (n.kind === "key" && s.length === 3 && s[0] === "effect_schema") {
        if (s[1] === "windows") add("window", n)
        if (s[1] === "counters") add("counter", n)
      }
      if (n.kind === "string" && s.length === 3 && s[0] === "effect_schema") {
        if (s[1] === "events") add("event", n)
        if (s[1] === "zones") add("zone", n)
      }
    }
  }
  return out
}

const last = (s: ReadonlyArray<string | number>, k = 1) => s[s.length - k]

/** The kind of ID a string value at these segments refers to (undefined: not a reference). */
export const referenceKind = (kind: DocumentKind, s: ReadonlyArray<string | number>): IdKind | undefined => {
  const key = last(s)
  const parent = last(s, 2)
  if (kind === "content") {
    // A declaration (cards/0/cardId) is not a reference.
    if (s.length === 3 && typeof s[1] === "number" && contentDeclarations[String(s[0])]?.[0] === key) return undefined
    if (key === "statusId") return "status"
    if (key === "type" && parent === "effect") return "effectType"
    if (parent === "effectTypes") return "effectType"
    if (parent === "cardIds") return "card"
    if (parent === "excludes" || parent === "upgradeIds") return "transformation"
    if (key === "bundleId") return "bundle"
    if (key === "slotId" || parent === "slotIds") return "slot"
    if (parent === "effectBindings" || parent === "componentIds") return "anchor"
    if ((key === "componentId" || key === "parentId") && s[0] === "transformations") return "anchor"
    if (key === "cardEffectComponentId") return "anchor"
    return undefined
  }
  if (kind === "scenario") {
    if (s[0] === "steps" && key === "card") return "card"
    if (s[0] === "steps" && (key === "actor" || parent === "targets")) return "character"
    if (s[0] === "ledgers" && s.length === 4) return "transformation"
    if (key === "statusId") return "status"
    if (parent === "relics") return "relic"
    if (parent === "buffs") return "buff"
    return undefined
  }
  if (kind === "deck") {
    if (key === "event") return "event"
    if (key === "window" || parent === "play_windows") return "window"
    if (key === "counter") return "counter"
    if (key === "zone" || key === "from_zone" || key === "to_zone") return "zone"
    if (s[0] === "decks" && key === "card") return "deckCard"
    return undefined
  }
  return undefined
}

/** The IDs every engine knows without a declaration. */
const builtIns: Partial<Record<IdKind, ReadonlyArray<string>>> = {
  effectType: ["DAMAGE", "HEAL", "APPLY_STATUS"],
  anchor: ["$anchor"],
  window: ["main"]
}

const schemaFor = (kind: DocumentKind): JsonSchemaDocument | undefined => {
  const all = jsonSchemas()
  return kind === "manifest"
    ? all.manifest
    : kind === "content"
    ? all.content
    : kind === "scenario"
    ? all.scenario
    : kind === "deck"
    ? all["hallyu-hex-deck"]
    : undefined
}

/** The word being completed: the string (or key) node at the offset, if any. */
const stringAt = (f: SourceFile, offset: number): Node | undefined => {
  const n = nodeAt(f.scan, offset)
  return n !== undefined && (n.kind === "string" || n.kind === "key") ? n : undefined
}

/** What a string at an offset refers to: its kind and ID (a reference, or a declaration of that kind). */
export const idAt = (
  f: SourceFile,
  all: ReadonlyArray<Declaration>,
  offset: number
): { readonly kind: IdKind; readonly id: string; readonly node: Node } | undefined => {
  const n = stringAt(f, offset)
  if (n === undefined || n.text === undefined) return undefined
  const ref = n.kind === "string" ? referenceKind(f.kind, n.segments) : undefined
  if (ref !== undefined) return { kind: ref, id: n.text, node: n }
  const own = all.find((d) => d.file === f.file && d.start === n.start)
  return own !== undefined ? { kind: own.kind, id: own.id, node: n } : undefined
}

/** The declarations a reference at an offset goes to. */
export const definitionAt = (
  f: SourceFile,
  all: ReadonlyArray<Declaration>,
  offset: number
): ReadonlyArray<Declaration> => {
  const target = idAt(f, all, offset)
  if (target === undefined) return []
  // Characters are the scenario's own; deck words are the deck file's own.
  const local = target.kind === "character" || f.kind === "deck"
  return all.filter((d) => d.kind === target.kind && d.id === target.id && (!local || d.file === f.file))
}

const under = (file: string, root: string): boolean => file.startsWith(root === "/" ? "/" : `${root}/`)

/** The package folders of a scenario document (as written, resolved against its folder). */
export const scenarioPackageFolders = (f: SourceFile): ReadonlyArray<string> => {
  const v = f.scan.value
  if (f.kind !== "scenario" || !isRecord(v) || !Array.isArray(v.packages)) return []
  const dir = posix.dirname(f.file)
  return v.packages.flatMap((p) =>
    typeof p === "string" && p !== "" ? [posix.normalize(p.startsWith("/") ? p : posix.join(dir, p))] : []
  )
}

/**
 * The files whose declarations a file may name, as a predicate: for a
 * content file, its own package and the packages it depends on (by package
 * ID, transitively, among the workspace's manifests); for a scenario, the
 * packages it names and theirs. Undefined when the file has no package
 * scope (then every declaration of the workspace is offered).
 */
export const scopeOf = (
  f: SourceFile,
  files: ReadonlyArray<SourceFile>
): ((file: string) => boolean) | undefined => {
  const manifests = files.filter((x) => x.kind === "manifest").map((x) => {
    const v = isRecord(x.scan.value) ? x.scan.value : {}
    const deps = Array.isArray(v.dependencies) ? v.dependencies.filter((d) => typeof d === "string") : []
    return { root: posix.dirname(x.file), id: typeof v.packageId === "string" ? v.packageId : "", deps }
  })
  let start: ReadonlyArray<string>
  if (f.kind === "content" || f.kind === "manifest") {
    // The outermost package folder above the file (a package nested in another is part of it).
    const own = manifests.filter((m) => under(f.file, m.root)).sort((a, b) => a.root.length - b.root.length)[0]
    if (own === undefined) return undefined
    start = [own.root]
  } else if (f.kind === "scenario") start = scenarioPackageFolders(f)
  else return undefined
  const roots = new Set(start)
  const queue = [...start]
  while (queue.length > 0) {
    const r = queue.shift() ?? ""
    for (const m of manifests.filter((x) => x.root === r)) {
      for (const dep of m.deps) {
        for (const d of manifests.filter((x) => x.id === dep)) {
          if (!roots.has(d.root)) {
            roots.add(d.root)
            queue.push(d.root)
          }
        }
      }
    }
  }
  return (file) => [...roots].some((r) => under(file, r))
}

/**
 * Completion: the IDs that may stand at an offset (the string being typed is
 * a reference of some kind), among the declarations in scope (`inScope`, see
 * {@link scopeOf}; all when undefined).
 */
export const completionsAt = (
  f: SourceFile,
  all: ReadonlyArray<Declaration>,
  offset: number,
  inScope?: (file: string) => boolean
): { readonly kind: IdKind; readonly items: ReadonlyArray<string> } | undefined => {
  const n = stringAt(f, offset)
  if (n === undefined || n.kind !== "string") return undefined
  const kind = referenceKind(f.kind, n.segments)
  if (kind === undefined) return undefined
  const local = kind === "character" || f.kind === "deck"
  const declared = all.filter((d) =>
    d.kind === kind && (local ? d.file === f.file : inScope === undefined || inScope(d.file))
  ).map((d) => d.id)
  return { kind, items: [...new Set([...(builtIns[kind] ?? []), ...declared])].sort() }
}

const describeCard = (card: unknown): string | undefined => {
  if (!isRecord(card)) return undefined
  const parts: Array<string> = [`**${String(card.cardId)}** — cost ${String(card.cost)}`]
  if (Array.isArray(card.tags) && card.tags.length > 0) parts.push(`tags: ${card.tags.join(", ")}`)
  const components = (list: unknown, depth: number): Array<string> =>
    Array.isArray(list)
      ? list.flatMap((c) => {
        if (!isRecord(c) || !isRecord(c.effect)) return []
        const e = c.effect
        const what = e.type === "APPLY_STATUS"
          ? `APPLY_STATUS ${String(e.statusId)}${e.stacks !== undefined ? ` ×${String(e.stacks)}` : ""}`
          : `${String(e.type)} ${String(e.amount)}`
        const extra = [
          e.repeat !== undefined ? `repeat ${String(e.repeat)}` : "",
          e.chance !== undefined ? `chance ${String(e.chance)}` : ""
        ].filter((x) => x !== "").join(", ")
        return [
          `${"  ".repeat(depth)}- \`${String(c.componentId)}\`: ${what} → ${String(e.target)}${
            extra ? ` (${extra})` : ""
          }`,
          ...components(c.children, depth + 1)
        ]
      })
      : []
  return [parts.join("; "), ...components(card.components, 0)].join("\n")
}

/** The card a file declares, by ID (its authored value). */
const cardValue = (files: ReadonlyArray<SourceFile>, all: ReadonlyArray<Declaration>, id: string): unknown => {
  const d = all.find((x) => x.kind === "card" && x.id === id)
  const f = d === undefined ? undefined : files.find((x) => x.file === d.file)
  if (d === undefined || f === undefined) return undefined
  const n = f.scan.nodes.find((x) => x.start === d.start && x.kind === "string")
  const index = n?.segments[1]
  const cards = isRecord(f.scan.value) ? f.scan.value.cards : undefined
  return Array.isArray(cards) && typeof index === "number" ? cards[index] : undefined
}

/** Hover text (Markdown) at an offset: the property's description, and a card's summary on a card ID. */
export const hoverAt = (
  f: SourceFile,
  files: ReadonlyArray<SourceFile>,
  all: ReadonlyArray<Declaration>,
  offset: number
): { readonly markdown: string; readonly start: number; readonly end: number } | undefined => {
  const n = nodeAt(f.scan, offset)
  if (n === undefined) return undefined
  const schema = schemaFor(f.kind)
  const described = schema === undefined || n.segments.length === 0
    ? undefined
    : describeAt(schema, n.segments, f.scan.value)
  const lines: Array<string> = []
  const key = n.segments[n.segments.length - 1]
  if (described !== undefined) lines.push(`\`${String(key)}\`: ${described}`)
  const id = idAt(f, all, offset)
  if (id !== undefined && id.kind === "card") {
    const summary = describeCard(cardValue(files, all, id.id))
    if (summary !== undefined) lines.push(summary)
  }
  return lines.length === 0 ? undefined : { markdown: lines.join("\n\n"), start: n.start, end: n.end }
}
