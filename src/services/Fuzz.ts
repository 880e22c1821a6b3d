/**
 * Generated-vocabulary fuzzing, shared by `test/fuzz` and `cardfx fuzz` (the
 * worker threads run its ranges: {@link fuzzRangeRunner}; `cardfx/testing`
 * re-exports it).
 * Four fast-check properties, each checked with `fc.check` (so a failure is a
 * report, never a throw) from one seed:
 *
 * 1. `composition.valid`: generated valid content publishes; every
 *    transformation is planned (apply, activity `fuzz`) → resolved →
 *    executed twice (same bytes). Rejections at any stage are allowed, but
 *    each must be a typed diagnostic (its code in `DiagnosticCodeTable`).
 * 1b. `composition.catalog` (with real packages): the generated content is
 *    published beside them and its transformations are applied to every
 *    published card (most patches then name components those cards lack:
 *    typed rejections, by design).
 * 2. `composition.shapes`: Schema-shaped cards, statuses, bundles and
 *    transformations (random vocabulary) go through compile, seal and
 *    resolve; Schema-shaped ledgers through `verifyLedger`. Nothing throws;
 *    every rejection is typed.
 * 3. `hallyu.valid`: generated valid decks validate, and a seeded random game
 *    on each is played to its end without an untyped failure.
 * 4. `hallyu.shapes`: a Schema-shaped card added to the deck never makes the
 *    validator throw; its rejections are typed.
 *
 * A failing property is shrunk by fast-check; its report carries the minimal
 * counterexample and the `seed`/`path` that replay it.
 *
 * Run *i* of a property is checked on its own: fast-check's seed for it is
 * derived from (seed, *i*) (`runSeed`), so runs split into ranges
 * (`runFuzzRange`, across worker threads) and merged in run order
 * (`mergeFuzzPartials`) give the report of one process, byte for byte. The
 * replay path keeps fast-check's form `<run>:<shrink steps>`; its first number
 * is the run index, which selects the derived seed.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Effect, Either, FastCheck as fc, Schema } from "effect"
import { compileContainer } from "../composition/Compiler.js"
import { type DecodedPackage, loadPackage } from "../composition/ContentPackage.js"
import type { CombatState } from "../composition/executor/CombatState.js"
import { executeSequence } from "../composition/executor/Execute.js"
import { type CardLedger, emptyLedger, verifyLedger } from "../composition/ledger/Ledger.js"
import { plan } from "../composition/planner/Plan.js"
import { resolveEffectiveCard } from "../composition/Resolver.js"
import type { Runtime } from "../composition/Runtime.js"
import { runLimitCase } from "../composition/testing/limits.js"
import { makeEngine } from "../hallyu/engine/Engine.js"
import { playRandom } from "../hallyu/engine/Simulate.js"
import type { StarterDeck } from "../hallyu/Schema.js"
import { validateDeck } from "../hallyu/Validate.js"
import { canonicalJson, sha256Hex } from "../kernel/Canonical.js"
import type { Diagnostic } from "../kernel/Diagnostic.js"
import { isDiagnosticCode } from "../kernel/DiagnosticCode.js"
import { parseJson } from "../kernel/Json.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import {
  bundleArbitrary,
  cardArbitrary,
  hallyuCardArbitrary,
  ledgerArbitrary,
  statusArbitrary,
  transformationArbitrary
} from "./fuzz/Arbitraries.js"
import { FUZZ_ACTIVITY, publishContent, validCompositionContent, validHallyuDeck } from "./fuzz/ValidContent.js"
import { deckFromJson, type DeckSource, memo } from "./Simulation.js"

/** Options of a fuzz run. */
export interface FuzzOptions {
  /** The fast-check seed (the same seed gives the same cases). */
  readonly seed: number
  /** Cases per property. */
  readonly runs: number
  /** A validated Hallyu Hex deck; without it the Hallyu Hex properties are skipped. */
  readonly deck?: StarterDeck | undefined
  /**
   * Real content packages (e.g. data/heroscript.base, decoded); with them,
   * `composition.catalog` publishes generated content beside them and applies
   * the generated transformations to every published card.
   */
  readonly packages?: ReadonlyArray<DecodedPackage> | undefined
  /** Only the properties whose names start with one of these. */
  readonly only?: ReadonlyArray<string> | undefined
  /** A fast-check replay path (from a failure report): replays that one case (use with `only`). */
  readonly path?: string | undefined
}

