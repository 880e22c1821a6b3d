/**
 * The ledger commands as data: apply an upgrade, remove an entry, or replace
 * an entry (keeping its position). The Schema sits below both the planner
 * (which decides a command) and the store (which records it in its requests
 * and events), so neither imports the other for it.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { AuthoredId } from "../schema/Symbols.js"

/** A ledger command: apply an upgrade, remove an entry, or replace an entry (keeping its position). */
export const LedgerCommand = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("apply"), upgradeId: AuthoredId }),
  Schema.Struct({ kind: Schema.Literal("remove"), entryId: AuthoredId }),
  Schema.Struct({ kind: Schema.Literal("replace"), entryId: AuthoredId, upgradeId: AuthoredId })
).annotations({ identifier: "LedgerCommand" })
export type LedgerCommand = typeof LedgerCommand.Type
