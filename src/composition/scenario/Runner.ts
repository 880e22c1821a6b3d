/**
 * Runs scenarios. The pure core (`runScenarioWith`) takes a published
 * runtime and a decoded scenario; `runScenarioFile` reads the file, loads and
 * publishes its packages and runs it `times` times, failing with
 * `nondeterminism` if any run's canonical report differs in a single byte.
 *
 * Decisions:
 * - one random stream per scenario, `seedState(seed, "scenario")`, chained
 *   through the plays (each play's request carries the stream state the
 *   previous play left);
 * - a ledger is built by sealing each upgrade in the scenario's runtime and
 *   appending it in order (entry IDs `e1`, `e2`, ...), then resolved with the
 *   common resolver. The planner's policies (slots, eligibility, activity
 *   authorization) are not assessed here: a scenario states a composition,
 *   it does not plan one. Requirements and composition still apply;
 * - a card the actor has no ledger for is played as its base card;
 * - the report holds no file paths, so it is the same on every machine.
 *
 * @since 0.1.0
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { canonicalJson } from "../../kernel/Canonical.js"
import { type Diagnostic, diagnostic, withContext } from "../../kernel/Diagnostic.js"
import { type ChannelError, domainChannel } from "../../kernel/ErrorChannel.js"
import { parseJson } from "../../kernel/Json.js"
import { type RngState, seedState } from "../../kernel/Rng.js"
import { optional } from "../../kernel/SchemaExt.js"
import { sealById } from "../BundleCompiler.js"
import { loadPackage } from "../ContentPackage.js"
import type { EffectiveCardDefinition } from "../Effective.js"
import { CombatState, Side, stateFingerprint } from "../executor/CombatState.js"
import { ExecutorEvent, type RandomInput, RandomInput as RandomInputSchema } from "../executor/Events.js"
import { executeSequence, ExecutionPlans } from "../executor/Execute.js"
import { endTurn, startTurn } from "../executor/Statuses.js"
import { appendEntry, type CardLedger, emptyLedger } from "../ledger/Ledger.js"
import { publish } from "../Publication.js"
import { ResolutionCache } from "../ResolutionCache.js"
import { resolveEffectiveCard } from "../Resolver.js"
import type { Runtime } from "../Runtime.js"
import { decodeScenario, type Scenario } from "./Scenario.js"

/** One step's outcome in a scenario report. */
export const StepReport = Schema.Struct({
  index: Schema.Number,
  op: Schema.Literal("play", "startTurn", "endTurn"),
  actor: optional(Schema.String),
  card: optional(Schema.String),
  /** The effective card's fingerprint (plays). */
  cardFingerprint: optional(Schema.String),
  targets: optional(Schema.Array(Schema.String)),
  side: optional(Side),
  events: Schema.Array(ExecutorEvent),
  randomInputs: optional(Schema.Array(RandomInputSchema)),
  budgetUsed: optional(Schema.Number),
  /** Fingerprint of the state after the step. */
  fingerprint: Schema.String
})
export type StepReport = typeof StepReport.Type

/** A scenario run: every step's events and fingerprints, the final state and its fingerprint. */
export const ScenarioReport = Schema.Struct({
  name: optional(Schema.String),
  seed: Schema.Number,
  /** `packageId@version#contentHash` of each published package. */
  packages: Schema.Array(Schema.String),
  steps: Schema.Array(StepReport),
  finalState: CombatState,
  fingerprint: Schema.String
})
export type ScenarioReport = typeof ScenarioReport.Type

/**
 * The effective card of `cardId` after applying `upgradeIds` in order to an
 * empty ledger (each sealed in `runtime`), resolved by the common resolver
 * (through `cache` when given: the caller's resolution cache).
 */
