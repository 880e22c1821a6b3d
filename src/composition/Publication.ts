/**
 * Publication: checks a set of decoded packages as one catalog and builds the
 * pinned `Runtime`. Every cross-reference is checked (cards, statuses,
 * payload parameters, bundles, slots, activities, dependencies), templates
 * are compiled with transient numeric placeholders, and the rules of
 * transformations are checked whether or not any card would activate them.
 * The locale tables of every package are gathered into one table per locale
 * (names are content: a key given two different texts is `duplicate_id`; a
 * key that names no display key of the published content is a warning).
 * A card that meets no transformation's requirements is simply ineligible:
 * eligibility is never a publication error.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { hashCanonical } from "../kernel/Canonical.js"
import { type Diagnostic, diagnostic, sortDiagnostics } from "../kernel/Diagnostic.js"
import { type Locator, makeLocator, toPointer } from "../kernel/Json.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import { didYouMean } from "../kernel/Suggest.js"
import { compileContainer } from "./Compiler.js"
import type { DecodedPackage } from "./ContentPackage.js"
import type { PackagePin, Runtime, RuntimeLocale, RuntimePin } from "./Runtime.js"
import type { Bundle } from "./schema/Bundle.js"
import type { Card, EffectComponent } from "./schema/Card.js"
import type { Attribute, Buff, Relic } from "./schema/Modifier.js"
import { type Activity, type ContentFile, contentSections, ENGINE_VERSION, type Slot } from "./schema/Package.js"
import type { Status } from "./schema/Status.js"
import type { Requirements, Transformation } from "./schema/Transformation.js"

export interface PublicationResult {
  /** Present when there is no error. */
  readonly runtime: Runtime | undefined
  /** Sorted. */
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

interface Origin {
  readonly file: string
  readonly path: string
}

type Kind = "card" | "status" | "relic" | "buff" | "attribute" | "bundle" | "transformation" | "slot" | "activity"

