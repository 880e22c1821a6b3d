/**
 * Generators of *valid* content, built by construction (not by filtering):
 *
 * - {@link validCompositionContent}: statuses, one base card, rule bundles and
 *   transformations that publish together as one package (unique IDs,
 *   declared status references, child-only fields only on children, unique
 *   expansion namespaces, transformations authorized by the `fuzz` activity).
 *   Whether a transformation then *composes* on the card is left open on
 *   purpose (a selector may match nothing, a requirement may be unmet): that
 *   is what the composition core has to answer with a typed diagnostic.
 * - {@link validHallyuCard} / {@link validHallyuDeck}: Hallyu Hex cards made
 *   from the effect records of a validated deck (renumbered effect IDs,
 *   `rules_text` rebuilt from the effects' texts, new cost, tones, tags and
 *   amounts), and that deck with such cards added to both deck lists.
 *
 * @since 0.1.0
 */
import { FastCheck as fc } from "effect"
import type { DecodedPackage } from "../../composition/ContentPackage.js"
import { type PublicationResult, publish } from "../../composition/Publication.js"
import type { Bundle } from "../../composition/schema/Bundle.js"
import type { Card, Condition, Effect, EffectComponent, EffectType, TargetKind } from "../../composition/schema/Card.js"
import { type Activity, ENGINE_VERSION, type Manifest } from "../../composition/schema/Package.js"
import type { Status } from "../../composition/schema/Status.js"
import type { CompositionRule, Patch, Scope, Transformation } from "../../composition/schema/Transformation.js"
import type { Card as HallyuCard, StarterDeck } from "../../hallyu/Schema.js"

// ---------------------------------------------------------------------------
// Composition

/** One package's worth of valid content: statuses, a base card, bundles and transformations. */
export interface CompositionContent {
  readonly statuses: ReadonlyArray<Status>
  readonly card: Card
  readonly bundles: ReadonlyArray<Bundle>
  readonly transformations: ReadonlyArray<Transformation>
}

/** The activity that authorizes every generated transformation (category `Fuzz`). */
export const FUZZ_ACTIVITY: Activity = { activityId: "fuzz", authorizes: { categories: ["Fuzz"] } }

const CARD_TAGS = ["attack", "skill", "fire", "ice", "basic"] as const
const EFFECT_TAGS = ["melee", "ranged", "arcane"] as const
const TARGETS: ReadonlyArray<TargetKind> = ["TARGET", "SELF", "ALL_ENEMIES", "RANDOM_ENEMY", "ALL_ALLIES"]
const SCOPES: ReadonlyArray<Scope> = ["BeforeSequence", "AfterImpact", "BeforeImpact", "OncePerProc", "AfterSequence"]
const EFFECT_TYPES: ReadonlyArray<EffectType> = ["DAMAGE", "HEAL", "APPLY_STATUS"]

const subsetOf = <A>(values: ReadonlyArray<A>, max = values.length): fc.Arbitrary<Array<A>> =>
  fc.subarray([...values], { minLength: 0, maxLength: max })

const statusArb = (statusId: string): fc.Arbitrary<Status> =>
  fc
    .record({
      stacking: fc.constantFrom("add" as const, "replace" as const, "max" as const),
      durationRule: fc.constantFrom("refresh" as const, "add" as const, "max" as const, "keep" as const),
      maxStacks: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      defaultDuration: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      tick: fc.option(
        fc.record({
          timing: fc.constantFrom("TurnStart" as const, "TurnEnd" as const),
          effect: fc.constantFrom("DAMAGE" as const, "HEAL" as const),
          intensity: fc.oneof(
            fc.record({ kind: fc.constant("constant" as const), value: fc.integer({ min: 0, max: 5 }) }),
            fc.record({
              kind: fc.constant("perStack" as const),
              base: fc.integer({ min: 0, max: 3 }),
              perStack: fc.integer({ min: 0, max: 3 })
            })
          )
        }),
        { nil: undefined }
      )
    })
    .map(
      (s): Status => ({
        statusId,
        stacking: s.stacking,
        durationRule: s.durationRule,
        ...(s.maxStacks !== undefined ? { maxStacks: s.maxStacks } : {}),
        ...(s.defaultDuration !== undefined ? { defaultDuration: s.defaultDuration } : {}),
        ...(s.tick !== undefined ? { tick: s.tick } : {})
      })
    )

