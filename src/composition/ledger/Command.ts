/**
 * The ledger commands as data: apply an upgrade, remove an entry, or replace
 * an entry (keeping its position). The Schema sits below both the planner
 * (which decides a command) and the store (which records it in its requests
 * and events), so neither imports the other for it.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { RequestId } from "../schema/Symbols.js"

/**
 * A ledger command: apply an upgrade, remove an entry, or replace an entry
 * (keeping its position). Its IDs are what a request names (request IDs, up
 * to 128 characters): one content does not publish is not found, not invalid.
 */
export const LedgerCommand = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("apply"), upgradeId: RequestId }),
  Schema.Struct({ kind: Schema.Literal("remove"), entryId: RequestId }),
  Schema.Struct({ kind: Schema.Literal("replace"), entryId: RequestId, upgradeId: RequestId })
).annotations({ identifier: "LedgerCommand" })
export type LedgerCommand = typeof LedgerCommand.Type

/** A command's IDs, each with its JSON pointer under `base` (the request-ID check's fields). */
export const commandIds = (
  command: LedgerCommand,
  base = "/command"
): ReadonlyArray<readonly [path: string, value: string]> =>
  command.kind === "apply"
    ? [[`${base}/upgradeId`, command.upgradeId]]
    : command.kind === "remove"
    ? [[`${base}/entryId`, command.entryId]]
    : [[`${base}/entryId`, command.entryId], [`${base}/upgradeId`, command.upgradeId]]