/** Publishes packages together (each package's dependencies must be among them). */
export const publish = (packages: ReadonlyArray<DecodedPackage>): PublicationResult => {
  const diagnostics: Array<Diagnostic> = []
  const origins = new Map<string, Origin>()
  const cards = new Map<string, Card>()
  const statuses = new Map<string, Status>()
  const relics = new Map<string, Relic>()
  const buffs = new Map<string, Buff>()
  const attributes = new Map<string, Attribute>()
  const bundles = new Map<string, Bundle>()
  const transformations = new Map<string, Transformation>()
  const slots = new Map<string, Slot>()
  const activities = new Map<string, Activity>()

  const sorted = [...packages].sort((a, b) => compareOrdinal(a.manifest.packageId, b.manifest.packageId))
  const packageIds = new Map<string, DecodedPackage>()
  for (const p of sorted) {
    const previous = packageIds.get(p.manifest.packageId)
    if (previous !== undefined) {
      diagnostics.push(
        diagnostic("duplicate_id", `package "${p.manifest.packageId}" is loaded twice (also ${previous.dir})`, {
          file: p.manifestFile,
          path: "/packageId",
          subject: p.manifest.packageId
        })
      )
      continue
    }
    packageIds.set(p.manifest.packageId, p)
  }
  for (const p of packageIds.values()) {
    const deps = p.manifest.dependencies ?? []
    deps.forEach((dep, i) => {
      if (!packageIds.has(dep)) {
        diagnostics.push(
          diagnostic(
            "unknown_reference",
            `package "${p.manifest.packageId}" depends on "${dep}", which is not loaded`,
            {
              file: p.manifestFile,
              path: `/dependencies/${i}`,
              subject: dep
            }
          )
        )
      }
    })
  }

  const declare = <A>(kind: Kind, map: Map<string, A>, id: string, value: A, origin: Origin, idField: string): void => {
    const key = `${kind}:${id}`
    const previous = origins.get(key)
    if (previous !== undefined) {
      diagnostics.push(
        diagnostic("duplicate_id", `${kind} "${id}" is already declared in ${previous.file} at ${previous.path}`, {
          file: origin.file,
          path: `${origin.path}/${idField}`,
          subject: id
        })
      )
      return
    }
    origins.set(key, origin)
    map.set(id, value)
  }

  for (const p of packageIds.values()) {
    for (const f of p.files) {
      const c = f.content
      const at = (section: string, i: number): Origin => ({ file: f.file, path: `/${section}/${i}` })
      c.cards?.forEach((x, i) => declare("card", cards, x.cardId, x, at("cards", i), "cardId"))
      c.statuses?.forEach((x, i) => declare("status", statuses, x.statusId, x, at("statuses", i), "statusId"))
      c.relics?.forEach((x, i) => declare("relic", relics, x.relicId, x, at("relics", i), "relicId"))
      c.buffs?.forEach((x, i) => declare("buff", buffs, x.buffId, x, at("buffs", i), "buffId"))
      c.attributes?.forEach((x, i) =>
        declare("attribute", attributes, x.attributeId, x, at("attributes", i), "attributeId")
      )
      c.bundles?.forEach((x, i) => declare("bundle", bundles, x.bundleId, x, at("bundles", i), "bundleId"))
      c.transformations?.forEach((x, i) =>
        declare("transformation", transformations, x.upgradeId, x, at("transformations", i), "upgradeId")
      )
      c.slots?.forEach((x, i) => declare("slot", slots, x.slotId, x, at("slots", i), "slotId"))
      // An activity may be extended by several packages: their authorizations are merged.
      c.activities?.forEach((x, i) => {
        const key = `activity:${x.activityId}`
        const previous = activities.get(x.activityId)
        if (previous === undefined) {
          origins.set(key, at("activities", i))
          activities.set(x.activityId, x)
          return
        }
        if (origins.get(key)?.file === f.file || packageOfFile(packageIds, origins.get(key)?.file) === p) {
          diagnostics.push(
            diagnostic(
              "duplicate_id",
              `activity "${x.activityId}" is declared twice in package "${p.manifest.packageId}"`,
              {
                file: f.file,
                path: `/activities/${i}/activityId`,
                subject: x.activityId
              }
            )
          )
          return
        }
        activities.set(x.activityId, mergeActivities(previous, x))
      })
    }
  }

  const locales = gatherLocales([...packageIds.values()], diagnostics)

  const ctx: Ctx = { diagnostics, origins, cards, statuses, bundles, transformations, slots }
  for (const [id, s] of statuses) checkStatus(ctx, s, origin(ctx, "status", id))
  for (const [id, card] of cards) {
    const o = origin(ctx, "card", id)
    const compiled = compileContainer(card, { statuses, file: o.file, path: o.path, subject: id })
    if (Either.isLeft(compiled)) diagnostics.push(...compiled.left)
  }
  for (const [id, b] of bundles) checkBundle(ctx, b, origin(ctx, "bundle", id))
  for (const [id, t] of transformations) checkTransformation(ctx, t, origin(ctx, "transformation", id))
  for (const [id, a] of activities) checkActivity(ctx, a, origin(ctx, "activity", id))
  checkDisplayNames(ctx, locales, [...packageIds.values()])
  suggestReferences(diagnostics, {
    card: cards,
    status: statuses,
    relic: relics,
    buff: buffs,
    attribute: attributes,
    bundle: bundles,
    transformation: transformations,
    slot: slots,
    activity: activities
  })

  const texts = new Map<string, string>()
  for (const p of packageIds.values()) for (const f of p.files) texts.set(f.file, f.text)
  const all = sortDiagnostics(locateIn(texts, diagnostics))
  if (all.some((d) => d.severity === "error")) return { runtime: undefined, diagnostics: all }

  // The content hash costs a canonical pass over every package: compute it on first use (sealing), not to validate.
  let pin: RuntimePin | undefined
  const published = [...packageIds.values()]
  return {
    runtime: {
      get pin(): RuntimePin {
        pin ??= {
          engineVersion: ENGINE_VERSION,
          packages: published.map((p): PackagePin => ({
            packageId: p.manifest.packageId,
            version: p.manifest.version,
            contentHash: packageContentHash(p)
          }))
        }
        return pin
      },
      manifests: [...packageIds.values()].map((p) => p.manifest),
      cards,
      statuses,
      relics,
      buffs,
      attributes,
      bundles,
      transformations,
      slots,
      activities,
      locales,
      origins
    },
    diagnostics: all
  }
}

