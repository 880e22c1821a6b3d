/**
 * The content shipped in the package's `data/` folder, as absolute paths
 * resolved from the installed package — never from the working directory,
 * never a path into `node_modules` written by hand:
 *
 * ```ts
 * import { Bundled, Served } from "cardfx"
 *
 * const layer = Served.layer({ packages: Bundled.packages, deckFile: Bundled.starterDeck, store: "app.db" })
 * ```
 *
 * The same folders the command line's defaults name (`cardfx serve` with no
 * `--package`, `cardfx simulate` with no `--deck`). The module sits two
 * levels below the package root in `src/`, in `dist/` and in the bin's
 * bundle (`dist/cli/`), so one relative URL serves all three.
 *
 * @since 0.1.0
 */
import { fileURLToPath } from "node:url"

const inPackage = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url))

/** The package's `data/` folder: the content packages, the Hallyu Hex deck, the scenarios, the JSON Schemas. */
export const data: string = inPackage("data")

/** The composition package `heroscript.base` (cards, statuses, upgrades such as `core.ember.affinity`). */
export const heroscriptBase: string = inPackage("data/heroscript.base")

/** The content packages published by default (what `cardfx serve` serves without `--package`): heroscript.base. */
export const packages: ReadonlyArray<string> = [heroscriptBase]

/** The Hallyu Hex starter deck (24 cards), the deck every Hallyu Hex command and the games use by default. */
export const starterDeck: string = inPackage("data/hallyu-hex/starter-deck.v0.json")

/** The scenario documents (`cardfx run`) and the packages they publish beside heroscript.base. */
export const scenarios: string = inPackage("data/scenarios")

/** The JSON Schemas of every document kind (`$schema` of the shipped files; what `cardfx schema` writes). */
export const schemas: string = inPackage("data/schemas")