/** A property's failure: the shrunk counterexample and how to replay it. */
export interface FuzzFailure {
  readonly counterexample: unknown
  readonly error: string
  /** fast-check's replay path (with the seed, replays exactly this case). */
  readonly path: string
  readonly shrinks: number
}

/** One property's outcome. */
export interface FuzzPropertyReport {
  readonly name: string
  readonly runs: number
  readonly ok: boolean
  readonly failure?: FuzzFailure
}

/** The whole run: per-property outcomes and how often each diagnostic code was met. */
export interface FuzzReport {
  readonly ok: boolean
  readonly seed: number
  readonly runs: number
  readonly properties: ReadonlyArray<FuzzPropertyReport>
  /** Typed rejections met (code → count), sorted by code; shrink attempts included. */
  readonly codes: Readonly<Record<string, number>>
}

/** An untyped rejection: thrown by a property when a stage returns something that is not a typed diagnostic. */
export class UntypedRejection extends Error {
  constructor(
    readonly stage: string,
    readonly value: unknown
  ) {
    super(`${stage}: rejection is not a typed diagnostic: ${safeJson(value)}`)
  }
}

const safeJson = (v: unknown): string => {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? String(v)
  } catch {
    return String(v)
  }
}

/** Whether a value is a diagnostic whose code is in the table. */
export const isTypedDiagnostic = (d: unknown): d is Diagnostic =>
  typeof d === "object" &&
  d !== null &&
  isDiagnosticCode((d as { code?: unknown }).code) &&
  typeof (d as { message?: unknown }).message === "string" &&
  ((d as { severity?: unknown }).severity === "error" ||
    (d as { severity?: unknown }).severity === "warning" ||
    (d as { severity?: unknown }).severity === "info")

class Codes {
  readonly counts = new Map<string, number>()
  /** Checks a list of rejections is typed and non-empty, and counts their codes. */
  expect(stage: string, ds: ReadonlyArray<unknown>): void {
    if (ds.length === 0) throw new UntypedRejection(stage, ds)
    for (const d of ds) {
      if (!isTypedDiagnostic(d)) throw new UntypedRejection(stage, d)
      this.counts.set(d.code, (this.counts.get(d.code) ?? 0) + 1)
    }
  }
}

/** The combat the composition properties play in: an actor, two enemies, an ally. */
export const FUZZ_COMBAT: CombatState = {
  turn: 1,
  activeSide: "ally",
  characters: [
    { characterId: "hero", side: "ally", hp: 50, maxHp: 60, statuses: [], attributes: {}, relics: [], buffs: [] },
    { characterId: "friend", side: "ally", hp: 20, maxHp: 30, statuses: [], attributes: {}, relics: [], buffs: [] },
    { characterId: "foe", side: "enemy", hp: 40, maxHp: 40, statuses: [], attributes: {}, relics: [], buffs: [] },
    { characterId: "foe2", side: "enemy", hp: 8, maxHp: 30, statuses: [], attributes: {}, relics: [], buffs: [] }
  ]
}

const compositionValid = (codes: Codes) =>
  fc.property(validCompositionContent, fc.integer({ min: 0, max: 1_000_000 }), (content, seed) => {
    const published = publishContent(content)
    if (published.runtime === undefined) {
      codes.expect("publish", published.diagnostics)
      throw new Error(`generated valid content did not publish: ${safeJson(published.diagnostics)}`)
    }
    composeAndPlay(published.runtime, content.card.cardId, content.transformations.map((t) => t.upgradeId), seed, codes)
  })

/** Plans every transformation on a card in order, resolves and plays it; stages may reject, with typed diagnostics. */
const composeAndPlay = (
  runtime: Runtime,
  cardId: string,
  upgradeIds: ReadonlyArray<string>,
  seed: number,
  codes: Codes
): void => {
  const baseCard = runtime.cards.get(cardId)
  if (baseCard === undefined) throw new Error(`card ${cardId} is not published`)
  let ledger: CardLedger = emptyLedger(cardId)
  for (const upgradeId of upgradeIds) {
    const p = plan({ runtime, ledger, command: { kind: "apply", upgradeId }, activity: FUZZ_ACTIVITY.activityId })
    if (p.change === undefined) {
      if (p.assessment.isCompatible) throw new Error(`${upgradeId}: assessed compatible but no change was planned`)
      codes.expect(`plan ${upgradeId}`, p.assessment.diagnostics)
    } else {
      if (!p.assessment.isCompatible) {
        throw new Error(`${upgradeId}: a change was planned for an incompatible assessment`)
      }
      ledger = p.change.ledger
    }
  }
  const effective = resolveEffectiveCard({ baseCard, ledger, statuses: runtime.statuses })
  // Every planned entry composed when it was planned, so the final ledger must compose too.
  if (Either.isLeft(effective)) {
    throw new Error(`a ledger built from accepted plans does not resolve: ${safeJson(effective.left)}`)
  }
  const request = { actorId: "hero", targetIds: ["foe"], seed }
  const first = executeSequence(runtime, effective.right.compiled, FUZZ_COMBAT, request)
  const second = executeSequence(runtime, effective.right.compiled, FUZZ_COMBAT, request)
  if (!first.ok) codes.expect("execute", [first.diagnostic])
  if (
    canonicalJson(first.ok ? first.result : first.diagnostic) !==
      canonicalJson(second.ok ? second.result : second.diagnostic)
  ) {
    throw new Error("the same play gave different bytes")
  }
}

