/**
 * One effective card drawn as a card: its display name (the locale table's,
 * the ID one hover away), cost, tags, the rules text generated from the
 * effective definition, and its components as a tree (roots in execution
 * order, children under their anchor), each named by where it came from
 * (`Ember affinity → burn`) and marked with the ledger entry and rule that
 * produced it; components the last command changed are highlighted, and in
 * a before/after pair the added and changed ones are marked with what changed.
 *
 * @since 0.1.0
 */
import type { ComponentChange } from "../model/Diff.js"
import type { EffectiveDoc } from "../model/Docs.js"
import type { Names } from "../model/Names.js"
import { rulesLines } from "../model/RulesText.js"
import { componentTree, originLabel, type TreeNode } from "../model/Tree.js"

/** What a before/after pair marks on a component. */
export type Marks = ReadonlyMap<string, ComponentChange>

const markText = (m: ComponentChange): string =>
  m.kind === "changed" ? m.fields.map((f) => `${f.field} ${f.before} → ${f.after}`).join("; ") : m.kind

const Node = ({ node, names, marks }: { readonly node: TreeNode; readonly names: Names; readonly marks: Marks }) => {
  const mark = marks.get(node.componentId)
  return (
    <li
      class={`component${node.changed ? " changed" : ""} origin-${node.origin.kind}${
        mark === undefined ? "" : ` diff-${mark.kind}`
      }`}
      data-component-id={node.componentId}
      data-origin-entry={node.origin.kind === "rule" ? node.origin.entryId : "base"}
      data-origin-transformation={node.origin.kind === "rule" ? node.origin.transformationId : ""}
      data-changed={node.changed ? "true" : "false"}
      data-diff={mark?.kind ?? ""}
    >
      <div class="component-line">
        <span class="scope engine">{node.scope}</span>
        <span class="component-name" title={node.componentId}>
          {names.component(node.componentId, node.origin)}
        </span>
        <span class="summary engine">{node.summary}</span>
      </div>
      <div class="component-meta">
        <span class="placement engine">{node.placement}</span>
        <span class="origin engine">{originLabel(node.origin)}</span>
        {node.changed ? <span class="changed-mark">changed</span> : null}
        {mark === undefined ? null : <strong class="diff-mark">{markText(mark)}</strong>}
      </div>
      {node.children.length > 0 ?
        (
          <ul class="children" aria-label={`children of ${node.componentId}`}>
            {node.children.map((c) => <Node key={c.componentId} node={c} names={names} marks={marks} />)}
          </ul>
        ) :
        null}
    </li>
  )
}

const NO_MARKS: Marks = new Map()

export const CardFace = (
  { card, names, changed = [], marks = NO_MARKS, label }: {
    readonly card: EffectiveDoc
    readonly names: Names
    readonly changed?: ReadonlyArray<string>
    readonly marks?: Marks
    /** The card's accessible name, when two faces of one card are on the page (before / after). */
    readonly label?: string
  }
) => {
  const tree = componentTree(card, changed)
  const name = names.card(card.cardId, card.metadata.nameKey)
  return (
    <article class="card-face" aria-label={label ?? `card ${name}`} data-card-id={card.cardId}>
      <header class="card-head">
        <h3 class="card-name" title={card.cardId} data-card-name={name}>
          {name}
        </h3>
        <span class="cost" data-cost={card.cost} title="cost">
          <span class="sr-only">cost</span>
          {card.cost}
        </span>
      </header>
      <ul class="tags" aria-label="tags">
        {(card.tags ?? []).map((t) => (
          <li key={t} class="tag">
            {t}
          </li>
        ))}
      </ul>
      <div class="rules-text" aria-label="rules text">
        {rulesLines(card, names).map((l) => (
          <p
            key={l.componentId}
            class={`rules-line${marks.has(l.componentId) ? ` diff-${marks.get(l.componentId)?.kind ?? ""}` : ""}`}
            style={{ marginLeft: `${l.depth}em` }}
            data-rules-for={l.componentId}
          >
            {l.text}
          </p>
        ))}
      </div>
      <details class="components" open>
        <summary>Components</summary>
        <ul class="tree" aria-label="components">
          {tree.map((n) => <Node key={n.componentId} node={n} names={names} marks={marks} />)}
        </ul>
      </details>
      <footer class="fingerprint engine">
        fingerprint <code title={card.fingerprint}>{card.fingerprint.slice(0, 16)}…</code>
      </footer>
    </article>
  )
}
