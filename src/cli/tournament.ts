/**
 * `cardfx tournament --agents A,B,C... [--games N] [--seed S] [--format human|json] [--workers N | --cluster URL]`:
 * every pair of agents plays a match of N games (seats alternating, game k
 * of every match seeded `<seed>/<k>`), printed as a win matrix with 95 %
 * intervals and Elo ratings. The same bytes for any `--workers` or
 * `--cluster` split (the `Simulation` service's `tournament`).
 *
 * @since 0.1.0
 */
import { Console, Effect, Either, Layer, LogLevel, Option } from "effect"
import { Clustering, defaultWorkers, errorFromDiagnostic, Hallyu, ScaleOut, Simulation } from "../services/index.js"
import { clusterOption, shardGamesOption } from "./cluster.js"
import * as Command from "./Command.js"
import { atLeastOne, usageError } from "./Exit.js"
import { deckOption, readDeckText } from "./hhx.js"
import * as Options from "./Options.js"
import { quietOption, resolveWorkers, withProgress } from "./Scale.js"

const pct = (r: Hallyu.Agents.Rate): string =>
  `${(r.rate * 100).toFixed(1)} [${(r.low * 100).toFixed(1)}, ${(r.high * 100).toFixed(1)}]`

/** The human tournament: the matrix (row agent's score against the column agent) and the Elo ratings. */
export const renderTournament = (t: Hallyu.Agents.TournamentReport): string => {
  const n = t.agents.length
  const cell = (i: number, j: number): string => {
    if (i === j) return "—"
    const [a, b] = i < j ? [i, j] : [j, i]
    const k = Hallyu.Agents.pairings(n).findIndex(([x, y]) => x === a && y === b)
    const m = t.matches[k]
    if (m === undefined) return "?"
    if (i < j) return pct(m.scoreA)
    // The column agent's side: 1 − the row's score, the interval mirrored.
    return pct({ rate: 1 - m.scoreA.rate, low: 1 - m.scoreA.high, high: 1 - m.scoreA.low })
  }
  const width = Math.max(...t.agents.map((a) => a.length), 6)
  const cols = t.agents.map((_, j) => Math.max(t.agents[j]?.length ?? 0, 20))
  const lines = [
    `Hallyu Hex tournament: ${n} agents, ${t.games} games per pairing (seats alternate), seed ${t.seed}, deck ${
      t.deckHash.slice(0, 12)
    }`,
    "score of the row agent against the column agent, % with the 95 % interval (draws count half):",
    `${"".padEnd(width)}  ${t.agents.map((a, j) => a.padEnd(cols[j] ?? 20)).join("  ")}`
  ]
  for (let i = 0; i < n; i++) {
    lines.push(
      `${(t.agents[i] ?? "").padEnd(width)}  ${t.agents.map((_, j) => cell(i, j).padEnd(cols[j] ?? 20)).join("  ")}`
    )
  }
  lines.push("Elo (Bradley–Terry fit, the first agent at 1000):")
  for (const e of t.elo) lines.push(`  ${e.agent.padEnd(width)} ${e.elo}`)
  return lines.join("\n")
}

export const tournamentCommand = Command.make(
  "tournament",
  {
    deck: deckOption,
    agents: Options.text("agents").pipe(
      Options.withPseudoName("A,B,..."),
      Options.withDescription(
        "At least two agents, each name[:iterations] of random, greedy, ismcts, cheater (measurement only)."
      )
    ),
    games: Options.integer("games").pipe(
      Options.withDefault(100),
      Options.withDescription("Games per pairing, at least 1 (seats alternate between games).")
    ),
    seed: Options.integer("seed").pipe(
      Options.withDefault(1),
      Options.withDescription("Seed, an integer; game k of every match uses <seed>/k.")
    ),
    workers: Options.integer("workers").pipe(
      Options.optional,
      Options.withDescription(
        "Threads playing: this process's and N − 1 worker threads (default: the machine's available parallelism). The result is the same for any number."
      )
    ),
    cluster: clusterOption,
    shardGames: shardGamesOption,
    quiet: quietOption,
    format: Options.choice("format", ["human", "json"] as const).pipe(
      Options.withDefault("human" as const),
      Options.withDescription("Output format: human or json.")
    )
  },
  ({ agents, cluster, deck, format, games, quiet, seed, shardGames, workers }) =>
    Effect.gen(function*() {
      yield* atLeastOne("--games", games)
      yield* atLeastOne("--shard-games", shardGames)
      const list = yield* Either.match(Hallyu.Agents.parseAgentList(agents), {
        onLeft: (d) => Effect.fail(errorFromDiagnostic(d)),
        onRight: Effect.succeed
      })
      if (list.length < 2) yield* Effect.fail(usageError("a tournament needs at least two agents"))
      if (Option.isSome(cluster) && Option.isSome(workers)) {
        yield* Effect.fail(
          usageError("--workers is a runner's option with --cluster (cardfx cluster runner --workers N)")
        )
      }
      if (Option.isSome(cluster) && !/^postgres(ql)?:\/\//.test(cluster.value)) {
        yield* Effect.fail(usageError(`--cluster must be a postgres:// URL (got ${cluster.value})`))
      }
      const threads = Option.isNone(workers) ? Math.min(games, defaultWorkers()) : yield* resolveWorkers(workers)
      const source = { json: yield* readDeckText(deck), file: deck }
      const placement = Option.isSome(cluster)
        ? Layer.merge(
          (yield* Clustering.Clustering).simulation({ url: cluster.value, shardGames }),
          (yield* Clustering.Clustering).logAt(LogLevel.Error)
        )
        : (yield* ScaleOut).simulation(threads)
      const report = yield* withProgress("games", quiet, (progress) =>
        Effect.flatMap(Simulation, (s) =>
          s.tournament({
            deck: source,
            agents: list.map(Hallyu.Agents.agentText).join(","),
            games,
            seed: String(seed),
            onProgress: progress.update
          })).pipe(Effect.provide(placement)))
      yield* Console.log(format === "json" ? JSON.stringify(report) : renderTournament(report))
    })
).pipe(
  Command.withDescription(
    "Play every pair of Hallyu Hex agents against each other and print the win matrix with 95 % intervals and Elo ratings."
  )
)