const compositionCatalog = (packages: ReadonlyArray<DecodedPackage>, codes: Codes) =>
  fc.property(validCompositionContent, fc.integer({ min: 0, max: 1_000_000 }), (content, seed) => {
    const published = publishContent(content, packages)
    if (published.runtime === undefined) {
      throw new Error(`generated content did not publish beside the packages: ${safeJson(published.diagnostics)}`)
    }
    const runtime = published.runtime
    const upgradeIds = content.transformations.map((t) => t.upgradeId)
    for (const cardId of [...runtime.cards.keys()].sort(compareOrdinal)) {
      composeAndPlay(runtime, cardId, upgradeIds, seed, codes)
    }
  })

const compositionShapes = (codes: Codes) =>
  fc.property(
    cardArbitrary(),
    fc.array(statusArbitrary(), { maxLength: 2 }),
    fc.array(bundleArbitrary(), { maxLength: 2 }),
    fc.array(transformationArbitrary(), { maxLength: 2 }),
    ledgerArbitrary(),
    (card, statuses, bundles, transformations, ledger) => {
      const compiled = compileContainer(card, { statuses: new Map(statuses.map((s) => [s.statusId, s])) })
      if (Either.isLeft(compiled)) codes.expect("compile", compiled.left)
      const composed = runLimitCase({ card, statuses, bundles, transformations })
      if (Either.isLeft(composed)) codes.expect("seal/resolve", composed.left)
      const verified = verifyLedger(ledger)
      if (Either.isLeft(verified)) codes.expect("verifyLedger", verified.left)
    }
  )

const reparse = (deck: StarterDeck) => {
  const doc = parseJson(JSON.stringify(deck), { file: "generated-deck.json" })
  if (Either.isLeft(doc)) throw new Error(`a generated deck is not JSON the parser accepts: ${safeJson(doc.left)}`)
  return validateDeck(doc.right)
}

const hallyuValid = (deck: StarterDeck, codes: Codes) =>
  fc.property(validHallyuDeck(deck), fc.integer({ min: 0, max: 1_000_000 }), (generated, seed) => {
    const v = reparse(generated)
    if (v.deck === undefined || v.diagnostics.some((d) => d.severity === "error")) {
      throw new Error(`a generated valid deck was rejected: ${safeJson(v.diagnostics)}`)
    }
    const engine = makeEngine(v.deck)
    if (Either.isLeft(engine)) {
      codes.expect("engine", [engine.left])
      throw new Error(`the engine refused a validated deck: ${safeJson(engine.left)}`)
    }
    const game = playRandom(engine.right, { seed, maxActions: 20_000 })
    if (Either.isLeft(game)) codes.expect("game", [game.left])
    else if (game.right.result === null) throw new Error(`game ${seed} did not end within 20,000 actions`)
  })

const hallyuShapes = (deck: StarterDeck, codes: Codes) =>
  fc.property(hallyuCardArbitrary(), (card) => {
    const v = reparse({ ...deck, cards: [...deck.cards, card] })
    const errors = v.diagnostics.filter((d) => d.severity === "error")
    if (errors.length > 0) codes.expect("validate", errors)
    for (const d of v.diagnostics) if (!isTypedDiagnostic(d)) throw new UntypedRejection("validate", d)
  })

/** The property names, in run order. */
export const fuzzPropertyNames = [
  "composition.valid",
  "composition.catalog",
  "composition.shapes",
  "hallyu.valid",
  "hallyu.shapes"
] as const

/** fast-check's seed for run `run` of a fuzz campaign seeded `seed` (a 32-bit integer from sha256 of `<seed>/<run>`). */
export const runSeed = (seed: number, run: number): number =>
  Number.parseInt(sha256Hex(`${seed}/${run}`).slice(0, 8), 16) | 0

