/**
 * Choosing targets (RULES.md §7.2): the target slots of a card's effects,
 * every legal assignment of candidates to them (two targets of one effect
 * are different cards), and the action IDs' target suffixes.
 *
 * @since 0.1.0
 */
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { TargetSpec } from "../Schema.js"
import type { ZoneName } from "../Vocabulary.js"
import type { CompiledCard } from "./Compiled.js"
import { groupCards, matches, seatsOf, zoneArray } from "./Reading.js"
import { ActionTrie, type Runtime } from "./Runtime.js"
import type { GameAction, GameState, Seat } from "./State.js"

export const targetSuffix = (t: Readonly<Record<string, string>> | null): string => {
  if (t === null) return ""
  const keys = Object.keys(t).sort(compareOrdinal)
  return keys.length === 0 ? "" : ":" + keys.map((k) => `${k}=${t[k] ?? ""}`).join(",")
}

export const NO_TARGETS: Array<Readonly<Record<string, string>> | null> = [null]

/** One target to choose: its key `<effect index>/<target id>`, its spec, and the earlier slots of the same effect. */
export interface TargetSlot {
  readonly key: string
  readonly spec: TargetSpec
  /** Indexes of earlier slots of the same effect: two targets of one effect are different cards. */
  readonly same: ReadonlyArray<number>
}

/**
 * The targets of a list of effects, in declaration order, with the slot
 * indexes in ordinal order of their keys (for action IDs). Built once per
 * card and effect list; `generic` when two slots share a key, which the
 * slot-based enumeration does not model (then the record-based one runs).
 */
export interface TargetPlan {
  readonly slots: ReadonlyArray<TargetSlot>
  readonly sorted: ReadonlyArray<number>
  readonly generic: boolean
  /** The plan's targeted actions by card instance (see `pushTargeted`): kept with the plan, one lookup less. */
  readonly actions: ActionTrie
}

/** The target plan of `effects` on `card`, kept in the engine's memo under `key` (the cast window, or the activated effect's index). */
export const targetPlan = (
  c: Runtime,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  key: string | number
): TargetPlan => {
  // Cast offers in `main` (most enumerations) by card index: an array read instead of two map probes.
  if (key === "main") {
    const known = c.memo.mainPlans[card.index]
    if (known !== undefined) return known
  } else if (typeof key === "number") {
    // Activations by card index and effect index, the same way.
    const known = c.memo.activationPlans[card.index]?.[key]
    if (known !== undefined) return known
  }
  let byKey = c.memo.plans.get(card)
  if (byKey === undefined) {
    byKey = new Map()
    c.memo.plans.set(card, byKey)
  }
  let plan = byKey.get(key)
  if (plan === undefined) {
    const slots: Array<TargetSlot> = []
    const owner: Array<number> = []
    for (const ei of effects) {
      for (const spec of card.def.effects[ei]?.targets ?? []) {
        const same: Array<number> = []
        for (let j = 0; j < slots.length; j++) if (owner[j] === ei) same.push(j)
        slots.push({ key: `${ei}/${spec.id}`, spec, same })
        owner.push(ei)
      }
    }
    const keys = slots.map((x) => x.key)
    const sorted = keys.map((_, j) => j).sort((a, b) => compareOrdinal(keys[a] as string, keys[b] as string))
    plan = { slots, sorted, generic: new Set(keys).size !== keys.length, actions: new ActionTrie() }
    byKey.set(key, plan)
  }
  if (key === "main") c.memo.mainPlans[card.index] = plan
  else if (typeof key === "number") {
    const byEffect = c.memo.activationPlans[card.index] ?? []
    byEffect[key] = plan
    c.memo.activationPlans[card.index] = byEffect
  }
  return plan
}

/**
 * Every assignment of candidates to the plan's slots (§7.2), in the order
 * of the record-based enumeration: earlier slots vary slowest, candidates
 * in zone order. Empty when some slot has no legal choice.
 */
export const targetAssignments = (c: Runtime, s: GameState, plan: TargetPlan, ctrl: Seat): Array<Array<string>> => {
  let acc: Array<Array<string>> = [[]]
  for (const slot of plan.slots) {
    const cands = groupCards(c, s, ctrl, slot.spec)
    const next: Array<Array<string>> = []
    for (const partial of acc) {
      for (const inst of cands) {
        let taken = false
        for (const j of slot.same) if (partial[j] === inst) taken = true
        if (!taken) {
          const grown = partial.slice()
          grown.push(inst)
          next.push(grown)
        }
      }
    }
    acc = next
    if (acc.length === 0) return acc
  }
  return acc
}

/** The chosen-targets record of an assignment: keys in slot order (as the state stores them). */
export const targetRecord = (plan: TargetPlan, chosen: ReadonlyArray<string>): Record<string, string> => {
  const t: Record<string, string> = {}
  for (let j = 0; j < plan.slots.length; j++) t[(plan.slots[j] as TargetSlot).key] = chosen[j] as string
  return t
}

/** `targetSuffix` of an assignment's record, from the plan's key order. */
export const planSuffix = (plan: TargetPlan, chosen: ReadonlyArray<string>): string => {
  let out = ""
  for (let k = 0; k < plan.sorted.length; k++) {
    const j = plan.sorted[k] as number
    out += `${k === 0 ? ":" : ","}${(plan.slots[j] as TargetSlot).key}=${chosen[j] as string}`
  }
  return out
}

