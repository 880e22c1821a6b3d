/**
 * The persistent ledger (issue 23, item 2): ledgers made by the ledger
 * commands share an append-only log with the ledgers they came from, index
 * their active entries by ID and build `entries` on first read. Checked
 * against a plain model built the old way (copy the array, flip the state):
 * the same entries, byte for byte, on a straight history, on forks (commands
 * applied to an older ledger after a newer one was derived from it), after
 * folding events, and for a ledger spelled out by hand.
 */
import { Either } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { seal } from "../../../src/composition/BundleCompiler.js"
import {
  activeEntries,
  activeEntry,
  appendEntry,
  type CardLedger,
  emptyLedger,
  foldLedger,
  type LedgerEntry,
  ledgerSequence,
  ledgerSize,
  removeEntry,
  replaceEntry,
  type SealedEntryContent
} from "../../../src/composition/ledger/Ledger.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import { canonicalJson } from "../../../src/kernel/Canonical.js"
import { BASE, runtimeOf } from "../store/support.js"

let runtime: Runtime
let content: SealedEntryContent
let other: SealedEntryContent

beforeAll(async () => {
  runtime = await runtimeOf(BASE)
  const get = (id: string): SealedEntryContent => {
    const t = runtime.transformations.get(id)
    if (t === undefined) throw new Error(`no ${id}`)
    const s = seal(runtime, t)
    if (Either.isLeft(s)) throw new Error(JSON.stringify(s.left))
    return s.right
  }
  content = get("core.sharpened_strike")
  other = get("core.ember.affinity")
})

type Op =
  | { readonly kind: "append"; readonly content: "a" | "b" }
  | { readonly kind: "remove"; readonly entryId: string }
  | { readonly kind: "replace"; readonly entryId: string; readonly content: "a" | "b" }

const at = (step: number) => ({ entryId: `e${step}`, captured: { revision: step, sequence: step * 10, step } })

/** The old construction: whole-array copies and scans. */
const model = (ledger: CardLedger, op: Op, pick: (c: "a" | "b") => SealedEntryContent): CardLedger => {
  const step = ledger.entries.length + 1
  const make = (c: SealedEntryContent, position: number, replaces?: string): LedgerEntry => ({
    entryId: `e${step}`,
    position,
    state: "active",
    ...(replaces !== undefined ? { replaces } : {}),
    captured: at(step).captured,
    upgradeId: c.upgradeId,
    requirements: c.requirements,
    patches: c.patches,
    closedCompositionRules: c.closedCompositionRules,
    pin: c.pin,
    sealHash: c.sealHash
  })
  const flip = (id: string) =>
    ledger.entries.map((e) => (e.entryId === id && e.state === "active" ? { ...e, state: "removed" as const } : e))
  switch (op.kind) {
    case "append": {
      const position = Math.max(-1, ...ledger.entries.map((e) => e.position)) + 1
      return {
        cardId: ledger.cardId,
        entries: [...ledger.entries, make(pick(op.content), position)],
        revision: ledger.revision + 1
      }
    }
    case "remove":
      return { cardId: ledger.cardId, entries: flip(op.entryId), revision: ledger.revision + 1 }
    case "replace": {
      const target = ledger.entries.find((e) => e.entryId === op.entryId && e.state === "active") as LedgerEntry
      return {
        cardId: ledger.cardId,
        entries: [...flip(op.entryId), make(pick(op.content), target.position, op.entryId)],
        revision: ledger.revision + 1
      }
    }
  }
}