const conditionArb = (statusIds: ReadonlyArray<string>): fc.Arbitrary<Condition> =>
  fc.oneof(
    fc.record({ fact: fc.constantFrom("target.alive" as const, "actor.alive" as const), not: fc.boolean() }),
    fc.record({
      fact: fc.constantFrom("target.hpAtMost" as const, "target.hpAtLeast" as const),
      value: fc.integer({ min: 0, max: 60 })
    }),
    fc.record({
      fact: fc.constantFrom("target.hasStatus" as const, "actor.hasStatus" as const),
      statusId: fc.constantFrom(...statusIds),
      value: fc.integer({ min: 1, max: 3 })
    })
  )

const effectArb = (statusIds: ReadonlyArray<string>): fc.Arbitrary<Effect> =>
  fc
    .record({
      type: fc.constantFrom(...EFFECT_TYPES),
      target: fc.constantFrom(...TARGETS),
      amount: fc.integer({ min: 0, max: 20 }),
      statusId: fc.constantFrom(...statusIds),
      stacks: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      duration: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      // chance 0 can never execute (`empty_scope` in a bundle): valid content draws 0.5 or 1.
      chance: fc.option(fc.constantFrom(0.5, 1), { nil: undefined }),
      repeat: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      conditions: fc.option(fc.array(conditionArb(statusIds), { maxLength: 2 }), { nil: undefined }),
      tags: fc.option(subsetOf(EFFECT_TAGS), { nil: undefined })
    })
    .map((e): Effect => {
      const common = {
        target: e.target,
        ...(e.chance !== undefined ? { chance: e.chance } : {}),
        ...(e.repeat !== undefined ? { repeat: e.repeat } : {}),
        ...(e.conditions !== undefined ? { conditions: e.conditions } : {}),
        ...(e.tags !== undefined ? { tags: e.tags } : {})
      }
      if (e.type === "APPLY_STATUS") {
        return {
          type: "APPLY_STATUS",
          statusId: e.statusId,
          ...(e.stacks !== undefined ? { stacks: e.stacks } : {}),
          ...(e.duration !== undefined ? { duration: e.duration } : {}),
          ...common
        }
      }
      return { type: e.type, amount: e.amount, ...common }
    })

/** A component before IDs are given (IDs are assigned in tree order afterwards, so shrinking keeps them unique). */
interface RawComponent {
  readonly order: number
  readonly effect: Effect
  readonly capabilityIds: ReadonlyArray<string> | undefined
  readonly childTiming: "AfterParentImpact" | "BeforeParentImpact" | undefined
  readonly executionScope: "PerImpact" | "OncePerParentProc" | undefined
  readonly children: ReadonlyArray<RawComponent>
}

const rawComponentArb = (statusIds: ReadonlyArray<string>, depth: number): fc.Arbitrary<RawComponent> =>
  fc.record({
    order: fc.integer({ min: -5, max: 20 }),
    effect: effectArb(statusIds),
    capabilityIds: fc.option(subsetOf(["behavior.single_target", "behavior.area"]), { nil: undefined }),
    childTiming: fc.option(fc.constantFrom("AfterParentImpact" as const, "BeforeParentImpact" as const), {
      nil: undefined
    }),
    executionScope: fc.option(fc.constantFrom("PerImpact" as const, "OncePerParentProc" as const), { nil: undefined }),
    children: depth <= 1 ? fc.constant([]) : fc.array(rawComponentArb(statusIds, depth - 1), { maxLength: 2 })
  })

