/**
 * `cardfx hhx ...`: Hallyu Hex commands. `explain CARD_CODE` prints a card's
 * effect records as generated text beside its printed `rules_text`.
 * `simulateCommand` and `replayCommand` are mounted by the lead as
 * `cardfx simulate` and `cardfx replay`.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Layer, LogLevel, Option } from "effect"
import {
  balanceOfRun,
  type CardfxError,
  Clustering,
  defaultWorkers,
  diagnostic,
  errorFromDiagnostic,
  Hallyu,
  HallyuHex,
  JsonFile,
  MIN_GAMES_PER_WORKER,
  Replays,
  ScaleOut,
  Simulation,
  simulationWorkers
} from "../services/index.js"
import * as Args from "./Args.js"
import { clusterOption, shardGamesOption } from "./cluster.js"
import * as Command from "./Command.js"
import { atLeastOne, CommandExit, ExitCode, usageError } from "./Exit.js"
import * as Options from "./Options.js"
import { humanLine, resultFormatOption } from "./Output.js"
import { checkOutputFile, defaultDeckPath } from "./Paths.js"
import { quietOption, resolveWorkers, withProgress } from "./Scale.js"

/** `--workers` of simulate: its default depends on the number of games (a thread pays for itself only over many). */
const simulateWorkersOption = Options.integer("workers").pipe(
  Options.optional,
  Options.withDescription(
    `Threads playing: this process's and N − 1 worker threads (default: one per ${MIN_GAMES_PER_WORKER} games, at most the machine's available parallelism, since a new thread plays slowly at first); 1 runs in this process only. The result is the same for any number.`
  )
)

type GameLog = Hallyu.GameLog
type SimulationSummary = Hallyu.SimulationSummary

export { defaultDeckPath, makeDeckEngine, readDeckText }

// Text, not Options.file: the reader checks the file (regular, within the size cap) and reports file_unreadable, as run does.
export const deckOption = Options.text("deck").pipe(
  Options.withPseudoName("FILE"),
  Options.withDefault(defaultDeckPath),
  Options.withDescription("A Hallyu Hex deck file (default: the starter deck of the installed package).")
)

/** Reads, parses and validates a deck file through the public `HallyuHex` service. */
export const loadDeck = (file: string): Effect.Effect<Hallyu.StarterDeck, CardfxError, HallyuHex> =>
  Effect.flatMap(HallyuHex, (h) => h.loadDeck(file))

const explainCommand = Command.make(
  "explain",
  {
    card: Args.text({ name: "CARD_CODE" }).pipe(Args.withDescription("The card's code (HHX-PROTO-014) or ID.")),
    deck: deckOption
  },
  ({ card, deck }) =>
    Effect.gen(function*() {
      const d = yield* loadDeck(deck)
      const found = Hallyu.findCard(d, card)
      if (found === undefined) {
        return yield* Effect.fail(
          errorFromDiagnostic(
            diagnostic("unknown_card", `no card with code or ID ${card} in ${deck}`, { file: deck, subject: card })
          )
        )
      }
      yield* Console.log(Hallyu.renderExplanation(Hallyu.explainCard(found)))
    })
).pipe(Command.withDescription("Print a card's effect records as generated text beside its printed rules_text."))

/** `cardfx hhx`: Hallyu Hex tools. */
export const hhxCommand = Command.make("hhx").pipe(
  Command.withDescription("Hallyu Hex tools."),
  Command.withSubcommands([explainCommand])
)

// ------------------------------------------------------------------ simulate and replay

/** A deck file's text (for cluster runners, which validate it again): the one deck reader. */
const readDeckText = JsonFile.readDeckText

const makeDeckEngine = (file: string) => Effect.flatMap(HallyuHex, (h) => h.engine(file))

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

/** `--format` of simulate: csv only with --stats (the balance statistics are a table; the summary is not). */
const simulateFormatOption = Options.choice("format", ["human", "json", "csv"] as const).pipe(
  Options.withDefault("human" as const),
  Options.withDescription("Output format: human, json, or csv (with --stats).")
)

