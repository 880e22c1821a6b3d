/** Test support for the resolver: runtimes from real packages, sealing and ledgers. */
import { Either } from "effect"
import { seal, sealById } from "../../../src/composition/BundleCompiler.js"
import { appendEntry, type CardLedger, emptyLedger } from "../../../src/composition/ledger/Ledger.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Card } from "../../../src/composition/schema/Card.js"
import type { Transformation } from "../../../src/composition/schema/Transformation.js"
import { BASE, RESIDUAL, runtimeOf } from "../../support/content.js"

export const NUMERIC = "test/fixtures/resolver/numeric-upgrade"
export { BASE, RESIDUAL, runtimeOf }

/** Unwraps a Right or fails the test with the diagnostics. */
export const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected success, got ${JSON.stringify(e.left, null, 2)}`)
  return e.right
}

/** The base card of a runtime. */
export const card = (runtime: Runtime, cardId: string): Card => {
  const c = runtime.cards.get(cardId)
  if (c === undefined) throw new Error(`no card ${cardId}`)
  return c
}

/** Seals and appends transformations (by ID, or given) in order; entry IDs e1, e2, ... */
export const ledgerWith = (
  runtime: Runtime,
  cardId: string,
  upgrades: ReadonlyArray<string | Transformation>,
  start: CardLedger = emptyLedger(cardId)
): CardLedger => {
  let ledger = start
  for (const u of upgrades) {
    const content = right(typeof u === "string" ? sealById(runtime, u) : seal(runtime, u))
    const n = ledger.entries.length + 1
    ledger = right(appendEntry(ledger, content, { entryId: `e${n}`, captured: { revision: ledger.revision, sequence: 0, step: n } }))
  }
  return ledger
}
