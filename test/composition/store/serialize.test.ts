/**
 * The direct writers of the hot shapes (the store's, and the fingerprint's
 * entry snapshot) produce exactly the kernel's canonical bytes (what is
 * hashed is what is stored, and what the fingerprint document spells out).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ledgerEntrySnapshot, ledgerEntrySnapshotJson } from "../../../src/composition/Effective.js"
import type { LedgerCommand } from "../../../src/composition/ledger/Command.js"
import type { LedgerEntry } from "../../../src/composition/ledger/Ledger.js"
import { commandJson, makeSerializers } from "../../../src/composition/store/Serialize.js"
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

const int = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
/** An entry's own fields (`replaces` optional), with `extra` (its sealed parts) spread in. */
const entryWith = (extra: object): fc.Arbitrary<LedgerEntry> =>
  fc.record(
    {
      entryId: id,
      upgradeId: id,
      position: int,
      state: fc.constantFrom("active" as const, "removed" as const),
      replaces: id,
      captured: fc.record({ revision: int, sequence: int, step: int }),
      sealHash: id
    },
    { requiredKeys: ["entryId", "upgradeId", "position", "state", "captured", "sealHash"] }
  ).map((e) => ({ ...extra, ...e }) as unknown as LedgerEntry)

describe("ledgerEntrySnapshotJson", () => {
  const entry = entryWith({})

  it("is canonicalJson of the fingerprint snapshot, with and without replaces", () => {
    fc.assert(
      fc.property(entry, (e) => {
        expect(ledgerEntrySnapshotJson(e)).toBe(canonicalJson(ledgerEntrySnapshot(e)))
      }),
      { numRuns: 300, seed: 23 }
    )
  })

  it("falls back to canonicalJson for a captured basis of another shape or a non-integer position", () => {
    const base = { entryId: "e1", upgradeId: "u", position: 0, state: "active", sealHash: "h" }
    const odd = [
      { ...base, captured: { revision: 1, sequence: 2, step: 3, extra: true } },
      { ...base, captured: { revision: 1.5, sequence: 2, step: 3 } },
      { ...base, position: -0, captured: { revision: 1, sequence: 2, step: 3 } },
      { ...base, position: 0.25, captured: { revision: 1, sequence: 2, step: 3 } }
    ] as unknown as ReadonlyArray<LedgerEntry>
    for (const e of odd) expect(ledgerEntrySnapshotJson(e)).toBe(canonicalJson(ledgerEntrySnapshot(e)))
  })
})

describe("the store's entry text", () => {
  // The sealed parts are shared objects the writer serializes once; their shape is the kernel's business.
  const parts = {
    closedCompositionRules: [{ rule: { ruleId: "r", scope: "AfterImpact" }, bundle: { components: [] } }],
    patches: [{ op: "addNumber", componentId: "strike", field: "amount", value: 3 }],
    pin: { engineVersion: 17, packages: [{ packageId: "p", contentHash: "h" }] },
    requirements: { requiredTags: ["t"] }
  }
  const entry = entryWith(parts)

  it("is canonicalJson of the entry in an event body and a ledger, with and without replaces", () => {
    const ser = makeSerializers()
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), int, (entries, revision) => {
        const ledger = { cardId: "basic_attack", entries, revision }
        expect(ser.ledgerJson(ledger)).toBe(canonicalJson(ledger))
        const body = {
          activity: "scenario",
          command: { kind: "apply" as const, upgradeId: "u" },
          entry: entries[0] ?? null,
          removedEntryId: null
        }
        expect(ser.bodyJson(body)).toBe(canonicalJson(body))
      }),
      { numRuns: 200, seed: 23 }
    )
  })

  it("falls back to canonicalJson for a captured basis of another shape", () => {
    const ser = makeSerializers()
    const base = { ...parts, entryId: "e1", upgradeId: "u", position: 0, state: "active", sealHash: "h" }
    for (
      const captured of [{ revision: 1, sequence: 2, step: 3, extra: true }, { revision: 1.5, sequence: 2, step: 3 }]
    ) {
      const ledger = { cardId: "c", entries: [{ ...base, captured } as unknown as LedgerEntry], revision: 1 }
      expect(ser.ledgerJson(ledger)).toBe(canonicalJson(ledger))
    }
  })
})
