/**
 * `GameStore`: Hallyu Hex games served by `cardfx serve`, persisted beside
 * the ledger store (same SQLite file or PostgreSQL database, same table
 * prefix, its own table and migration list). A game is its seed, deck lists,
 * deck hash and action log with the fingerprint after every step — exactly a
 * `hhx-log/1` game log — so it survives a restart and replays to the same
 * fingerprints. The state itself is never stored. Beside the log: the
 * sha256 of each seat's secret (never the secret itself). Games stored before
 * seat secrets existed (migration 2) have none: only the operator can act in
 * them or read their seats' views.
 *
 * Appending an action is optimistic: `UPDATE ... WHERE step = expected`, so
 * of two writers at one step exactly one wins (the other sees `false`).
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { isCorruption } from "../composition/store/Connection.js"
import { sqliteClientLayer } from "../composition/store/LedgerStore.js"
import { StoreCorrupt, StoreFailure } from "../kernel/Errors.js"
import { traced } from "../kernel/Tracing.js"
import { channelOf, encodeNotice } from "./StepBus.js"

/** What the game store can fail with: the store unavailable, or its pages damaged (one code with the ledger's). */
export type GameStoreError = StoreFailure | StoreCorrupt

/** A stored game: its log. */
export interface StoredGame {
  readonly gameId: string
  readonly seed: string
  readonly decks: readonly [string, string] | null
  readonly deckHash: string
  readonly actions: ReadonlyArray<string>
  /** The initial state's fingerprint, then one per action. */
  readonly fingerprints: ReadonlyArray<string>
  /**
   * sha256 (hex) of seat 0's and seat 1's secrets; null for a game stored before seat secrets. An invited seat's
   * entry is its invitation's placeholder (`invite:…`, see `Invitations`) until the invitation is exchanged.
   */
  readonly seatHashes: readonly [string, string] | null
}

/** When a game was created or last moved (ms since the epoch; bookkeeping for the live-games cap, never a game input). */
export interface Touch {
  readonly nowMs: number
}

export interface GameStoreService {
  /** Stores a new game (no action yet) under its ID (the caller's: random, see `Games`). */
  readonly create: (game: Omit<StoredGame, "actions">, touch?: Touch) => Effect.Effect<void, GameStoreError>
  readonly read: (gameId: string) => Effect.Effect<Option.Option<StoredGame>, GameStoreError>
  /** Appends an action at `expectedStep`; false when the game is not at that step any more. */
  readonly append: (
    gameId: string,
    expectedStep: number,
    actionId: string,
    fingerprint: string,
    touch?: Touch & { readonly finished: boolean }
  ) => Effect.Effect<boolean, GameStoreError>
  /** Replaces a seat's stored hash when it is still `expected` (an invitation's exchange: once); false otherwise. */
  readonly claimSeat: (
    gameId: string,
    seat: 0 | 1,
    expected: string,
    next: string
  ) => Effect.Effect<boolean, GameStoreError>
  /** Games in progress that were created or moved after `sinceMs` (the live-games cap). */
  readonly countLive: (sinceMs: number) => Effect.Effect<number, GameStoreError>
}

const migrations: ReadonlyArray<ReadonlyArray<string>> = [
  [
    `CREATE TABLE {p}hhx_games (
      game_id TEXT PRIMARY KEY,
      seq BIGINT NOT NULL UNIQUE,
      seed TEXT NOT NULL,
      decks TEXT,
      deck_hash TEXT NOT NULL,
      step BIGINT NOT NULL,
      actions TEXT NOT NULL,
      fingerprints TEXT NOT NULL
    )`
  ],
  // Seat secrets (their sha256): a game created before has none (NULL) and is the operator's alone.
  [
    `ALTER TABLE {p}hhx_games ADD COLUMN seat0_hash TEXT`,
    `ALTER TABLE {p}hhx_games ADD COLUMN seat1_hash TEXT`
  ],
  // The live-games cap: whether a game has ended, and when it was created or last moved (0: before this column).
  [
    `ALTER TABLE {p}hhx_games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE {p}hhx_games ADD COLUMN touched BIGINT NOT NULL DEFAULT 0`,
    `CREATE INDEX {p}hhx_games_live ON {p}hhx_games (finished, touched)`
  ]
]

