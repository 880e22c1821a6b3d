/**
 * The store's direct writers of the hot shapes produce exactly the kernel's
 * canonical bytes (what is hashed is what is stored).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { LedgerCommand } from "../../../src/composition/ledger/Command.js"
import { commandJson } from "../../../src/composition/store/Serialize.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"

const id = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" })
const command: fc.Arbitrary<LedgerCommand> = fc.oneof(
  id.map((upgradeId) => ({ kind: "apply" as const, upgradeId })),
  id.map((entryId) => ({ kind: "remove" as const, entryId })),
  fc.tuple(id, id).map(([entryId, upgradeId]) => ({ kind: "replace" as const, entryId, upgradeId }))
)

describe("commandJson", () => {
  it("is canonicalJson of every command shape, key order in the object aside", () => {
    fc.assert(
      fc.property(command, (c) => {
        expect(commandJson(c)).toBe(canonicalJson(c))
        const reversed = Object.fromEntries(Object.entries(c).reverse()) as LedgerCommand
        expect(commandJson(reversed)).toBe(canonicalJson(c))
      }),
      { numRuns: 300, seed: 23 }
    )
  })

  it("falls back to canonicalJson for a command with other keys", () => {
    const odd = { kind: "apply", upgradeId: "u", extra: 1 } as unknown as LedgerCommand
    expect(commandJson(odd)).toBe(canonicalJson(odd))
  })
})