/** Where a display name was first given, and its text. */
interface NameOrigin {
  readonly text: string
  readonly file: string
  readonly path: string
}

/**
 * The display keys the published content names: every `nameKey` and
 * `descriptionKey` of its definitions and manifests, and the keys clients
 * derive from an ID when there is none (`card.<id>.name`,
 * `status.<id>.name`, `upgrade.<id>.name`).
 */
const displayKeys = (packages: ReadonlyArray<DecodedPackage>): ReadonlySet<string> => {
  const keys = new Set<string>()
  const add = (m: { readonly nameKey?: string; readonly descriptionKey?: string } | undefined): void => {
    if (m?.nameKey !== undefined) keys.add(m.nameKey)
    if (m?.descriptionKey !== undefined) keys.add(m.descriptionKey)
  }
  for (const p of packages) {
    add(p.manifest.metadata)
    for (const f of p.files) {
      const c = f.content
      for (const section of contentSections) {
        if (section === "locales") continue
        for (const x of c[section] ?? []) add(x.metadata)
      }
      for (const x of c.cards ?? []) keys.add(`card.${x.cardId}.name`)
      for (const x of c.statuses ?? []) keys.add(`status.${x.statusId}.name`)
      for (const x of c.transformations ?? []) keys.add(`upgrade.${x.upgradeId}.name`)
    }
  }
  return keys
}

/**
 * One table per locale from the `locales` sections of every package (in
 * ordinal package order, then file order): the first text of a key stands;
 * a different text for it later is `duplicate_id` at the later one (the same
 * text again is no conflict). A key no display key of the content names is a
 * warning (`unknown_reference`) at its first place. Tables in ordinal locale
 * order, keys in ordinal order.
 */
const gatherLocales = (
  packages: ReadonlyArray<DecodedPackage>,
  diagnostics: Array<Diagnostic>
): ReadonlyArray<RuntimeLocale> => {
  const tables = new Map<string, Map<string, NameOrigin>>()
  for (const p of packages) {
    for (const f of p.files) {
      f.content.locales?.forEach((t, i) => {
        let table = tables.get(t.locale)
        if (table === undefined) {
          table = new Map()
          tables.set(t.locale, table)
        }
        for (const [key, text] of Object.entries(t.names)) {
          const path = toPointer(["locales", i, "names", key])
          const previous = table.get(key)
          if (previous === undefined) table.set(key, { text, file: f.file, path })
          else if (previous.text !== text) {
            diagnostics.push(
              diagnostic(
                "duplicate_id",
                `name "${key}" (${t.locale}) is already "${previous.text}" in ${previous.file} at ${previous.path}`,
                { file: f.file, path, subject: key }
              )
            )
          }
        }
      })
    }
  }
  if (tables.size === 0) return []
  const known = displayKeys(packages)
  return [...tables.keys()].sort(compareOrdinal).map((locale): RuntimeLocale => {
    const table = tables.get(locale) ?? new Map<string, NameOrigin>()
    const keys = [...table.keys()].sort(compareOrdinal)
    for (const key of keys) {
      const o = table.get(key)
      if (o !== undefined && !known.has(key)) {
        diagnostics.push(
          diagnostic(
            "unknown_reference",
            `name "${key}" (${locale}) names nothing published: no nameKey or descriptionKey is "${key}"`,
            { file: o.file, path: o.path, subject: key },
            "warning"
          )
        )
      }
    }
    return { locale, names: new Map(keys.map((k) => [k, table.get(k)?.text ?? ""])) }
  })
}

