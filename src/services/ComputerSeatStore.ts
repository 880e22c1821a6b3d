/**
 * `ComputerSeatStore`: the computer seats of served Hallyu Hex games
 * (src/services/ComputerSeats.ts), beside the games (same SQLite file or
 * PostgreSQL database, same table prefix; its own tables and migration list,
 * so the game store's stay as they are):
 *
 * - `hhx_computer_seats`: a game's agents (`[spec | null, spec | null]`,
 *   seat 0 first) and whether the game has ended — the games a starting
 *   server resumes are the ones not ended;
 * - `hhx_computer_moves`: every move a computer seat made, with the agent,
 *   the iterations it was given, the seed it was given (derived from the
 *   game's seed, the seat and the step) and the action it chose, so the
 *   choice can be checked again from the seat's knowledge at that step.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { sqliteClientLayer } from "../composition/store/LedgerStore.js"
import type { FairAgentName } from "../hallyu/agents/Agent.js"
import type { Seat } from "../hallyu/index.js"
import { StoreFailure } from "../kernel/Errors.js"

/** A computer seat's agent and its budget in iterations. */
export interface ComputerSeat {
  readonly agent: FairAgentName
  readonly iterations: number
}

/** A game's seats: a computer seat's agent, or null (a human, holding its secret). Seat 0 first. */
export type SeatAgents = readonly [ComputerSeat | null, ComputerSeat | null]

/** One move a computer seat made. */
export interface ComputerMove {
  readonly gameId: string
  /** The step the move was made at (the game's `step` before it). */
  readonly step: number
  readonly seat: Seat
  readonly agent: FairAgentName
  /** The iterations the decision was given. */
  readonly iterations: number
  /** The agent's seed: `agentSeed(game seed, seat, step)`. */
  readonly seed: string
  readonly actionId: string
}

export interface ComputerSeatStoreService {
  /** Stores a new game's seats (once). */
  readonly save: (gameId: string, seats: SeatAgents) => Effect.Effect<void, StoreFailure>
  readonly read: (gameId: string) => Effect.Effect<Option.Option<SeatAgents>, StoreFailure>
  /** The games with a computer seat that have not ended, in creation order. */
  readonly unfinished: Effect.Effect<
    ReadonlyArray<{ readonly gameId: string; readonly seats: SeatAgents }>,
    StoreFailure
  >
  /** Marks a game ended (not resumed any more). */
  readonly finish: (gameId: string) => Effect.Effect<void, StoreFailure>
  /** Records computer seats' moves in one statement (a second record of one step is ignored). */
  readonly record: (moves: ReadonlyArray<ComputerMove>) => Effect.Effect<void, StoreFailure>
  /** A game's computer moves, by step. */
  readonly moves: (gameId: string) => Effect.Effect<ReadonlyArray<ComputerMove>, StoreFailure>
}

const migrations: ReadonlyArray<ReadonlyArray<string>> = [
  [
    `CREATE TABLE {p}hhx_computer_seats (
      game_id TEXT PRIMARY KEY,
      seq BIGINT NOT NULL,
      seats TEXT NOT NULL,
      done INTEGER NOT NULL
    )`,
    `CREATE TABLE {p}hhx_computer_moves (
      game_id TEXT NOT NULL,
      step BIGINT NOT NULL,
      seat INTEGER NOT NULL,
      agent TEXT NOT NULL,
      iterations INTEGER NOT NULL,
      seed TEXT NOT NULL,
      action_id TEXT NOT NULL,
      PRIMARY KEY (game_id, step)
    )`
  ]
]

const migrate = (prefix: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = sql.literal(`${prefix}hhx_computer_schema_migrations`)
    yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql.onDialectOrElse({
          pg: () => sql`SELECT pg_advisory_xact_lock(${0x68686373})`,
          orElse: () => Effect.void
        })
        yield* sql`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY)`
        for (let i = 0; i < migrations.length; i++) {
          const version = i + 1
          const done = yield* sql`SELECT version FROM ${table} WHERE version = ${version}`
          if (done.length > 0) continue
          // Constant statements; the prefix is checked before use.
          for (const s of migrations[i] ?? []) yield* sql.unsafe(s.replaceAll("{p}", prefix))
          yield* sql`INSERT INTO ${table} (version) VALUES (${version})`
        }
      })
    )
  })

const failure = (e: unknown): StoreFailure =>
  new StoreFailure({ message: `computer seat store: ${e instanceof Error ? e.message : String(e)}` })

/** The stored text of a game's seats, read back (what `save` wrote: two entries, each null or an agent). */
const seatsOf = (text: string): SeatAgents => {
  const parsed: unknown = JSON.parse(text)
  const one = (v: unknown): ComputerSeat | null =>
    typeof v === "object" && v !== null && "agent" in v && "iterations" in v &&
      (v.agent === "random" || v.agent === "greedy" || v.agent === "ismcts") && typeof v.iterations === "number"
      ? { agent: v.agent, iterations: v.iterations }
      : null
  return Array.isArray(parsed) ? [one(parsed[0]), one(parsed[1])] : [null, null]
}