/** All target assignments for the targets of `effects` (§7.2), or [null] when there are none. */
export const targetChoices = (
  c: Runtime,
  s: GameState,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  ctrl: Seat
): Array<Readonly<Record<string, string>> | null> => {
  if (!card.hasTargets) return NO_TARGETS
  let acc: Array<Record<string, string>> = [{}]
  for (const ei of effects) {
    const specs = card.def.effects[ei]?.targets ?? []
    for (const spec of specs) {
      const cands = groupCards(c, s, ctrl, spec)
      const next: Array<Record<string, string>> = []
      for (const partial of acc) {
        for (const inst of cands) {
          // Two targets of one effect are different cards.
          let taken = false
          for (const k in partial) if (k.startsWith(`${ei}/`) && partial[k] === inst) taken = true
          if (!taken) next.push({ ...partial, [`${ei}/${spec.id}`]: inst })
        }
      }
      acc = next
      if (acc.length === 0) return []
    }
  }
  return acc.length === 1 && Object.keys(acc[0] as object).length === 0 ? NO_TARGETS : acc
}

/**
 * The cast action (`effect` null) or activation of effect `effect` of `src`, from its ID's target
 * suffix and its targets.
 */
const targetedAction = (
  src: string,
  seat: Seat,
  effect: number | null,
  suffix: string,
  targets: Readonly<Record<string, string>> | null
): GameAction =>
  effect === null
    ? { id: `cast:${src}${suffix}`, player: seat, kind: "cast", inst: src, effect: null, targets, choice: null }
    : {
      id: `activate:${src}:E${effect + 1}${suffix}`,
      player: seat,
      kind: "activate",
      inst: src,
      effect,
      targets,
      choice: null
    }

/**
 * Pushes the actions of card instance `src` for every target assignment of
 * `effects` (§7.2): casts when `effect` is null, else activations of that
 * effect (no closure per offer: this runs for every targeted card of every enumeration). An action is fully determined by the plan, `src`, its player and
 * the chosen targets, and immutable: the engine's memo
 * keeps each one built, so enumeration builds no ID or record twice.
 */
export const pushTargeted = (
  c: Runtime,
  s: GameState,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  planKey: string | number,
  ctrl: Seat,
  src: string,
  effect: number | null,
  out: Array<GameAction>
): void => {
  const plan = targetPlan(c, card, effects, planKey)
  if (plan.generic) {
    for (const t of targetChoices(c, s, card, effects, ctrl)) {
      out.push(targetedAction(src, ctrl, effect, targetSuffix(t), t))
    }
    return
  }
  if (plan.slots.length === 0) {
    out.push(targetedAction(src, ctrl, effect, "", null))
    return
  }
  const root = plan.actions.at(src).seat(ctrl)
  if (plan.slots.length === 1) {
    // One slot (most targeted cards): its candidates in zone order are the assignments.
    const g = (plan.slots[0] as TargetSlot).spec
    const chosen = c.memo.chosen
    const seats = seatsOf(ctrl, g.controller)
    for (let k = 0; k < seats.length; k++) {
      const zone = zoneArray(s.players[seats[k] as Seat], g.zone as ZoneName) ?? []
      for (let z = 0; z < zone.length; z++) {
        const inst = zone[z] as string
        if (!matches(c, s, inst, g)) continue
        const leaf = root.at(inst)
        if (leaf.action === undefined) {
          chosen[0] = inst
          leaf.action = targetedAction(src, ctrl, effect, planSuffix(plan, chosen), targetRecord(plan, chosen))
        }
        out.push(leaf.action)
      }
    }
    return
  }
  walkAssignments(c, s, plan, ctrl, 0, root, c.memo.chosen, src, effect, out)
}

/**
 * The assignments of slots `j…` after the choices `chosen[0 .. j-1]`, depth first: earlier slots vary
 * slowest and candidates come in zone order (the order of `targetAssignments`), without building the
 * assignment lists. With `out`, pushes each assignment's action (from the trie under `node`) and
 * returns false; without, returns whether there is one (`hasTargetChoice`).
 */
const walkAssignments = (
  c: Runtime,
  s: GameState,
  plan: TargetPlan,
  ctrl: Seat,
  j: number,
  node: ActionTrie | null,
  chosen: Array<string>,
  src: string,
  effect: number | null,
  out: Array<GameAction> | null
): boolean => {
  if (j === plan.slots.length) {
    if (out === null || node === null) return true
    node.action ??= targetedAction(src, ctrl, effect, planSuffix(plan, chosen), targetRecord(plan, chosen))
    out.push(node.action)
    return false
  }
  const slot = plan.slots[j] as TargetSlot
  const g = slot.spec
  const seats = seatsOf(ctrl, g.controller)
  for (let k = 0; k < seats.length; k++) {
    const zone = zoneArray(s.players[seats[k] as Seat], g.zone as ZoneName) ?? []
    for (let z = 0; z < zone.length; z++) {
      const inst = zone[z] as string
      if (!matches(c, s, inst, g)) continue
      // Two targets of one effect are different cards.
      let taken = false
      for (let q = 0; q < slot.same.length; q++) if (chosen[slot.same[q] as number] === inst) taken = true
      if (taken) continue
      chosen[j] = inst
      if (walkAssignments(c, s, plan, ctrl, j + 1, node === null ? null : node.at(inst), chosen, src, effect, out)) {
        return true
      }
    }
  }
  return false
}

/** Whether `effects` have at least one target assignment (or no targets). */
export const hasTargetChoice = (
  c: Runtime,
  s: GameState,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  planKey: string | number,
  ctrl: Seat
): boolean => {
  if (!card.hasTargets) return true
  const plan = targetPlan(c, card, effects, planKey)
  return plan.generic
    ? targetChoices(c, s, card, effects, ctrl).length > 0
    : walkAssignments(c, s, plan, ctrl, 0, null, c.memo.chosen, "", null, null)
}
