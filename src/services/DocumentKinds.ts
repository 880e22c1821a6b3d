/**
 * The standalone document kinds `cardfx validate` recognizes, by a
 * discriminating key. Composition content lives in packages (folders with
 * `manifest.json`) and is not listed here. A kind may also check what the
 * document refers to (a scenario's package folders, cards and
 * transformations), so `validate` reports, with file, line and column,
 * everything `run` would reject before running.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Effect, Either } from "effect"
import { posix } from "node:path"
import { loadPackage } from "../composition/ContentPackage.js"
import { publish } from "../composition/Publication.js"
import { decodeScenario, isScenarioDocument, validateScenario } from "../composition/scenario/Scenario.js"
import { isDeckDocument, validateDeck } from "../hallyu/Validate.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { type JsonDocument, locate, pointerSegment } from "../kernel/Json.js"
import { didYouMean } from "../kernel/Suggest.js"
import type { DocumentKind } from "./Validation.js"

const at = (doc: JsonDocument, path: string) => ({ file: doc.file, path, ...locate(doc, path) })

/**
 * What a valid scenario document refers to: every package folder exists and
 * publishes, every played card and ledger card is published, every ledger
 * transformation is published. Empty when the document itself is invalid
 * (its own diagnostics come from `validateScenario`).
 */
export const scenarioReferences = (
  doc: JsonDocument
): Effect.Effect<ReadonlyArray<Diagnostic>, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const decoded = decodeScenario(doc)
    if (Either.isLeft(decoded)) return []
    const scenario = decoded.right
    const fs = yield* FileSystem.FileSystem
    const dir = posix.dirname(doc.file ?? ".")
    const out: Array<Diagnostic> = []
    const packages = []
    const named: Array<{ readonly index: number; readonly name: string; readonly folder: string }> = []
    for (let i = 0; i < scenario.packages.length; i++) {
      const p = scenario.packages[i] ?? ""
      const folder = p.startsWith("/") ? posix.normalize(p) : posix.join(dir, p)
      const info = yield* Effect.either(fs.stat(folder))
      if (Either.isLeft(info) || info.right.type !== "Directory") {
        out.push(
          diagnostic(
            "file_unreadable",
            `the scenario's package folder ${p} ${
              Either.isLeft(info) ? "does not exist" : "is not a folder"
            } (resolved to ${folder})`,
            {
              ...at(doc, `/packages/${i}`),
              subject: p
            }
          )
        )
        continue
      }
      const loaded = yield* loadPackage(folder)
      const errors = loaded.diagnostics.filter((d) => d.severity === "error")
      out.push(...errors)
      if (errors.length > 0) out.push(brokenPackage(doc, i, p, errors))
      if (loaded.package !== undefined) {
        packages.push(loaded.package)
        named.push({ index: i, name: p, folder })
      }
    }
    if (out.length > 0) return out
    const published = publish(packages)
    const runtime = published.runtime
    if (runtime === undefined) {
      // The packages load but do not publish together (a reference error, a conflict): the scenario
      // fails as `run` fails, and says so at each package that has an error.
      const errors = published.diagnostics.filter((d) => d.severity === "error")
      out.push(...errors)
      for (const n of named) {
        const own = errors.filter((d) => d.file !== undefined && isUnder(d.file, n.folder))
        out.push(brokenPackage(doc, n.index, n.name, own.length > 0 ? own : errors))
      }
      return out
    }
    scenario.steps.forEach((step, i) => {
      if (step.op === "play" && !runtime.cards.has(step.card)) {
        out.push(
          diagnostic(
            "unknown_card",
            `no card "${step.card}" is published by the scenario's packages${
              didYouMean(step.card, runtime.cards.keys())
            }`,
            {
              ...at(doc, `/steps/${i}/card`),
              subject: step.card
            }
          )
        )
      }
    })
    for (const [owner, cards] of Object.entries(scenario.ledgers)) {
      for (const [cardId, upgrades] of Object.entries(cards)) {
        const base = `/ledgers/${pointerSegment(owner)}/${pointerSegment(cardId)}`
        if (!runtime.cards.has(cardId)) {
          out.push(
            diagnostic(
              "unknown_card",
              `no card "${cardId}" is published by the scenario's packages${didYouMean(cardId, runtime.cards.keys())}`,
              {
                ...at(doc, base),
                subject: cardId
              }
            )
          )
        }
        upgrades.forEach((u, j) => {
          if (!runtime.transformations.has(u)) {
            out.push(
              diagnostic(
                "unknown_transformation",
                `no transformation "${u}" is published by the scenario's packages${
                  didYouMean(u, runtime.transformations.keys())
                }`,
                {
                  ...at(doc, `${base}/${j}`),
                  subject: u
                }
              )
            )
          }
        })
      }
    }
    return out
  })

const isUnder = (file: string, folder: string): boolean => {
  const f = posix.normalize(file)
  const d = posix.normalize(folder).replace(/\/+$/, "")
  return f.startsWith(`${d}/`)
}

/**
 * The scenario's side of a package that does not load or publish: at the
 * scenario's `/packages/i`, under the first error's code, how many errors the
 * package has and the first (each is also reported where it is).
 */
const brokenPackage = (
  doc: JsonDocument,
  index: number,
  name: string,
  errors: ReadonlyArray<Diagnostic>
): Diagnostic => {
  const first = errors[0]
  const where = first === undefined
    ? ""
    : `${first.file ?? ""}${first.line !== undefined ? `:${first.line}:${first.column ?? 1}` : ""}`
  return diagnostic(
    first?.code ?? "unknown_reference",
    `the scenario's package ${name} has ${errors.length} error(s); the first${where === "" ? "" : ` (${where})`}: ${
      first?.message ?? "it does not publish"
    }`,
    { ...at(doc, `/packages/${index}`), subject: name }
  )
}

export const documentKinds: ReadonlyArray<DocumentKind> = [
  { name: "Hallyu Hex deck", matches: isDeckDocument, validate: (doc) => validateDeck(doc).diagnostics },
  { name: "scenario", matches: isScenarioDocument, validate: validateScenario, references: scenarioReferences }
]

/**
 * The one answer to a file of another document kind: when `doc` is a document
 * of a kind `validate` recognizes (a deck, a scenario) where a `wanted`
 * document (a game log, a ledger) is expected, `schema_invalid` saying what
 * it is; undefined otherwise (then the wanted kind's own decoder speaks).
 */
export const wrongKind = (doc: JsonDocument, wanted: string): Diagnostic | undefined => {
  const kind = documentKinds.find((k) => k.matches(doc.value))
  return kind === undefined
    ? undefined
    : diagnostic("schema_invalid", `${doc.file ?? "the document"} is not a ${wanted}: it is a ${kind.name} file`, {
      ...(doc.file !== undefined ? { file: doc.file } : {}),
      path: ""
    })
}
