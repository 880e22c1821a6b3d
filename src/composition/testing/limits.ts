/**
 * Limit walkers: for every composition limit, a fast-check arbitrary of cases
 * exactly at the limit (which must compose) and one of cases one past it
 * (which must fail with the limit's own code and `details: { limit, actual }`).
 * A case is plain content — a base card, statuses, bundles and the
 * transformations to apply in order — run through the real pipeline by
 * {@link runLimitCase}: `CardBundleCompiler.seal` in a runtime built from the
 * case, the ledger, and `resolveEffectiveCard`. The content is built in memory
 * on purpose, past the Schemas: the composition core must enforce its limits
 * on its own, with the numbers involved.
 *
 * `match_limit` is defined as one rule's selector matching more than
 * `Limits.matchesPerRule` (64) structural root effects of one card.
 *
 * These walkers are meant to be reused by anyone testing an implementation of
 * the grammar (published later as `cardfx/testing`).
 *
 * @since 0.1.0
 */
import { Either, FastCheck as fc } from "effect"
import type { Diagnostic } from "../../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../../kernel/DiagnosticCode.js"
import { Limits } from "../../kernel/Limits.js"
import { seal } from "../BundleCompiler.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import { appendEntry, type CardLedger, emptyLedger } from "../ledger/Ledger.js"
import { resolveEffectiveCard } from "../Resolver.js"
import type { Runtime } from "../Runtime.js"
import type { Bundle } from "../schema/Bundle.js"
import type { Card, EffectComponent } from "../schema/Card.js"
import { ENGINE_VERSION } from "../schema/Package.js"
import type { Status } from "../schema/Status.js"
import type { CompositionRule, Scope, Transformation } from "../schema/Transformation.js"

/** Content to compose: the base card and the transformations applied to it, in ledger order. */
export interface LimitCase {
  readonly card: Card
  readonly statuses: ReadonlyArray<Status>
  readonly bundles: ReadonlyArray<Bundle>
  readonly transformations: ReadonlyArray<Transformation>
}

/** One limit: its name, the code past it, the number, and the two arbitraries. */
export interface LimitWalker {
  readonly name: string
  readonly code: DiagnosticCode
  /** The limit as reported in `details.limit`. */
  readonly limit: number
  readonly atLimit: fc.Arbitrary<LimitCase>
  readonly pastLimit: fc.Arbitrary<LimitCase>
}

const emptyMap = <A>(): ReadonlyMap<string, A> => new Map()

/** Seals every transformation of the case, appends it, and resolves the card. */
export const runLimitCase = (c: LimitCase): Either.Either<EffectiveCardDefinition, ReadonlyArray<Diagnostic>> => {
  const statuses = new Map(c.statuses.map((s) => [s.statusId, s]))
  const runtime: Runtime = {
    pin: {
      engineVersion: ENGINE_VERSION,
      packages: [{ packageId: "limit.walker", version: "1.0.0", contentHash: "0".repeat(64) }]
    },
    manifests: [],
    cards: new Map([[c.card.cardId, c.card]]),
    statuses,
    relics: emptyMap(),
    buffs: emptyMap(),
    attributes: emptyMap(),
    bundles: new Map(c.bundles.map((b) => [b.bundleId, b])),
    transformations: new Map(c.transformations.map((t) => [t.upgradeId, t])),
    slots: emptyMap(),
    activities: emptyMap(),
    locales: [],
    origins: emptyMap()
  }
  let ledger: CardLedger = emptyLedger(c.card.cardId)
  for (const t of c.transformations) {
    const sealed = seal(runtime, t)
    if (Either.isLeft(sealed)) return Either.left(sealed.left)
    const next = appendEntry(ledger, sealed.right, {
      entryId: `e${ledger.entries.length + 1}`,
      captured: { revision: ledger.revision, sequence: 0, step: ledger.entries.length + 1 }
    })
    if (Either.isLeft(next)) return Either.left(next.left)
    ledger = next.right
  }
  return resolveEffectiveCard({ baseCard: c.card, ledger, statuses })
}

