/** The deterministic command list of the kill test: command i depends only on i. */
import type { CommandRequest } from "../../../src/composition/store/LedgerStore.js"

/** Instances written round-robin. */
export const KILL_INSTANCES = 4

/**
 * Command i: instance `card<i mod 4>`, j = i div 4 is the instance's revision;
 * even j applies `core.sharpened_strike` (creating entry e<j/2+1>), odd j removes it.
 */
export const killCommand = (i: number): CommandRequest => {
  const j = Math.floor(i / KILL_INSTANCES)
  return {
    commandId: `k-${i}`,
    branch: "main",
    instanceId: `card${i % KILL_INSTANCES}`,
    cardId: "basic_attack",
    expectedRevision: j,
    activity: "scenario",
    command: j % 2 === 0
      ? { kind: "apply", upgradeId: "core.sharpened_strike" }
      : { kind: "remove", entryId: `e${(j + 1) / 2}` }
  }
}
