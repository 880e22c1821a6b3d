/**
 * The Hallyu Hex deck validator: Schema decode (through the kernel's
 * hardened input and `makeDecoder`) plus every semantic check of effect
 * schema 0.1.0. Pure: a document in, the decoded deck (only when there is no
 * error) and every diagnostic out, each with file, JSON pointer, line and
 * column, and the card code and effect ID where one applies.
 *
 * Two passes share the work. A raw field pass over the JSON walks every action
 * (nested ones included) and condition and reports the vocabulary problems
 * that a discriminated Schema would only call `schema_invalid`:
 * `unknown_operation`, `unknown_fact`, `missing_field` and `all` outside
 * damage prevention. Schema issues under a path the raw pass already reported
 * are dropped, so one mistake gives one diagnostic. Cards are decoded one by
 * one, so a broken card hides no problem in another, and the semantic checks
 * run over every card that decoded.
 *
 * One module per concept, under `validate/`: `Fields` (the raw field pass),
 * `Declarations` (versions, the effect schema's vocabulary, tags, card IDs,
 * deck lists), `Cards` (card fields and each effect's window and zone rules),
 * `References` (every name an effect uses resolves), `Report` (diagnostics
 * and the paths already explained).
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { makeDecoder } from "../kernel/Decode.js"
import { type Diagnostic, isError, sortDiagnostics } from "../kernel/Diagnostic.js"
import type { JsonDocument } from "../kernel/Json.js"
import { Card, DeckShell, type StarterDeck } from "./Schema.js"
import { checkCard } from "./validate/Cards.js"
import { checkDeclarations, rawCardIds } from "./validate/Declarations.js"
import { rawPass, rawVocabulary } from "./validate/Fields.js"
import { isObject, Report } from "./validate/Report.js"
import { markValidated } from "./Validated.js"
import { EVENTS } from "./Vocabulary.js"

/** The result of validating one deck document. */
export interface DeckValidation {
  readonly deck?: StarterDeck
  readonly diagnostics: Array<Diagnostic>
}

/** How `cardfx validate` recognises a Hallyu Hex deck file. */
export const isDeckDocument = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.prototype.hasOwnProperty.call(value, "manifest_version") &&
  Object.prototype.hasOwnProperty.call(value, "effect_schema")

const decodeShell = makeDecoder(DeckShell)
const decodeCard = makeDecoder(Card)

/** Validates a parsed deck document. */
export const validateDeck = (doc: JsonDocument): DeckValidation => {
  const r = new Report(doc)
  const raw = doc.value
  if (!isObject(raw)) {
    r.add("schema_invalid", "a deck file must be a JSON object", "")
    return { diagnostics: r.diagnostics }
  }
  const vocab = rawVocabulary(raw)
  rawPass(raw, vocab, r)

  const shell = decodeShell(raw, doc)
  if (Either.isLeft(shell)) r.addSchema(shell.left)
  const rawCards = Array.isArray(raw["cards"]) ? raw["cards"] : []
  const cards: Array<{ card: Card; index: number }> = []
  rawCards.forEach((c, index) => {
    const code = isObject(c) && typeof c["code"] === "string" ? c["code"] : undefined
    const decoded = decodeCard(c, doc, `/cards/${index}`)
    if (Either.isLeft(decoded)) r.addSchema(decoded.left, { cardCode: code })
    else cards.push({ card: decoded.right, index })
  })

  if (Either.isRight(shell)) {
    const s = shell.right
    const ctx = checkDeclarations(s, cards, rawCardIds(rawCards), r)
    for (const { card, index } of cards) checkCard(card, index, ctx, r)
  }

  const diagnostics = sortDiagnostics(r.diagnostics)
  if (diagnostics.some(isError) || Either.isLeft(shell) || cards.length !== rawCards.length) return { diagnostics }
  return { deck: markValidated({ ...shell.right, cards: cards.map((c) => c.card) }), diagnostics }
}

/** Every event name this engine knows (re-exported for tests and docs). */
export const knownEvents: ReadonlyArray<string> = EVENTS
