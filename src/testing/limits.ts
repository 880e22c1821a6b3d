/**
 * Limit walkers for every documented limit in `Limits` (src/kernel/Limits.ts):
 * each walker has an arbitrary of cases exactly at the limit (accepted), one
 * of cases one past it (rejected with `code`), and `run`, the real pipeline
 * stage that enforces the limit. The composition walkers come from the
 * composition core (`src/composition/testing/limits.ts`, run through seal +
 * resolve); this module adds the input, authored-ID, request-ID,
 * order-minimum, expansion-ID and sequence-budget walkers, the content-file
 * walkers (locale tags, names per locale table, display text length, through
 * the content Schema's decoder) and says, in `limitKeys`, which
 * `Limits` entries each walker covers (`limitCoverage` is checked to cover
 * them all).
 *
 * A downstream property test:
 *
 * ```ts
 * for (const w of walkers) {
 *   fc.assert(fc.property(w.pastLimit, (c) => {
 *     const r = w.run(c)
 *     return Either.isLeft(r) && r.left.some((d) => d.code === w.code)
 *   }), { numRuns: 5 })
 * }
 * ```
 *
 * @since 0.1.0
 */
import { Either, FastCheck as fc } from "effect"
import { compileContainer } from "../composition/Compiler.js"
import type { EffectiveCardDefinition } from "../composition/Effective.js"
import type { SequenceResult } from "../composition/executor/Events.js"
import { executeSequence } from "../composition/executor/Execute.js"
import type { EffectComponent } from "../composition/schema/Card.js"
import { ContentFile } from "../composition/schema/Package.js"
import { invalidRequestId } from "../composition/schema/Symbols.js"
import {
  type LimitCase,
  limitWalkers as compositionWalkers,
  markStatus,
  runLimitCase
} from "../composition/testing/limits.js"
import { makeDecoder } from "../kernel/Decode.js"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import { type JsonDocument, parseJson } from "../kernel/Json.js"
import { Limits } from "../kernel/Limits.js"
import { FUZZ_COMBAT } from "./fuzz.js"

export { type LimitCase, markStatus, runLimitCase } from "../composition/testing/limits.js"

/** A key of `Limits`. */
export type LimitKey = keyof typeof Limits

/** One limit walker: the two arbitraries, the stage that enforces the limit, and the code past it. */
export interface Walker<C = unknown> {
  readonly name: string
  /** The `Limits` entries this walker walks. */
  readonly limitKeys: ReadonlyArray<LimitKey>
  /** The code the past-the-limit case must produce. */
  readonly code: DiagnosticCode
  /** The limit (as reported in `details.limit` where the stage reports it). */
  readonly limit: number
  readonly atLimit: fc.Arbitrary<C>
  readonly pastLimit: fc.Arbitrary<C>
  /** Runs the case through the real stage: Right when accepted, Left with every diagnostic when rejected. */
  readonly run: (c: C) => Either.Either<unknown, ReadonlyArray<Diagnostic>>
}

const compositionKeys: Readonly<Record<string, ReadonlyArray<LimitKey>>> = {
  "rules per transformation": ["rulesPerTransformation"],
  "members per bundle": ["membersPerBundle"],
  "expansions per card": ["expansionsPerCard"],
  "symbols per list": ["listSymbols"],
  "characters per symbol": ["symbolLength"],
  "generated-node budget": ["generatedNodes"],
  "effect depth": ["effectDepth"],
  repeat: ["maxRepeat"],
  "matches per rule": ["matchesPerRule"],
  "namespace length": ["namespaceLength"],
  "order range": ["orderMax"]
}

const fromComposition: ReadonlyArray<Walker<LimitCase>> = compositionWalkers.map((w) => ({
  ...w,
  limitKeys: compositionKeys[w.name] ?? [],
  run: runLimitCase
}))

// ---------------------------------------------------------------------------
// Building blocks (composition cases)

const mark = (componentId: string, order: number): EffectComponent => ({
  type: "effect",
  componentId,
  order,
  effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "mark" }
})

const damage = (componentId: string, order: number, repeat: number): EffectComponent => ({
  type: "effect",
  componentId,
  order,
  effect: { type: "DAMAGE", target: "TARGET", amount: 0, repeat }
})

const cardOf = (components: ReadonlyArray<EffectComponent>): LimitCase["card"] => ({
  cardId: "walker_card",
  cost: 1,
  metadata: { nameKey: "name.walker_card", artKey: "art.walker_card" },
  components
})

const idChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_".split(""))
const idOf = (n: number, prefix: string): fc.Arbitrary<string> =>
  fc.array(idChar, { minLength: n - prefix.length, maxLength: n - prefix.length }).map((cs) => prefix + cs.join(""))

