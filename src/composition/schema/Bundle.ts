/**
 * Bundles: the closed groups of components a composition rule expands. A
 * template declares `effectComponentParameters`, used only as
 * `payloadBindings.cardEffectComponentId: "$name"`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { withLimit } from "../../kernel/Decode.js"
import { Limits } from "../../kernel/Limits.js"
import { optional } from "../../kernel/SchemaExt.js"
import { EffectComponent } from "./Card.js"
import { AuthoredId, Metadata, SymbolList } from "./Symbols.js"

export const Bundle = Schema.Struct({
  bundleId: AuthoredId,
  /** Template parameters; a bundle that declares them is a template. */
  effectComponentParameters: optional(SymbolList),
  components: Schema.Array(EffectComponent).pipe(
    Schema.maxItems(Limits.membersPerBundle, {
      message: (issue) =>
        `a bundle has at most ${Limits.membersPerBundle} members (got ${
          (issue.actual as ReadonlyArray<unknown>).length
        })`,
      ...withLimit("member_limit", { measure: "length", max: Limits.membersPerBundle })
    })
  ),
  metadata: optional(Metadata)
}).annotations({ identifier: "Bundle" })
export type Bundle = typeof Bundle.Type