/**
 * Adds line:column to the diagnostics that name a file and a path but no
 * position. One locator per file: its position index is built once, however
 * many diagnostics the file has.
 */
const locateIn = (texts: ReadonlyMap<string, string>, ds: ReadonlyArray<Diagnostic>): Array<Diagnostic> => {
  const unplaced = (d: Diagnostic): d is Diagnostic & { readonly file: string; readonly path: string } =>
    d.line === undefined && d.file !== undefined && d.path !== undefined && texts.has(d.file)
  // Each file's paths announced to its locator first, so it scans for those only.
  const paths = new Map<string, Array<string>>()
  for (const d of ds) {
    if (!unplaced(d)) continue
    const list = paths.get(d.file)
    if (list === undefined) paths.set(d.file, [d.path])
    else list.push(d.path)
  }
  const locators = new Map<string, Locator>()
  for (const [file, list] of paths) {
    const locator = makeLocator(texts.get(file) ?? "")
    locator.prepare(list)
    locators.set(file, locator)
  }
  return ds.map((d) => {
    if (!unplaced(d)) return d
    const locator = locators.get(d.file)
    return locator === undefined ? d : { ...d, ...locator.locate(d.path) }
  })
}

/** The sections of definitions by ID (the locale tables are merged per locale instead). */
type DefinitionSection = Exclude<(typeof contentSections)[number], "locales">

const idOf: { readonly [K in DefinitionSection]: (x: NonNullable<ContentFile[K]>[number]) => string } = {
  cards: (x) => x.cardId,
  statuses: (x) => x.statusId,
  relics: (x) => x.relicId,
  buffs: (x) => x.buffId,
  attributes: (x) => x.attributeId,
  bundles: (x) => x.bundleId,
  transformations: (x) => x.upgradeId,
  slots: (x) => x.slotId,
  activities: (x) => x.activityId
}

/**
 * The canonical document of a package's published content, by ID: engine
 * version, package ID and version, the manifest (without `$schema`), and
 * every definition of each section in ordinal ID order, and the display
 * names, one table per locale (names are content). Which file a definition
 * or a name sits in, the files' names and the order of the section arrays
 * are layout, not content: none of them appears here. (Arrays inside a
 * definition — components, rules — are content, kept as authored.)
 */
export const packageContentDocument = (p: DecodedPackage): unknown => {
  const { $schema: _schema, ...manifest } = p.manifest
  const definitions: Record<string, Array<unknown>> = {}
  for (const section of contentSections) {
    if (section === "locales") continue
    const id = idOf[section] as (x: unknown) => string
    const all: Array<{ readonly id: string; readonly value: unknown }> = []
    for (const f of p.files) {
      for (const x of (f.content[section] ?? []) as ReadonlyArray<unknown>) all.push({ id: id(x), value: x })
    }
    if (all.length > 0) definitions[section] = all.sort((a, b) => compareOrdinal(a.id, b.id)).map((x) => x.value)
  }
  const locales = packageLocales(p)
  if (locales.length > 0) definitions.locales = locales
  return {
    engineVersion: ENGINE_VERSION,
    packageId: p.manifest.packageId,
    version: p.manifest.version,
    manifest,
    definitions
  }
}

/**
 * A package's locale tables as content: one per locale (ordinal), its names
 * from every file of the package (the first text of a key stands), so how
 * the names are split across files and tables is layout.
 */
