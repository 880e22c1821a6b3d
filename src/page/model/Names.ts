/**
 * Display names: a content `nameKey` resolved through the locale tables the
 * served content ships (names are content: `GET /v1/runtime` answers the
 * packages' `locales` sections, gathered), falling back to the ID; generated
 * members named by where they came from (`Ember affinity → burn`). Pure.
 *
 * @since 0.1.0
 */
import type { Origin } from "./Tree.js"

/** One locale's names, as `GET /v1/runtime` answers them (`locales[i]`). */
export interface LocaleTable {
  readonly locale: string
  readonly names: Readonly<Record<string, string>>
}

export interface Names {
  /** The locale the names are in (undefined when the content ships none: every name is its ID). */
  readonly locale: string | undefined
  /** A card by its `nameKey` (from `GET /v1/cards` or the effective card's metadata), else its ID. */
  readonly card: (cardId: string, nameKey?: string) => string
  /** A transformation by the display key the runtime serves for it (`nameKeys`), else its ID. */
  readonly upgrade: (upgradeId: string) => string
  /** A status by the display key the runtime serves for it, else its ID. */
  readonly status: (statusId: string) => string
  /**
   * A component: a base one by its ID; a generated member by its origin and
   * its local name (`ember_e7403e04a6f5ca0e.burn` from core.ember.affinity →
   * `Ember affinity → burn`).
   */
  readonly component: (componentId: string, origin: Origin) => string
}

const language = (tag: string): string => tag.split("-")[0]?.toLowerCase() ?? ""

/**
 * The table to show among those served: the first of `preferred` (the
 * browser's languages, in order) served with that tag, else with its
 * language (`en-US` → `en`), else `en`, else the first served; none when the
 * content ships no names.
 */
export const pickLocale = (
  tables: ReadonlyArray<LocaleTable>,
  preferred: ReadonlyArray<string>
): LocaleTable | undefined => {
  for (const tag of preferred) {
    const exact = tables.find((t) => t.locale.toLowerCase() === tag.toLowerCase())
    if (exact !== undefined) return exact
    const same = tables.find((t) => language(t.locale) === language(tag))
    if (same !== undefined) return same
  }
  return tables.find((t) => t.locale === "en") ?? tables[0]
}

/** The display key of every published card, status and transformation, by ID (`GET /v1/runtime`'s `nameKeys`). */
export interface NameKeys {
  readonly cards: Readonly<Record<string, string>>
  readonly statuses: Readonly<Record<string, string>>
  readonly transformations: Readonly<Record<string, string>>
}

export const makeNames = (table: LocaleTable | undefined, keys?: NameKeys): Names => {
  // Own keys only: a key is never looked up on the object's prototype.
  const texts = new Map(Object.entries(table?.names ?? {}))
  const lookup = (key: string | undefined, fallback: string): string =>
    key === undefined ? fallback : (texts.get(key) ?? fallback)
  const keyOf = (of: Readonly<Record<string, string>> | undefined, id: string): string | undefined =>
    of !== undefined && Object.hasOwn(of, id) ? of[id] : undefined
  // The runtime's own key for each ID; the key convention only where a runtime serves none (an older server).
  const upgrade = (id: string) => lookup(keyOf(keys?.transformations, id) ?? `upgrade.${id}.name`, id)
  return {
    locale: table?.locale,
    card: (id, nameKey) => lookup(nameKey ?? keyOf(keys?.cards, id) ?? `card.${id}.name`, id),
    upgrade,
    status: (id) => lookup(keyOf(keys?.statuses, id) ?? `status.${id}.name`, id),
    component: (id, origin) => {
      if (origin.kind === "base") return id
      const local = id.slice(id.lastIndexOf(".") + 1)
      return `${upgrade(origin.transformationId)} → ${local}`
    }
  }
}

/** The names of a `GET /v1/runtime` answer in the preferred languages (none yet: every name is its ID). */
export const namesOfRuntime = (
  runtime: { readonly locales: ReadonlyArray<LocaleTable>; readonly nameKeys?: NameKeys } | null,
  preferred: ReadonlyArray<string>
): Names =>
  runtime === null ? makeNames(undefined) : makeNames(pickLocale(runtime.locales, preferred), runtime.nameKeys)
