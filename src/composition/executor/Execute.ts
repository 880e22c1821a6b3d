/**
 * The common executor's pure core: one sequence (one play of an effective
 * card by an actor at chosen targets) as one transaction over a combat state.
 *
 * Walk. Roots run in compiled order (BeforeSequence expansions, structural
 * roots, AfterSequence expansions — the compiler's ranks already put them
 * there; a sequence-scope expansion is an ordinary root, so it runs once per
 * rule and is independent of any other root's chance). A node *activation*
 * resolves its targets, then for each target, for each repeat, makes one
 * *impact attempt*:
 *   1. spend one unit of the sequence budget (roots and children share it);
 *   2. conditions, on the live state (false → `skip`/`condition`);
 *   3. chance (< 1 draws one float; fail → `skip`/`chance`; exactly 1 draws
 *      nothing; 0 fails without drawing);
 *   4. `BeforeParentImpact` children (they may change the live state);
 *   5. the numeric resolution through the bucket pipeline against the live
 *      state, then apply (HP clamped to [0, maxHp]) — or apply the status;
 *   6. `AfterParentImpact` + `PerImpact` children, then
 *      `AfterParentImpact` + `OncePerParentProc` children.
 * A skipped attempt runs no children. A zero-change impact is an impact.
 *
 * Proc. A *proc* of a node is one activation of it: a root's single
 * activation in the sequence, or a child's activation for one impact of its
 * parent. It spans all the node's targets and repeats. A `OncePerParentProc`
 * child is attempted at most once per proc of its parent: the first time its
 * turn comes (after the parent's first successful impact, or before it for a
 * `BeforeParentImpact` child) it reserves the proc's slot — even when the
 * child's own conditions or chance then fail — and later impacts of the same
 * proc pass it over (no attempt, no budget, no event).
 *
 * Targets. Roots: `TARGET` is every chosen target in request order. Children:
 * `TARGET` is the parent's current impact target. `SELF` is the actor;
 * `ALL_ENEMIES`/`ALL_ALLIES` are the living characters of the other/own side
 * in position order, read from the live state at activation;
 * `RANDOM_ENEMY` picks one living enemy per repeat (one `pick` draw when
 * there are two or more candidates; none when there is exactly one). No
 * living candidate → one `skip`/`no_target` attempt.
 *
 * Transaction. Characters are copied on first write; any failure returns the
 * original state object untouched. Failures: `budget_exceeded`,
 * `unknown_character` (an ID that is not in the state), `actor_defeated` (no
 * actor named, or the actor's HP is 0), `invalid_target` (a chosen target is
 * defeated or chosen twice, or the card has a root `TARGET` and none is
 * chosen), `rng_mismatch` (replay inputs not consumed exactly, or a draw with
 * no random source), `unknown_reference` (a status/relic/buff/attribute the
 * catalog does not have).
 *
 * @since 0.1.0
 */
import { type Budget, budgetExceeded, makeBudget } from "../../kernel/Budget.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { Limits } from "../../kernel/Limits.js"
import { type RngState, RngStream, seedState } from "../../kernel/Rng.js"
import type { CompiledContainer, CompiledEffect, CompiledNode } from "../Compiled.js"
import type { Condition } from "../schema/Card.js"
import { type ExecutorLookups, resolveAmount } from "./Buckets.js"
import { type Character, type CombatState, stateFingerprint, type StatusInstance } from "./CombatState.js"
import type { ExecutorEvent, RandomInput, SequenceResult } from "./Events.js"
import { applyStatus, putStatus } from "./Statuses.js"

/** How a sequence is asked for. Exactly one random source should be given when the card draws. */
export interface SequenceRequest {
  readonly actorId: string
  readonly targetIds: ReadonlyArray<string>
  /** A seed: the stream is `seedState(seed, "sequence")`. */
  readonly seed?: number | string | undefined
  /** An explicit stream state (takes precedence over `seed`). */
  readonly rng?: RngState | undefined
  /** Replay: consume exactly these recorded inputs instead of drawing. */
  readonly replay?: ReadonlyArray<RandomInput> | undefined
  /** Node attempts allowed (default `Limits.sequenceNodeBudget`). */
  readonly budget?: number | undefined
  /** Compute the state fingerprint (default true; batch benchmarks turn it off). */
  readonly fingerprint?: boolean | undefined
}

/** A sequence's outcome: the result, or the diagnostic with the original state object. */
export type SequenceOutcome =
  | { readonly ok: true; readonly result: SequenceResult }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly state: CombatState }

// ---------------------------------------------------------------------------
// Plan: the compiled tree partitioned once per container (cached by identity).