/** Components with unique IDs (`<prefix><n>` in tree order), child-only fields kept on children only. */
const withIds = (prefix: string, raw: ReadonlyArray<RawComponent>): Array<EffectComponent> => {
  let count = 0
  const build = (c: RawComponent, isChild: boolean): EffectComponent => {
    const componentId = `${prefix}${count++}`
    const children = c.children.map((x) => build(x, true))
    return {
      type: "effect",
      componentId,
      order: c.order,
      effect: c.effect,
      ...(c.capabilityIds !== undefined ? { capabilityIds: c.capabilityIds } : {}),
      ...(isChild && c.childTiming !== undefined ? { childTiming: c.childTiming } : {}),
      ...(isChild && c.executionScope !== undefined ? { executionScope: c.executionScope } : {}),
      ...(children.length > 0 ? { children } : {})
    }
  }
  return raw.map((c) => build(c, false))
}

const componentsArb = (
  prefix: string,
  statusIds: ReadonlyArray<string>,
  roots: { readonly min: number; readonly max: number },
  depth: number
): fc.Arbitrary<Array<EffectComponent>> =>
  fc.array(rawComponentArb(statusIds, depth), { minLength: roots.min, maxLength: roots.max }).map((raw) =>
    withIds(prefix, raw)
  )

const flatIds = (cs: ReadonlyArray<EffectComponent>): Array<EffectComponent> =>
  cs.flatMap((c) => [c, ...flatIds(c.children ?? [])])

/** A patch before it is tied to the card: `addNumber` names a numeric root by index (modulo their count). */
type RawPatch =
  | { readonly op: "addTags"; readonly tags: Array<string> }
  | { readonly op: "addCost" | "setCost"; readonly value: number }
  | { readonly op: "addNumber"; readonly index: number; readonly value: number }

const rawPatchArb: fc.Arbitrary<RawPatch> = fc.oneof(
  subsetOf(["ember", "frost", "keen"], 2).map((tags): RawPatch => ({ op: "addTags", tags })),
  fc.integer({ min: 0, max: 3 }).map((value): RawPatch => ({ op: "addCost", value })),
  fc.integer({ min: 0, max: 5 }).map((value): RawPatch => ({ op: "setCost", value })),
  fc.record({ index: fc.nat({ max: 7 }), value: fc.integer({ min: 0, max: 5 }) }).map((p): RawPatch => ({
    op: "addNumber",
    ...p
  }))
)

const patchFor = (card: Card, p: RawPatch): Patch => {
  if (p.op !== "addNumber") return p
  const numeric = card.components.filter((c) => c.effect.type !== "APPLY_STATUS")
  const target = numeric[p.index % Math.max(1, numeric.length)]
  // No numeric root: the patch raises the cost instead (still valid content).
  return target === undefined
    ? { op: "addCost", value: p.value }
    : { op: "addNumber", componentId: target.componentId, field: "amount", value: p.value }
}

interface RawRule {
  readonly priority: number
  readonly bundle: number
  readonly scope: Scope
  readonly effectTypes: Array<EffectType> | undefined
}

const rawRuleArb: fc.Arbitrary<RawRule> = fc.record({
  priority: fc.integer({ min: -5, max: 5 }),
  bundle: fc.nat({ max: 7 }),
  scope: fc.constantFrom(...SCOPES),
  effectTypes: fc.option(subsetOf(EFFECT_TYPES, 2), { nil: undefined })
})

const ruleFor = (tIndex: number, rIndex: number, bundleIds: ReadonlyArray<string>, r: RawRule): CompositionRule => ({
  ruleId: `r${rIndex}`,
  priority: r.priority,
  // Unique per (transformation, rule): expansions of two rules never share an ID.
  namespace: `fz${tIndex}r${rIndex}`,
  bundleId: bundleIds[r.bundle % bundleIds.length] ?? "fz.bundle0",
  scope: r.scope,
  ...(r.effectTypes !== undefined ? { selector: { effectTypes: r.effectTypes } } : {})
})

const STATUS_IDS = ["st0", "st1", "st2"] as const

/**
 * Valid composition content (see the module comment). Built without `chain`
 * (raw records mapped to content), so fast-check shrinks every list and number
 * of a failing case.
 */