// ---------------------------------------------------------------------------
// Building blocks

/** The status every walker's members apply. */
export const markStatus: Status = { statusId: "mark", stacking: "add", durationRule: "refresh" }

const metadata = (id: string) => ({ nameKey: `name.${id}`, artKey: `art.${id}` })

const damage = (componentId: string, order: number, extra: Partial<EffectComponent> = {}): EffectComponent => ({
  type: "effect",
  componentId,
  order,
  effect: { type: "DAMAGE", target: "TARGET", amount: 3 },
  ...extra
})

const mark = (componentId: string, order: number, extra: Partial<EffectComponent> = {}): EffectComponent => ({
  type: "effect",
  componentId,
  order,
  effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "mark" },
  ...extra
})

const pad = (i: number): string => String(i).padStart(4, "0")

const cardWith = (components: ReadonlyArray<EffectComponent>, extra: Partial<Card> = {}): Card => ({
  cardId: "walker_card",
  cost: 1,
  metadata: metadata("walker_card"),
  components,
  ...extra
})

const damageRoots = (n: number, offset = 0): Array<EffectComponent> =>
  Array.from({ length: n }, (_, i) => damage(`r${pad(i + offset)}`, i + offset))

const rule = (
  ruleId: string,
  namespace: string,
  bundleId: string,
  scope: Scope,
  extra: Partial<CompositionRule> = {}
): CompositionRule => ({
  ruleId,
  priority: 0,
  namespace,
  bundleId,
  scope,
  ...extra
})

const transformation = (
  upgradeId: string,
  rules: ReadonlyArray<CompositionRule>,
  extra: Partial<Transformation> = {}
): Transformation => ({
  upgradeId,
  category: "Walker",
  ...(rules.length > 0 ? { compositionRules: rules } : {}),
  ...extra
})

const oneMember: Bundle = { bundleId: "b.one", components: [mark("m", 0)] }

/** Splits rules into transformations of at most 32 rules each. */
const chunk = (rules: ReadonlyArray<CompositionRule>): Array<Transformation> => {
  const out: Array<Transformation> = []
  for (let i = 0; i < rules.length; i += Limits.rulesPerTransformation) {
    out.push(transformation(`t${pad(out.length)}`, rules.slice(i, i + Limits.rulesPerTransformation)))
  }
  return out
}

const anchoredScope = fc.constantFrom<Scope>("AfterImpact", "BeforeImpact", "OncePerProc")
const anyScope = fc.constantFrom<Scope>("AfterImpact", "BeforeImpact", "OncePerProc", "BeforeSequence", "AfterSequence")
const symbolChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_".split(""))
/** A symbol of exactly `n` characters (ID syntax). */
const symbolOf = (n: number, prefix = "s"): fc.Arbitrary<string> =>
  fc.array(symbolChar, { minLength: n - prefix.length, maxLength: n - prefix.length }).map((cs) => prefix + cs.join(""))
/** `n` distinct symbols. */
const distinctSymbols = (n: number, prefix: string): Array<string> =>
  Array.from({ length: n }, (_, i) => `${prefix}${pad(i)}`)

/** A walker whose two cases differ only by the size given to `build`. */
const walker = (
  name: string,
  code: DiagnosticCode,
  limit: number,
  build: (size: number) => fc.Arbitrary<LimitCase>,
  past: number = limit + 1
): LimitWalker => ({ name, code, limit, atLimit: build(limit), pastLimit: build(past) })

// ---------------------------------------------------------------------------
// The walkers

/** 32 composition rules per transformation (`rule_limit`). */
const rulesPerTransformation = walker(
  "rules per transformation",
  "rule_limit",
  Limits.rulesPerTransformation,
  (n) =>
    fc.record({ roots: fc.integer({ min: 1, max: 4 }), scope: anyScope }).map(({ roots, scope }) => ({
      card: cardWith(damageRoots(roots)),
      statuses: [markStatus],
      bundles: [oneMember],
      transformations: [
        transformation(
          "t.rules",
          Array.from({ length: n }, (_, i) => rule(`rule${pad(i)}`, `n${pad(i)}`, "b.one", scope, { priority: n - i }))
        )
      ]
    }))
)

