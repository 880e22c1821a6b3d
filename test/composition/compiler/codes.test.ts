/**
 * Every content and compiler diagnostic code, produced from JSON input through
 * `validatePaths` (the same path `cardfx validate` takes), asserting the code,
 * the file, the JSON path and the line:column.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Diagnostic } from "../../../src/kernel/Diagnostic.js"
import { documentKinds } from "../../../src/services/DocumentKinds.js"
import { validatePaths } from "../../../src/services/Validation.js"
import { positionOf, writeTree } from "../../support/tmp.js"

const manifest = `{ "packageId": "t.pkg", "version": "1.0.0", "engineVersion": 17 }`

const paramStatus = `{ "statusId": "residual_status", "stacking": "replace", "durationRule": "refresh",
  "tick": { "timing": "TurnStart", "effect": "DAMAGE", "intensity": { "kind": "parameter", "parameterId": "potency" } },
  "payloadParameters": [{ "parameterId": "potency", "unit": "hp", "profile": "constant", "stages": [1] }] }`

const component = (id: string, extra = "", effect = `"type": "DAMAGE", "target": "TARGET", "amount": 6`) =>
  `{ "type": "effect", "componentId": "${id}", "order": 10${extra}, "effect": { ${effect} } }`

const card = (id: string, components: string, extra = "") =>
  `{ "cardId": "${id}", "cost": 1${extra}, "metadata": { "nameKey": "n", "artKey": "a" }, "components": [${components}] }`

const validate = async (files: Record<string, string | Uint8Array>) => {
  const root = writeTree(files)
  const report = await Effect.runPromise(
    validatePaths([root], documentKinds).pipe(Effect.provide(NodeFileSystem.layer))
  )
  return { root, report }
}

/** Validates a one-file package and returns the single diagnostic with `code`. */
const only = async (code: Diagnostic["code"], content: string, extraFiles: Record<string, string> = {}) => {
  const { root, report } = await validate({ "pkg/manifest.json": manifest, "pkg/content.json": content, ...extraFiles })
  const matching = report.diagnostics.filter((d) => d.code === code)
  expect(matching, JSON.stringify(report.diagnostics, null, 1)).toHaveLength(1)
  const d = matching[0] as Diagnostic
  expect(d.file).toBe(`${root}/pkg/content.json`)
  return d
}

const expectAt = (d: Diagnostic, text: string, needle: string, path: string, nth = 0) => {
  expect(d.path).toBe(path)
  expect({ line: d.line, column: d.column }).toEqual(positionOf(text, needle, nth))
}