const applyOp = (ledger: CardLedger, op: Op, pick: (c: "a" | "b") => SealedEntryContent): CardLedger => {
  const step = ledgerSize(ledger) + 1
  const r = op.kind === "append"
    ? appendEntry(ledger, pick(op.content), at(step))
    : op.kind === "remove"
    ? removeEntry(ledger, op.entryId)
    : replaceEntry(ledger, op.entryId, pick(op.content), at(step))
  if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const same = (a: CardLedger, b: CardLedger): void => {
  expect(canonicalJson(a)).toBe(canonicalJson(b))
  expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  expect(ledgerSize(a)).toBe(b.entries.length)
  const active = b.entries.filter((e) => e.state === "active")
    .sort((x, y) => x.position - y.position || (x.entryId < y.entryId ? -1 : 1))
  expect(activeEntries(a).map((e) => e.entryId)).toEqual(active.map((e) => e.entryId))
  for (const e of b.entries) {
    expect(activeEntry(a, e.entryId)?.entryId).toBe(e.state === "active" ? e.entryId : undefined)
  }
}

describe("persistent ledger", () => {
  const ops: ReadonlyArray<Op> = [
    { kind: "append", content: "a" },
    { kind: "append", content: "b" },
    { kind: "remove", entryId: "e1" },
    { kind: "replace", entryId: "e2", content: "a" },
    { kind: "append", content: "b" },
    { kind: "remove", entryId: "e4" }
  ]
  const pick = (c: "a" | "b") => (c === "a" ? content : other)

  /** `ops` applied by the ledger commands and by the model, side by side; `each` sees every step. */
  const straight = (each?: (ledger: CardLedger, expected: CardLedger) => void) => {
    let ledger = emptyLedger("basic_attack")
    let expected = emptyLedger("basic_attack")
    for (const op of ops) {
      ledger = applyOp(ledger, op, pick)
      expected = model(expected, op, pick)
      each?.(ledger, expected)
    }
    return { ledger, expected }
  }

  it("builds the same entries as whole-array copies, on a straight history", () => {
    const { expected, ledger } = straight(same)
    // The old scan: the highest captured sequence of any entry.
    expect(ledgerSequence(ledger)).toBe(Math.max(...expected.entries.map((e) => e.captured.sequence)))
    expect(ledgerSequence(ledger)).toBe(40)
  })

  it("keeps every older ledger intact when commands are applied to it after a newer one (forks)", () => {
    const ledgers: Array<CardLedger> = [emptyLedger("basic_attack")]
    const models: Array<CardLedger> = [emptyLedger("basic_attack")]
    for (const op of ops) {
      ledgers.push(applyOp(ledgers[ledgers.length - 1] as CardLedger, op, pick))
      models.push(model(models[models.length - 1] as CardLedger, op, pick))
    }
    // Read nothing yet: fork from every older ledger (each has newer ledgers sharing its log), then check all.
    const forks = ledgers.map((l) => applyOp(l, { kind: "append", content: "b" }, pick))
    const forkModels = models.map((l) => model(l, { kind: "append", content: "b" }, pick))
    forks.forEach((f, i) => same(f, forkModels[i] as CardLedger))
    ledgers.forEach((l, i) => same(l, models[i] as CardLedger))
    // A fork of a fork, and the original line continued after the forks.
    const deeper = applyOp(forks[2] as CardLedger, { kind: "remove", entryId: "e3" }, pick)
    same(deeper, model(forkModels[2] as CardLedger, { kind: "remove", entryId: "e3" }, pick))
    const last = ledgers.length - 1
    const continued = applyOp(ledgers[last] as CardLedger, { kind: "append", content: "a" }, pick)
    same(continued, model(models[last] as CardLedger, { kind: "append", content: "a" }, pick))
  })

  it("finds active entries by ID past the scanned few (a Map per ledger), on every step", () => {
    // 24 appends (over the 16 found by a scan), then removals and replacements among them.
    const many: Array<Op> = Array.from({ length: 24 }, (_, i) => ({ kind: "append", content: i % 2 === 0 ? "a" : "b" }))
    for (const id of ["e3", "e17", "e24"]) many.push({ kind: "remove", entryId: id })
    many.push({ kind: "replace", entryId: "e20", content: "a" }, { kind: "append", content: "b" })
    let ledger = emptyLedger("basic_attack")
    let expected = emptyLedger("basic_attack")
    const ledgers: Array<readonly [CardLedger, CardLedger]> = []
    for (const op of many) {
      ledger = applyOp(ledger, op, pick)
      expected = model(expected, op, pick)
      ledgers.push([ledger, expected])
    }
    // Checked after the whole line was built, so older ledgers' lookups run on the shared log too.
    for (const [l, m] of ledgers) same(l, m)
    expect(activeEntries(ledger).length).toBe(22)
    expect(activeEntry(ledger, "e20")).toBeUndefined()
    expect(activeEntry(ledger, "e25")?.replaces).toBe("e20")
  })

  it("folds events onto a ledger spelled out by hand as the commands build it", () => {
    let expected = emptyLedger("basic_attack")
    for (const op of ops.slice(0, 3)) expected = model(expected, op, pick)
    // A plain object (as decoded from a checkpoint): no history of its own.
    const plain: CardLedger = JSON.parse(JSON.stringify(expected))
    const rest = ops.slice(3)
    let built = plain
    let model2 = expected
    const deltas: Array<{ entry: LedgerEntry | null; removedEntryId: string | null }> = []
    for (const op of rest) {
      const before = ledgerSize(built)
      built = applyOp(built, op, pick)
      model2 = model(model2, op, pick)
      const entry = ledgerSize(built) > before ? (built.entries[before] as LedgerEntry) : null
      deltas.push({ entry, removedEntryId: op.kind === "append" ? null : op.entryId })
    }
    same(built, model2)
    same(foldLedger(plain, deltas), model2)
    // The plain ledger itself is untouched.
    expect(canonicalJson(plain)).toBe(canonicalJson(expected))
  })

  it("keeps a transient append off the shared log: the same values, and the next command appends without a copy", () => {
    const { expected, ledger: stored } = straight()
    const step = ledgerSize(stored) + 1
    // Assessed candidates (an assess, a discovery's offers): appends and replaces, nothing read yet.
    const candidates = [
      appendEntry(stored, content, { ...at(step), transient: true }),
      appendEntry(stored, other, { ...at(step), transient: true }),
      replaceEntry(stored, "e3", content, { ...at(step), transient: true })
    ].map((r) => (Either.isRight(r) ? r.right : expect.unreachable(JSON.stringify(r.left))))
    // The shared log is the stored ledger's own still: a real command pushes onto it (no copy of the history).
    const logOf = (l: CardLedger) => {
      // The ledger's hidden History (its one symbol-keyed property).
      const symbol = Object.getOwnPropertySymbols(l)[0] as symbol
      const history = (l as unknown as Record<symbol, { log: { entries: Array<LedgerEntry> } } | undefined>)[symbol]
      return history?.log.entries
    }
    expect(logOf(stored)?.length).toBe(ledgerSize(stored))
    const next = applyOp(stored, { kind: "append", content: "a" }, pick)
    expect(logOf(next)).toBe(logOf(stored))
    same(next, model(expected, { kind: "append", content: "a" }, pick))
    // Each candidate is the value a plain append or replace makes, and commands on it work as on any ledger.
    same(candidates[0] as CardLedger, model(expected, { kind: "append", content: "a" }, pick))
    same(candidates[1] as CardLedger, model(expected, { kind: "append", content: "b" }, pick))
    same(candidates[2] as CardLedger, model(expected, { kind: "replace", entryId: "e3", content: "a" }, pick))
    const onCandidate = [
      { kind: "remove", entryId: `e${step}` },
      { kind: "append", content: "b" },
      { kind: "replace", entryId: "e3", content: "b" }
    ] as const
    for (const op of onCandidate) {
      same(
        applyOp(candidates[1] as CardLedger, op, pick),
        model(model(expected, { kind: "append", content: "b" }, pick), op, pick)
      )
    }
    const dup = appendEntry(candidates[0] as CardLedger, content, { ...at(step), transient: true })
    expect(Either.isLeft(dup) && dup.left[0]?.code).toBe("duplicate_id")
    // The stored ledger reads as before.
    same(stored, expected)
  })

  it("rejects what the commands rejected before: a duplicate ID, a missing or removed entry", () => {
    const one = applyOp(emptyLedger("basic_attack"), { kind: "append", content: "a" }, () => content)
    const dup = appendEntry(one, content, at(1))
    expect(Either.isLeft(dup) && dup.left[0]?.code).toBe("duplicate_id")
    const gone = applyOp(one, { kind: "remove", entryId: "e1" }, () => content)
    for (const r of [removeEntry(gone, "e1"), removeEntry(one, "e9"), replaceEntry(gone, "e1", content, at(3))]) {
      expect(Either.isLeft(r) && r.left[0]?.code).toBe("entry_not_found")
    }
  })
})
