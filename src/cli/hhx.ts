/**
 * `cardfx hhx ...`: Hallyu Hex commands. `explain CARD_CODE` prints a card's
 * effect records as generated text beside its printed `rules_text`.
 * `simulateCommand` and `replayCommand` are mounted by the lead as
 * `cardfx simulate` and `cardfx replay`.
 *
 * @since 0.1.0
 */
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Option } from "effect"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { parseJson } from "../kernel/Json.js"
import { explainCard, findCard, renderExplanation } from "../hallyu/Explain.js"
import type { StarterDeck } from "../hallyu/Schema.js"
import { validateDeck } from "../hallyu/Validate.js"
import { makeEngine } from "../hallyu/engine/Engine.js"
import { type GameLog, GameLogSchema, type SimulationSummary, fingerprint, replay } from "../hallyu/engine/Simulate.js"
import { runSimulation } from "../workers/Runs.js"
import { makeDecoder } from "../kernel/Decode.js"
import type { JsonDocument } from "../kernel/Json.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { humanLine, resultFormatOption } from "./Output.js"
import { quietOption, resolveWorkers, withProgress, workersOption } from "./Scale.js"

/** The deck every Hallyu Hex command uses unless `--deck` names another. */
export const defaultDeckPath = "data/hallyu-hex/starter-deck.v0.json"

export const deckOption = Options.file("deck").pipe(
  Options.withDefault(defaultDeckPath),
  Options.withDescription("A Hallyu Hex deck file (default: the starter deck).")
)

const printDiagnostics = (ds: ReadonlyArray<Diagnostic>) => Effect.forEach(ds, (d) => Console.error(humanLine(d)), { discard: true })

/** Reads, parses and validates a deck file; on any error prints the diagnostics and exits 1. */
export const loadDeck = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const bytes = yield* fs.readFile(file).pipe(
      Effect.catchAll((e) =>
        printDiagnostics([diagnostic("file_unreadable", `cannot read ${file}: ${e.message}`, { file })]).pipe(
          Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors })))
        )
      )
    )
    const doc = parseJson(bytes, { file })
    if (Either.isLeft(doc)) {
      yield* printDiagnostics([doc.left])
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    }
    const v = validateDeck(doc.right)
    if (v.deck === undefined) {
      yield* printDiagnostics(v.diagnostics)
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    }
    return v.deck as StarterDeck
  })

const explainCommand = Command.make(
  "explain",
  { card: Args.text({ name: "CARD_CODE" }), deck: deckOption },
  ({ card, deck }) =>
    Effect.gen(function* () {
      const d = yield* loadDeck(deck)
      const found = findCard(d, card)
      if (found === undefined) {
        yield* Console.error(humanLine(diagnostic("unknown_card", `no card with code or ID ${card} in ${deck}`, { file: deck, subject: card })))
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
      }
      yield* Console.log(renderExplanation(explainCard(found)))
    })
).pipe(Command.withDescription("Print a card's effect records as generated text beside its printed rules_text."))

/** `cardfx hhx`: Hallyu Hex tools. */
export const hhxCommand = Command.make("hhx").pipe(
  Command.withDescription("Hallyu Hex tools."),
  Command.withSubcommands([explainCommand])
)

// ------------------------------------------------------------------ simulate and replay

const makeDeckEngine = (file: string) =>
  Effect.flatMap(loadDeck(file), (deck) => {
    const e = makeEngine(deck)
    return Either.isLeft(e)
      ? Console.error(humanLine(e.left)).pipe(Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))))
      : Effect.succeed(e.right)
  })

/** The human summary of a simulation. */
export const renderSummary = (s: SimulationSummary, names: (code: string) => string): string => {
  const lines = [
    `Hallyu Hex simulation: ${s.games} games, seed ${s.seed}`,
    `wins: seat 0 ${s.winsBySeat["0"]}, seat 1 ${s.winsBySeat["1"]}, draws ${s.winsBySeat.draw}`,
    `terminal reasons: ${Object.entries(s.reasons).map(([k, v]) => `${k} ${v}`).join(", ")}`,
    `turns: min ${s.turns.min}, mean ${s.turns.mean.toFixed(1)}, max ${s.turns.max}`,
    `actions: ${s.actions} (${s.games === 0 ? 0 : (s.actions / s.games).toFixed(1)} per game)`,
    "plays per card:"
  ]
  for (const [code, n] of Object.entries(s.plays)) lines.push(`  ${code} ${names(code).padEnd(26)} ${n}`)
  lines.push("operations executed:")
  for (const [op, n] of Object.entries(s.operations)) lines.push(`  ${op.padEnd(20)} ${n}`)
  return lines.join("\n")
}

