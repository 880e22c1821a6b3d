/**
 * The workbench's views: the one list the navigation (tabs, hash routes) and
 * the shell read. Each view's code is its own chunk (esbuild's splitting,
 * scripts/bundle-cli.mjs), loaded when the view is first shown — the first
 * view loads only what it needs. A new view is one entry here.
 *
 * @since 0.1.0
 */
import type { FunctionComponent } from "preact"
import type { Api, RuntimeDoc } from "./Api.js"

/** What a view is given: the API, and the runtime served now (a new one each time the served content switches). */
export interface ViewProps {
  readonly api: Api
  readonly runtime: RuntimeDoc
}

export interface ViewEntry {
  /** The hash route (`#cards`). */
  readonly name: string
  /** The tab's label. */
  readonly label: string
  readonly load: () => Promise<FunctionComponent<ViewProps>>
}

export const VIEWS: ReadonlyArray<ViewEntry> = [
  { name: "cards", label: "Cards", load: () => import("./views/CardsView.js").then((m) => m.CardsView) },
  { name: "try", label: "Try it", load: () => import("./views/TryView.js").then((m) => m.TryView) },
  { name: "table", label: "Hallyu Hex table", load: () => import("./views/TableView.js").then((m) => m.TableView) },
  { name: "balance", label: "Balance", load: () => import("./views/BalanceView.js").then((m) => m.BalanceView) }
]

/** The view a hash names (`#try`), else the first. */
export const viewOf = (hash: string): ViewEntry => {
  const name = hash.replace(/^#/, "")
  return VIEWS.find((v) => v.name === name) ?? (VIEWS[0] as ViewEntry)
}