const K_TARGET = 0
const K_SELF = 1
const K_ALL_ENEMIES = 2
const K_RANDOM_ENEMY = 3
const K_ALL_ALLIES = 4

const kindCode = {
  TARGET: K_TARGET,
  SELF: K_SELF,
  ALL_ENEMIES: K_ALL_ENEMIES,
  RANDOM_ENEMY: K_RANDOM_ENEMY,
  ALL_ALLIES: K_ALL_ALLIES
} as const

interface PlanNode {
  readonly id: string
  readonly effect: CompiledEffect
  readonly kind: number
  /** Slot of this node among its parent's once-per-proc children (-1: per impact). */
  readonly onceSlot: number
  readonly before: ReadonlyArray<PlanNode>
  readonly afterPer: ReadonlyArray<PlanNode>
  readonly afterOnce: ReadonlyArray<PlanNode>
  /** Number of once-per-proc children (size of the proc's reservation). */
  readonly onceCount: number
}

interface Plan {
  readonly roots: ReadonlyArray<PlanNode>
  readonly needsChosenTarget: boolean
}

const planNode = (node: CompiledNode, onceSlot: number): PlanNode => {
  let onceCount = 0
  const before: Array<PlanNode> = []
  const afterPer: Array<PlanNode> = []
  const afterOnce: Array<PlanNode> = []
  for (const child of node.children) {
    const once = child.executionScope === "OncePerParentProc"
    const p = planNode(child, once ? onceCount++ : -1)
    if (child.childTiming === "BeforeParentImpact") before.push(p)
    else if (once) afterOnce.push(p)
    else afterPer.push(p)
  }
  return {
    id: node.componentId,
    effect: node.effect,
    kind: kindCode[node.effect.target],
    onceSlot,
    before,
    afterPer,
    afterOnce,
    onceCount
  }
}

const planOf = (compiled: CompiledContainer): Plan => {
  const roots = compiled.roots.map((r) => planNode(r, -1))
  return { roots, needsChosenTarget: roots.some((r) => r.kind === K_TARGET) }
}

/**
 * Execution plans of compiled containers, each made once: containers are
 * immutable. Owned by whoever executes repeatedly (a `CardExecutor` service
 * instance, a scenario run); no module holds them.
 */
export class ExecutionPlans {
  private readonly plans = new WeakMap<CompiledContainer, Plan>()
  of(compiled: CompiledContainer): Plan {
    let plan = this.plans.get(compiled)
    if (plan === undefined) {
      plan = planOf(compiled)
      this.plans.set(compiled, plan)
    }
    return plan
  }
}

// ---------------------------------------------------------------------------
// The transaction.

type MutableCharacter = { -readonly [K in keyof Character]: Character[K] } & { statuses: Array<StatusInstance> }

const NO_RESERVATION = new Uint8Array(0)
const NO_RANDOM: ReadonlyArray<RandomInput> = []

class Tx {
  /** The live characters: a character is copied on its first write (then it is no longer the state's object). */
  readonly chars: Array<Character>
  readonly events: Array<ExecutorEvent> = []
  randomInputs: Array<RandomInput> | undefined
  failure: Diagnostic | undefined
  changed = false
  stream: RngStream | undefined
  replayCursor = 0

  constructor(
    readonly lookups: ExecutorLookups,
    readonly state: CombatState,
    readonly actor: number,
    readonly chosen: ReadonlyArray<number>,
    readonly budget: Budget,
    readonly request: SequenceRequest
  ) {
    this.chars = state.characters.slice()
  }

  writable(i: number): MutableCharacter {
    const c = this.chars[i] as Character
    if (c !== this.state.characters[i]) return c as MutableCharacter // copied earlier in this transaction
    const copy: MutableCharacter = { ...c, statuses: c.statuses.slice() }
    this.chars[i] = copy
    this.changed = true
    return copy
  }

  fail(d: Diagnostic): false {
    this.failure = d
    return false
  }