// ---------------------------------------------------------------------------
// Input walkers (the hardened JSON parser)

/** A JSON document: its bytes. */
export interface InputCase {
  readonly bytes: Uint8Array
}

const runInput = (c: InputCase): Either.Either<JsonDocument, ReadonlyArray<Diagnostic>> =>
  Either.mapLeft(parseJson(c.bytes, { file: "walker.json" }), (d) => [d])

/** `Limits.inputBytes` (`file_too_large`): a JSON string document of exactly n bytes (the padding character varies). */
const inputBytes: Walker<InputCase> = {
  name: "input bytes",
  limitKeys: ["inputBytes"],
  code: "file_too_large",
  limit: Limits.inputBytes,
  ...(() => {
    const build = (n: number) =>
      fc.constantFrom("a", "z", " ").map((ch): InputCase => {
        const bytes = new Uint8Array(n).fill(ch.charCodeAt(0))
        // `"…"`: a string literal; with " " padding, `[]` then spaces (white space after a value is allowed).
        if (ch === " ") {
          bytes[0] = 0x5b // [
          bytes[1] = 0x5d // ]
        } else {
          bytes[0] = 0x22
          bytes[n - 1] = 0x22
        }
        return { bytes }
      })
    return { atLimit: build(Limits.inputBytes), pastLimit: build(Limits.inputBytes + 1) }
  })(),
  run: runInput
}

/** `Limits.inputDepth` (`depth_limit`): n nested arrays or objects. */
const inputDepth: Walker<InputCase> = {
  name: "input depth",
  limitKeys: ["inputDepth"],
  code: "depth_limit",
  limit: Limits.inputDepth,
  ...(() => {
    const build = (n: number) =>
      fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((kinds): InputCase => {
        let text = "1"
        for (const isArray of kinds) text = isArray ? `[${text}]` : `{"k":${text}}`
        return { bytes: new TextEncoder().encode(text) }
      })
    return { atLimit: build(Limits.inputDepth), pastLimit: build(Limits.inputDepth + 1) }
  })(),
  run: runInput
}

// ---------------------------------------------------------------------------
// Composition walkers added here

/**
 * `Limits.authoredIdLength` (`invalid_id`): an authored component ID of n
 * characters at any depth of a card, through the common compiler (the stage
 * that enforces it; the resolver reports a base card that does not compile
 * as `invalid_composition`, with the compiler's code in `details`).
 */
const authoredIdLength: Walker<LimitCase> = {
  name: "authored ID length",
  limitKeys: ["authoredIdLength"],
  code: "invalid_id",
  limit: Limits.authoredIdLength,
  ...(() => {
    const build = (n: number) =>
      fc.record({ id: idOf(n, "c"), asChild: fc.boolean() }).map(({ id, asChild }): LimitCase => ({
        card: cardOf(asChild ? [{ ...mark("r0", 0), children: [mark(id, 0)] }] : [mark(id, 0)]),
        statuses: [markStatus],
        bundles: [],
        transformations: []
      }))
    return { atLimit: build(Limits.authoredIdLength), pastLimit: build(Limits.authoredIdLength + 1) }
  })(),
  run: (c) => compileContainer(c.card, { statuses: new Map(c.statuses.map((s) => [s.statusId, s])) })
}

/** `Limits.orderMin` (`order_overflow`): a member order at the minimum, or one below it. */
const orderMin: Walker<LimitCase> = {
  name: "order range (minimum)",
  limitKeys: ["orderMin"],
  code: "order_overflow",
  limit: Limits.orderMin,
  ...(() => {
    const build = (n: number) =>
      fc.constantFrom("AfterImpact" as const, "AfterSequence" as const, "BeforeImpact" as const).map(
        (scope): LimitCase => ({
          card: cardOf([damage("r0", 0, 1)]),
          statuses: [markStatus],
          bundles: [{ bundleId: "b.order", components: [mark("m", n)] }],
          transformations: [{
            upgradeId: "t.order",
            category: "Walker",
            compositionRules: [{ ruleId: "r", priority: 0, namespace: "order", bundleId: "b.order", scope }]
          }]
        })
      )
    return { atLimit: build(Limits.orderMin), pastLimit: build(Limits.orderMin - 1) }
  })(),
  run: runLimitCase
}

/**
 * `Limits.expansionHashLength` with `Limits.namespaceLength`: an expansion ID
 * is `namespace + "_" + 16 hex`, so a 47-character namespace gives a
 * 64-character ID (the authored-ID limit); a 48-character one is `invalid_id`.
 * `run` also checks that every expansion ID in the trace carries exactly 16
 * hex characters.
 */