const migrate = (prefix: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = sql.literal(`${prefix}hhx_schema_migrations`)
    yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql.onDialectOrElse({
          pg: () => sql`SELECT pg_advisory_xact_lock(${0x68687867})`,
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

interface Row {
  readonly game_id: string
  readonly seed: string
  readonly decks: string | null
  readonly deck_hash: string
  readonly step: unknown
  readonly actions: string
  readonly fingerprints: string
  readonly seat0_hash: string | null
  readonly seat1_hash: string | null
}

const failure = (e: unknown): GameStoreError =>
  e instanceof StoreFailure || e instanceof StoreCorrupt
    ? e
    : isCorruption(e) || isCorruption((e as { cause?: unknown } | null)?.cause)
    // The ledger's code and message: no file, no raw integrity text; the same file `ledger verify` checks.
    ? new StoreCorrupt({ message: "the game store is damaged: run `cardfx ledger verify`" })
    : new StoreFailure({ message: `game store: ${e instanceof Error ? e.message : String(e)}` })

const make = (prefix: string): Effect.Effect<GameStoreService, GameStoreError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (!/^[a-z][a-z0-9_]{0,30}$/.test(prefix) && prefix !== "") {
      return yield* Effect.fail(failure(`bad table prefix ${prefix}`))
    }
    yield* Effect.mapError(migrate(prefix), failure)
    const sql = yield* SqlClient.SqlClient
    const games = sql.literal(`${prefix}hhx_games`)
    const channel = channelOf(prefix)
    const notifyStep = (gameId: string, step: number) =>
      sql.onDialectOrElse({
        pg: () => sql`SELECT pg_notify(${channel}, ${encodeNotice({ _tag: "step", gameId, step })})`,
        orElse: () => Effect.void
      })
    const guard = <A>(e: Effect.Effect<A, SqlError>): Effect.Effect<A, GameStoreError> => Effect.mapError(e, failure)
    const insertOnce = (game: Omit<StoredGame, "actions">, touch: Touch | undefined) =>
      sql.withTransaction(
        Effect.gen(function*() {
          // `seq` keeps the creation order (the IDs are random).
          const [top] = yield* sql<{ n: unknown }>`SELECT COALESCE(MAX(seq), 0) AS n FROM ${games}`
          const seq = Number(top?.n ?? 0) + 1
          yield* sql`INSERT INTO ${games} ${
            sql.insert({
              game_id: game.gameId,
              seq,
              seed: game.seed,
              decks: game.decks === null ? null : JSON.stringify(game.decks),
              deck_hash: game.deckHash,
              step: 0,
              actions: "[]",
              fingerprints: JSON.stringify(game.fingerprints),
              seat0_hash: game.seatHashes?.[0] ?? null,
              seat1_hash: game.seatHashes?.[1] ?? null,
              finished: 0,
              touched: touch?.nowMs ?? 0
            })
          }`
        })
      )
    return {
      // Two creators may pick the same next `seq` on PostgreSQL; the loser retries.
      create: (game, touch) => guard(Effect.retry(insertOnce(game, touch), { times: 8 })),
      read: (gameId) =>
        guard(
          Effect.map(sql<Row>`SELECT * FROM ${games} WHERE game_id = ${gameId}`, (rows) =>
            Option.map(Option.fromNullable(rows[0]), (r) => ({
              gameId: r.game_id,
              seed: r.seed,
              decks: r.decks === null ? null : (JSON.parse(r.decks) as [string, string]),
              deckHash: r.deck_hash,
              actions: JSON.parse(r.actions) as Array<string>,
              fingerprints: JSON.parse(r.fingerprints) as Array<string>,
              seatHashes: r.seat0_hash === null || r.seat1_hash === null ? null : [r.seat0_hash, r.seat1_hash] as const
            })))
        ),
      append: (gameId, expectedStep, actionId, fingerprint, touch) =>
        guard(
          sql.withTransaction(
            Effect.gen(function*() {
              const rows = yield* sql<Row>`SELECT * FROM ${games} WHERE game_id = ${gameId}`
              const r = rows[0]
              if (r === undefined || Number(r.step) !== expectedStep) return false
              const actions = [...(JSON.parse(r.actions) as Array<string>), actionId]
              const fingerprints = [...(JSON.parse(r.fingerprints) as Array<string>), fingerprint]
              const done = yield* sql`UPDATE ${games} SET step = ${expectedStep + 1}, actions = ${
                JSON.stringify(actions)
              }, fingerprints = ${JSON.stringify(fingerprints)}, finished = ${
                touch?.finished === true ? 1 : 0
              }, touched = ${touch?.nowMs ?? 0} WHERE game_id = ${gameId} AND step = ${expectedStep} RETURNING step`
              // PostgreSQL: every server on the store hears of the step when it commits (src/services/StepBus.ts).
              if (done.length === 1) yield* notifyStep(gameId, expectedStep + 1)
              return done.length === 1
            })
          )
        ),
      claimSeat: (gameId, seat, expected, next) =>
        guard(
          Effect.map(
            seat === 0
              ? sql`UPDATE ${games} SET seat0_hash = ${next} WHERE game_id = ${gameId} AND seat0_hash = ${expected} RETURNING game_id`
              : sql`UPDATE ${games} SET seat1_hash = ${next} WHERE game_id = ${gameId} AND seat1_hash = ${expected} RETURNING game_id`,
            (rows) => rows.length === 1
          )
        ),
      countLive: (sinceMs) =>
        guard(
          Effect.map(
            sql<{ n: unknown }>`SELECT COUNT(*) AS n FROM ${games} WHERE finished = 0 AND touched > ${sinceMs}`,
            (rows) => Number(rows[0]?.n ?? 0)
          )
        )
    } satisfies GameStoreService
  })

/** The Hallyu Hex game store. */
export class GameStore extends Context.Tag("cardfx/GameStore")<GameStore, GameStoreService>() {
  /** A SQLite path (`:memory:` for a private in-memory database) or a `postgres://` / `postgresql://` URL. */
  static readonly layerFor = (
    location: string,
    options: { readonly tablePrefix?: string } = {}
  ): Layer.Layer<GameStore, GameStoreError> => {
    const prefix = options.tablePrefix ?? ""
    const client: Layer.Layer<SqlClient.SqlClient, unknown> = /^postgres(ql)?:\/\//.test(location)
      ? Layer.unwrapEffect(
        Effect.map(
          Effect.promise(() => import("@effect/sql-pg/PgClient")),
          (PgClient) => PgClient.layer({ url: Redacted.make(location), maxConnections: 4, connectTimeout: "5 seconds" })
        )
      )
      : sqliteClientLayer(location)
    return Layer.effect(GameStore, Effect.map(make(prefix), (s) => traced("GameStore", s))).pipe(
      Layer.provide(client),
      Layer.mapError(failure)
    )
  }
}