const packageLocales = (
  p: DecodedPackage
): Array<{ readonly locale: string; readonly names: Record<string, string> }> => {
  const tables = new Map<string, Map<string, string>>()
  for (const f of p.files) {
    for (const t of f.content.locales ?? []) {
      const table = tables.get(t.locale) ?? new Map<string, string>()
      tables.set(t.locale, table)
      for (const [key, text] of Object.entries(t.names)) if (!table.has(key)) table.set(key, text)
    }
  }
  return [...tables.keys()].sort(compareOrdinal).map((locale) => {
    const table = tables.get(locale) ?? new Map<string, string>()
    const keys = [...table.keys()].sort(compareOrdinal)
    return { locale, names: Object.fromEntries(keys.map((k) => [k, table.get(k) ?? ""])) }
  })
}

/** sha256 of {@link packageContentDocument}'s canonical JSON: the package's `contentHash` in runtime pins. */
export const packageContentHash = (p: DecodedPackage): string => hashCanonical(packageContentDocument(p))

const packageOfFile = (
  packages: ReadonlyMap<string, DecodedPackage>,
  file: string | undefined
): DecodedPackage | undefined => {
  for (const p of packages.values()) if (p.files.some((f) => f.file === file)) return p
  return undefined
}

const mergeActivities = (a: Activity, b: Activity): Activity => {
  const union = (x: ReadonlyArray<string> | undefined, y: ReadonlyArray<string> | undefined): Array<string> =>
    [...new Set([...(x ?? []), ...(y ?? [])])].sort(compareOrdinal)
  return {
    ...a,
    authorizes: {
      upgradeIds: union(a.authorizes.upgradeIds, b.authorizes.upgradeIds),
      categories: union(a.authorizes.categories, b.authorizes.categories),
      slotIds: union(a.authorizes.slotIds, b.authorizes.slotIds)
    }
  }
}

interface Ctx {
  readonly diagnostics: Array<Diagnostic>
  readonly origins: ReadonlyMap<string, Origin>
  readonly cards: ReadonlyMap<string, Card>
  readonly statuses: ReadonlyMap<string, Status>
  readonly bundles: ReadonlyMap<string, Bundle>
  readonly transformations: ReadonlyMap<string, Transformation>
  readonly slots: ReadonlyMap<string, Slot>
}

const origin = (ctx: Ctx, kind: Kind, id: string): Origin => ctx.origins.get(`${kind}:${id}`) ?? { file: "", path: "" }

/**
 * The display key of a card, a status or a transformation: its own
 * `metadata.nameKey`, else the key clients derive from its ID
 * (`status.<id>.name`, `upgrade.<id>.name`). What `GET /v1/runtime` serves
 * as `nameKeys` and what {@link checkDisplayNames} looks up.
 */
export const displayKeyOf = (
  kind: "card" | "status" | "transformation",
  id: string,
  metadata: { readonly nameKey: string } | undefined
): string => metadata?.nameKey ?? `${kind === "transformation" ? "upgrade" : kind}.${id}.name`

/**
 * A package that ships display names (a `locales` section in one of its
 * files) names every card, status and transformation it declares: one with
 * no text in any gathered locale table is a warning (`missing_display_name`,
 * at its name key, or at its declaration when it has no metadata), since a
 * client would show its ID. A package that ships no names is not warned
 * about (every name is its ID by design).
 */
const checkDisplayNames = (
  ctx: Ctx,
  locales: ReadonlyArray<RuntimeLocale>,
  packages: ReadonlyArray<DecodedPackage>
): void => {
  if (locales.length === 0) return
  const named = new Set(
    packages.filter((p) => p.files.some((f) => (f.content.locales ?? []).length > 0)).flatMap((p) =>
      p.files.map((f) => f.file)
    )
  )
  const check = (
    kind: "card" | "status" | "transformation",
    id: string,
    metadata: { readonly nameKey: string } | undefined
  ): void => {
    const key = displayKeyOf(kind, id, metadata)
    const missing = locales.filter((l) => !l.names.has(key)).map((l) => l.locale)
    // A partial translation (a text in some table) is not warned about: the name exists.
    if (missing.length < locales.length) return
    const o = origin(ctx, kind, id)
    if (!named.has(o.file)) return
    ctx.diagnostics.push(
      diagnostic(
        "missing_display_name",
        `${kind} "${id}" has no display name: no locale table (${missing.join(", ")}) gives a text for "${key}"`,
        { file: o.file, path: metadata === undefined ? o.path : `${o.path}/metadata/nameKey`, subject: id },
        "warning"
      )
    )
  }
  for (const [id, c] of ctx.cards) check("card", id, c.metadata)
  for (const [id, x] of ctx.statuses) check("status", id, x.metadata)
  for (const [id, x] of ctx.transformations) check("transformation", id, x.metadata)
}

