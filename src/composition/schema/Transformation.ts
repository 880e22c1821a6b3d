/**
 * Permanent transformations (upgrades): eligibility, limits, requirements,
 * structural patches and composition rules.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { EffectComponent, EffectType } from "./Card.js"
import { AuthoredId, Metadata, Namespace, PositiveInt, Symbol, SymbolList } from "./Symbols.js"

/** The requirement schema shared by a transformation's `requirements` and a rule's `when`. */
export const Requirements = Schema.Struct({
  requiredTags: optionalDescribed(SymbolList, "Tags the card must all have."),
  excludedTags: optionalDescribed(SymbolList, "Tags the card must not have."),
  requiredCapabilities: optionalDescribed(SymbolList, "Capabilities some component of the card must offer (each)."),
  excludedCapabilities: optionalDescribed(SymbolList, "Capabilities no component of the card may offer.")
}).annotations({ description: "What the card must (and must not) have; lists combine with AND." })
export type Requirements = typeof Requirements.Type

/** Filters root effects; lists combine with AND, an empty or absent list does not restrict. */
export const Selector = Schema.Struct({
  effectTypes: optionalDescribed(
    Schema.Array(EffectType).pipe(
      Schema.maxItems(Limits.listSymbols, withLimit("list_limit", { measure: "length", max: Limits.listSymbols }))
    ),
    "Root effects of these types (any)."
  ),
  componentIds: optionalDescribed(SymbolList, "Root components with these structural IDs (any)."),
  requiredEffectTags: optionalDescribed(SymbolList, "Root effects carrying all these tags.")
}).annotations({
  description:
    "Which root effects a rule anchors on; lists combine with AND, an empty or absent list does not restrict."
})
export type Selector = typeof Selector.Type

export const Scope = Schema.Literal("BeforeSequence", "AfterImpact", "BeforeImpact", "OncePerProc", "AfterSequence")
  .annotations({
    description:
      "Where the bundle runs relative to its anchor: BeforeSequence, BeforeImpact, AfterImpact, OncePerProc or AfterSequence."
  })
export type Scope = typeof Scope.Type

/** `$anchor`, or an explicit structural component ID. */
export const BindingSource = Symbol.annotations({
  identifier: "BindingSource",
  description: "$anchor, or an explicit structural component ID."
})

export const CompositionRule = Schema.Struct({
  ruleId: described(AuthoredId, "The rule's ID, unique in its transformation."),
  priority: described(
    Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000)),
    "Rules run by descending priority (-1000000..1000000), then by ID."
  ),
  namespace: described(Namespace, "The namespace of the component IDs the expansion generates."),
  bundleId: described(AuthoredId, "The bundle the rule expands (a bundle ID published by the loaded packages)."),
  scope: Scope,
  when: optionalDescribed(Requirements, "What the card must have for the rule to apply."),
  selector: optionalDescribed(Selector, "Which root effects the rule anchors on (absent: every root effect)."),
  /** Template parameter → `$anchor` or a structural component ID. */
  effectBindings: optionalDescribed(
    Schema.Record({ key: Symbol, value: Schema.Union(Schema.Literal("$anchor"), Symbol) }),
    "Template parameter → $anchor or a structural component ID."
  )
}).annotations({
  identifier: "CompositionRule",
  description: "A composition rule: expands a bundle around the effects its selector anchors on."
})
export type CompositionRule = typeof CompositionRule.Type

/** Numeric fields a patch may add to or set on a component's effect. */
export const NumericField = Schema.Literal("amount", "stacks", "duration", "repeat").annotations({
  description: "The numeric field of the component's effect: amount, stacks, duration or repeat."
})
export type NumericField = typeof NumericField.Type

const PatchValue = Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000)).annotations({
  description: "The value added or set (an integer in -1000000..1000000)."
})
const patchTarget = (what: string) => described(Symbol, `The structural ID of the component ${what}.`)