  /** One draw: a float for `chance`, an index in [0, n) for `pick`; NaN on failure. */
  draw(nodeId: string, purpose: "chance" | "pick", n: number): number {
    const replay = this.request.replay
    let value: number
    if (replay !== undefined) {
      const input = replay[this.replayCursor]
      if (input === undefined || input.nodeId !== nodeId || input.purpose !== purpose) {
        this.fail(
          diagnostic(
            "rng_mismatch",
            input === undefined
              ? `replay ran out of random inputs at a ${purpose} draw of "${nodeId}"`
              : `replay input ${this.replayCursor} is a ${input.purpose} of "${input.nodeId}", the run asked for a ${purpose} of "${nodeId}"`,
            { subject: nodeId, details: { index: this.replayCursor } }
          )
        )
        return NaN
      }
      value = input.value
      const valid = purpose === "chance" ? value >= 0 && value < 1 : Number.isInteger(value) && value >= 0 && value < n
      if (!valid) {
        this.fail(
          diagnostic(
            "rng_mismatch",
            `replay input ${this.replayCursor} (${value}) is not a valid ${purpose} value here`,
            {
              subject: nodeId,
              details: { index: this.replayCursor }
            }
          )
        )
        return NaN
      }
      this.replayCursor++
    } else {
      let stream = this.stream
      if (stream === undefined) {
        const r = this.request
        const initial = r.rng ?? (r.seed !== undefined ? seedState(r.seed, "sequence") : undefined)
        if (initial === undefined) {
          this.fail(
            diagnostic(
              "rng_mismatch",
              `"${nodeId}" needs a random draw but the request gave no seed, rng state or replay`,
              { subject: nodeId }
            )
          )
          return NaN
        }
        stream = this.stream = new RngStream(initial)
      }
      value = purpose === "chance" ? stream.float() : stream.int(n)
    }
    const input: RandomInput = { nodeId, purpose, value }
    ;(this.randomInputs ??= []).push(input)
    this.events.push({ type: "draw", nodeId, purpose, value })
    return value
  }
}

const holds = (c: Character, statusId: string | undefined, atLeast: number): boolean => {
  if (statusId === undefined) return false
  for (const s of c.statuses) if (s.statusId === statusId) return s.stacks >= atLeast
  return false
}

/** The first failing condition's fact, or undefined when all hold. */
const failedCondition = (tx: Tx, conditions: ReadonlyArray<Condition>, target: number): string | undefined => {
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Condition
    const t = tx.chars[target] as Character
    const a = tx.chars[tx.actor] as Character
    let v: boolean
    switch (c.fact) {
      case "target.alive":
        v = t.hp > 0
        break
      case "actor.alive":
        v = a.hp > 0
        break
      case "target.hasStatus":
        v = holds(t, c.statusId, c.value ?? 1)
        break
      case "actor.hasStatus":
        v = holds(a, c.statusId, c.value ?? 1)
        break
      case "target.hpAtMost":
        v = t.hp <= (c.value ?? 0)
        break
      case "target.hpAtLeast":
        v = t.hp >= (c.value ?? 0)
        break
    }
    if (c.not === true) v = !v
    if (!v) return c.fact
  }
  return undefined
}

/** Living characters of the actor's side (`same`) or the other side, in position order. */
const living = (tx: Tx, same: boolean): Array<number> => {
  const side = (tx.chars[tx.actor] as Character).side
  const out: Array<number> = []
  for (let i = 0; i < tx.chars.length; i++) {
    const c = tx.chars[i] as Character
    if (c.hp > 0 && (c.side === side) === same) out.push(i)
  }
  return out
}

/** One activation (one proc) of `node`; `parentTarget` is the parent's impact target (-1 for roots). */
const activate = (tx: Tx, node: PlanNode, parentTarget: number): boolean => {
  const reserved = node.onceCount > 0 ? new Uint8Array(node.onceCount) : NO_RESERVATION
  const repeat = node.effect.repeat
  switch (node.kind) {
    case K_TARGET: {
      if (parentTarget >= 0) {
        for (let r = 0; r < repeat; r++) if (!attempt(tx, node, parentTarget, reserved)) return false
        return true
      }
      const chosen = tx.chosen
      for (let t = 0; t < chosen.length; t++) {
        for (let r = 0; r < repeat; r++) if (!attempt(tx, node, chosen[t] as number, reserved)) return false
      }
      return true
    }
    case K_SELF:
      for (let r = 0; r < repeat; r++) if (!attempt(tx, node, tx.actor, reserved)) return false
      return true
    case K_RANDOM_ENEMY:
      for (let r = 0; r < repeat; r++) {
        const candidates = living(tx, false)
        if (candidates.length === 0) {
          if (!noTarget(tx, node)) return false
          continue
        }
        let index = 0
        if (candidates.length > 1) {
          index = tx.draw(node.id, "pick", candidates.length)
          if (Number.isNaN(index)) return false
        }
        if (!attempt(tx, node, candidates[index] as number, reserved)) return false
      }
      return true
    default: {
      const targets = living(tx, node.kind === K_ALL_ALLIES)
      if (targets.length === 0) return noTarget(tx, node)
      for (let t = 0; t < targets.length; t++) {
        for (let r = 0; r < repeat; r++) if (!attempt(tx, node, targets[t] as number, reserved)) return false
      }
      return true
    }
  }
}