/** The properties selected by the options, in run order. */
export const selectedProperties = (options: Pick<FuzzOptions, "deck" | "packages" | "only">): Array<string> =>
  fuzzPropertyNames.filter(
    (name) =>
      (options.only === undefined || options.only.some((p) => name.startsWith(p))) &&
      (name !== "composition.catalog" || options.packages !== undefined) &&
      (!name.startsWith("hallyu.") || options.deck !== undefined)
  )

const makeProperty = (name: string, options: FuzzOptions, codes: Codes): fc.IProperty<Array<unknown>> | undefined => {
  const made: unknown = name === "composition.valid"
    ? compositionValid(codes)
    : name === "composition.catalog" && options.packages !== undefined
    ? compositionCatalog(options.packages, codes)
    : name === "composition.shapes"
    ? compositionShapes(codes)
    : name === "hallyu.valid" && options.deck !== undefined
    ? hallyuValid(options.deck, codes)
    : name === "hallyu.shapes" && options.deck !== undefined
    ? hallyuShapes(options.deck, codes)
    : undefined
  return made as fc.IProperty<Array<unknown>> | undefined
}

/** What runs [from, to) of one property add up to; merged in run order into the report. A Schema: partials cross worker boundaries. */
export const FuzzPartialSchema = Schema.Struct({
  name: Schema.String,
  from: Schema.Number,
  to: Schema.Number,
  /** Runs checked (up to and including a failing one). */
  runs: Schema.Number,
  /** The first failure, with the run it was found in. */
  failure: Schema.optional(
    Schema.Struct({
      run: Schema.Number,
      counterexample: Schema.Unknown,
      error: Schema.String,
      path: Schema.String,
      shrinks: Schema.Number
    })
  ),
  /** Typed rejections met (code → count). */
  codes: Schema.Record({ key: Schema.String, value: Schema.Number })
})
export type FuzzPartial = typeof FuzzPartialSchema.Type

const splitPath = (path: string): { run: number; rest: string } | undefined => {
  const m = /^(\d+)((?::\d+)*)$/.exec(path)
  return m === null ? undefined : { run: Number(m[1]), rest: m[2] ?? "" }
}

/**
 * Checks runs [from, to) of property `name`, each from its own derived seed,
 * stopping at the first failure. Pure (the same arguments give the same
 * partial). With `options.path`, replays only that case: the range is ignored.
 */
export const runFuzzRange = (options: FuzzOptions, name: string, start: number, end: number): FuzzPartial => {
  const replay = options.path === undefined ? undefined : splitPath(options.path)
  const [from, last] = replay === undefined ? [start, end] : [replay.run, replay.run + 1]
  const codes = new Codes()
  const property = makeProperty(name, options, codes)
  const counted = (): Record<string, number> => Object.fromEntries(codes.counts)
  if (property === undefined) return { name, from, to: from, runs: 0, codes: {} }
  for (let run = from; run < last; run++) {
    const details = fc.check(property, {
      seed: runSeed(options.seed, run),
      numRuns: 1,
      ...(replay !== undefined ? { path: `0${replay.rest}` } : {})
    })
    if (!details.failed) continue
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
    const inner = splitPath(details.counterexamplePath ?? "0")
    return {
      name,
      from,
      to: run + 1,
      runs: run - from + 1,
      failure: {
        run,
        counterexample: details.counterexample,
        error,
        path: `${run}${inner?.rest ?? ""}`,
        shrinks: details.numShrinks
      },
      codes: counted()
    }
  }
  return { name, from, to: Math.max(from, last), runs: Math.max(0, last - from), codes: counted() }
}

/** Merges the partials of every property (any order between properties; run order within one) into the report. */
export const mergeFuzzPartials = (
  options: Pick<FuzzOptions, "seed" | "runs">,
  names: ReadonlyArray<string>,
  parts: ReadonlyArray<FuzzPartial>
): FuzzReport => {
  const codes = new Map<string, number>()
  const reports: Array<FuzzPropertyReport> = names.map((name) => {
    const mine = parts.filter((p) => p.name === name).sort((a, b) => a.from - b.from)
    let runs = 0
    let failure: FuzzFailure | undefined
    for (const p of mine) {
      if (failure !== undefined) break // runs after the first failure do not count, as in one process
      runs += p.runs
      for (const [c, n] of Object.entries(p.codes)) codes.set(c, (codes.get(c) ?? 0) + n)
      if (p.failure !== undefined) {
        const { run: _run, ...f } = p.failure
        failure = f
      }
    }
    return failure === undefined ? { name, runs, ok: true } : { name, runs, ok: false, failure }
  })
  const sorted: Record<string, number> = {}
  for (const k of [...codes.keys()].sort()) sorted[k] = codes.get(k) ?? 0
  return { ok: reports.every((r) => r.ok), seed: options.seed, runs: options.runs, properties: reports, codes: sorted }
}