/** The human balance table: one line per figure, rates as percentages with their 95 % interval. */
export const renderBalance = (r: Hallyu.BalanceReport): string => {
  const pct = (s: Hallyu.BalanceShare): string =>
    s.proportion === null
      ? `${s.count}/${s.of}`
      : `${(s.proportion.rate * 100).toFixed(1)}% [${(s.proportion.low * 100).toFixed(1)}, ${
        (s.proportion.high * 100).toFixed(1)
      }] (${s.count}/${s.of})`
  const lines = [
    `Hallyu Hex balance: ${r.games} games, seed ${r.seed}, deck ${r.deckHash.slice(0, 12)}`,
    `win rate: seat 0 ${pct(r.seats[0])}; seat 1 ${pct(r.seats[1])}; draws ${pct(r.draws)}`,
    `the seat going first wins ${pct(r.firstSeat)}`,
    `ending reasons: ${r.reasons.map((x) => `${x.reason} ${x.games.count}`).join(", ")}`,
    `turns: min ${r.turns.min}, mean ${r.turns.mean}, max ${r.turns.max}`,
    "per card (seat-games holding it): drawn; played; win rate when played; in the winner's plays"
  ]
  for (const c of r.cards) {
    lines.push(
      `  ${c.code} ${c.name}: drawn ${pct(c.drawn)}; played ${pct(c.played)}; won when played ${
        pct(c.winWhenPlayed)
      }; in winner's plays ${pct(c.inWinnerPlays)}`
    )
  }
  return lines.join("\n")
}

/** `--agents` of simulate: the two agents of a match (seats alternate between games). */
const agentsOption = Options.text("agents").pipe(
  Options.withPseudoName("A[,B]"),
  Options.optional,
  Options.withDescription(
    "Play with agents instead of uniformly random moves: A,B (or A for both seats), each name[:iterations] of random, greedy, ismcts, cheater (measurement only); A takes seat 0 in even games and seat 1 in odd ones."
  )
)

const pct = (r: Hallyu.Agents.Rate): string =>
  `${(r.rate * 100).toFixed(1)}% [${(r.low * 100).toFixed(1)}, ${(r.high * 100).toFixed(1)}]`

/** The human lines of a match: each agent's score with its 95 % interval, overall and by seat. */
export const renderMatch = (m: Hallyu.Agents.MatchReport): string =>
  [
    `agents: ${m.a} vs ${m.b} over ${m.games} games (seats alternate)`,
    `  ${m.a} scores ${pct(m.scoreA)}: ${m.winsA} wins, ${m.winsB} losses, ${m.draws} draws`,
    `  ${m.a} on seat 0 ${pct(m.seats.aOn0)}, on seat 1 ${pct(m.seats.aOn1)}`,
    `  ${m.b} on seat 0 ${pct(m.seats.bOn0)}, on seat 1 ${pct(m.seats.bOn1)}`
  ].join("\n")

