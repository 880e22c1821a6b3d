/**
 * The Hallyu Hex explanation `cardfx hhx explain` prints — a card's effect
 * records as generated English beside its printed `rules_text` — for the
 * clients of the HTTP contract (the workbench page writes its hand cards and
 * its game log in these words). Named re-exports of the pure module
 * src/hallyu/Explain.ts, which imports types only.
 *
 * @since 0.1.0
 */
export { explainCard, type ExplainedCard, type ExplainedEffect, explainEffect } from "../hallyu/Explain.js"