const decodeLog = makeDecoder(GameLogSchema)
const decodeLogs = (value: unknown, doc: JsonDocument): Either.Either<ReadonlyArray<GameLog>, Array<Diagnostic>> => {
  if (!Array.isArray(value)) return Either.map(decodeLog(value, doc), (l) => [l])
  const out: Array<GameLog> = []
  for (let k = 0; k < value.length; k++) {
    const r = decodeLog(value[k], doc, `/${k}`)
    if (Either.isLeft(r)) return Either.left(r.left)
    out.push(r.right)
  }
  return Either.right(out)
}

/** `cardfx simulate [--deck FILE] --games N --seed S [--workers N] [--quiet] [--format human|json] [--log FILE]`. */
export const simulateCommand = Command.make(
  "simulate",
  {
    deck: deckOption,
    games: Options.integer("games").pipe(Options.withDefault(1000), Options.withDescription("Number of games (default 1000).")),
    seed: Options.text("seed").pipe(Options.withDefault("1"), Options.withDescription("Seed; game k uses <seed>/k.")),
    workers: workersOption,
    quiet: quietOption,
    format: resultFormatOption,
    log: Options.file("log").pipe(Options.optional, Options.withDescription("Write every game's log (seed, action IDs, fingerprints) as JSON."))
  },
  ({ deck, games, seed, workers, quiet, format, log }) =>
    Effect.gen(function* () {
      if (games < 0) {
        yield* Console.error(humanLine(diagnostic("usage_error", "--games must not be negative", { subject: String(games) })))
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
      }
      const threads = yield* resolveWorkers(workers)
      const engine = yield* makeDeckEngine(deck)
      const fs = yield* FileSystem.FileSystem
      const deckJson = yield* fs.readFileString(deck).pipe(Effect.orDie) // read and validated by makeDeckEngine just before
      const result = yield* withProgress("games", quiet, (progress) =>
        runSimulation({ engine, deck: { json: deckJson, file: deck }, games, seed, workers: threads, logs: Option.isSome(log), onProgress: progress.update })
      ).pipe(
        Effect.catchAll((d) =>
          Console.error(humanLine(d)).pipe(
            Effect.zipRight(Effect.fail(new CommandExit({ exitCode: d.code === "worker_failed" ? ExitCode.internal : ExitCode.contentErrors })))
          )
        )
      )
      if (Option.isSome(log)) {
        yield* fs.writeFileString(log.value, JSON.stringify(result.logs.length === 1 ? result.logs[0] : result.logs) + "\n").pipe(Effect.orDie)
      }
      const names = (code: string): string => engine.deck.cards.find((c) => c.code === code)?.name ?? ""
      yield* Console.log(format === "json" ? JSON.stringify({ deck, ...result.summary }) : renderSummary(result.summary, names))
    })
).pipe(Command.withDescription("Play seeded random Hallyu Hex games and print a summary."))

/** `cardfx replay LOG [--deck FILE] [--format human|json]`: re-executes logs, checking the fingerprint after every step. */
export const replayCommand = Command.make(
  "replay",
  { log: Args.file({ name: "LOG", exists: "yes" }), deck: deckOption, format: resultFormatOption },
  ({ log, deck, format }) =>
    Effect.gen(function* () {
      const engine = yield* makeDeckEngine(deck)
      const fs = yield* FileSystem.FileSystem
      const bytes = yield* fs.readFile(log).pipe(Effect.orDie)
      const doc = parseJson(bytes, { file: log })
      const decoded = Either.isLeft(doc) ? Either.left([doc.left]) : decodeLogs(doc.right.value, doc.right)
      if (Either.isLeft(decoded)) {
        yield* printDiagnostics(decoded.left)
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
      }
      const reports: Array<{ seed: string; steps: number; ok: boolean; result: unknown; fingerprint: string | null; diagnostic?: unknown }> = []
      for (const l of decoded.right) {
        const r = replay(engine, l)
        reports.push(
          Either.isRight(r)
            ? { seed: l.seed, steps: l.actions.length, ok: true, result: r.right.result, fingerprint: fingerprint(r.right) }
            : { seed: l.seed, steps: l.actions.length, ok: false, result: null, fingerprint: null, diagnostic: { ...r.left, file: log } }
        )
      }
      const ok = reports.every((r) => r.ok)
      if (format === "json") yield* Console.log(JSON.stringify({ ok, games: reports.length, replays: reports }))
      else {
        for (const r of reports) {
          yield* Console.log(
            r.ok
              ? `ok ${r.seed}: ${r.steps} steps, every fingerprint matched; result ${JSON.stringify(r.result)}; final ${r.fingerprint ?? ""}`
              : `FAILED ${r.seed}: ${JSON.stringify(r.diagnostic)}`
          )
        }
      }
      if (!ok) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
).pipe(Command.withDescription("Replay Hallyu Hex game logs, checking the state fingerprint after every step."))