const spendOne = (tx: Tx, node: PlanNode): boolean => {
  const b = tx.budget
  if (b.used + 1 > b.limit) return tx.fail(budgetExceeded(b, `sequence node attempts at "${node.id}"`, node.id))
  b.used++
  return true
}

const noTarget = (tx: Tx, node: PlanNode): boolean => {
  if (!spendOne(tx, node)) return false
  tx.events.push({ type: "skip", nodeId: node.id, reason: "no_target" })
  return true
}

const runChildren = (tx: Tx, children: ReadonlyArray<PlanNode>, target: number, reserved: Uint8Array): boolean => {
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as PlanNode
    if (child.onceSlot >= 0) {
      if (reserved[child.onceSlot] === 1) continue
      reserved[child.onceSlot] = 1
    }
    if (!activate(tx, child, target)) return false
  }
  return true
}

/** One impact attempt of `node` on `target`; `reserved` is the proc reservation of node's children. */
const attempt = (tx: Tx, node: PlanNode, target: number, reserved: Uint8Array): boolean => {
  if (!spendOne(tx, node)) return false
  const effect = node.effect
  const targetId = (tx.chars[target] as Character).characterId
  if (effect.conditions.length > 0) {
    const fact = failedCondition(tx, effect.conditions, target)
    if (fact !== undefined) {
      tx.events.push({ type: "skip", nodeId: node.id, targetId, reason: "condition", fact })
      return true
    }
  }
  const chance = effect.chance
  if (chance < 1) {
    let pass = false
    if (chance > 0) {
      const v = tx.draw(node.id, "chance", 0)
      if (Number.isNaN(v)) return false
      pass = v < chance
    }
    if (!pass) {
      tx.events.push({ type: "skip", nodeId: node.id, targetId, reason: "chance" })
      return true
    }
  }
  if (node.before.length > 0 && !runChildren(tx, node.before, target, reserved)) return false
  if (effect.type === "APPLY_STATUS") {
    if (!applyStatusImpact(tx, node, target)) return false
  } else if (!numericImpact(tx, node, effect.type, target)) return false
  if (node.afterPer.length > 0 && !runChildren(tx, node.afterPer, target, reserved)) return false
  if (node.afterOnce.length > 0 && !runChildren(tx, node.afterOnce, target, reserved)) return false
  return true
}

const numericImpact = (tx: Tx, node: PlanNode, type: "DAMAGE" | "HEAL", target: number): boolean => {
  const t = tx.chars[target] as Character
  const r = resolveAmount(tx.lookups, type, node.effect.amount, tx.chars[tx.actor] as Character, t)
  if ("code" in r) return tx.fail(r)
  const before = t.hp
  // A defeated character is not healed back: healing at 0 HP is a zero-change impact.
  const after = type === "DAMAGE"
    ? Math.max(0, before - r.amount)
    : before === 0
    ? 0
    : Math.min(t.maxHp, before + r.amount)
  if (after !== before) tx.writable(target).hp = after
  tx.events.push({
    type: "impact",
    nodeId: node.id,
    targetId: t.characterId,
    effect: type,
    base: node.effect.amount,
    amount: r.amount,
    hpBefore: before,
    hpAfter: after,
    contributions: r.contributions
  })
  if (before > 0 && after === 0) tx.events.push({ type: "defeated", characterId: t.characterId })
  return true
}

const applyStatusImpact = (tx: Tx, node: PlanNode, target: number): boolean => {
  const effect = node.effect
  const def = tx.lookups.statuses.get(effect.statusId)
  if (def === undefined) {
    return tx.fail(
      diagnostic("unknown_reference", `status "${effect.statusId}" is not in the runtime catalog`, {
        subject: effect.statusId,
        effectId: node.id
      })
    )
  }
  const c = tx.writable(target)
  let held: StatusInstance | undefined
  for (const s of c.statuses) if (s.statusId === effect.statusId) held = s
  const next = applyStatus(def, held, effect)
  putStatus(c.statuses, next)
  const event: {
    -readonly [K in keyof Extract<ExecutorEvent, { type: "statusApplied" }>]: Extract<
      ExecutorEvent,
      { type: "statusApplied" }
    >[K]
  } = {
    type: "statusApplied",
    nodeId: node.id,
    targetId: c.characterId,
    statusId: effect.statusId,
    stacksBefore: held?.stacks ?? 0,
    stacks: next.stacks,
    payload: next.payload
  }
  if (held?.remaining !== undefined) event.remainingBefore = held.remaining
  if (next.remaining !== undefined) event.remaining = next.remaining
  tx.events.push(event)
  return true
}

