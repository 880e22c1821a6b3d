/**
 * The display names the page shows: the locale table shipped for the content
 * in `data/` (`locales/en.json`, bundled into the page), through
 * `model/Names.ts` (any key it lacks falls back to the ID).
 *
 * @since 0.1.0
 */
import table from "./locales/en.json" with { type: "json" }
import { makeNames, type Names } from "./model/Names.js"

export const names: Names = makeNames(table)
