/**
 * Display names: a content `nameKey` resolved through the locale table the
 * workbench ships for the content in `data/` (`src/page/locales/en.json`),
 * falling back to the ID; generated members named by where they came from
 * (`Ember affinity → burn`). Pure.
 *
 * @since 0.1.0
 */
import type { Origin } from "./Tree.js"

export interface LocaleTable {
  readonly locale: string
  readonly names: Readonly<Record<string, string>>
}

export interface Names {
  /** A card by its `nameKey` (from `GET /v1/cards` or the effective card's metadata), else its ID. */
  readonly card: (cardId: string, nameKey?: string) => string
  /** A transformation (the content's key convention `upgrade.<id>.name`), else its ID. */
  readonly upgrade: (upgradeId: string) => string
  /** A status (`status.<id>.name`), else its ID. */
  readonly status: (statusId: string) => string
  /**
   * A component: a base one by its ID; a generated member by its origin and
   * its local name (`ember_e7403e04a6f5ca0e.burn` from core.ember.affinity →
   * `Ember affinity → burn`).
   */
  readonly component: (componentId: string, origin: Origin) => string
}

export const makeNames = (table: LocaleTable): Names => {
  const lookup = (key: string | undefined, fallback: string): string =>
    key === undefined ? fallback : (table.names[key] ?? fallback)
  const upgrade = (id: string) => lookup(`upgrade.${id}.name`, id)
  return {
    card: (id, nameKey) => lookup(nameKey ?? `card.${id}.name`, id),
    upgrade,
    status: (id) => lookup(`status.${id}.name`, id),
    component: (id, origin) => {
      if (origin.kind === "base") return id
      const local = id.slice(id.lastIndexOf(".") + 1)
      return `${upgrade(origin.transformationId)} → ${local}`
    }
  }
}