/**
 * "Did you mean": every `unknown_reference` of the form `<kind> "<id>" is not
 * declared` gets the closest declared ID of that kind (edit distance), in one
 * place for every check that reports one.
 */
const referenceKinds: ReadonlyArray<Kind> = [
  "card",
  "status",
  "relic",
  "buff",
  "attribute",
  "bundle",
  "transformation",
  "slot",
  "activity"
]

const suggestReferences = (
  diagnostics: Array<Diagnostic>,
  declared: Readonly<Record<Kind, ReadonlyMap<string, unknown>>>
): void => {
  diagnostics.forEach((d, i) => {
    if (d.code !== "unknown_reference") return
    const m = /^(card|status|relic|buff|attribute|bundle|transformation|slot|activity) "([^"]*)" is not declared/
      .exec(d.message)
    const kind = m === null ? undefined : referenceKinds.find((k) => k === m[1])
    if (m === null || kind === undefined || d.message.includes("did you mean")) return
    const hint = didYouMean(m[2] ?? "", declared[kind].keys())
    if (hint !== "") diagnostics[i] = { ...d, message: d.message + hint }
  })
}

const checkStatus = (ctx: Ctx, s: Status, o: Origin): void => {
  const params = new Set<string>()
  ;(s.payloadParameters ?? []).forEach((p, i) => {
    if (params.has(p.parameterId)) {
      ctx.diagnostics.push(
        diagnostic("duplicate_id", `payload parameter "${p.parameterId}" is declared twice`, {
          file: o.file,
          path: `${o.path}/payloadParameters/${i}/parameterId`,
          subject: s.statusId
        })
      )
    }
    params.add(p.parameterId)
  })
  const intensity = s.tick?.intensity
  if (intensity?.kind === "parameter" && !params.has(intensity.parameterId)) {
    ctx.diagnostics.push(
      diagnostic(
        "unknown_reference",
        `intensity reads payload parameter "${intensity.parameterId}", which is not declared`,
        {
          file: o.file,
          path: `${o.path}/tick/intensity/parameterId`,
          subject: s.statusId
        }
      )
    )
  }
}

/** Every `$name` a bundle's members bind. */
const boundParameters = (components: ReadonlyArray<EffectComponent>, out: Set<string> = new Set()): Set<string> => {
  for (const c of components) {
    if (c.effect.type === "APPLY_STATUS") {
      for (const b of c.effect.payloadBindings ?? []) {
        if (b.cardEffectComponentId.startsWith("$")) out.add(b.cardEffectComponentId.slice(1))
      }
    }
    if (c.children !== undefined) boundParameters(c.children, out)
  }
  return out
}