export const resolveLedgerCard = (
  runtime: Runtime,
  cardId: string,
  upgradeIds: ReadonlyArray<string>,
  cache?: ResolutionCache
): Either.Either<EffectiveCardDefinition, ReadonlyArray<Diagnostic>> => {
  const baseCard = runtime.cards.get(cardId)
  if (baseCard === undefined) {
    return Either.left([diagnostic("unknown_card", `no card "${cardId}" is published`, { subject: cardId })])
  }
  let ledger: CardLedger = emptyLedger(cardId)
  for (let i = 0; i < upgradeIds.length; i++) {
    const upgradeId = upgradeIds[i] as string
    const sealed = sealById(runtime, upgradeId)
    if (Either.isLeft(sealed)) return Either.left(sealed.left)
    const next = appendEntry(ledger, sealed.right, {
      entryId: `e${i + 1}`,
      captured: { revision: i, sequence: i, step: 0 }
    })
    if (Either.isLeft(next)) return Either.left(next.left)
    ledger = next.right
  }
  return resolveEffectiveCard({ baseCard, ledger, statuses: runtime.statuses }, cache)
}

/** Options of the pure scenario run. */
export interface ScenarioRunOptions {
  /** Overrides the scenario's seed. */
  readonly seed?: number | undefined
  /** Replay: the recorded random inputs of each step (by step index); plays consume them instead of drawing. */
  readonly replay?: ReadonlyArray<ReadonlyArray<RandomInput> | undefined> | undefined
  /** Scenario file, for diagnostics. */
  readonly file?: string | undefined
  /** The resolution cache to compose the scenario's cards through (default: one for this run). */
  readonly resolution?: ResolutionCache | undefined
}

/** Runs a decoded scenario over a published runtime (pure). */
export const runScenarioWith = (
  runtime: Runtime,
  scenario: Scenario,
  options: ScenarioRunOptions = {}
): Either.Either<ScenarioReport, ReadonlyArray<Diagnostic>> => {
  const seed = options.seed ?? scenario.seed
  const file = options.file
  let rng: RngState = seedState(seed, "scenario")
  let state = scenario.state
  const cards = new Map<string, EffectiveCardDefinition>()
  const steps: Array<StepReport> = []
  const plans = new ExecutionPlans()
  const resolution = options.resolution ?? new ResolutionCache()
  for (let index = 0; index < scenario.steps.length; index++) {
    const step = scenario.steps[index] as Scenario["steps"][number]
    const path = `/steps/${index}`
    if (step.op === "play") {
      const key = `${step.actor}\u0000${step.card}`
      let card = cards.get(key)
      if (card === undefined) {
        const upgrades = scenario.ledgers[step.actor]?.[step.card] ?? []
        const r = resolveLedgerCard(runtime, step.card, upgrades, resolution)
        if (Either.isLeft(r)) return Either.left(r.left.map((d) => withContext(d, { file, path: `${path}/card` })))
        card = r.right
        cards.set(key, card)
      }
      const replay = options.replay?.[index]
      const outcome = executeSequence(runtime, card.compiled, state, {
        actorId: step.actor,
        targetIds: step.targets,
        ...(replay !== undefined ? { replay } : { rng }),
        ...(step.budget !== undefined ? { budget: step.budget } : {})
      }, plans)
      if (!outcome.ok) return Either.left([withContext(outcome.diagnostic, { file, path })])
      const r = outcome.result
      state = r.state
      if (r.rng !== undefined) rng = r.rng
      steps.push({
        index,
        op: "play",
        actor: step.actor,
        card: step.card,
        cardFingerprint: card.fingerprint,
        targets: step.targets,
        events: r.events,
        randomInputs: r.randomInputs,
        budgetUsed: r.budgetUsed,
        fingerprint: r.fingerprint ?? stateFingerprint(state)
      })
    } else {
      const outcome = step.op === "startTurn"
        ? startTurn(runtime, state, step.side)
        : endTurn(runtime, state, step.side)
      if (!outcome.ok) return Either.left([withContext(outcome.diagnostic, { file, path })])
      state = outcome.result.state
      steps.push({
        index,
        op: step.op,
        side: step.side,
        events: outcome.result.events,
        fingerprint: outcome.result.fingerprint
      })
    }
  }
  const report: { -readonly [K in keyof ScenarioReport]: ScenarioReport[K] } = {
    seed,
    packages: runtime.pin.packages.map((p) => `${p.packageId}@${p.version}#${p.contentHash}`),
    steps,
    finalState: state,
    fingerprint: stateFingerprint(state)
  }
  if (scenario.name !== undefined) report.name = scenario.name
  return Either.right(report)
}