export const validCompositionContent: fc.Arbitrary<CompositionContent> = fc
  .record({
    statuses: fc.tuple(...STATUS_IDS.map(statusArb)),
    cost: fc.integer({ min: 0, max: 5 }),
    tags: subsetOf(CARD_TAGS, 3),
    components: componentsArb("c", STATUS_IDS, { min: 1, max: 4 }, 3),
    bundles: fc.array(componentsArb("m", STATUS_IDS, { min: 1, max: 3 }, 2), { minLength: 1, maxLength: 2 }),
    transformations: fc.array(
      fc.record({
        patches: fc.array(rawPatchArb, { maxLength: 2 }),
        rules: fc.array(rawRuleArb, { maxLength: 2 }),
        requireOwnTag: fc.boolean()
      }),
      { minLength: 1, maxLength: 3 }
    )
  })
  .map((raw): CompositionContent => {
    const card: Card = {
      cardId: "fuzz_card",
      cost: raw.cost,
      tags: raw.tags,
      metadata: { nameKey: "card.fuzz_card.name", artKey: "art.card.fuzz_card" },
      components: raw.components
    }
    const bundles = raw.bundles.map((components, i): Bundle => ({ bundleId: `fz.bundle${i}`, components }))
    const bundleIds = bundles.map((b) => b.bundleId)
    const transformations = raw.transformations.map((t, ti): Transformation => {
      const patches = t.patches.map((p) => patchFor(card, p))
      const added = patches.flatMap((p) => (p.op === "addTags" ? p.tags : []))
      const required = t.requireOwnTag && added[0] !== undefined ? [added[0]] : []
      const rules = t.rules.map((r, ri) => ruleFor(ti, ri, bundleIds, r))
      return {
        upgradeId: `fz.t${ti}`,
        category: "Fuzz",
        maxPerCard: 1,
        ...(required.length > 0 ? { requirements: { requiredTags: required } } : {}),
        ...(patches.length > 0 ? { patches } : {}),
        ...(rules.length > 0 ? { compositionRules: rules } : {})
      }
    })
    return { statuses: raw.statuses, card, bundles, transformations }
  })

/** Every component ID of a card, children included. */
export const componentIdsOf = (card: Card): ReadonlyArray<string> => flatIds(card.components).map((c) => c.componentId)

/** The manifest of the package {@link compositionPackage} builds. */
export const FUZZ_MANIFEST: Manifest = { packageId: "fuzz.generated", version: "1.0.0", engineVersion: ENGINE_VERSION }

/** Content as a decoded package (as if read from a folder), with the `fuzz` activity. */
export const compositionPackage = (
  content: CompositionContent,
  extraActivities: ReadonlyArray<Activity> = []
): DecodedPackage => {
  const file = {
    statuses: [...content.statuses],
    cards: [content.card],
    bundles: [...content.bundles],
    transformations: [...content.transformations],
    activities: [FUZZ_ACTIVITY, ...extraActivities]
  }
  return {
    dir: "fuzz.generated",
    manifestFile: "fuzz.generated/manifest.json",
    manifest: FUZZ_MANIFEST,
    files: [{ file: "fuzz.generated/content.json", content: file, text: JSON.stringify(file) }]
  }
}

/** Publishes generated content (alone, or on top of other decoded packages). */
export const publishContent = (
  content: CompositionContent,
  others: ReadonlyArray<DecodedPackage> = []
): PublicationResult => publish([...others, compositionPackage(content)])

// ---------------------------------------------------------------------------
// Hallyu Hex

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** Replaces every literal integer `amount` ≥ 1 in a record tree, in document order, with the next of `amounts`. */
const withAmounts = <A>(value: A, amounts: ReadonlyArray<number>): A => {
  let k = 0
  const go = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(go)
    if (v !== null && typeof v === "object") {
      const out: Record<string, Json> = {}
      for (const [key, x] of Object.entries(v as Record<string, Json>)) {
        if (key === "amount" && typeof x === "number" && Number.isInteger(x) && x >= 1) {
          out[key] = amounts[k++ % amounts.length] ?? x
        } else out[key] = go(x)
      }
      return out
    }
    return v
  }
  return go(value as Json) as A
}