/** Checks a bundle on its own; a template with transient numeric placeholders for its parameters. */
const checkBundle = (ctx: Ctx, b: Bundle, o: Origin): void => {
  const push = (code: Diagnostic["code"], message: string, path: string): void => {
    ctx.diagnostics.push(diagnostic(code, message, { file: o.file, path, subject: b.bundleId }))
  }
  if (b.components.length === 0) push("empty_scope", `bundle "${b.bundleId}" has no members`, `${o.path}/components`)
  const declared = b.effectComponentParameters ?? []
  const seen = new Set<string>()
  declared.forEach((p, i) => {
    if (seen.has(p)) {
      push("duplicate_id", `template parameter "${p}" is declared twice`, `${o.path}/effectComponentParameters/${i}`)
    }
    seen.add(p)
  })
  const used = boundParameters(b.components)
  for (const p of declared) {
    if (!used.has(p)) {
      push(
        "parameter_mismatch",
        `template parameter "${p}" is declared but no member binds it`,
        `${o.path}/effectComponentParameters`
      )
    }
  }
  const compiled = compileContainer(
    { cardId: b.bundleId, cost: 0, components: b.components },
    { statuses: ctx.statuses, placeholders: seen, file: o.file, path: o.path, subject: b.bundleId }
  )
  if (Either.isLeft(compiled)) ctx.diagnostics.push(...compiled.left)
  else {
    const never = neverExecutes(b.components)
    if (never !== undefined) {
      push("empty_scope", `member "${never}" has chance 0 and can never execute`, `${o.path}/components`)
    }
  }
}

const neverExecutes = (components: ReadonlyArray<EffectComponent>): string | undefined => {
  for (const c of components) {
    if (c.effect.chance === 0) return c.componentId
    const inner = c.children === undefined ? undefined : neverExecutes(c.children)
    if (inner !== undefined) return inner
  }
  return undefined
}

const checkRequirements = (
  ctx: Ctx,
  r: Requirements | undefined,
  path: string,
  o: Origin,
  context: { transformationId: string; ruleId?: string | undefined }
): void => {
  if (r === undefined) return
  const pairs: ReadonlyArray<readonly [keyof Requirements, keyof Requirements, string]> = [
    ["requiredTags", "excludedTags", "tag"],
    ["requiredCapabilities", "excludedCapabilities", "capability"]
  ]
  for (const key of ["requiredTags", "excludedTags", "requiredCapabilities", "excludedCapabilities"] as const) {
    const xs = r[key] ?? []
    const seen = new Set<string>()
    xs.forEach((x, i) => {
      if (seen.has(x)) {
        ctx.diagnostics.push(
          diagnostic("duplicate_id", `"${x}" is listed twice`, {
            file: o.file,
            path: `${path}/${key}/${i}`,
            ...context
          })
        )
      }
      seen.add(x)
    })
  }
  for (const [required, excluded, what] of pairs) {
    const ex = new Set(r[excluded] ?? [])
    ;(r[required] ?? []).forEach((x, i) => {
      if (ex.has(x)) {
        ctx.diagnostics.push(
          diagnostic("contradiction", `${what} "${x}" is both required and excluded`, {
            file: o.file,
            path: `${path}/${required}/${i}`,
            subject: x,
            ...context
          })
        )
      }
    })
  }
}

