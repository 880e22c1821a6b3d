/**
 * Every composition diagnostic from JSON fixtures (test/fixtures/resolver/cases),
 * asserted through the typed error channel: the services fail, `Effect.flip`
 * exposes the tagged error, and the test checks `_tag`, `code` and the
 * context fields — never the message text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync } from "node:fs"
import { CardBundleCompiler } from "../../../src/composition/BundleCompiler.js"
import {
  type CardLedger,
  emptyLedger,
  LedgerCommands,
  type SealedEntryContent
} from "../../../src/composition/ledger/Ledger.js"
import { CardResolver } from "../../../src/composition/Resolver.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Card } from "../../../src/composition/schema/Card.js"
import { BASE, decodeOverlay, manyRoots, overlay, readFixture, runtimeOf } from "./support.js"

interface Expect {
  readonly stage?: "seal" | "append" | "remove" | "resolve"
  readonly code: string
  readonly tag: string
  readonly transformationId?: string
  readonly ruleId?: string
  readonly subject?: string
  readonly details?: Record<string, unknown>
}

interface Case {
  readonly name: string
  readonly card: string
  readonly packages?: ReadonlyArray<string>
  readonly content?: unknown
  readonly generate?: { readonly cardId: string; readonly damageRoots: number }
  readonly ledger: ReadonlyArray<string>
  readonly then?: {
    readonly reloadCard?: unknown
    readonly dropStatuses?: ReadonlyArray<string>
    readonly appendUnsealed?: string
    readonly appendTampered?: string
    readonly remove?: string
  }
  readonly expect: Expect
}

const DIR = "test/fixtures/resolver/cases"
const runtimes = new Map<string, Promise<Runtime>>()
const runtimeFor = (packages: ReadonlyArray<string>): Promise<Runtime> => {
  const key = packages.join("|")
  let r = runtimes.get(key)
  if (r === undefined) {
    r = runtimeOf(...packages)
    runtimes.set(key, r)
  }
  return r
}

const opts = (ledger: CardLedger) => ({
  entryId: `e${ledger.entries.length + 1}`,
  captured: { revision: ledger.revision, sequence: 0, step: ledger.entries.length + 1 }
})

/** Runs a case up to its failing stage; succeeds only if nothing failed. */
const runCase = (c: Case) =>
  Effect.gen(function*() {
    const compiler = yield* CardBundleCompiler
    const resolver = yield* CardResolver
    let rt = yield* Effect.promise(() => runtimeFor(c.packages ?? [BASE]))
    if (c.content !== undefined) rt = overlay(rt, decodeOverlay(c.content))
    if (c.generate !== undefined) {
      rt = overlay(rt, { cards: [manyRoots(c.generate.cardId, c.generate.damageRoots)] })
    }
    let ledger = emptyLedger(c.card)
    for (const id of c.ledger) {
      const t = rt.transformations.get(id)
      if (t === undefined) return yield* Effect.die(`fixture names unknown transformation ${id}`)
      const sealed = yield* compiler.seal(rt, t)
      ledger = yield* LedgerCommands.append(ledger, sealed, opts(ledger))
    }
    let baseCard = rt.cards.get(c.card) as Card
    let statuses = rt.statuses
    const then = c.then ?? {}
    if (then.reloadCard !== undefined) baseCard = decodeOverlay({ cards: [then.reloadCard] }).cards?.[0] as Card
    if (then.dropStatuses !== undefined) {
      const m = new Map(statuses)
      for (const s of then.dropStatuses) m.delete(s)
      statuses = m
    }
    if (then.appendUnsealed !== undefined) {
      ledger = yield* LedgerCommands.append(ledger, rt.transformations.get(then.appendUnsealed), opts(ledger))
    }
    if (then.appendTampered !== undefined) {
      const sealed = yield* compiler.seal(rt, rt.transformations.get(then.appendTampered) ?? ({} as never))
      const rule = sealed.closedCompositionRules[0]
      if (rule === undefined) return yield* Effect.die("fixture: nothing to tamper with")
      const tampered: SealedEntryContent = {
        ...sealed,
        closedCompositionRules: [
          { ...rule, bundle: { ...rule.bundle, components: [] } },
          ...sealed.closedCompositionRules.slice(1)
        ]
      }
      ledger = yield* LedgerCommands.append(ledger, tampered, opts(ledger))
    }
    if (then.remove !== undefined) ledger = yield* resolver.checkRemoval(ledger, then.remove, { baseCard, statuses })
    return yield* resolver.resolve({ baseCard, ledger, statuses })
  }).pipe(Effect.provide(CardBundleCompiler.layer), Effect.provide(CardResolver.layer))

const files = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()

const seen = new Set<string>()
for (const file of files) {
  const fixture = readFixture(`${DIR}/${file}`) as unknown as { readonly cases: ReadonlyArray<Case> }
  describe(file, () => {
    for (const c of fixture.cases) {
      seen.add(c.expect.code)
      it.effect(c.name, () =>
        Effect.gen(function*() {
          const e = yield* Effect.flip(runCase(c))
          expect(e._tag).toBe(c.expect.tag)
          expect(e.code).toBe(c.expect.code)
          if (c.expect.transformationId !== undefined) expect(e.transformationId).toBe(c.expect.transformationId)
          if (c.expect.ruleId !== undefined) expect(e.ruleId).toBe(c.expect.ruleId)
          if (c.expect.subject !== undefined) expect(e.subject).toBe(c.expect.subject)
          if (c.expect.details !== undefined) expect(e.details).toMatchObject(c.expect.details)
          expect(e.message.length).toBeGreaterThan(0)
        }))
    }
  })
}

describe("coverage of the seed's codes", () => {
  it("every code the issue names has a fixture", () => {
    for (
      const code of [
        "transformation_invalid",
        "missing_tag",
        "excluded_tag",
        "missing_capability",
        "excluded_capability",
        "no_matching_rule",
        "ambiguous_anchor",
        "component_collision",
        "invalid_composition",
        "match_limit",
        "expansion_limit",
        "parameter_mismatch",
        "template_unbound",
        "invalid_binding",
        "unsealed_definition",
        "dependency_violation"
      ]
    ) {
      expect(seen, code).toContain(code)
    }
  })
})