/** Structural patches, applied in ledger order before any rule. */
export const Patch = Schema.Union(
  Schema.Struct({
    op: described(Schema.Literal("addTags"), "addTags: adds tags to the card."),
    tags: described(SymbolList, "The tags added.")
  }),
  Schema.Struct({
    op: described(Schema.Literal("removeTags"), "removeTags: removes tags from the card."),
    tags: described(SymbolList, "The tags removed.")
  }),
  Schema.Struct({
    op: described(Schema.Literal("addCapabilities"), "addCapabilities: adds capabilities to a component."),
    componentId: patchTarget("that gains them"),
    capabilityIds: described(SymbolList, "The capabilities added.")
  }),
  Schema.Struct({
    op: described(Schema.Literal("addNumber"), "addNumber: adds value to a numeric field of a component's effect."),
    componentId: patchTarget("changed"),
    field: NumericField,
    value: PatchValue
  }),
  Schema.Struct({
    op: described(Schema.Literal("setNumber"), "setNumber: sets a numeric field of a component's effect to value."),
    componentId: patchTarget("changed"),
    field: NumericField,
    value: PatchValue
  }),
  Schema.Struct({
    op: described(Schema.Literal("addCost"), "addCost: adds value to the card's cost."),
    value: PatchValue
  }),
  Schema.Struct({
    op: described(Schema.Literal("setCost"), "setCost: sets the card's cost to value."),
    value: PatchValue
  }),
  Schema.Struct({
    op: described(Schema.Literal("addComponent"), "addComponent: adds a component to the card."),
    /** Attach as a child of this component; absent: a new root. */
    parentId: optionalDescribed(Symbol, "Attach as a child of this component; absent: a new root."),
    component: described(EffectComponent, "The component added.")
  }),
  Schema.Struct({
    op: described(Schema.Literal("removeComponent"), "removeComponent: removes a component (and its children)."),
    componentId: patchTarget("removed")
  })
).annotations({ identifier: "Patch", description: "A structural patch, applied in ledger order before any rule." })
export type Patch = typeof Patch.Type

export const Eligibility = Schema.Struct({
  /** Only these base cards; absent: any card meeting the requirements. */
  cardIds: optionalDescribed(SymbolList, "Only these base cards; absent: any card meeting the requirements.")
}).annotations({ description: "Which base cards the transformation may be applied to." })

export const Transformation = Schema.Struct({
  upgradeId: described(AuthoredId, "The transformation's ID, unique across the loaded packages (ledgers name it)."),
  category: described(AuthoredId, "The transformation's category (activities may authorize by category)."),
  slotId: optionalDescribed(AuthoredId, "The slot it occupies (a slot ID published by the loaded packages)."),
  eligibility: optionalDescribed(Eligibility, "Which base cards it may be applied to."),
  /** How many times it may be applied to one card (default 1). */
  maxPerCard: optionalDescribed(PositiveInt, "How many times it may be applied to one card (default 1)."),
  /** Upgrade IDs that cannot share a card with this one (symmetric). */
  excludes: optionalDescribed(SymbolList, "Upgrade IDs that cannot share a card with this one (symmetric)."),
  requirements: optionalDescribed(Requirements, "What the card must have for it to apply."),
  patches: optionalDescribed(Schema.Array(Patch), "Structural patches, applied in ledger order before any rule."),
  compositionRules: optionalDescribed(
    Schema.Array(CompositionRule).pipe(
      Schema.maxItems(Limits.rulesPerTransformation, {
        message: (issue) =>
          `a transformation has at most ${Limits.rulesPerTransformation} rules (got ${
            (issue.actual as ReadonlyArray<unknown>).length
          })`,
        ...withLimit("rule_limit", { measure: "length", max: Limits.rulesPerTransformation })
      })
    ),
    `Composition rules (at most ${Limits.rulesPerTransformation}).`
  ),
  metadata: optionalDescribed(Metadata, "Display keys of the transformation."),
  /**
   * Internal: written only by `CardBundleCompiler.Seal` into ledger entries.
   * Accepted and ignored in authoring JSON, so it can never inject rules.
   */
  closedCompositionRules: optionalDescribed(
    Schema.Unknown,
    "Internal: written only by the card compiler into ledger entries; accepted and ignored in authoring JSON."
  )
}).annotations({
  identifier: "Transformation",
  description: "A permanent transformation (upgrade): eligibility, limits, requirements, patches and composition rules."
})
export type Transformation = typeof Transformation.Type
