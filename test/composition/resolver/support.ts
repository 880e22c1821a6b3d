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
    ledger = right(
      appendEntry(ledger, content, { entryId: `e${n}`, captured: { revision: ledger.revision, sequence: 0, step: n } })
    )
  }
  return ledger
}

import { readFileSync } from "node:fs"
import { ContentFile } from "../../../src/composition/schema/Package.js"
import { makeDecoder } from "../../../src/kernel/Decode.js"
import { type JsonValue, parseJson } from "../../../src/kernel/Json.js"

const decodeContent = makeDecoder(ContentFile)

/** Reads a JSON fixture through the hardened parser. */
export const readFixture = (file: string): JsonValue =>
  right(parseJson(readFileSync(file, "utf8"), { file }).pipe(Either.mapLeft((d) => [d]))).value

/** Decodes a content overlay (a ContentFile) from fixture JSON. */
export const decodeOverlay = (value: unknown): ContentFile => right(decodeContent(value))

/** A runtime with content laid over it (replacing same IDs); the pin is kept. */
export const overlay = (rt: Runtime, content: ContentFile): Runtime => {
  const put = <A>(
    m: ReadonlyMap<string, A>,
    xs: ReadonlyArray<A> | undefined,
    id: (a: A) => string
  ): Map<string, A> => {
    const out = new Map(m)
    for (const x of xs ?? []) out.set(id(x), x)
    return out
  }
  return {
    ...rt,
    cards: put(rt.cards, content.cards, (c) => c.cardId),
    statuses: put(rt.statuses, content.statuses, (s) => s.statusId),
    bundles: put(rt.bundles, content.bundles, (b) => b.bundleId),
    transformations: put(rt.transformations, content.transformations, (t) => t.upgradeId)
  }
}

/** A card with `n` DAMAGE roots `d000`, `d001`, ... (orders 0..n-1). */
export const manyRoots = (cardId: string, n: number, type: "DAMAGE" | "HEAL" = "DAMAGE"): Card => ({
  cardId,
  cost: 1,
  metadata: { nameKey: `card.${cardId}.name`, artKey: `art.card.${cardId}` },
  components: Array.from({ length: n }, (_, i) => ({
    type: "effect" as const,
    componentId: `d${String(i).padStart(3, "0")}`,
    order: i,
    effect: { type, target: "TARGET" as const, amount: 1 }
  }))
})
