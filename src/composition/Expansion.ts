/**
 * Expansion identities. Each expansion of a composition rule gets
 * `namespace + "_" + the first 16 hex characters of sha256(canonical JSON of
 * the anchor ID)`; its members (and their nested local aliases) become
 * `<expansionId>.<memberId>`. A sequence scope with no anchor uses the anchor
 * ID `<upgradeId>/<ruleId>`. Bound external IDs keep their own ID. Nothing
 * here depends on a clock, map order or RNG: same anchor, same bytes.
 *
 * @since 0.1.0
 */
import { canonicalJson, sha256Hex } from "../kernel/Canonical.js"
import { Limits } from "../kernel/Limits.js"

/** The hash part of an expansion ID: first 16 hex characters of sha256(canonical JSON of the anchor ID). */
export const anchorHash = (anchorId: string): string =>
  sha256Hex(canonicalJson(anchorId)).slice(0, Limits.expansionHashLength)

/** `namespace_<anchorHash>`. */
export const expansionId = (namespace: string, anchorId: string): string => `${namespace}_${anchorHash(anchorId)}`

/** The anchor ID a sequence scope uses when it has no anchor: `<upgradeId>/<ruleId>`. */
export const sequenceAnchorId = (upgradeId: string, ruleId: string): string => `${upgradeId}/${ruleId}`

/** A member's (or local alias's) generated ID: `<expansionId>.<memberId>`. */
export const memberId = (expansion: string, localId: string): string => `${expansion}.${localId}`

/**
 * Memoizes expansion IDs per namespace: the same rule expands on the same
 * anchors at every resolution, so the hash is computed once per anchor. The
 * memo is bounded by the anchors a rule has actually met.
 */
export class ExpansionIds {
  private readonly memo = new Map<string, string>()
  constructor(readonly namespace: string) {}
  /** The expansion ID of `anchorId` in this namespace. */
  of(anchorId: string): string {
    let id = this.memo.get(anchorId)
    if (id === undefined) {
      id = expansionId(this.namespace, anchorId)
      this.memo.set(anchorId, id)
    }
    return id
  }
}