/** 64 members per rule bundle (`member_limit`). */
const membersPerBundle = walker(
  "members per bundle",
  "member_limit",
  Limits.membersPerBundle,
  (n) =>
    fc.record({ roots: fc.integer({ min: 1, max: 3 }), scope: anyScope, reversed: fc.boolean() }).map(
      ({ roots, scope, reversed }) => {
        const members = Array.from({ length: n }, (_, i) => mark(`m${pad(i)}`, reversed ? n - i : i))
        return {
          card: cardWith(damageRoots(roots)),
          statuses: [markStatus],
          bundles: [{ bundleId: "b.many", components: members }],
          transformations: [transformation("t.members", [rule("r", "many", "b.many", scope)])]
        }
      }
    )
)

/**
 * 256 expansions per card (`expansion_limit`): R structural roots, ⌊256/R⌋
 * anchored rules (R expansions each) and the remainder as sequence rules (one
 * expansion each); one more sequence rule goes past.
 */
const expansionsPerCard = walker(
  "expansions per card",
  "expansion_limit",
  Limits.expansionsPerCard,
  (n) =>
    fc.record({ roots: fc.integer({ min: 1, max: 64 }), scope: anchoredScope }).map(({ roots, scope }) => {
      const anchored = Math.floor(Limits.expansionsPerCard / roots)
      const sequence = n - anchored * roots
      const rules: Array<CompositionRule> = []
      for (let i = 0; i < anchored; i++) rules.push(rule(`a${pad(i)}`, `a${pad(i)}`, "b.one", scope))
      for (let i = 0; i < sequence; i++) rules.push(rule(`s${pad(i)}`, `s${pad(i)}`, "b.one", "AfterSequence"))
      return {
        card: cardWith(damageRoots(roots)),
        statuses: [markStatus],
        bundles: [oneMember],
        transformations: chunk(rules)
      }
    })
)

/** 64 symbols per list (`list_limit`), on the lists composition reads or grows. */
const symbolsPerList = walker(
  "symbols per list",
  "list_limit",
  Limits.listSymbols,
  (n) =>
    fc.constantFrom(
      "card.tags",
      "patch.addTags",
      "requirements.requiredTags",
      "selector.componentIds",
      "member.capabilityIds",
      "patch.addCapabilities"
    ).map(
      (where): LimitCase => {
        const symbols = distinctSymbols(n, "x")
        const roots = damageRoots(1)
        const base = { statuses: [markStatus], bundles: [oneMember] }
        switch (where) {
          case "card.tags":
            return { ...base, card: cardWith(roots, { tags: symbols }), transformations: [] }
          case "patch.addTags":
            return {
              ...base,
              card: cardWith(roots, { tags: symbols.slice(0, 40) }),
              transformations: [transformation("t.tags", [], { patches: [{ op: "addTags", tags: symbols.slice(40) }] })]
            }
          case "requirements.requiredTags":
            return {
              ...base,
              card: cardWith(roots, { tags: symbols.slice(0, Limits.listSymbols) }),
              transformations: [transformation("t.req", [], { requirements: { requiredTags: symbols } })]
            }
          case "selector.componentIds":
            return {
              ...base,
              card: cardWith(roots),
              transformations: [
                transformation("t.sel", [
                  rule("r", "sel", "b.one", "AfterImpact", {
                    selector: { componentIds: [roots[0]?.componentId ?? "", ...symbols.slice(1)] }
                  })
                ])
              ]
            }
          case "member.capabilityIds":
            return {
              ...base,
              card: cardWith(roots),
              bundles: [{ bundleId: "b.caps", components: [mark("m", 0, { capabilityIds: symbols })] }],
              transformations: [transformation("t.caps", [rule("r", "caps", "b.caps", "AfterImpact")])]
            }
          default:
            return {
              ...base,
              card: cardWith([damage("r0000", 0, { capabilityIds: symbols.slice(0, 10) })]),
              transformations: [
                transformation("t.addcaps", [], {
                  patches: [{ op: "addCapabilities", componentId: "r0000", capabilityIds: symbols.slice(10) }]
                })
              ]
            }
        }
      }
    )
)

