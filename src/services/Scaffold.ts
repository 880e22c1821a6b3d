/**
 * The files `cardfx init [DIR]` writes: DIR is a content package that
 * validates straight away (`DIR/manifest.json`, one card, one status, one
 * transformation with a bundle it expands, their English display names), a
 * scenario that plays it (`DIR/scenarios/`, a scenario inside a package
 * folder is checked as a scenario, not as content), the JSON Schemas in
 * `DIR/schemas/` (recognized, not content), every file naming its schema in `$schema`, and the editor settings
 * (`.vscode/settings.json` maps the files to the schemas; `.vscode/extensions.json`
 * recommends the cardfx extension of editors/vscode). Pure: a name in, the
 * files (relative path → text) out.
 *
 * @since 0.1.0
 */
import { jsonSchemas, schemaFileFor } from "./JsonSchemas.js"

/** One file of the scaffold: its path relative to the target folder, and its text. */
export interface ScaffoldFile {
  readonly path: string
  readonly text: string
}

/** The extension `.vscode/extensions.json` recommends (editors/vscode/package.json: publisher.name). */
export const VSCODE_EXTENSION_ID = "cardfx.cardfx-lsp"

/** A package ID from a folder name: ID syntax (letters, digits, `_ . : - /`), at most 64 characters. */
export const packageIdFor = (folderName: string): string => {
  const cleaned = folderName.toLowerCase().replace(/[^a-z0-9_.:-]+/g, "-").replace(/^[^a-z0-9]+/, "").slice(0, 64)
  return cleaned.length > 0 ? cleaned : "my-content"
}

const json = (value: unknown): string => JSON.stringify(value, null, 2) + "\n"

/** The scaffold's files for a package ID (sorted by path). */
export const scaffoldFiles = (packageId: string): ReadonlyArray<ScaffoldFile> => {
  const schema = (kind: keyof typeof schemaFileFor, depth: number) =>
    `${"../".repeat(depth)}schemas/${schemaFileFor[kind]}`
  const files: Array<ScaffoldFile> = [
    {
      path: "locales.en.json",
      text: json({
        $schema: schema("content", 0),
        locales: [{
          locale: "en",
          names: {
            "card.strike.name": "Strike",
            "status.poison.name": "Poison",
            "upgrade.strike.venom.name": "Venomous strike"
          }
        }]
      })
    },
    {
      path: "manifest.json",
      text: json({
        $schema: schema("manifest", 0),
        packageId,
        version: "0.1.0",
        engineVersion: 17,
        metadata: { description: "Made by cardfx init: one card, one status, one transformation, their names." }
      })
    },
    {
      path: "cards.json",
      text: json({
        $schema: schema("content", 0),
        cards: [{
          cardId: "strike",
          cost: 1,
          tags: ["attack"],
          metadata: { nameKey: "card.strike.name", artKey: "art.card.strike" },
          components: [{
            type: "effect",
            componentId: "hit",
            order: 10,
            effect: { type: "DAMAGE", target: "TARGET", amount: 6 }
          }]
        }]
      })
    },
    {
      path: "statuses.json",
      text: json({
        $schema: schema("content", 0),
        statuses: [{
          statusId: "poison",
          metadata: { nameKey: "status.poison.name", artKey: "art.status.poison" },
          stacking: "add",
          maxStacks: 99,
          durationRule: "refresh",
          defaultDuration: 3,
          tick: { timing: "TurnStart", effect: "DAMAGE", intensity: { kind: "perStack", base: 0, perStack: 1 } }
        }]
      })
    },
    {
      path: "transformations.json",
      text: json({
        $schema: schema("content", 0),
        bundles: [{
          bundleId: "venom.bundle",
          components: [{
            type: "effect",
            componentId: "venom",
            order: 10,
            effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "poison", stacks: 2 }
          }]
        }],
        transformations: [{
          upgradeId: "strike.venom",
          category: "Venom",
          eligibility: { cardIds: ["strike"] },
          maxPerCard: 1,
          patches: [{ op: "addNumber", componentId: "hit", field: "amount", value: 2 }],
          compositionRules: [{
            ruleId: "venom.after_hit",
            priority: 10,
            namespace: "venom",
            bundleId: "venom.bundle",
            scope: "AfterImpact",
            selector: { effectTypes: ["DAMAGE"] }
          }],
          metadata: { nameKey: "upgrade.strike.venom.name", artKey: "art.upgrade.strike.venom" }
        }]
      })
    },
    {
      path: "scenarios/first.scenario.json",
      text: json({
        $schema: schema("scenario", 1),
        scenario: 1,
        name: "strike with venom",
        description: "The hero plays strike (6 + 2 damage) with strike.venom: the slime is poisoned for 2 per turn.",
        packages: [".."],
        seed: 1,
        state: {
          turn: 1,
          activeSide: "ally",
          characters: [
            { characterId: "hero", side: "ally", hp: 30, maxHp: 30 },
            { characterId: "slime", side: "enemy", hp: 40, maxHp: 40 }
          ]
        },
        ledgers: { hero: { strike: ["strike.venom"] } },
        steps: [
          { op: "play", actor: "hero", card: "strike", targets: ["slime"] },
          { op: "endTurn", side: "ally" },
          { op: "startTurn", side: "enemy" }
        ]
      })
    },
    ...Object.entries(jsonSchemas()).map(([name, s]) => ({ path: `schemas/${name}.schema.json`, text: json(s) })),
    {
      path: ".vscode/settings.json",
      text: json({
        "json.schemas": [
          { fileMatch: ["/manifest.json"], url: `./${schema("manifest", 0)}` },
          { fileMatch: ["/*.json", "!/manifest.json"], url: `./${schema("content", 0)}` },
          { fileMatch: ["*.scenario.json"], url: `./${schema("scenario", 0)}` }
        ],
        "cardfx.lsp.command": ["npx", "cardfx", "lsp"]
      })
    },
    { path: ".vscode/extensions.json", text: json({ recommendations: [VSCODE_EXTENSION_ID] }) },
    {
      path: "README.md",
      text: [
        `# ${packageId}`,
        "",
        "Made by `cardfx init`. This folder is a cardfx content package (`manifest.json` and the content files);",
        "`scenarios/` plays it and `schemas/` holds the JSON Schemas (neither is content). Open this folder in",
        "the editor: `.vscode/` is here.",
        "",
        "- `npx cardfx validate .` checks everything (`--format sarif` for CI dashboards).",
        "- `npx cardfx run scenarios/first.scenario.json` runs the scenario.",
        "- Every JSON file names its schema in `$schema` (`schemas/`, written by `cardfx schema --out schemas`):",
        "  editors complete and check properties. The cardfx VS Code extension (`editors/vscode` in the cardfx",
        "  package, recommended in `.vscode/extensions.json`) runs `cardfx lsp` for cardfx's own diagnostics,",
        "  hover, completion of IDs and go-to-definition.",
        ""
      ].join("\n")
    }
  ]
  return files
}
