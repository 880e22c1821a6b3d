/**
 * The standalone document kinds `cardfx validate` recognizes, by a
 * discriminating key. Composition content lives in packages (folders with
 * `manifest.json`) and is not listed here.
 *
 * @since 0.1.0
 */
import type { DocumentKind } from "./Validation.js"

export const documentKinds: ReadonlyArray<DocumentKind> = []