describe("content and compiler diagnostics from JSON input", () => {
  it("unsupported_version: engineVersion other than 17", async () => {
    const m = `{ "packageId": "t.pkg", "version": "1.0.0",\n  "engineVersion": 16 }`
    const { root, report } = await validate({ "pkg/manifest.json": m })
    const d = report.diagnostics.find((x) => x.code === "unsupported_version") as Diagnostic
    expect(d.file).toBe(`${root}/pkg/manifest.json`)
    expectAt(d, m, "16", "/engineVersion")
  })

  it("duplicate_id: two cards with one ID", async () => {
    const text = `{ "cards": [\n${card("a", component("x"))},\n${card("a", component("y"))}\n] }`
    const d = await only("duplicate_id", text)
    expectAt(d, text, `"a"`, "/cards/1/cardId", 2)
  })

  it("duplicate_id: two components with one ID in a card", async () => {
    const text = `{ "cards": [${card("a", `${component("x")},\n${component("x")}`)}] }`
    const d = await only("duplicate_id", text)
    expectAt(d, text, `"x"`, "/cards/0/components/1/componentId", 1)
  })

  it("invalid_id: an ID with a space, and one over 64 characters", async () => {
    const text = `{ "cards": [${card("bad id", component("x"))}] }`
    expectAt(await only("invalid_id", text), text, `"bad id"`, "/cards/0/cardId")
    const long = "c".repeat(65)
    const text2 = `{ "cards": [${card(long, component("x"))}] }`
    expectAt(await only("invalid_id", text2), text2, `"${long}"`, "/cards/0/cardId")
  })

  it("unknown_reference: a status that is not declared", async () => {
    const text = `{ "cards": [${
      card("a", component("x", "", `"type": "APPLY_STATUS", "target": "TARGET", "statusId": "nope"`))
    }] }`
    const d = await only("unknown_reference", text)
    expectAt(d, text, `"nope"`, "/cards/0/components/0/effect/statusId")
  })

  it("symbol_limit: a tag of 129 characters", async () => {
    const tag = "t".repeat(129)
    const text = `{ "cards": [${card("a", component("x"), `, "tags": ["${tag}"]`)}] }`
    expectAt(await only("symbol_limit", text), text, `"${tag}"`, "/cards/0/tags/0")
  })

  it("list_limit: 65 tags", async () => {
    const tags = Array.from({ length: 65 }, (_, i) => `"t${i}"`).join(",")
    const text = `{ "cards": [${card("a", component("x"), `, "tags": [${tags}]`)}] }`
    expectAt(await only("list_limit", text), text, `[${tags}]`, "/cards/0/tags")
  })

  it("rule_limit: 33 rules", async () => {
    const rules = Array.from(
      { length: 33 },
      (_, i) => `{ "ruleId": "r${i}", "priority": 1, "namespace": "n${i}", "bundleId": "b", "scope": "AfterImpact" }`
    ).join(",")
    const text = `{ "transformations": [{ "upgradeId": "u", "category": "C", "compositionRules": [${rules}] }] }`
    expectAt(await only("rule_limit", text), text, `[{ "ruleId"`, "/transformations/0/compositionRules")
  })

  it("member_limit: a bundle of 65 members", async () => {
    const members = Array.from({ length: 65 }, (_, i) => component(`m${i}`)).join(",")
    const text = `{ "bundles": [{ "bundleId": "b", "components": [${members}] }] }`
    expectAt(await only("member_limit", text), text, `[{ "type"`, "/bundles/0/components")
  })

  it("name_limit: a locale table of 4,097 names", async () => {
    const names = Array.from({ length: 4097 }, (_, i) => `"k${i}": "K"`).join(",")
    const text = `{ "locales": [{ "locale": "en", "names": {${names}} }] }`
    const d = await only("name_limit", text)
    expectAt(d, text, `{"k0"`, "/locales/0/names")
    expect(d.details).toEqual({ limit: 4096, actual: 4097 })
  })

  it("text_limit: a display text of 201 characters", async () => {
    const long = "é".repeat(201)
    const text = `{ "locales": [{ "locale": "en",\n  "names": { "n": "${long}" } }] }`
    const d = await only("text_limit", text)
    expectAt(d, text, `"${long}"`, "/locales/0/names/n")
    expect(d.details).toEqual({ limit: 200, actual: 201 })
  })

  it("invalid_id: a display key with a space (a record key reports its key Schema's code), a locale tag", async () => {
    const text = `{ "locales": [{ "locale": "en", "names": {\n "card a.name": "A" } }] }`
    expectAt(await only("invalid_id", text), text, `"A"`, "/locales/0/names/card a.name")
    const tag = `{ "locales": [{ "locale": "English", "names": {} }] }`
    expectAt(await only("invalid_id", tag), tag, `"English"`, "/locales/0/locale")
  })

  it("duplicate_id: a display name given two texts (in two files of the package)", async () => {
    const first = `{ "cards": [${
      card("a", component("x"))
    }],\n "locales": [{ "locale": "en", "names": { "n": "Jab" } }] }`
    const text = `{ "locales": [\n  { "locale": "en", "names": { "n": "Punch" } }\n] }`
    const d = await only("duplicate_id", text, { "pkg/a-first.json": first })
    expectAt(d, text, `"Punch"`, "/locales/0/names/n")
    expect(d.message).toMatch(/^name "n" \(en\) is already "Jab" in .*\/pkg\/a-first\.json at \/locales\/0\/names\/n$/)
  })

  it("nesting_limit: children nested 9 deep", async () => {
    let c = component("d9")
    for (let i = 8; i >= 1; i--) c = component(`d${i}`, `, "children": [${c}]`)
    const text = `{ "cards": [${card("a", c)}] }`
    const path = "/cards/0/components/0" + "/children/0".repeat(8)
    expectAt(await only("nesting_limit", text), text, `{ "type": "effect", "componentId": "d9"`, path)
  })

  it("repeat_limit: repeat 17", async () => {
    const text = `{ "cards": [${
      card("a", component("x", "", `"type": "DAMAGE", "target": "TARGET", "amount": 1, "repeat": 17`))
    }] }`
    expectAt(await only("repeat_limit", text), text, "17", "/cards/0/components/0/effect/repeat")
  })

  it("node_budget: 4,097 nodes in one card", async () => {
    const children = Array.from({ length: 4096 }, (_, i) => component(`c${i}`)).join(",")
    const text = `{ "cards": [${card("a", component("root", `, "children": [${children}]`))}] }`
    const d = await only("node_budget", text)
    expect(d.details).toEqual({ limit: 4096, actual: 4097 })
    expectAt(d, text, `{ "type": "effect", "componentId": "c4095"`, "/cards/0/components/0/children/4095")
  })

  it("order_overflow: order 2^31", async () => {
    const text = `{ "cards": [${
      card(
        "a",
        `{ "type": "effect", "componentId": "x", "order": 2147483648, "effect": { "type": "HEAL", "target": "SELF", "amount": 1 } }`
      )
    }] }`
    expectAt(await only("order_overflow", text), text, "2147483648", "/cards/0/components/0/order")
  })

  it("contradiction: a tag both required and excluded", async () => {
    const text =
      `{ "transformations": [{ "upgradeId": "u", "category": "C",\n  "requirements": { "requiredTags": ["x"], "excludedTags": ["x"] } }] }`
    const d = await only("contradiction", text)
    expect(d.transformationId).toBe("u")
    expectAt(d, text, `"x"`, "/transformations/0/requirements/requiredTags/0")
  })

  it("empty_scope: a bundle with no members", async () => {
    const text = `{ "bundles": [{ "bundleId": "b", "components": [] }] }`
    expectAt(await only("empty_scope", text), text, "[]", "/bundles/0/components")
  })

  it("invalid_binding: a binding to a component that is not numeric", async () => {
    const text = `{ "statuses": [${paramStatus}], "cards": [${
      card(
        "a",
        component(
          "x",
          "",
          `"type": "APPLY_STATUS", "target": "TARGET", "statusId": "residual_status", "payloadBindings": [{ "parameterId": "potency", "cardEffectComponentId": "x" }]`
        )
      )
    }] }`
    const d = await only("invalid_binding", text)
    expectAt(d, text, `"x" }]`, "/cards/0/components/0/effect/payloadBindings/0/cardEffectComponentId")
  })

  it("parameter_mismatch: a rule binding a parameter the template does not declare", async () => {
    const bundle = `{ "bundleId": "t", "effectComponentParameters": ["base"], "components": [${
      component(
        "r",
        "",
        `"type": "APPLY_STATUS", "target": "TARGET", "statusId": "residual_status", "payloadBindings": [{ "parameterId": "potency", "cardEffectComponentId": "$base" }]`
      )
    }] }`
    const text =
      `{ "statuses": [${paramStatus}], "bundles": [${bundle}],\n "transformations": [{ "upgradeId": "u", "category": "C", "compositionRules": [
  { "ruleId": "r", "priority": 1, "namespace": "n", "bundleId": "t", "scope": "AfterImpact", "effectBindings": { "other": "$anchor" } }] }] }`
    const d = await only("parameter_mismatch", text)
    expect(d).toMatchObject({ transformationId: "u", ruleId: "r" })
    expectAt(d, text, `{ "other"`, "/transformations/0/compositionRules/0/effectBindings")
  })

  it("template_unbound: a template used as an ordinary bundle", async () => {
    const bundle = `{ "bundleId": "t", "effectComponentParameters": ["base"], "components": [${
      component(
        "r",
        "",
        `"type": "APPLY_STATUS", "target": "TARGET", "statusId": "residual_status", "payloadBindings": [{ "parameterId": "potency", "cardEffectComponentId": "$base" }]`
      )
    }] }`
    const text =
      `{ "statuses": [${paramStatus}], "bundles": [${bundle}],\n "transformations": [{ "upgradeId": "u", "category": "C", "compositionRules": [
  { "ruleId": "r", "priority": 1, "namespace": "n", "bundleId": "t", "scope": "AfterImpact" }] }] }`
    const d = await only("template_unbound", text)
    expect(d).toMatchObject({ transformationId: "u", ruleId: "r" })
    expectAt(d, text, `{ "ruleId": "r"`, "/transformations/0/compositionRules/0")
  })

  it("unknown_fact: a condition headed by an unknown fact", async () => {
    const text = `{ "cards": [${
      card(
        "a",
        component(
          "x",
          "",
          `"type": "DAMAGE", "target": "TARGET", "amount": 1, "conditions": [{ "fact": "target.cursed" }]`
        )
      )
    }] }`
    expectAt(
      await only("unknown_fact", text),
      text,
      `"target.cursed"`,
      "/cards/0/components/0/effect/conditions/0/fact"
    )
  })

  it("schema_invalid and unknown_field: a missing field and an extra one", async () => {
    const text =
      `{ "cards": [{ "cardId": "a", "metadata": { "nameKey": "n", "artKey": "a" }, "components": [], "colour": "red" }] }`
    const { report, root } = await validate({ "pkg/manifest.json": manifest, "pkg/content.json": text })
    expect(report.diagnostics.map((d) => [d.code, d.path, d.file])).toEqual([
      ["schema_invalid", "/cards/0/cost", `${root}/pkg/content.json`],
      ["unknown_field", "/cards/0/colour", `${root}/pkg/content.json`]
    ])
    // An unknown field points at its key, not its value.
    expect(report.diagnostics[1]).toMatchObject(positionOf(text, `"colour"`))
  })

  it("unclassified_file: a JSON file that is no known kind, and a non-JSON file", async () => {
    const { report, root } = await validate({
      "notes.txt": "hello",
      "other.json": `{ "what": 1 }`,
      "README.md": "# docs"
    })
    expect(report.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ["unclassified_file", `${root}/notes.txt`],
      ["unclassified_file", `${root}/other.json`]
    ])
    expect(report.files).toBe(2)
  })

  it("input codes surface through validate with their positions", async () => {
    const { report, root } = await validate({
      "a.json": `{ "x": 1,\n  "x": 2 }`,
      "b.json": "",
      "c.json": new Uint8Array([0x7b, 0xff, 0x7d]),
      "d.json": `{"__proto__": {}}`,
      "e.json": `[1e400]`,
      "f.json": "[".repeat(200),
      "g.json": `{ "a": }`
    })
    expect(report.diagnostics.map((d) => [d.code, d.file?.slice(root.length + 1), d.line, d.column])).toEqual([
      ["duplicate_key", "a.json", 2, 3],
      ["empty_file", "b.json", 1, 1],
      ["invalid_utf8", "c.json", 1, 2],
      ["forbidden_key", "d.json", 1, 2],
      ["unsafe_number", "e.json", 1, 2],
      ["depth_limit", "f.json", 1, 129],
      ["json_syntax", "g.json", 1, 8]
    ])
  })

  it("file_unreadable and file_too_large", async () => {
    const { report, root } = await validate({ "big.json": new Uint8Array(16 * 1024 * 1024 + 1).fill(0x20) })
    expect(report.diagnostics.map((d) => d.code)).toEqual(["file_too_large"])
    const missing = await Effect.runPromise(
      validatePaths([`${root}/missing.json`], documentKinds).pipe(Effect.provide(NodeFileSystem.layer))
    )
    expect(missing.diagnostics.map((d) => [d.code, d.file])).toEqual([["file_unreadable", `${root}/missing.json`]])
  })
})
