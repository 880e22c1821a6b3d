/**
 * Statuses at run time: application (stacking rule, duration rule, payload
 * binding), tick intensity from the status's formula, and the turn
 * operations `startTurn`/`endTurn` (ticks, duration countdown, expiry).
 *
 * Decisions where the contract is silent:
 * - duration: the application's `duration`, else the status's
 *   `defaultDuration`, else permanent. Combining with a held entry follows the
 *   duration rule (`refresh` takes the new one, `add` sums, `max` keeps the
 *   longer, `keep` keeps the held one); permanent wins over a countdown except
 *   under `keep`.
 * - stacks: `add` sums, `replace` takes the new, `max` keeps the larger; all
 *   clamped to `maxStacks`.
 * - payload: the application's bound values replace the held ones parameter
 *   by parameter; a rebinding restarts the staged profile (`ticks` → 0).
 * - ticks happen only on living holders, in character position order, then
 *   statuses by ID (ordinal); a tick counts before the countdown of the same
 *   boundary. A `percent` payload unit is a percentage of the holder's max HP.
 * - every `startTurn` increments `turn` and makes `side` the active side.
 *
 * @since 0.1.0
 */
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import type { CompiledEffect } from "../Compiled.js"
import type { Status, TickTiming } from "../schema/Status.js"
import type { ExecutorLookups } from "./Buckets.js"
import { type Character, type CombatState, type Side, stateFingerprint, type StatusInstance } from "./CombatState.js"
import type { ExecutorEvent, TurnResult } from "./Events.js"

const EMPTY_PAYLOAD: Readonly<Record<string, number>> = {}

const hasKeys = (r: Readonly<Record<string, number>>): boolean => {
  for (const _ in r) return true
  return false
}

/** The entry after applying `effect` (APPLY_STATUS) of status `def` over `held` (or a fresh one). */
export const applyStatus = (def: Status, held: StatusInstance | undefined, effect: CompiledEffect): StatusInstance => {
  const max = def.maxStacks ?? 1_000_000
  const applied = effect.duration > 0 ? effect.duration : def.defaultDuration
  const rebind = hasKeys(effect.payload)
  if (held === undefined) {
    const fresh: { -readonly [K in keyof StatusInstance]: StatusInstance[K] } = {
      statusId: def.statusId,
      stacks: Math.min(max, effect.stacks),
      payload: rebind ? { ...effect.payload } : EMPTY_PAYLOAD,
      ticks: 0
    }
    if (applied !== undefined) fresh.remaining = applied
    return fresh
  }
  let stacks: number
  switch (def.stacking) {
    case "add":
      stacks = held.stacks + effect.stacks
      break
    case "replace":
      stacks = effect.stacks
      break
    case "max":
      stacks = Math.max(held.stacks, effect.stacks)
      break
  }
  let remaining: number | undefined
  const old = held.remaining
  switch (def.durationRule) {
    case "keep":
      remaining = old
      break
    case "refresh":
      remaining = applied
      break
    case "add":
      remaining = old === undefined || applied === undefined ? undefined : old + applied
      break
    case "max":
      remaining = old === undefined || applied === undefined ? undefined : Math.max(old, applied)
      break
  }
  const next: { -readonly [K in keyof StatusInstance]: StatusInstance[K] } = {
    statusId: def.statusId,
    stacks: Math.min(max, stacks),
    payload: rebind ? { ...held.payload, ...effect.payload } : held.payload,
    ticks: rebind ? 0 : held.ticks
  }
  if (remaining !== undefined) next.remaining = remaining
  return next
}

/** Inserts or replaces `entry` keeping statuses sorted by ID (ordinal). */
export const putStatus = (statuses: Array<StatusInstance>, entry: StatusInstance): void => {
  for (let i = 0; i < statuses.length; i++) {
    const c = compareOrdinal((statuses[i] as StatusInstance).statusId, entry.statusId)
    if (c === 0) {
      statuses[i] = entry
      return
    }
    if (c > 0) {
      // Shift the tail by one and put the entry in place (cheaper than `splice` for a short list).
      for (let j = statuses.length; j > i; j--) statuses[j] = statuses[j - 1] as StatusInstance
      statuses[i] = entry
      return
    }
  }
  statuses.push(entry)
}