/** `cardfx simulate [--deck FILE] --games N --seed S [--stats] [--format human|json|csv] [--log FILE]`. */
export const simulateCommand = Command.make(
  "simulate",
  {
    deck: deckOption,
    games: Options.integer("games").pipe(
      Options.withDefault(1000),
      Options.withDescription("Number of games, at least 1.")
    ),
    seed: Options.integer("seed").pipe(
      Options.withDefault(1),
      Options.withDescription("Seed, an integer as for run and fuzz; game k uses <seed>/k.")
    ),
    workers: simulateWorkersOption,
    cluster: clusterOption,
    shardGames: shardGamesOption,
    quiet: quietOption,
    stats: Options.boolean("stats").pipe(
      Options.withDescription(
        "Print balance statistics (win rate by seat, game length, ending reasons, per-card draw, play and win rates with 95 % intervals) instead of the summary; the same bytes for any --workers or --cluster split."
      )
    ),
    format: simulateFormatOption,
    agents: agentsOption,
    log: Options.text("log").pipe(
      Options.withPseudoName("FILE"),
      Options.optional,
      Options.withDescription(
        "Write every game's log (seed, action IDs, fingerprints) as JSON to this file (checked before simulating)."
      )
    )
  },
  ({ agents, cluster, deck, format, games, log, quiet, seed, shardGames, stats, workers }) =>
    Effect.gen(function*() {
      yield* atLeastOne("--games", games)
      // The two agents, checked before anything runs (unknown_agent, invalid_iterations: exit 2).
      const match = Option.isSome(agents)
        ? Option.some(
          yield* Either.match(Hallyu.Agents.parseMatch(agents.value), {
            onLeft: (d) => Effect.fail(errorFromDiagnostic(d)),
            onRight: Effect.succeed
          })
        )
        : Option.none()
      if (Option.isSome(match) && Option.isSome(log)) {
        yield* Effect.fail(usageError("--log cannot be used with --agents"))
      }
      const agentsText = Option.map(
        match,
        ([a, b]) => `${Hallyu.Agents.agentText(a)},${Hallyu.Agents.agentText(b)}`
      )
      if (format === "csv" && !stats) yield* Effect.fail(usageError("--format csv needs --stats"))
      yield* atLeastOne("--shard-games", shardGames)
      if (Option.isSome(cluster) && Option.isSome(workers)) {
        yield* Effect.fail(
          usageError("--workers is a runner's option with --cluster (cardfx cluster runner --workers N)")
        )
      }
      if (Option.isSome(cluster) && Option.isSome(log)) {
        yield* Effect.fail(usageError("--log cannot be used with --cluster"))
      }
      if (Option.isSome(cluster) && !/^postgres(ql)?:\/\//.test(cluster.value)) {
        yield* Effect.fail(usageError(`--cluster must be a postgres:// URL (got ${cluster.value})`))
      }
      // Without --workers, threads only when the games pay for their start-up (see simulationWorkers).
      const threads = Option.isNone(workers)
        ? Option.isSome(match) ? Math.min(games, defaultWorkers()) : simulationWorkers(games, defaultWorkers())
        : yield* resolveWorkers(workers)
      if (Option.isSome(log)) yield* checkOutputFile("--log", log.value)
      const engine = yield* makeDeckEngine(deck)
      const source = { json: yield* readDeckText(deck), file: deck }
      // One service wherever the games are played: in this process and worker threads, or on a cluster.
      const placement = Option.isSome(cluster)
        ? Layer.merge(
          (yield* Clustering.Clustering).simulation({ url: cluster.value, shardGames }),
          // The cluster logs its own retries (a runner gone) as JSON on stderr; the command reports only errors.
          (yield* Clustering.Clustering).logAt(LogLevel.Error)
        )
        : (yield* ScaleOut).simulation(threads)
      const run = yield* withProgress("games", quiet, (progress) =>
        Effect.flatMap(Simulation, (s) =>
          s.simulate({
            deck: source,
            games,
            seed: String(seed),
            logs: Option.isSome(log),
            ...(Option.isSome(agentsText) ? { agents: agentsText.value } : {}),
            onProgress: progress.update
          })).pipe(Effect.provide(placement)))
      const matchOf = Option.map(match, (m) => Hallyu.Agents.matchReport(m, run.partial))
      const logs: ReadonlyArray<GameLog> = run.logs
      const result = { right: run.summary }
      if (Option.isSome(log)) {
        const fs = yield* FileSystem.FileSystem
        const file = log.value
        yield* fs
          .writeFileString(file, JSON.stringify(logs.length === 1 ? logs[0] : logs) + "\n")
          .pipe(Effect.mapError((e) =>
            errorFromDiagnostic(diagnostic("file_unwritable", `cannot write ${file}: ${e.message}`, { file }))
          ))
      }
      const names = (code: string): string =>
        engine.deck.cards.find((c) => c.code === code)?.name ?? ""
      // The default deck is named as in the package, so the document is the same wherever cardfx is installed.
      const shownDeck = deck === defaultDeckPath ? "data/hallyu-hex/starter-deck.v0.json" : deck
      if (stats) {
        const report = balanceOfRun(run, engine)
        return yield* Console.log(
          format === "json"
            ? JSON.stringify(Option.isSome(matchOf) ? { ...report, agents: matchOf.value } : report)
            : format === "csv"
            ? Hallyu.balanceCsv(report).trimEnd()
            : renderBalance(report) + Option.match(matchOf, { onNone: () => "", onSome: (m) => "\n" + renderMatch(m) })
        )
      }
      yield* Console.log(
        format === "json"
          ? JSON.stringify({
            deck: shownDeck,
            ...(Option.isSome(matchOf) ? { agents: matchOf.value } : {}),
            ...result.right
          })
          : renderSummary(result.right, names) +
            Option.match(matchOf, { onNone: () => "", onSome: (m) => "\n" + renderMatch(m) })
      )
    })
).pipe(Command.withDescription("Play seeded random Hallyu Hex games and print a summary."))

/** `cardfx replay LOG [--deck FILE] [--format human|json]`: re-executes logs, checking the fingerprint after every step. */
export const replayCommand = Command.make(
  "replay",
  {
    log: Args.text({ name: "LOG" }).pipe(Args.withDescription("A game log file written by simulate --log.")),
    deck: deckOption,
    format: resultFormatOption
  },
  ({ log, deck, format }) =>
    Effect.gen(function*() {
      // The Replays service's one method; this face only prints its report.
      const report = yield* Effect.flatMap(Replays.Replays, (r) => r.replay({ log, deck })).pipe(
        Effect.provide(Replays.Replays.layer)
      )
      if (format === "json") yield* Console.log(JSON.stringify(report))
      else {
        for (const r of report.replays) {
          yield* Console.log(
            r.ok
              ? `ok ${r.seed}: ${r.steps} steps, every fingerprint matched; result ${JSON.stringify(r.result)}; final ${
                r.fingerprint ?? ""
              }`
              : `FAILED ${r.seed}: ${r.diagnostic === undefined ? "" : humanLine(r.diagnostic)}`
          )
        }
      }
      if (!report.ok) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
).pipe(
  Command.withDescription("Replay Hallyu Hex game logs, checking the state fingerprint after every step."),
  Command.withExit(1, "a log does not replay to its fingerprints")
)
