/**
 * One effective card drawn as a card: name, cost, tags, and its components
 * as a tree (roots in execution order, children under their anchor), each
 * marked with the ledger entry and rule that produced it; components the
 * last command changed are highlighted.
 *
 * @since 0.1.0
 */
import type { EffectiveDoc } from "../model/Docs.js"
import { componentTree, originLabel, type TreeNode } from "../model/Tree.js"

const Node = ({ node }: { readonly node: TreeNode }) => (
  <li
    class={`component${node.changed ? " changed" : ""} origin-${node.origin.kind}`}
    data-component-id={node.componentId}
    data-origin-entry={node.origin.kind === "rule" ? node.origin.entryId : "base"}
    data-origin-transformation={node.origin.kind === "rule" ? node.origin.transformationId : ""}
    data-changed={node.changed ? "true" : "false"}
  >
    <div class="component-line">
      <span class="scope" title="scope">{node.scope}</span>
      <code class="component-id">{node.componentId}</code>
      <span class="summary">{node.summary}</span>
    </div>
    <div class="component-meta">
      <span class="placement">{node.placement}</span>
      <span class="origin">{originLabel(node.origin)}</span>
      {node.changed ? <span class="changed-mark">changed</span> : null}
    </div>
    {node.children.length > 0 ?
      (
        <ul class="children" aria-label={`children of ${node.componentId}`}>
          {node.children.map((c) => <Node key={c.componentId} node={c} />)}
        </ul>
      ) :
      null}
  </li>
)

export const CardFace = (
  { card, name = null, changed = [] }: {
    readonly card: EffectiveDoc
    readonly name?: string | null
    readonly changed?: ReadonlyArray<string>
  }
) => {
  const tree = componentTree(card, changed)
  return (
    <article class="card-face" aria-label={`card ${card.cardId}`} data-card-id={card.cardId}>
      <header class="card-head">
        <h3 class="card-name">
          {name ?? card.cardId} {name === null ? null : <code class="muted">{card.cardId}</code>}
        </h3>
        <span class="cost" aria-label={`cost ${card.cost}`}>
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
      <ul class="tree" aria-label="components">
        {tree.map((n) => <Node key={n.componentId} node={n} />)}
      </ul>
      <footer class="fingerprint" title="fingerprint">
        <code>{card.fingerprint.slice(0, 16)}…</code>
      </footer>
    </article>
  )
}