const expansionId: Walker<LimitCase> = {
  name: "expansion ID (namespace + _ + 16 hex)",
  limitKeys: ["expansionHashLength"],
  code: "invalid_id",
  limit: Limits.namespaceLength,
  ...(() => {
    const build = (n: number) =>
      idOf(n, "n").map(
        (ns): LimitCase => ({
          card: cardOf([damage("r0", 0, 1)]),
          statuses: [markStatus],
          bundles: [{ bundleId: "b.one", components: [mark("m", 0)] }],
          transformations: [{
            upgradeId: "t.ns",
            category: "Walker",
            compositionRules: [{ ruleId: "r", priority: 0, namespace: ns, bundleId: "b.one", scope: "AfterImpact" }]
          }]
        })
      )
    return { atLimit: build(Limits.namespaceLength), pastLimit: build(Limits.namespaceLength + 1) }
  })(),
  run: (c) =>
    Either.flatMap(runLimitCase(c), (effective: EffectiveCardDefinition) => {
      const pattern = new RegExp(`_[0-9a-f]{${Limits.expansionHashLength}}$`)
      const bad = effective.compositionTrace.filter((t) => !pattern.test(t.expansionId))
      return bad.length === 0
        ? Either.right(effective)
        : Either.left([
          {
            code: "invalid_id",
            severity: "error",
            message: `expansion IDs without ${Limits.expansionHashLength} hex: ${JSON.stringify(bad)}`
          } as Diagnostic
        ])
    })
}

/**
 * `Limits.sequenceNodeBudget` (`budget_exceeded`): a card whose one play
 * makes exactly n node attempts (roots of `repeat` 16 at one target, then one
 * root for the remainder), composed and then played by the executor. The
 * budget's `details` report `limit` and `used`.
 */
const sequenceNodeBudget: Walker<LimitCase> = {
  name: "sequence node budget",
  limitKeys: ["sequenceNodeBudget"],
  code: "budget_exceeded",
  limit: Limits.sequenceNodeBudget,
  ...(() => {
    // repeat ≥ 2: with repeat 1, 4,097 attempts would need 4,097 nodes, which the compiler's
    // node budget (also 4,096) rejects first — the executor's budget is reached through repeats.
    const build = (n: number) =>
      fc.integer({ min: 2, max: Limits.maxRepeat }).map((repeat): LimitCase => {
        const full = Math.floor(n / repeat)
        const rest = n - full * repeat
        const roots = Array.from({ length: full }, (_, i) => damage(`r${i}`, i, repeat))
        if (rest > 0) roots.push(damage("rest", full, rest))
        return { card: cardOf(roots), statuses: [markStatus], bundles: [], transformations: [] }
      })
    return { atLimit: build(Limits.sequenceNodeBudget), pastLimit: build(Limits.sequenceNodeBudget + 1) }
  })(),
  run: (c): Either.Either<SequenceResult, ReadonlyArray<Diagnostic>> =>
    Either.flatMap(runLimitCase(c), (effective) => {
      const lookups = {
        statuses: new Map(c.statuses.map((s) => [s.statusId, s])),
        relics: new Map(),
        buffs: new Map(),
        attributes: new Map()
      }
      const combat = {
        ...FUZZ_COMBAT,
        characters: FUZZ_COMBAT.characters.map((
          ch
        ) => (ch.characterId === "foe" ? { ...ch, hp: 1_000_000, maxHp: 1_000_000 } : ch))
      }
      const r = executeSequence(lookups, effective.compiled, combat, { actorId: "hero", targetIds: ["foe"], seed: 1 })
      return r.ok ? Either.right(r.result) : Either.left([r.diagnostic])
    })
}

/** An ID a request names. */
export interface RequestIdCase {
  readonly id: string
}

/**
 * `Limits.requestIdLength` (`invalid_id`): an ID a request names (a card, an
 * instance, a branch, a game, ...) of n characters, through the check every
 * service makes at its boundary (the request Schemas' `RequestId` says the
 * same). Longer than `authoredIdLength`: a request may name an ID content
 * could never declare, and gets not-found for it rather than `invalid_id`.
 */
const requestIdLength: Walker<RequestIdCase> = {
  name: "request ID length",
  limitKeys: ["requestIdLength"],
  code: "invalid_id",
  limit: Limits.requestIdLength,
  atLimit: idOf(Limits.requestIdLength, "r").map((id) => ({ id })),
  pastLimit: idOf(Limits.requestIdLength + 1, "r").map((id) => ({ id })),
  run: (c) => {
    const invalid = invalidRequestId([["/id", c.id]])
    return invalid === undefined ? Either.right(c.id) : Either.left(invalid.diagnostics)
  }
}

