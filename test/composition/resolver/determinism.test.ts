/**
 * Same ledger → same bytes. Ten resolutions (fresh objects every time, so no
 * cache can hide a difference) give byte-identical effective cards and
 * fingerprints; shuffling unrelated catalog entries or any object's key order
 * changes nothing; the fingerprint is the sha256 of the canonical JSON of the
 * documented fingerprint document.
 */
import { Either } from "effect"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import type { CardLedger } from "../../../src/composition/ledger/Ledger.js"
import { fingerprintDocument, resolveEffectiveCard } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Card } from "../../../src/composition/schema/Card.js"
import { canonicalJson, sha256Hex } from "../../../src/kernel/Canonical.js"
import { BASE, card, ledgerWith, NUMERIC, RESIDUAL, right, runtimeOf } from "./support.js"

let rt: Runtime
let ledger: CardLedger
beforeAll(async () => {
  rt = await runtimeOf(BASE, RESIDUAL, NUMERIC)
  ledger = ledgerWith(rt, "basic_attack", ["test.heavy_strike", "core.ember.affinity", "residual_affinity"])
})

const fresh = <A>(a: A): A => JSON.parse(JSON.stringify(a)) as A

/** A deep copy whose object keys are in the order `order` picks (a permutation per object). */
const shuffleKeys = (v: unknown, rand: () => number): unknown => {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rand))
  if (v === null || typeof v !== "object") return v
  const keys = Object.keys(v)
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    const t = keys[i] as string
    keys[i] = keys[j] as string
    keys[j] = t
  }
  const out: Record<string, unknown> = {}
  for (const k of keys) out[k] = shuffleKeys((v as Record<string, unknown>)[k], rand)
  return out
}

const seeded = (seed: number) => {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 0x100000000
  }
}

describe("determinism", () => {
  it("ten resolutions of the same ledger give byte-identical effective cards and fingerprints", () => {
    const outputs = new Set<string>()
    const fingerprints = new Set<string>()
    for (let i = 0; i < 10; i++) {
      const statuses = new Map([...rt.statuses].map(([k, s]) => [k, fresh(s)]))
      const e = right(
        resolveEffectiveCard({ baseCard: fresh(card(rt, "basic_attack")), ledger: fresh(ledger), statuses })
      )
      outputs.add(JSON.stringify(e))
      fingerprints.add(e.fingerprint)
    }
    expect(outputs.size).toBe(1)
    expect(fingerprints.size).toBe(1)
  })

  it("the fingerprint is sha256 of the canonical JSON of the fingerprint document", () => {
    const input = { baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }
    const e = right(resolveEffectiveCard(input))
    expect(e.fingerprint).toBe(sha256Hex(canonicalJson(fingerprintDocument(input, e))))
    expect(e.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it("the fingerprint changes with the ledger, the base card and the trace", () => {
    const base = card(rt, "basic_attack")
    const a = right(resolveEffectiveCard({ baseCard: base, ledger, statuses: rt.statuses }))
    const shorter = ledgerWith(rt, "basic_attack", ["test.heavy_strike", "core.ember.affinity"])
    const b = right(resolveEffectiveCard({ baseCard: base, ledger: shorter, statuses: rt.statuses }))
    const renamed: Card = { ...base, metadata: { ...base.metadata, artKey: "art.other" } }
    const c = right(resolveEffectiveCard({ baseCard: renamed, ledger, statuses: rt.statuses }))
    expect(new Set([a.fingerprint, b.fingerprint, c.fingerprint]).size).toBe(3)
  })

  it("shuffling unrelated catalog entries or object key order changes nothing", () => {
    const reference = right(resolveEffectiveCard({ baseCard: card(rt, "basic_attack"), ledger, statuses: rt.statuses }))
    const refBytes = canonicalJson(reference)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffffff }), (seed) => {
        const rand = seeded(seed)
        const shuffledStatuses = [...rt.statuses].sort(() => rand() - 0.5)
        const statuses = new Map(shuffledStatuses.map(([k, s]) => [k, shuffleKeys(s, rand)] as [string, never]))
        const baseCard = shuffleKeys(card(rt, "basic_attack"), rand) as Card
        const shuffledLedger = shuffleKeys(ledger, rand) as CardLedger
        const e = right(resolveEffectiveCard({ baseCard, ledger: shuffledLedger, statuses }))
        expect(e.fingerprint).toBe(reference.fingerprint)
        expect(canonicalJson(e)).toBe(refBytes)
      }),
      { numRuns: 40 }
    )
  })

  it("resolution is pure: failures are values too, and repeatable", () => {
    const r1 = resolveEffectiveCard({
      baseCard: card(rt, "expose"),
      ledger: ledgerWith(rt, "expose", ["core.ember.affinity"]),
      statuses: rt.statuses
    })
    const r2 = resolveEffectiveCard({
      baseCard: card(rt, "expose"),
      ledger: ledgerWith(rt, "expose", ["core.ember.affinity"]),
      statuses: rt.statuses
    })
    expect(Either.isLeft(r1)).toBe(true)
    expect(JSON.stringify(r1)).toBe(JSON.stringify(r2))
  })
})
