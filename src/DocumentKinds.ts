/**
 * The standalone document kinds `cardfx validate` recognizes, by a
 * discriminating key. Composition content lives in packages (folders with
 * `manifest.json`) and is not listed here.
 *
 * @since 0.1.0
 */
import { isScenarioDocument, validateScenario } from "./composition/scenario/Scenario.js"
import { isDeckDocument, validateDeck } from "./hallyu/Validate.js"
import type { DocumentKind } from "./Validation.js"

export const documentKinds: ReadonlyArray<DocumentKind> = [
  { name: "Hallyu Hex deck", matches: isDeckDocument, validate: (doc) => validateDeck(doc).diagnostics },
  { name: "scenario", matches: isScenarioDocument, validate: validateScenario }
]
