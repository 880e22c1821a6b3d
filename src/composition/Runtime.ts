/**
 * A runtime: the catalog published from one or more content packages, pinned
 * by engine version, package versions and a content hash. Lookups are maps
 * keyed by ID; iteration that affects results always goes through the
 * ordinally sorted ID lists, never map order. A runtime is plain data: the
 * caches of the services that work on it (the planner's, the resolver's) are
 * held by those services, not by the runtime.
 *
 * @since 0.1.0
 */
import type { Bundle } from "./schema/Bundle.js"
import type { Card } from "./schema/Card.js"
import type { Attribute, Buff, Relic } from "./schema/Modifier.js"
import type { Activity, Manifest, Slot } from "./schema/Package.js"
import type { Status } from "./schema/Status.js"
import type { Transformation } from "./schema/Transformation.js"

export interface PackagePin {
  readonly packageId: string
  readonly version: string
  /** sha256 of the canonical JSON of the package's decoded content. */
  readonly contentHash: string
}

/** What a sealed ledger entry records of the runtime it was sealed in. */
export interface RuntimePin {
  readonly engineVersion: number
  /** Sorted by packageId. */
  readonly packages: ReadonlyArray<PackagePin>
}

/** One locale's display names, gathered from every published package: display key → text, keys in ordinal order. */
export interface RuntimeLocale {
  readonly locale: string
  readonly names: ReadonlyMap<string, string>
}

export interface Runtime {
  readonly pin: RuntimePin
  readonly manifests: ReadonlyArray<Manifest>
  readonly cards: ReadonlyMap<string, Card>
  readonly statuses: ReadonlyMap<string, Status>
  readonly relics: ReadonlyMap<string, Relic>
  readonly buffs: ReadonlyMap<string, Buff>
  readonly attributes: ReadonlyMap<string, Attribute>
  readonly bundles: ReadonlyMap<string, Bundle>
  readonly transformations: ReadonlyMap<string, Transformation>
  readonly slots: ReadonlyMap<string, Slot>
  readonly activities: ReadonlyMap<string, Activity>
  /** The display names of the published content, one table per locale, in ordinal locale order. */
  readonly locales: ReadonlyArray<RuntimeLocale>
  /** Where each declaration came from, for diagnostics: "<kind>:<id>" → file and JSON pointer. */
  readonly origins: ReadonlyMap<string, { readonly file: string; readonly path: string }>
}