const indexOf = (state: CombatState, id: string): number => {
  const cs = state.characters
  for (let i = 0; i < cs.length; i++) if ((cs[i] as Character).characterId === id) return i
  return -1
}

const failed = (state: CombatState, d: Diagnostic): SequenceOutcome => ({ ok: false, diagnostic: d, state })

/**
 * Executes one sequence: `compiled` played by `request.actorId` at
 * `request.targetIds` over `state`. Pure and total: never throws; on failure
 * returns the original `state` object. `plans` memoizes the container's
 * execution plan across calls; without it the plan is made for this call.
 */
export const executeSequence = (
  lookups: ExecutorLookups,
  compiled: CompiledContainer,
  state: CombatState,
  request: SequenceRequest,
  plans?: ExecutionPlans
): SequenceOutcome => {
  const plan = plans === undefined ? planOf(compiled) : plans.of(compiled)
  if (request.actorId === "") {
    return failed(state, diagnostic("actor_defeated", "no actor was named", { cardCode: compiled.cardId }))
  }
  const actor = indexOf(state, request.actorId)
  if (actor < 0) {
    return failed(
      state,
      diagnostic("unknown_character", `actor "${request.actorId}" is not in the combat state`, {
        subject: request.actorId,
        cardCode: compiled.cardId,
        details: { role: "actor" }
      })
    )
  }
  if ((state.characters[actor] as Character).hp <= 0) {
    return failed(
      state,
      diagnostic("actor_defeated", `actor "${request.actorId}" is defeated`, {
        subject: request.actorId,
        cardCode: compiled.cardId
      })
    )
  }
  const ids = request.targetIds
  const chosen: Array<number> = new Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as string
    const t = indexOf(state, id)
    if (t < 0) {
      return failed(
        state,
        diagnostic("unknown_character", `target "${id}" is not in the combat state`, {
          subject: id,
          cardCode: compiled.cardId,
          details: { role: "target" }
        })
      )
    }
    if ((state.characters[t] as Character).hp <= 0) {
      return failed(
        state,
        diagnostic("invalid_target", `target "${id}" is defeated`, { subject: id, cardCode: compiled.cardId })
      )
    }
    for (let j = 0; j < i; j++) {
      if (chosen[j] === t) {
        return failed(
          state,
          diagnostic("invalid_target", `target "${id}" is chosen twice`, { subject: id, cardCode: compiled.cardId })
        )
      }
    }
    chosen[i] = t
  }
  if (plan.needsChosenTarget && chosen.length === 0) {
    return failed(
      state,
      diagnostic("invalid_target", `card "${compiled.cardId}" needs a chosen target and none was given`, {
        cardCode: compiled.cardId
      })
    )
  }
  const budget = makeBudget(request.budget ?? Limits.sequenceNodeBudget)
  const tx = new Tx(lookups, state, actor, chosen, budget, request)
  const roots = plan.roots
  for (let i = 0; i < roots.length; i++) {
    if (!activate(tx, roots[i] as PlanNode, -1)) {
      return failed(state, withCard(tx.failure, compiled.cardId))
    }
  }
  const replay = request.replay
  if (replay !== undefined && tx.replayCursor !== replay.length) {
    return failed(
      state,
      diagnostic("rng_mismatch", `replay consumed ${tx.replayCursor} of ${replay.length} recorded random inputs`, {
        cardCode: compiled.cardId,
        details: { consumed: tx.replayCursor, recorded: replay.length }
      })
    )
  }
  const next: CombatState = tx.changed
    ? { turn: state.turn, activeSide: state.activeSide, characters: tx.chars }
    : state
  const result: { -readonly [K in keyof SequenceResult]: SequenceResult[K] } = {
    state: next,
    events: tx.events,
    randomInputs: tx.randomInputs ?? NO_RANDOM,
    budgetUsed: budget.used
  }
  if (replay === undefined) {
    const rng = tx.stream !== undefined
      ? tx.stream.state()
      : (request.rng ?? (request.seed !== undefined ? seedState(request.seed, "sequence") : undefined))
    if (rng !== undefined) result.rng = rng
  }
  if (request.fingerprint !== false) result.fingerprint = stateFingerprint(next)
  return { ok: true, result }
}

const withCard = (d: Diagnostic | undefined, cardId: string): Diagnostic =>
  d === undefined
    ? diagnostic("budget_exceeded", "the sequence stopped without a diagnostic (defect)", { cardCode: cardId })
    : d.cardCode === undefined
    ? { ...d, cardCode: cardId }
    : d