/** Every code a scenario can fail with: reading and decoding it, its content references, and running it. */
export const scenarioErrors = domainChannel(["input", "content", "compiler", "composition", "planner", "executor"])
/** The errors of a scenario (each carries every diagnostic of the failure). */
export type ScenarioError = ChannelError<typeof scenarioErrors>

/** Reads a scenario file, loads and publishes its packages (paths relative to the file). */
export const loadScenario = (
  file: string
): Effect.Effect<
  { readonly scenario: Scenario; readonly runtime: Runtime },
  ScenarioError,
  FileSystem.FileSystem | Path.Path
> => loadScenarioDiagnostics(file).pipe(Effect.catchAll(scenarioErrors.fail))

const loadScenarioDiagnostics = (
  file: string
): Effect.Effect<
  { readonly scenario: Scenario; readonly runtime: Runtime },
  ReadonlyArray<Diagnostic>,
  FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const bytes = yield* fs
      .readFile(file)
      .pipe(
        Effect.mapError((e) => [diagnostic("file_unreadable", `cannot read ${file}: ${e.message}`, { file, path: "" })])
      )
    const doc = parseJson(bytes, { file })
    if (Either.isLeft(doc)) return yield* Effect.fail([doc.left])
    const scenario = decodeScenario(doc.right)
    if (Either.isLeft(scenario)) return yield* Effect.fail(scenario.left)
    const dir = path.dirname(file)
    const packages = []
    const problems: Array<Diagnostic> = []
    for (const p of scenario.right.packages) {
      const loaded = yield* loadPackage(path.resolve(dir, p))
      problems.push(...loaded.diagnostics.filter((d) => d.severity === "error"))
      if (loaded.package !== undefined) packages.push(loaded.package)
    }
    if (problems.length > 0) return yield* Effect.fail(problems)
    const published = publish(packages)
    if (published.runtime === undefined) return yield* Effect.fail(published.diagnostics)
    return { scenario: scenario.right, runtime: published.runtime }
  })

/** Options of a scenario file run. */
export interface ScenarioFileOptions {
  readonly seed?: number | undefined
  /** Independent runs to compare byte for byte (default 1). */
  readonly times?: number | undefined
}

/**
 * Runs a scenario file `times` times, each from scratch (reading, loading,
 * publishing, resolving, executing), and fails with `nondeterminism` when
 * the canonical JSON of any run differs from the first. A failure is the
 * tagged error of its first error, carrying every diagnostic.
 */
export const runScenarioFile = (
  file: string,
  options: ScenarioFileOptions = {}
): Effect.Effect<ScenarioReport, ScenarioError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const times = Math.max(1, options.times ?? 1)
    let first: ScenarioReport | undefined
    let firstBytes = ""
    for (let run = 0; run < times; run++) {
      const { runtime, scenario } = yield* loadScenario(file)
      const r = runScenarioWith(runtime, scenario, { seed: options.seed, file })
      if (Either.isLeft(r)) return yield* scenarioErrors.fail(r.left)
      const bytes = canonicalJson(r.right)
      if (first === undefined) {
        first = r.right
        firstBytes = bytes
      } else {
        const d = compareRun(file, firstBytes, bytes, run + 1, times)
        if (d !== undefined) return yield* scenarioErrors.fail([d])
      }
    }
    // times ≥ 1, so the loop ran and set `first`.
    return first as ScenarioReport
  })

/** The `nondeterminism` diagnostic when run `run`'s canonical bytes differ from run 1's, else undefined. */
export const compareRun = (
  file: string | undefined,
  firstBytes: string,
  bytes: string,
  run: number,
  times: number
): Diagnostic | undefined =>
  bytes === firstBytes
    ? undefined
    : diagnostic(
      "nondeterminism",
      `run ${run} of ${times} differs from run 1 (first differing character at ${firstDifference(firstBytes, bytes)})`,
      {
        file,
        path: "",
        details: {
          run,
          times,
          firstLength: firstBytes.length,
          length: bytes.length,
          at: firstDifference(firstBytes, bytes)
        }
      }
    )

const firstDifference = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i
  return n
}