/** 128 characters per symbol (`symbol_limit`), generated member IDs included. */
const symbolLength = walker("characters per symbol", "symbol_limit", Limits.symbolLength, (n) =>
  fc
    .record({
      where: fc.constantFrom("card.tags", "requirements.requiredTags", "effect.tags", "generated member ID"),
      namespaceLength: fc.integer({ min: 46, max: Limits.namespaceLength }),
      symbol: symbolOf(n)
    })
    .chain(({ where, namespaceLength, symbol }) => {
      if (where !== "generated member ID") return fc.constant(symbolCase(where, symbol))
      // namespace + "_" + 16 hex + "." + member ID = n characters.
      const memberLength = n - namespaceLength - 2 - Limits.expansionHashLength
      return fc.record({ ns: symbolOf(namespaceLength, "n"), member: symbolOf(memberLength, "m") }).map((
        { ns, member }
      ) => ({
        card: cardWith(damageRoots(1)),
        statuses: [markStatus],
        bundles: [{ bundleId: "b.long", components: [mark(member, 0)] }],
        transformations: [transformation("t.long", [rule("r", ns, "b.long", "AfterImpact")])]
      }))
    }))

const symbolCase = (where: string, symbol: string): LimitCase => {
  const base = { statuses: [markStatus], bundles: [oneMember] }
  switch (where) {
    case "card.tags":
      return { ...base, card: cardWith(damageRoots(1), { tags: [symbol] }), transformations: [] }
    case "requirements.requiredTags":
      return {
        ...base,
        card: cardWith(damageRoots(1), { tags: [symbol] }),
        transformations: [transformation("t.req", [], { requirements: { requiredTags: [symbol] } })]
      }
    default:
      return {
        ...base,
        card: cardWith([
          damage("r0000", 0, { effect: { type: "DAMAGE", target: "TARGET", amount: 1, tags: [symbol] } })
        ]),
        transformations: []
      }
  }
}

/**
 * The 4,096-node budget, children included (`node_budget`): R roots carrying
 * E structural children, and an AfterImpact bundle of m members on every root,
 * so that R + E + R·m is exactly the budget (one more structural child goes past).
 */
const nodeBudget = walker(
  "generated-node budget",
  "node_budget",
  Limits.generatedNodes,
  (n) =>
    fc.record({ roots: fc.integer({ min: 1, max: 64 }), members: fc.integer({ min: 1, max: 63 }) }).map(
      ({ roots, members }) => {
        const extra = n - roots - roots * members
        const components = damageRoots(roots).map((r, i) => {
          const count = Math.floor(extra / roots) + (i < extra % roots ? 1 : 0)
          return count === 0
            ? r
            : { ...r, children: Array.from({ length: count }, (_, j) => mark(`${r.componentId}c${pad(j)}`, j)) }
        })
        const bundle: Bundle = {
          bundleId: "b.members",
          components: Array.from({ length: members }, (_, i) => mark(`m${pad(i)}`, i))
        }
        return {
          card: cardWith(components),
          statuses: [markStatus],
          bundles: [bundle],
          transformations: [transformation("t.budget", [rule("r", "budget", "b.members", "AfterImpact")])]
        }
      }
    )
)

const chain = (depth: number, prefix: string): EffectComponent => {
  let node = mark(`${prefix}${pad(depth)}`, 0)
  for (let d = depth - 1; d >= 1; d--) node = mark(`${prefix}${pad(d)}`, 0, { children: [node] })
  return node
}