/** The tick intensity of a held status (floored, ≥ 0). */
export const tickIntensity = (def: Status, held: StatusInstance, holder: Character): number => {
  const tick = def.tick
  if (tick === undefined) return 0
  const f = tick.intensity
  let v: number
  switch (f.kind) {
    case "constant":
      v = f.value
      break
    case "perStack":
      v = f.base + f.perStack * held.stacks
      break
    case "parameter": {
      const bound = held.payload[f.parameterId] ?? 0
      const param = def.payloadParameters?.find((p) => p.parameterId === f.parameterId)
      let stage = 1
      let unitScale = 1
      if (param !== undefined) {
        const stages = param.stages
        const n = param.profile === "constant" ? 0 : Math.min(held.ticks, stages.length - 1)
        stage = stages[n] ?? 1
        if (param.unit === "percent") unitScale = holder.maxHp / 100
      }
      v = bound * stage * unitScale * (f.perStack === true ? held.stacks : 1)
      break
    }
  }
  return v > 0 ? Math.floor(v + 1e-9) : 0
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * One turn boundary for `side`: ticks of statuses whose tick timing is
 * `timing`, then the countdown of statuses that expire at `timing`.
 */
const boundary = (
  lookups: ExecutorLookups,
  state: CombatState,
  side: Side,
  timing: TickTiming,
  events: Array<ExecutorEvent>
): { characters: ReadonlyArray<Character> } | Diagnostic => {
  const characters: Array<Character> = state.characters.slice()
  for (let ci = 0; ci < characters.length; ci++) {
    const original = characters[ci] as Character
    if (original.side !== side || original.statuses.length === 0) continue
    let hp = original.hp
    const statuses: Array<StatusInstance> = []
    let changed = false
    for (const held of original.statuses) {
      const def = lookups.statuses.get(held.statusId)
      if (def === undefined) {
        return diagnostic(
          "unknown_reference",
          `status "${held.statusId}" held by "${original.characterId}" is not in the runtime catalog`,
          {
            subject: held.statusId
          }
        )
      }
      let entry = held
      if (def.tick !== undefined && def.tick.timing === timing && hp > 0) {
        const intensity = tickIntensity(def, held, { ...original, hp })
        const before = hp
        hp = def.tick.effect === "DAMAGE" ? Math.max(0, hp - intensity) : Math.min(original.maxHp, hp + intensity)
        events.push({
          type: "tick",
          characterId: original.characterId,
          statusId: held.statusId,
          timing,
          effect: def.tick.effect,
          intensity,
          hpBefore: before,
          hpAfter: hp
        })
        if (before > 0 && hp === 0) events.push({ type: "defeated", characterId: original.characterId })
        entry = { ...entry, ticks: entry.ticks + 1 }
        changed = true
      }
      if ((def.expiresAt ?? "TurnEnd") === timing && entry.remaining !== undefined) {
        const remaining = entry.remaining - 1
        changed = true
        events.push({ type: "duration", characterId: original.characterId, statusId: held.statusId, remaining })
        if (remaining <= 0) {
          events.push({ type: "statusExpired", characterId: original.characterId, statusId: held.statusId })
          continue
        }
        const counted: Mutable<StatusInstance> = { ...entry }
        counted.remaining = remaining
        entry = counted
      }
      statuses.push(entry)
    }
    if (changed) characters[ci] = { ...original, hp, statuses }
  }
  return { characters }
}

/** The largest turn counter a combat state holds (its Schema's bound). */
export const MAX_TURN = 1_000_000

/** A turn operation's outcome: the result, or the diagnostic with the original state object. */
export type TurnOutcome =
  | { readonly ok: true; readonly result: TurnResult }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly state: CombatState }

/**
 * Starts `side`'s turn: increments `turn`, makes `side` active, then runs the
 * TurnStart ticks and countdowns of that side's characters. Pure.
 */
export const startTurn = (lookups: ExecutorLookups, state: CombatState, side: Side): TurnOutcome => {
  // The counter is bounded (CombatState's `turn`): a state past it could be neither stored nor answered.
  if (state.turn >= MAX_TURN) {
    return {
      ok: false,
      diagnostic: diagnostic("turn_limit", `turn ${state.turn} is the last: the turn counter is at most ${MAX_TURN}`, {
        details: { limit: MAX_TURN, actual: state.turn + 1 }
      }),
      state
    }
  }
  const turn = state.turn + 1
  const events: Array<ExecutorEvent> = [{ type: "turnStarted", side, turn }]
  const r = boundary(lookups, state, side, "TurnStart", events)
  if ("code" in r) return { ok: false, diagnostic: r, state }
  const next: CombatState = { turn, activeSide: side, characters: r.characters }
  return { ok: true, result: { state: next, events, fingerprint: stateFingerprint(next) } }
}

/** Ends `side`'s turn: TurnEnd ticks and countdowns of that side's characters. Pure. */
export const endTurn = (lookups: ExecutorLookups, state: CombatState, side: Side): TurnOutcome => {
  const events: Array<ExecutorEvent> = []
  const r = boundary(lookups, state, side, "TurnEnd", events)
  if ("code" in r) return { ok: false, diagnostic: r, state }
  events.push({ type: "turnEnded", side, turn: state.turn })
  const next: CombatState = { turn: state.turn, activeSide: state.activeSide, characters: r.characters }
  return { ok: true, result: { state: next, events, fingerprint: stateFingerprint(next) } }
}
