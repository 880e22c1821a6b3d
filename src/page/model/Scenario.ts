/**
 * The scenario document Try it sends to `POST /v1/scenarios/run`: one play
 * of the card (base card plus the chosen upgrades, in ledger order) by a
 * hero against a training target, with the chosen statuses and sources.
 * The `cardfx run` format, with packages named by the served runtime's IDs.
 *
 * @since 0.1.0
 */
import type { ScenarioRunRequest } from "../../api/Documents.js"

export interface SourceRow {
  readonly holder: "hero" | "target"
  readonly kind: "attribute" | "status" | "relic" | "buff"
  readonly id: string
  /** Points for an attribute, stacks for a status; ignored for relics and buffs. */
  readonly amount: number
  /** Turns left for a status (0 = permanent). */
  readonly turns: number
}

export interface TryForm {
  readonly cardId: string
  readonly upgrades: ReadonlyArray<string>
  readonly seed: number
  readonly targetHp: number
  readonly sources: ReadonlyArray<SourceRow>
}

/** The scenario document for one play of the card (the `cardfx run` format, packages by ID). */
export const scenarioBody = (
  runtime: { readonly packages: ReadonlyArray<{ readonly packageId: string }> },
  f: TryForm
): ScenarioRunRequest => {
  const holder = (who: "hero" | "target") => {
    const rows = f.sources.filter((s) => s.holder === who && s.id.trim() !== "")
    const attributes: Record<string, number> = {}
    for (const r of rows.filter((r) => r.kind === "attribute")) attributes[r.id] = r.amount
    return {
      attributes,
      statuses: rows
        .filter((r) => r.kind === "status")
        // A fresh status: no payload bound yet, no tick done (the Schema's decoded shape, which the typed client sends).
        .map((r) => ({
          statusId: r.id,
          stacks: r.amount,
          ...(r.turns > 0 ? { remaining: r.turns } : {}),
          payload: {},
          ticks: 0
        })),
      relics: rows.filter((r) => r.kind === "relic").map((r) => r.id),
      buffs: rows.filter((r) => r.kind === "buff").map((r) => r.id)
    }
  }
  // A served runtime publishes at least one package; the request Schema says so (a non-empty list).
  const [first, ...rest] = runtime.packages.map((p) => p.packageId)
  return {
    scenario: 1,
    name: `workbench: ${f.cardId}`,
    packages: [first ?? "", ...rest],
    seed: f.seed,
    state: {
      turn: 1,
      activeSide: "ally",
      characters: [
        { characterId: "hero", side: "ally", hp: 40, maxHp: 40, ...holder("hero") },
        { characterId: "target", side: "enemy", hp: f.targetHp, maxHp: f.targetHp, ...holder("target") }
      ]
    },
    ledgers: f.upgrades.length === 0 ? {} : { hero: { [f.cardId]: f.upgrades } },
    steps: [{ op: "play", actor: "hero", card: f.cardId, targets: ["target"] }]
  }
}