/** Effect depth (`nesting_limit`): a member chain under an anchor (depth 1 + chain) or as a sequence root. */
const effectDepth = walker(
  "effect depth",
  "nesting_limit",
  Limits.effectDepth,
  (n) =>
    fc.record({ scope: anyScope }).map(({ scope }) => {
      const sequence = scope === "BeforeSequence" || scope === "AfterSequence"
      const bundle: Bundle = { bundleId: "b.deep", components: [chain(sequence ? n : n - 1, "d")] }
      return {
        card: cardWith(damageRoots(1)),
        statuses: [markStatus],
        bundles: [bundle],
        transformations: [transformation("t.deep", [rule("r", "deep", "b.deep", scope)])]
      }
    })
)

/** `repeat` range 1..16 (`repeat_limit`): on a bundle member, or pushed by a numeric patch. */
const repeat = walker(
  "repeat",
  "repeat_limit",
  Limits.maxRepeat,
  (n) =>
    fc.record({ where: fc.constantFrom("member", "addNumber", "setNumber"), start: fc.integer({ min: 1, max: 8 }) })
      .map(({ where, start }): LimitCase => {
        if (where === "member") {
          return {
            card: cardWith(damageRoots(1)),
            statuses: [markStatus],
            bundles: [{
              bundleId: "b.rep",
              components: [{
                ...mark("m", 0),
                effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "mark", repeat: n }
              }]
            }],
            transformations: [transformation("t.rep", [rule("r", "rep", "b.rep", "AfterImpact")])]
          }
        }
        const root = damage("r0000", 0, { effect: { type: "DAMAGE", target: "TARGET", amount: 1, repeat: start } })
        return {
          card: cardWith([root]),
          statuses: [markStatus],
          bundles: [],
          transformations: [
            transformation("t.rep", [], {
              patches: [
                where === "addNumber"
                  ? { op: "addNumber", componentId: "r0000", field: "repeat", value: n - start }
                  : { op: "setNumber", componentId: "r0000", field: "repeat", value: n }
              ]
            })
          ]
        }
      })
)

/** Anchors one rule may match on one card (`match_limit`), with non-matching roots around them. */
const matchLimit = walker(
  "matches per rule",
  "match_limit",
  Limits.matchesPerRule,
  (n) =>
    fc.record({ others: fc.integer({ min: 0, max: 5 }), scope: anchoredScope }).map(({ others, scope }) => {
      const heals = Array.from({ length: others }, (_, i): EffectComponent => ({
        type: "effect",
        componentId: `h${pad(i)}`,
        order: -i,
        effect: { type: "HEAL", target: "SELF", amount: 1 }
      }))
      return {
        card: cardWith([...heals, ...damageRoots(n)]),
        statuses: [markStatus],
        bundles: [oneMember],
        transformations: [
          transformation("t.match", [rule("r", "match", "b.one", scope, { selector: { effectTypes: ["DAMAGE"] } })])
        ]
      }
    })
)

/** The authored namespace: ASCII, at most 47 characters (`invalid_id`). */
const namespaceLength = walker(
  "namespace length",
  "invalid_id",
  Limits.namespaceLength,
  (n) =>
    fc.record({ ns: symbolOf(n, "n"), scope: anyScope }).map(({ ns, scope }) => ({
      card: cardWith(damageRoots(1)),
      statuses: [markStatus],
      bundles: [oneMember],
      transformations: [transformation("t.ns", [rule("r", ns, "b.one", scope)])]
    }))
)

/** The order range, a signed 32-bit integer (`order_overflow`). */
const orderRange = walker(
  "order range",
  "order_overflow",
  Limits.orderMax,
  (n) =>
    anyScope.map((scope) => ({
      card: cardWith(damageRoots(1)),
      statuses: [markStatus],
      bundles: [{ bundleId: "b.order", components: [mark("m", n)] }],
      transformations: [transformation("t.order", [rule("r", "order", "b.order", scope)])]
    })),
  Limits.orderMax + 1
)

/** Every limit walker. */
export const limitWalkers: ReadonlyArray<LimitWalker> = [
  rulesPerTransformation,
  membersPerBundle,
  expansionsPerCard,
  symbolsPerList,
  symbolLength,
  nodeBudget,
  effectDepth,
  repeat,
  matchLimit,
  namespaceLength,
  orderRange
]
