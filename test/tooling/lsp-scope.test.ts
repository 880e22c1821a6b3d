/**
 * `cardfx lsp` completes only the IDs in scope (issue 41): in a content file,
 * those of its own package and of the packages it depends on (transitively);
 * in a scenario, those of the packages it names. The pure part
 * (src/lsp/Language.ts), over in-memory files.
 */
import { describe, expect, it } from "vitest"
import { completionsAt, declarations, scopeOf, sourceFile } from "../../src/lsp/Language.js"

const manifest = (id: string, dependencies: Array<string> = []) =>
  JSON.stringify({ packageId: id, version: "1.0.0", engineVersion: 17, dependencies })
const cards = (...ids: Array<string>) =>
  JSON.stringify({ cards: ids.map((cardId) => ({ cardId, cost: 1, tags: [], components: [] })) })

const files = [
  sourceFile("/w/base/manifest.json", manifest("base"), true),
  sourceFile("/w/base/cards.json", cards("strike", "heal"), true),
  sourceFile("/w/ext/manifest.json", manifest("ext", ["base"]), true),
  sourceFile("/w/ext/cards.json", cards("venom"), true),
  sourceFile(
    "/w/ext/transformations.json",
    JSON.stringify({ transformations: [{ upgradeId: "u", eligibility: { cardIds: ["s"] } }] }),
    true
  ),
  sourceFile("/w/other/manifest.json", manifest("other"), true),
  sourceFile("/w/other/cards.json", cards("stranger"), true),
  sourceFile(
    "/w/scenarios/a.scenario.json",
    JSON.stringify({ scenario: 1, packages: ["../base"], steps: [{ op: "play", card: "s" }] }),
    false
  )
]
const all = files.flatMap(declarations)

const complete = (file: string, needle: string) => {
  const f = files.find((x) => x.file === file)
  if (f === undefined) throw new Error(file)
  return completionsAt(f, all, f.text.indexOf(needle) + 1, scopeOf(f, files))?.items
}

describe("completion scope", () => {
  it("a content file: its package and its dependencies, not an unrelated package", () => {
    expect(complete("/w/ext/transformations.json", `"s"`)).toEqual(["heal", "strike", "venom"])
  })

  it("a scenario: the packages it names only", () => {
    expect(complete("/w/scenarios/a.scenario.json", `"s"`)).toEqual(["heal", "strike"])
  })

  it("without a scope every declaration is offered", () => {
    const f = files[7]
    if (f === undefined) throw new Error("no scenario")
    expect(completionsAt(f, all, f.text.indexOf(`"s"`) + 1)?.items).toEqual(["heal", "stranger", "strike", "venom"])
  })
})
