/**
 * An upgrade's before and after, side by side: the card as it was and as it
 * is (or would be, for a preview), with every changed number and component
 * marked on the after card, the list of changes, and the fingerprint change.
 *
 * @since 0.1.0
 */
import { cardDiff } from "../model/Diff.js"
import type { EffectiveDoc } from "../model/Docs.js"
import type { Names } from "../model/Names.js"
import { componentTree, flatten } from "../model/Tree.js"
import { CardFace } from "./CardFace.js"

export interface Comparison {
  /** `Preview: Ember affinity`, `Applied: Ember affinity`. */
  readonly title: string
  readonly before: EffectiveDoc
  readonly after: EffectiveDoc
}

export const BeforeAfter = (
  { comparison, names, onClose }: {
    readonly comparison: Comparison
    readonly names: Names
    readonly onClose: () => void
  }
) => {
  const diff = cardDiff(comparison.before, comparison.after)
  const marks = new Map(diff.components.map((c) => [c.componentId, c]))
  // Each component by its display name (a generated member by its origin), the ID one hover away.
  const label = new Map(
    [...flatten(componentTree(comparison.before)), ...flatten(componentTree(comparison.after))].map((
      n
    ) => [n.componentId, names.component(n.componentId, n.origin)])
  )
  const removed = new Map(diff.components.filter((c) => c.kind === "removed").map((c) => [c.componentId, c]))
  return (
    <section class="before-after" aria-labelledby="before-after-title">
      <div class="before-after-head">
        <h3 id="before-after-title">{comparison.title}</h3>
        <button type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <ul class="diff" aria-label="What changed">
        {diff.card.map((f) => (
          <li key={f.field} data-diff-field={f.field}>
            {f.field}: <del>{f.before}</del> → <ins>{f.after}</ins>
          </li>
        ))}
        {diff.components.map((c) => (
          <li key={c.componentId} data-diff-component={c.componentId} data-diff-kind={c.kind}>
            {c.kind === "changed" ?
              (
                <>
                  <span title={c.componentId}>{label.get(c.componentId) ?? c.componentId}</span>:{" "}
                  {c.fields.map((f, i) => (
                    <span key={f.field} data-diff-field={f.field}>
                      {i > 0 ? "; " : ""}
                      {f.field} <del>{f.before}</del> → <ins>{f.after}</ins>
                    </span>
                  ))}
                </>
              ) :
              (
                <>
                  {c.kind === "added" ? "new: " : "removed: "}
                  <span title={c.componentId}>{label.get(c.componentId) ?? c.componentId}</span>
                </>
              )}
          </li>
        ))}
        {diff.fingerprint === null ?
          <li class="engine">fingerprint unchanged</li> :
          (
            <li class="fingerprint-change engine" data-fingerprint-before={diff.fingerprint.before}>
              fingerprint <code>{diff.fingerprint.before.slice(0, 12)}…</code> →{" "}
              <code data-fingerprint-after={diff.fingerprint.after}>{diff.fingerprint.after.slice(0, 12)}…</code>
            </li>
          )}
      </ul>
      <div class="pair">
        <div class="side before">
          <h4>Before</h4>
          <CardFace card={comparison.before} names={names} marks={removed} label="before" />
        </div>
        <div class="side after">
          <h4>After</h4>
          <CardFace card={comparison.after} names={names} marks={marks} label="after" />
        </div>
      </div>
    </section>
  )
}
