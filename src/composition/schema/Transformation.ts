/**
 * Permanent transformations (upgrades): eligibility, limits, requirements,
 * structural patches and composition rules.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { optional } from "../../kernel/SchemaExt.js"
import { EffectComponent, EffectType } from "./Card.js"
import { AuthoredId, Metadata, Namespace, PositiveInt, Symbol, SymbolList } from "./Symbols.js"

/** The requirement schema shared by a transformation's `requirements` and a rule's `when`. */
export const Requirements = Schema.Struct({
  requiredTags: optional(SymbolList),
  excludedTags: optional(SymbolList),
  requiredCapabilities: optional(SymbolList),
  excludedCapabilities: optional(SymbolList)
})
export type Requirements = typeof Requirements.Type

/** Filters root effects; lists combine with AND, an empty or absent list does not restrict. */
export const Selector = Schema.Struct({
  effectTypes: optional(
    Schema.Array(EffectType).pipe(
      Schema.maxItems(Limits.listSymbols, withLimit("list_limit", { measure: "length", max: Limits.listSymbols }))
    )
  ),
  componentIds: optional(SymbolList),
  requiredEffectTags: optional(SymbolList)
})
export type Selector = typeof Selector.Type

export const Scope = Schema.Literal("BeforeSequence", "AfterImpact", "BeforeImpact", "OncePerProc", "AfterSequence")
export type Scope = typeof Scope.Type

/** `$anchor`, or an explicit structural component ID. */
export const BindingSource = Symbol.annotations({ identifier: "BindingSource" })

export const CompositionRule = Schema.Struct({
  ruleId: AuthoredId,
  priority: Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000)),
  namespace: Namespace,
  bundleId: AuthoredId,
  scope: Scope,
  when: optional(Requirements),
  selector: optional(Selector),
  /** Template parameter → `$anchor` or a structural component ID. */
  effectBindings: optional(Schema.Record({ key: Symbol, value: Schema.Union(Schema.Literal("$anchor"), Symbol) }))
}).annotations({ identifier: "CompositionRule" })
export type CompositionRule = typeof CompositionRule.Type

/** Numeric fields a patch may add to or set on a component's effect. */
export const NumericField = Schema.Literal("amount", "stacks", "duration", "repeat")
export type NumericField = typeof NumericField.Type

const PatchValue = Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000))

/** Structural patches, applied in ledger order before any rule. */
export const Patch = Schema.Union(
  Schema.Struct({ op: Schema.Literal("addTags"), tags: SymbolList }),
  Schema.Struct({ op: Schema.Literal("removeTags"), tags: SymbolList }),
  Schema.Struct({ op: Schema.Literal("addCapabilities"), componentId: Symbol, capabilityIds: SymbolList }),
  Schema.Struct({ op: Schema.Literal("addNumber"), componentId: Symbol, field: NumericField, value: PatchValue }),
  Schema.Struct({ op: Schema.Literal("setNumber"), componentId: Symbol, field: NumericField, value: PatchValue }),
  Schema.Struct({ op: Schema.Literal("addCost"), value: PatchValue }),
  Schema.Struct({ op: Schema.Literal("setCost"), value: PatchValue }),
  Schema.Struct({
    op: Schema.Literal("addComponent"),
    /** Attach as a child of this component; absent: a new root. */
    parentId: optional(Symbol),
    component: EffectComponent
  }),
  Schema.Struct({ op: Schema.Literal("removeComponent"), componentId: Symbol })
).annotations({ identifier: "Patch" })
export type Patch = typeof Patch.Type

export const Eligibility = Schema.Struct({
  /** Only these base cards; absent: any card meeting the requirements. */
  cardIds: optional(SymbolList)
})

export const Transformation = Schema.Struct({
  upgradeId: AuthoredId,
  category: AuthoredId,
  slotId: optional(AuthoredId),
  eligibility: optional(Eligibility),
  /** How many times it may be applied to one card (default 1). */
  maxPerCard: optional(PositiveInt),
  /** Upgrade IDs that cannot share a card with this one (symmetric). */
  excludes: optional(SymbolList),
  requirements: optional(Requirements),
  patches: optional(Schema.Array(Patch)),
  compositionRules: optional(
    Schema.Array(CompositionRule).pipe(
      Schema.maxItems(Limits.rulesPerTransformation, {
        message: (issue) =>
          `a transformation has at most ${Limits.rulesPerTransformation} rules (got ${
            (issue.actual as ReadonlyArray<unknown>).length
          })`,
        ...withLimit("rule_limit", { measure: "length", max: Limits.rulesPerTransformation })
      })
    )
  ),
  metadata: optional(Metadata),
  /**
   * Internal: written only by `CardBundleCompiler.Seal` into ledger entries.
   * Accepted and ignored in authoring JSON, so it can never inject rules.
   */
  closedCompositionRules: optional(Schema.Unknown)
}).annotations({ identifier: "Transformation" })
export type Transformation = typeof Transformation.Type