const checkTransformation = (ctx: Ctx, t: Transformation, o: Origin): void => {
  const tid = { transformationId: t.upgradeId }
  const push = (
    code: Diagnostic["code"],
    message: string,
    path: string,
    extra: { ruleId?: string; subject?: string } = {}
  ): void => {
    ctx.diagnostics.push(diagnostic(code, message, { file: o.file, path, ...tid, ...extra }))
  }
  if (t.slotId !== undefined) {
    const slot = ctx.slots.get(t.slotId)
    if (slot === undefined) {
      push("unknown_reference", `slot "${t.slotId}" is not declared`, `${o.path}/slotId`, { subject: t.slotId })
    } else if ((t.maxPerCard ?? 1) > slot.capacity) {
      push(
        "contradiction",
        `maxPerCard ${t.maxPerCard ?? 1} exceeds the capacity ${slot.capacity} of slot "${slot.slotId}"`,
        `${o.path}/maxPerCard`
      )
    }
  }
  ;(t.eligibility?.cardIds ?? []).forEach((id, i) => {
    if (!ctx.cards.has(id)) {
      push("unknown_reference", `card "${id}" is not declared`, `${o.path}/eligibility/cardIds/${i}`, { subject: id })
    }
  })
  ;(t.excludes ?? []).forEach((id, i) => {
    if (id === t.upgradeId) push("contradiction", "a transformation cannot exclude itself", `${o.path}/excludes/${i}`)
    else if (!ctx.transformations.has(id)) {
      push("unknown_reference", `transformation "${id}" is not declared`, `${o.path}/excludes/${i}`, { subject: id })
    }
  })
  checkRequirements(ctx, t.requirements, `${o.path}/requirements`, o, tid)
  ;(t.patches ?? []).forEach((p, i) => {
    if (p.op === "addComponent") {
      const compiled = compileContainer(
        { cardId: t.upgradeId, cost: 0, components: [p.component] },
        { statuses: ctx.statuses, file: o.file, path: `${o.path}/patches/${i}/component`, subject: t.upgradeId }
      )
      // The component is checked alone: bindings to the card's own components are checked on composition.
      if (Either.isLeft(compiled)) {
        ctx.diagnostics.push(
          ...compiled.left.filter((d) => d.code !== "invalid_binding").map((d) => ({ ...d, ...tid }))
        )
      }
    }
  })
  const rules = t.compositionRules ?? []
  const ruleIds = new Set<string>()
  rules.forEach((rule, i) => {
    const rp = `${o.path}/compositionRules/${i}`
    const rid = { ruleId: rule.ruleId }
    if (ruleIds.has(rule.ruleId)) push("duplicate_id", `rule "${rule.ruleId}" is declared twice`, `${rp}/ruleId`, rid)
    ruleIds.add(rule.ruleId)
    checkRequirements(ctx, rule.when, `${rp}/when`, o, { ...tid, ...rid })
    const bundle = ctx.bundles.get(rule.bundleId)
    if (bundle === undefined) {
      push("unknown_reference", `bundle "${rule.bundleId}" is not declared`, `${rp}/bundleId`, {
        ...rid,
        subject: rule.bundleId
      })
      return
    }
    const declared = [...(bundle.effectComponentParameters ?? [])].sort(compareOrdinal)
    const supplied = Object.keys(rule.effectBindings ?? {}).sort(compareOrdinal)
    if (declared.length > 0 && rule.effectBindings === undefined) {
      push(
        "template_unbound",
        `bundle "${bundle.bundleId}" is a template and the rule binds none of its parameters`,
        rp,
        rid
      )
    } else if (declared.join("\u0000") !== supplied.join("\u0000")) {
      push(
        "parameter_mismatch",
        `the rule binds [${supplied.join(", ")}] but bundle "${bundle.bundleId}" declares [${declared.join(", ")}]`,
        `${rp}/effectBindings`,
        rid
      )
    }
    const usesAnchor = Object.values(rule.effectBindings ?? {}).includes("$anchor")
    if (
      usesAnchor && (rule.scope === "BeforeSequence" || rule.scope === "AfterSequence") && rule.selector === undefined
    ) {
      push("contradiction", `a ${rule.scope} rule that binds $anchor needs a selector`, `${rp}/effectBindings`, rid)
    }
  })
}

const checkActivity = (ctx: Ctx, a: Activity, o: Origin): void => {
  const push = (message: string, path: string, subject: string): void => {
    ctx.diagnostics.push(diagnostic("unknown_reference", message, { file: o.file, path, subject }))
  }
  const categories = new Set([...ctx.transformations.values()].map((t) => t.category))
  ;(a.authorizes.upgradeIds ?? []).forEach((id, i) => {
    if (!ctx.transformations.has(id)) {
      push(`transformation "${id}" is not declared`, `${o.path}/authorizes/upgradeIds/${i}`, id)
    }
  })
  ;(a.authorizes.categories ?? []).forEach((id, i) => {
    if (!categories.has(id)) push(`no transformation has category "${id}"`, `${o.path}/authorizes/categories/${i}`, id)
  })
  ;(a.authorizes.slotIds ?? []).forEach((id, i) => {
    if (!ctx.slots.has(id)) push(`slot "${id}" is not declared`, `${o.path}/authorizes/slotIds/${i}`, id)
  })
}