/** A word as a POSIX shell reads it back: bare when it holds only safe characters, else single-quoted. */
const shellWord = (w: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)

/** Runs every fuzz property (pure: no I/O, no clock; the same options give the same report). */
export const runFuzz = (options: FuzzOptions): FuzzReport => {
  const names = selectedProperties(options)
  return mergeFuzzPartials(options, names, names.map((name) => runFuzzRange(options, name, 0, options.runs)))
}

/**
 * A human rendering of a fuzz report (one line per property; failures with
 * their minimal case). `contentArgs` are the command-line arguments that chose
 * the content (`--package DIR`, `--deck FILE`), repeated in each replay line
 * so that the line replays the same case against the same content.
 */
export const renderFuzzReport = (r: FuzzReport, contentArgs: ReadonlyArray<string> = []): string => {
  const content = contentArgs.length === 0 ? "" : ` ${contentArgs.map(shellWord).join(" ")}`
  const lines: Array<string> = [`cardfx fuzz: seed ${r.seed}, ${r.runs} runs per property`]
  for (const p of r.properties) {
    lines.push(`  ${p.ok ? "ok  " : "FAIL"} ${p.name} (${p.runs} runs)`)
    if (p.failure !== undefined) {
      lines.push(`       ${p.failure.error}`)
      lines.push(`       minimal case after ${p.failure.shrinks} shrinks: ${safeJson(p.failure.counterexample)}`)
      lines.push(`       replay: cardfx fuzz --seed ${r.seed} --only ${p.name} --path ${p.failure.path}${content}`)
    }
  }
  const codes = Object.entries(r.codes)
  lines.push(`  typed rejections met: ${codes.length === 0 ? "none" : codes.map(([c, n]) => `${c} ×${n}`).join(", ")}`)
  lines.push(r.ok ? "no failure" : "FAILED")
  return lines.join("\n")
}

/** Runs [from, to) of one property, on inputs given as a deck's text and package folders (a worker thread's request). */
export interface FuzzRangeRequest {
  readonly seed: number
  readonly property: string
  readonly from: number
  readonly to: number
  readonly path?: string | undefined
  /** The Hallyu Hex deck's text (absent: the Hallyu Hex properties are skipped). */
  readonly deck?: DeckSource | undefined
  /** Content package folders the generated content is published beside. */
  readonly packages?: ReadonlyArray<string> | undefined
}

/**
 * A runner of {@link FuzzRangeRequest}s that keeps the decks and packages it
 * loaded, keyed by the request's bytes (a deck's text, the folders' list), so
 * a long campaign validates its deck and loads its packages once per thread.
 */
export const fuzzRangeRunner = () => {
  const decks = memo<Either.Either<StarterDeck, Diagnostic>>()
  const packages = memo<Effect.Effect<ReadonlyArray<DecodedPackage>, Diagnostic, FileSystem.FileSystem>>()
  const loaded = (dirs: ReadonlyArray<string>) =>
    packages(JSON.stringify(dirs), () =>
      Effect.cached(
        Effect.forEach(dirs, loadPackage).pipe(
          Effect.flatMap((ls) => {
            const problem = ls.flatMap((l) => l.diagnostics).find((d) => d.severity === "error")
            return problem !== undefined
              ? Effect.fail(problem)
              : Effect.succeed(ls.flatMap((l) => (l.package === undefined ? [] : [l.package])))
          })
        )
      ).pipe(Effect.runSync))
  return (r: FuzzRangeRequest): Effect.Effect<FuzzPartial, Diagnostic, FileSystem.FileSystem> =>
    Effect.gen(function*() {
      const source = r.deck
      const deck = source === undefined ? undefined : decks(source.json, () => deckFromJson(source.json, source.file))
      if (deck !== undefined && Either.isLeft(deck)) return yield* Effect.fail(deck.left)
      const pkgs = r.packages === undefined ? undefined : yield* loaded(r.packages)
      return runFuzzRange(
        {
          seed: r.seed,
          runs: r.to,
          deck: deck === undefined ? undefined : deck.right,
          packages: pkgs,
          ...(r.path !== undefined ? { path: r.path } : {})
        },
        r.property,
        r.from,
        r.to
      )
    })
}