interface MoveRow {
  readonly game_id: string
  readonly step: unknown
  readonly seat: unknown
  readonly agent: string
  readonly iterations: unknown
  readonly seed: string
  readonly action_id: string
}

const make = (prefix: string): Effect.Effect<ComputerSeatStoreService, StoreFailure, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (!/^[a-z][a-z0-9_]{0,30}$/.test(prefix) && prefix !== "") {
      return yield* Effect.fail(failure(`bad table prefix ${prefix}`))
    }
    yield* Effect.mapError(migrate(prefix), failure)
    const sql = yield* SqlClient.SqlClient
    const seatsTable = sql.literal(`${prefix}hhx_computer_seats`)
    const movesTable = sql.literal(`${prefix}hhx_computer_moves`)
    const guard = <A>(e: Effect.Effect<A, SqlError>): Effect.Effect<A, StoreFailure> => Effect.mapError(e, failure)
    const insertOnce = (gameId: string, seats: SeatAgents) =>
      sql.withTransaction(
        Effect.gen(function*() {
          // `seq` keeps the creation order (the IDs are random): games resume in the order they were created.
          const [top] = yield* sql<{ n: unknown }>`SELECT COALESCE(MAX(seq), 0) AS n FROM ${seatsTable}`
          yield* sql`INSERT INTO ${seatsTable} ${
            sql.insert({ game_id: gameId, seq: Number(top?.n ?? 0) + 1, seats: JSON.stringify(seats), done: 0 })
          }`
        })
      )
    return {
      save: (gameId, seats) => guard(Effect.retry(insertOnce(gameId, seats), { times: 8 })),
      read: (gameId) =>
        guard(Effect.map(
          sql<{ seats: string }>`SELECT seats FROM ${seatsTable} WHERE game_id = ${gameId}`,
          (rows) => Option.map(Option.fromNullable(rows[0]), (r) => seatsOf(r.seats))
        )),
      unfinished: guard(Effect.map(
        sql<{ game_id: string; seats: string }>`SELECT game_id, seats FROM ${seatsTable} WHERE done = 0 ORDER BY seq`,
        (rows) => rows.map((r) => ({ gameId: r.game_id, seats: seatsOf(r.seats) }))
      )),
      finish: (gameId) => guard(Effect.asVoid(sql`UPDATE ${seatsTable} SET done = 1 WHERE game_id = ${gameId}`)),
      record: (moves) =>
        moves.length === 0 ? Effect.void : guard(Effect.asVoid(
          sql`INSERT INTO ${movesTable} ${
            sql.insert(moves.map((m) => ({
              game_id: m.gameId,
              step: m.step,
              seat: m.seat,
              agent: m.agent,
              iterations: m.iterations,
              seed: m.seed,
              action_id: m.actionId
            })))
          } ON CONFLICT DO NOTHING`
        )),
      moves: (gameId) =>
        guard(Effect.map(
          sql<MoveRow>`SELECT * FROM ${movesTable} WHERE game_id = ${gameId} ORDER BY step`,
          (rows) =>
            rows.map((r): ComputerMove => ({
              gameId: r.game_id,
              step: Number(r.step),
              seat: Number(r.seat) === 1 ? 1 : 0,
              agent: r.agent === "greedy" || r.agent === "ismcts" ? r.agent : "random",
              iterations: Number(r.iterations),
              seed: r.seed,
              actionId: r.action_id
            }))
        ))
    } satisfies ComputerSeatStoreService
  })

/** The computer seat store. */
export class ComputerSeatStore extends Context.Tag("cardfx/ComputerSeatStore")<
  ComputerSeatStore,
  ComputerSeatStoreService
>() {
  /** A SQLite path (`:memory:` for a private in-memory database) or a `postgres://` / `postgresql://` URL. */
  static readonly layerFor = (
    location: string,
    options: { readonly tablePrefix?: string | undefined } = {}
  ): Layer.Layer<ComputerSeatStore, StoreFailure> => {
    const prefix = options.tablePrefix ?? ""
    const client: Layer.Layer<SqlClient.SqlClient, unknown> = /^postgres(ql)?:\/\//.test(location)
      ? Layer.unwrapEffect(
        Effect.map(
          Effect.promise(() => import("@effect/sql-pg/PgClient")),
          (PgClient) => PgClient.layer({ url: Redacted.make(location), maxConnections: 2, connectTimeout: "5 seconds" })
        )
      )
      : sqliteClientLayer(location)
    return Layer.effect(ComputerSeatStore, make(prefix)).pipe(Layer.provide(client), Layer.mapError(failure))
  }
}
