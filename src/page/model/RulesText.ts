/**
 * A composition-core card's rules text, generated from its effective
 * definition: one sentence per component in execution order, children after
 * their anchor with their timing (`Deal 6 damage to the target. After each
 * impact: apply 1 Burning for 3 turns to the target.`). Pure; the numbers are
 * the effective card's, so an upgrade's change shows in the text.
 *
 * @since 0.1.0
 */
import type { EffectDoc, EffectiveDoc } from "./Docs.js"
import type { Names } from "./Names.js"
import { componentTree, type TreeNode } from "./Tree.js"

const TARGETS: Readonly<Record<string, string>> = {
  TARGET: "the target",
  SELF: "yourself",
  ALL_ENEMIES: "every enemy",
  ALL_ALLIES: "every ally",
  RANDOM_ENEMY: "a random enemy"
}

const target = (t: string): string => TARGETS[t] ?? t.toLowerCase().replace(/_/g, " ")

/** When a child runs, in words: its timing and execution scope. */
const when = (t: NonNullable<TreeNode["timing"]>): string =>
  `${t.childTiming === "BeforeParentImpact" ? "Before" : "After"} ${
    t.executionScope === "OncePerParentProc" ? "it hits" : "each impact"
  }`

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** One effect as an English clause: `deal 6 damage to the target`. */
export const effectClause = (e: EffectDoc, names: Names): string => {
  let s: string
  if (e.type === "APPLY_STATUS") {
    const stacks = e.stacks ?? 1
    s = `apply ${stacks} ${names.status(e.statusId ?? "?")}${
      e.duration === undefined ? "" : ` for ${plural(e.duration, "turn")}`
    } to ${target(e.target)}`
  } else if (e.type === "HEAL") {
    s = `heal ${target(e.target)} for ${e.amount ?? 0}`
  } else {
    s = `deal ${e.amount ?? 0} damage to ${target(e.target)}`
  }
  if (e.repeat !== undefined && e.repeat !== 1) s += `, ${e.repeat} times`
  if (e.chance !== undefined && e.chance !== 1) s += ` (${Math.round(e.chance * 100)}% chance)`
  const conds = (e.conditions ?? []).map((c) => condition(c, names))
  if (conds.length > 0) s += ` if ${conds.join(" and ")}`
  return s
}

type ConditionDoc = NonNullable<EffectDoc["conditions"]>[number]

/** A condition fact in words: `the target is alive`, `you have at least 2 Burning`, `the target has at most 10 HP`. */
const condition = (c: ConditionDoc, names: Names): string => {
  const who = c.fact.startsWith("actor.") ? "you" : "the target"
  const not = c.not === true
  switch (c.fact) {
    case "target.alive":
    case "actor.alive":
      return `${who} ${who === "you" ? (not ? "are not" : "are") : not ? "is not" : "is"} alive`
    case "target.hasStatus":
    case "actor.hasStatus":
      return `${who} ${not ? (who === "you" ? "do not have" : "does not have") : who === "you" ? "have" : "has"} ${
        c.value === undefined ? "" : `at least ${c.value} `
      }${names.status(c.statusId ?? "?")}`
    case "target.hpAtMost":
      return `${who} ${not ? "does not have" : "has"} at most ${c.value ?? 0} HP`
    case "target.hpAtLeast":
      return `${who} ${not ? "does not have" : "has"} at least ${c.value ?? 0} HP`
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

export interface RulesLine {
  readonly componentId: string
  readonly depth: number
  readonly text: string
}

/** The card's rules, one line per component, depth first in execution order. */
export const rulesLines = (card: EffectiveDoc, names: Names): ReadonlyArray<RulesLine> => {
  const out: Array<RulesLine> = []
  const walk = (nodes: ReadonlyArray<TreeNode>, depth: number, effects: ReadonlyMap<string, EffectDoc>) => {
    for (const n of nodes) {
      const e = effects.get(n.componentId)
      if (e !== undefined) {
        const clause = effectClause(e, names)
        const head = n.timing === null ? capital(clause) : `${when(n.timing)}: ${clause}`
        out.push({ componentId: n.componentId, depth, text: `${head}.` })
      }
      walk(n.children, depth + 1, effects)
    }
  }
  const effects = new Map<string, EffectDoc>()
  const index = (cs: EffectiveDoc["components"]): void => {
    for (const c of cs) {
      effects.set(c.componentId, c.effect)
      index(c.children ?? [])
    }
  }
  index(card.components)
  walk(componentTree(card), 0, effects)
  return out
}

/** The rules text as one paragraph. */
export const rulesText = (card: EffectiveDoc, names: Names): string =>
  rulesLines(card, names).map((l) => l.text).join(" ")