/**
 * A valid Hallyu Hex card derived from a card of `deck` (a deck that
 * `validateDeck` accepted): a new ID and code (`<prefix>-<n>`), name, cost,
 * tones and tags; a non-empty ordered subset of the template's effects with
 * new literal amounts (1..3), effect IDs renumbered `<code>-E<n>` and
 * `rules_text` rebuilt as the effects' texts joined with one space.
 */
export const validHallyuCard = (deck: StarterDeck, n: number): fc.Arbitrary<HallyuCard> =>
  hallyuCardParts(deck).map((parts) => hallyuCardFrom(deck, n, parts))

/** What a generated card varies; mapped to a card without `chain`, so fast-check shrinks every part. */
interface HallyuCardParts {
  readonly template: number
  readonly keep: ReadonlyArray<boolean>
  readonly cost: number
  readonly tones: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly amounts: ReadonlyArray<number>
  readonly scandal: number
  readonly buzz: number
}

const hallyuCardParts = (deck: StarterDeck): fc.Arbitrary<HallyuCardParts> => {
  const maxEffects = Math.max(1, ...deck.cards.map((c) => c.effects.length))
  return fc.record({
    template: fc.nat({ max: Math.max(0, deck.cards.length - 1) }),
    keep: fc.array(fc.boolean(), { minLength: maxEffects, maxLength: maxEffects }),
    cost: fc.integer({ min: 0, max: 6 }),
    tones: fc.subarray([...deck.effect_schema.tones], { minLength: 1, maxLength: 2 }),
    tags: fc.subarray(deck.tags.map((t) => t.id), { maxLength: 3 }),
    amounts: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
    scandal: fc.integer({ min: 0, max: 2 }),
    buzz: fc.integer({ min: 0, max: 3 })
  })
}

const hallyuCardFrom = (deck: StarterDeck, n: number, g: HallyuCardParts): HallyuCard => {
  // A validated deck has at least one card (the index is within range by construction).
  const template = deck.cards[g.template % deck.cards.length] as HallyuCard
  const code = `HHX-FUZZ-${String(n).padStart(3, "0")}`
  const kept = template.effects.filter((_, i) => g.keep[i] === true)
  const chosen = kept.length > 0 ? kept : template.effects.slice(0, 1)
  const effects = chosen.map((e, k) => ({ ...withAmounts(e, g.amounts), id: `${code}-E${k + 1}` }))
  return {
    ...template,
    id: `hhx.fuzz.card.${String(n).padStart(3, "0")}`,
    code,
    name: `Fuzz ${template.name}`,
    cost: g.cost,
    tones: [...g.tones],
    tags: [...g.tags],
    ...(template.starting_scandal !== undefined ? { starting_scandal: g.scandal } : {}),
    ...(template.buzz !== undefined ? { buzz: g.buzz } : {}),
    rules_text: effects.map((e) => e.text).join(" "),
    effects
  }
}

/** `deck` with 1..`max` generated cards added to the file and to both deck lists (1..2 copies each). */
export const validHallyuDeck = (deck: StarterDeck, max = 4): fc.Arbitrary<StarterDeck> =>
  fc
    .array(fc.record({ parts: hallyuCardParts(deck), copies: fc.integer({ min: 1, max: 2 }) }), {
      minLength: 1,
      maxLength: max
    })
    .map((generated): StarterDeck => {
      const cards = generated.map((g, i) => ({ card: hallyuCardFrom(deck, i + 1, g.parts), copies: g.copies }))
      return {
        ...deck,
        cards: [...deck.cards, ...cards.map((c) => c.card)],
        decks: deck.decks.map((d) => ({
          ...d,
          cards: [...d.cards, ...cards.map((c) => ({ card: c.card.id, count: c.copies }))]
        }))
      }
    })
