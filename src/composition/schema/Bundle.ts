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
import { described, optionalDescribed } from "../../kernel/SchemaExt.js"
import { EffectComponent } from "./Card.js"
import { AuthoredId, Metadata, SymbolList } from "./Symbols.js"

export const Bundle = Schema.Struct({
  bundleId: described(AuthoredId, "The bundle's ID (composition rules name it)."),
  /** Template parameters; a bundle that declares them is a template. */
  effectComponentParameters: optionalDescribed(
    SymbolList,
    "Template parameters (used as payloadBindings.cardEffectComponentId \"$name\"); a bundle that declares them is a template."
  ),
  components: described(
    Schema.Array(EffectComponent).pipe(
      Schema.maxItems(Limits.membersPerBundle, {
        message: (issue) =>
          `a bundle has at most ${Limits.membersPerBundle} members (got ${
            (issue.actual as ReadonlyArray<unknown>).length
          })`,
        ...withLimit("member_limit", { measure: "length", max: Limits.membersPerBundle })
      })
    ),
    `The components a rule adds (at most ${Limits.membersPerBundle}).`
  ),
  metadata: optionalDescribed(Metadata, "Display keys of the bundle.")
}).annotations({ identifier: "Bundle", description: "A closed group of components a composition rule expands." })
export type Bundle = typeof Bundle.Type
