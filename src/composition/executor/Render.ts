/**
 * Human renderings of executor events, built on demand (never on the hot
 * path): `strike → slime DAMAGE 6 base +2 strength ×1.5 vulnerable → 12 (hp 30 → 18)`.
 *
 * @since 0.1.0
 */
import { renderBreakdown } from "./Buckets.js"
import type { ExecutorEvent } from "./Events.js"

const turns = (n: number | undefined): string => (n === undefined ? "permanent" : `${n} turn${n === 1 ? "" : "s"}`)

/** One line for one event. */
export const renderEvent = (e: ExecutorEvent): string => {
  switch (e.type) {
    case "impact":
      return `${e.nodeId} → ${e.targetId} ${e.effect} ${
        renderBreakdown(e.base, e.contributions, e.amount)
      } (hp ${e.hpBefore} → ${e.hpAfter})`
    case "statusApplied": {
      const payload = Object.keys(e.payload)
        .sort()
        .map((k) => `${k}=${e.payload[k]}`)
        .join(", ")
      return `${e.nodeId} → ${e.targetId} ${e.statusId} stacks ${e.stacksBefore} → ${e.stacks}, ${turns(e.remaining)}${
        payload === "" ? "" : ` {${payload}}`
      }`
    }
    case "skip":
      return `skip ${e.nodeId}${e.targetId !== undefined ? ` on ${e.targetId}` : ""}: ${e.reason}${
        e.fact !== undefined ? ` ${e.fact}` : ""
      }`
    case "draw":
      return `draw ${e.purpose} for ${e.nodeId}: ${e.value}`
    case "defeated":
      return `${e.characterId} is defeated`
    case "tick":
      return `${e.statusId} ticks on ${e.characterId} (${e.timing}): ${e.effect} ${e.intensity} (hp ${e.hpBefore} → ${e.hpAfter})`
    case "duration":
      return `${e.statusId} on ${e.characterId}: ${turns(e.remaining)} left`
    case "statusExpired":
      return `${e.statusId} on ${e.characterId} expires`
    case "turnStarted":
      return `turn ${e.turn}: ${e.side} starts`
    case "turnEnded":
      return `turn ${e.turn}: ${e.side} ends`
  }
}
