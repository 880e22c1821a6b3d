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
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { CombatState, Side } from "../executor/CombatState.js"
import { AuthoredId } from "../schema/Symbols.js"

/** The scenario format version this engine reads (the value of the discriminating `scenario` key). */
export const SCENARIO_VERSION = 1 as const

/** Play `card` (with the actor's ledger for it, if any) by `actor` at `targets`. */
export const PlayStep = Schema.Struct({
  op: described(Schema.Literal("play"), "play: the actor plays a card at the targets."),
  actor: described(AuthoredId, "The character who plays (a character of the initial state)."),
  card: described(AuthoredId, "The card played (a card ID published by the scenario's packages)."),
  targets: Schema.optionalWith(Schema.Array(AuthoredId), { exact: true, default: () => [] }).annotations({
    description: "The chosen targets (characters of the initial state)."
  }),
  /** Node attempts for this play (default the sequence budget). */
  budget: optionalDescribed(
    Schema.Int.pipe(Schema.between(1, 1_000_000)),
    "Node attempts for this play (1..1000000; default the sequence budget)."
  )
}).annotations({ description: "Play a card (with the actor's ledger for it, if any) at targets." })
export type PlayStep = typeof PlayStep.Type

/** Start or end `side`'s turn (status ticks, duration countdown). */
export const TurnStep = Schema.Struct({
  op: described(Schema.Literal("startTurn", "endTurn"), "startTurn or endTurn: a turn boundary."),
  side: described(Side, "The side whose turn starts or ends.")
}).annotations({ description: "Start or end a side's turn (status ticks, duration countdown)." })
export type TurnStep = typeof TurnStep.Type

/** One step of a scenario. */
export const ScenarioStep = Schema.Union(PlayStep, TurnStep).annotations({
  identifier: "ScenarioStep",
  description: "One step of a scenario: a play or a turn boundary."
})
export type ScenarioStep = typeof ScenarioStep.Type

/** characterId → cardId → upgrade IDs, applied to that card's ledger in order. */
export const ScenarioLedgers = Schema.Record({
  key: AuthoredId,
  value: Schema.Record({ key: AuthoredId, value: Schema.Array(AuthoredId) })
})

/** A scenario document (see the module comment). */
export const Scenario = Schema.Struct({
  $schema: optionalDescribed(
    Schema.String,
    "The JSON Schema this file is written against (for editors; ignored by cardfx)."
  ),
  scenario: described(
    Schema.Literal(SCENARIO_VERSION).annotations({
      ...withCode("unsupported_version"),
      message: () => `scenario must be ${SCENARIO_VERSION}`
    }),
    `The scenario format version: ${SCENARIO_VERSION} (the key that makes the file a scenario).`
  ),
  name: optionalDescribed(Schema.String, "A short name, for people."),
  description: optionalDescribed(Schema.String, "What the scenario shows, for people."),
  /** Package folders, relative to the scenario file. */
  packages: described(Schema.NonEmptyArray(Schema.String), "Package folders, relative to the scenario file."),
  /** The seed of the scenario's random stream (`--seed` overrides it). */
  seed: described(
    Schema.Int.pipe(Schema.between(0, Number.MAX_SAFE_INTEGER)),
    "The seed of the scenario's random stream (--seed overrides it)."
  ),
  state: described(CombatState, "The initial combat state."),
  ledgers: Schema.optionalWith(ScenarioLedgers, { exact: true, default: () => ({}) }).annotations({
    description: "characterId → cardId → upgrade IDs, applied to that card's ledger in order."
  }),
  steps: described(Schema.Array(ScenarioStep), "The steps, run in order.")
}).annotations({
  identifier: "Scenario",
  description: "A scenario: packages, an initial combat state, ledgers, a seed and steps (cardfx run executes it)."
})
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