// ---------------------------------------------------------------------------
// Content-file walkers (the content Schema's decoder, as `cardfx validate` decodes a file)

/** A content file's JSON value. */
export interface ContentCase {
  readonly content: unknown
}

const decodeContent = makeDecoder(ContentFile)
const runContent = (c: ContentCase): Either.Either<ContentFile, ReadonlyArray<Diagnostic>> => decodeContent(c.content)

const localeFile = (locale: string, names: Readonly<Record<string, string>>): ContentCase => ({
  content: { locales: [{ locale, names }] }
})

const alnum = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""))

/** `Limits.localeTagLength` (`invalid_id`): a well-formed locale tag of n characters (`en-…`, subtags of 1..8). */
const localeTagLength: Walker<ContentCase> = {
  name: "locale tag length",
  limitKeys: ["localeTagLength"],
  code: "invalid_id",
  limit: Limits.localeTagLength,
  ...(() => {
    const build = (n: number) =>
      fc.array(alnum, { minLength: n, maxLength: n }).map((cs): ContentCase => {
        let tag = "en"
        let k = 0
        while (tag.length < n) {
          // "-" and 1..8 characters; never leave a single character over.
          const r = n - tag.length
          const part = r >= 11 ? 9 : r === 10 ? 8 : r
          tag += "-" + cs.slice(k, k + part - 1).join("")
          k += part - 1
        }
        return localeFile(tag, { "card.walker.name": "Walker" })
      })
    return { atLimit: build(Limits.localeTagLength), pastLimit: build(Limits.localeTagLength + 1) }
  })(),
  run: runContent
}

/** `Limits.namesPerLocale` (`name_limit`): a locale table of n names. */
const namesPerLocale: Walker<ContentCase> = {
  name: "names per locale table",
  limitKeys: ["namesPerLocale"],
  code: "name_limit",
  limit: Limits.namesPerLocale,
  ...(() => {
    const build = (n: number) =>
      fc.tuple(fc.constantFrom("card.", "status.", "k"), fc.constantFrom("en", "pt-BR")).map(
        ([prefix, locale]): ContentCase =>
          localeFile(locale, Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `Name ${i}`])))
      )
    return { atLimit: build(Limits.namesPerLocale), pastLimit: build(Limits.namesPerLocale + 1) }
  })(),
  run: runContent
}

/** `Limits.displayTextLength` (`text_limit`): a display text of n characters (UTF-16 code units of the BMP). */
const displayTextLength: Walker<ContentCase> = {
  name: "display text length",
  limitKeys: ["displayTextLength"],
  code: "text_limit",
  limit: Limits.displayTextLength,
  ...(() => {
    const textChar = fc.constantFrom(..."abcXYZ 09.,'-éçñ→".split(""))
    const build = (n: number) =>
      fc.array(textChar, { minLength: n, maxLength: n }).map((cs): ContentCase =>
        localeFile("en", { "card.walker.name": cs.join("") })
      )
    return { atLimit: build(Limits.displayTextLength), pastLimit: build(Limits.displayTextLength + 1) }
  })(),
  run: runContent
}

/** Every limit walker: the composition core's and the ones added here. */
export const walkers: ReadonlyArray<
  Walker<LimitCase> | Walker<InputCase> | Walker<RequestIdCase> | Walker<ContentCase>
> = [
  ...fromComposition,
  authoredIdLength,
  orderMin,
  expansionId,
  sequenceNodeBudget,
  requestIdLength,
  inputDepth,
  inputBytes,
  localeTagLength,
  namesPerLocale,
  displayTextLength
]

/** Which walkers cover each `Limits` entry (every entry has at least one). */
export const limitCoverage = (): Readonly<Record<LimitKey, ReadonlyArray<string>>> => {
  const out = {} as Record<LimitKey, Array<string>>
  for (const key of Object.keys(Limits) as Array<LimitKey>) out[key] = []
  for (const w of walkers) for (const key of w.limitKeys) out[key].push(w.name)
  return out
}

/** Runs any walker's case (the union's `run` takes its own case type). */
export const runWalkerCase = (
  w: Walker<LimitCase> | Walker<InputCase> | Walker<RequestIdCase> | Walker<ContentCase>,
  c: LimitCase | InputCase | RequestIdCase | ContentCase
): Either.Either<unknown, ReadonlyArray<Diagnostic>> =>
  (w.run as (
    c: LimitCase | InputCase | RequestIdCase | ContentCase
  ) => Either.Either<unknown, ReadonlyArray<Diagnostic>>)(
    c
  )
