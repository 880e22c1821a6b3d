/**
 * The scenario format: a JSON document that names content packages (paths
 * relative to the scenario file), an initial combat state, per-character card
 * ledgers (upgrade IDs applied in order), a seed and a list of steps (plays
 * and turn boundaries). `cardfx run` executes it; `cardfx validate` checks it
 * (a scenario is recognised by its top-level `"scenario": 1` key).
 *
 * ```json
 * {
 *   "scenario": 1,
 *   "name": "ember affinity on basic_attack",
 *   "packages": ["../heroscript.base"],
 *   "seed": 7,
 *   "state": { "turn": 1, "activeSide": "ally", "characters": [ ... ] },
 *   "ledgers": { "hero": { "basic_attack": ["core.ember.affinity"] } },
 *   "steps": [
 *     { "op": "play", "actor": "hero", "card": "basic_attack", "targets": ["slime"] },
 *     { "op": "endTurn", "side": "ally" },
 *     { "op": "startTurn", "side": "enemy" }
 *   ]
 * }
 * ```
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { makeDecoder, withCode } from "../../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { type JsonDocument, locate, pointerSegment } from "../../kernel/Json.js"
import { optional } from "../../kernel/SchemaExt.js"
import { CombatState, Side } from "../executor/CombatState.js"
import { AuthoredId } from "../schema/Symbols.js"

/** The scenario format version this engine reads (the value of the discriminating `scenario` key). */
export const SCENARIO_VERSION = 1 as const

/** Play `card` (with the actor's ledger for it, if any) by `actor` at `targets`. */
export const PlayStep = Schema.Struct({
  op: Schema.Literal("play"),
  actor: AuthoredId,
  card: AuthoredId,
  targets: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] }),
  /** Node attempts for this play (default the sequence budget). */
  budget: optional(Schema.Int.pipe(Schema.between(1, 1_000_000)))
})
export type PlayStep = typeof PlayStep.Type

/** Start or end `side`'s turn (status ticks, duration countdown). */
export const TurnStep = Schema.Struct({
  op: Schema.Literal("startTurn", "endTurn"),
  side: Side
})
export type TurnStep = typeof TurnStep.Type

/** One step of a scenario. */
export const ScenarioStep = Schema.Union(PlayStep, TurnStep).annotations({ identifier: "ScenarioStep" })
export type ScenarioStep = typeof ScenarioStep.Type

/** characterId → cardId → upgrade IDs, applied to that card's ledger in order. */
export const ScenarioLedgers = Schema.Record({
  key: AuthoredId,
  value: Schema.Record({ key: AuthoredId, value: Schema.Array(AuthoredId) })
})

/** A scenario document (see the module comment). */
export const Scenario = Schema.Struct({
  $schema: optional(Schema.String),
  scenario: Schema.Literal(SCENARIO_VERSION).annotations({
    ...withCode("unsupported_version"),
    message: () => `scenario must be ${SCENARIO_VERSION}`
  }),
  name: optional(Schema.String),
  description: optional(Schema.String),
  /** Package folders, relative to the scenario file. */
  packages: Schema.NonEmptyArray(Schema.String),
  /** The seed of the scenario's random stream (`--seed` overrides it). */
  seed: Schema.Int.pipe(Schema.between(0, Number.MAX_SAFE_INTEGER)),
  state: CombatState,
  ledgers: Schema.optionalWith(ScenarioLedgers, { exact: true, default: () => ({}) }),
  steps: Schema.Array(ScenarioStep)
}).annotations({ identifier: "Scenario" })
export type Scenario = typeof Scenario.Type

/** True when a parsed JSON value is a scenario document (it has the top-level `scenario` key). */
export const isScenarioDocument = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.prototype.hasOwnProperty.call(value, "scenario")

const decode = makeDecoder(Scenario)

const at = (doc: Pick<JsonDocument, "text" | "file">, path: string) => {
  const p = locate(doc, path)
  return { file: doc.file, path, line: p.line, column: p.column }
}

/**
 * Decodes and checks a scenario document (pure): the Schema, then the
 * references inside the document — step actors and targets and ledger
 * owners must be characters of the initial state. Card and upgrade IDs are
 * checked against the published packages when the scenario runs.
 */
export const decodeScenario = (doc: JsonDocument): Either.Either<Scenario, ReadonlyArray<Diagnostic>> => {
  const r = decode(doc.value, doc)
  if (Either.isLeft(r)) return Either.left(r.left)
  const s = r.right
  const ids = new Set(s.state.characters.map((c) => c.characterId))
  const out: Array<Diagnostic> = []
  const check = (id: string, path: string, role: string): void => {
    if (!ids.has(id)) {
      out.push(
        diagnostic("unknown_character", `${role} "${id}" is not a character of the initial state`, {
          ...at(doc, path),
          subject: id
        })
      )
    }
  }
  for (const owner of Object.keys(s.ledgers)) check(owner, `/ledgers/${pointerSegment(owner)}`, "ledger owner")
  s.steps.forEach((step, i) => {
    if (step.op !== "play") return
    check(step.actor, `/steps/${i}/actor`, "actor")
    step.targets.forEach((t, j) => check(t, `/steps/${i}/targets/${j}`, "target"))
  })
  return out.length > 0 ? Either.left(out) : Either.right(s)
}

/** Every problem of a scenario document, for `cardfx validate` (empty when valid). */
export const validateScenario = (doc: JsonDocument): ReadonlyArray<Diagnostic> => {
  const r = decodeScenario(doc)
  return Either.isLeft(r) ? r.left : []
}
