/**
 * The shard ledger: one PostgreSQL row per game shard of a cluster run (run
 * id, shard index, game range, the runner that played it, its partial). The
 * primary key (run id, shard index) makes the first answer recorded the only
 * one: a shard played twice (its runner died after recording, or a message
 * was delivered again) is still counted once, and every later delivery
 * answers with the recorded partial instead of playing the games again.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { type SimulationPartial, SimulationPartialSchema } from "../services/Simulation.js"

/** The ledger table's name (in the database the cluster's storage uses). */
export const LEDGER_TABLE = "cardfx_shard_ledger"

/** One recorded shard. */
export interface LedgerRow {
  readonly runId: string
  readonly index: number
  readonly from: number
  readonly to: number
  readonly runner: string
  readonly partial: SimulationPartial
}

export interface ShardLedgerService {
  /** The row of a shard, when it is recorded. */
  readonly find: (runId: string, index: number) => Effect.Effect<Option.Option<LedgerRow>, Diagnostic>
  /** Records a shard unless it already is; answers the row that stands (the first one recorded). */
  readonly record: (row: LedgerRow) => Effect.Effect<LedgerRow, Diagnostic>
  /** Every recorded shard of a run, by shard index. */
  readonly rows: (runId: string) => Effect.Effect<ReadonlyArray<LedgerRow>, Diagnostic>
  /**
   * Removes the runs whose last shard was recorded more than `retainSeconds`
   * ago: their ledger rows and `@effect/cluster`'s message and reply rows of
   * their shard entities. Answers how many runs were removed.
   */
  readonly sweep: (retainSeconds: number) => Effect.Effect<number, Diagnostic>
}

export class ShardLedger extends Context.Tag("cardfx/ShardLedger")<ShardLedger, ShardLedgerService>() {}

const PartialJson = Schema.parseJson(SimulationPartialSchema)
const encodePartial = Schema.encodeSync(PartialJson)
const decodePartial = Schema.decodeUnknownEither(PartialJson)

const unavailable = (e: unknown): Diagnostic =>
  diagnostic(
    "cluster_unreachable",
    `the cluster's PostgreSQL failed: ${
      typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e)
    }`,
    { subject: LEDGER_TABLE }
  )

interface RawRow {
  readonly run_id: string
  readonly shard_index: number
  readonly game_from: number
  readonly game_to: number
  readonly runner: string
  readonly partial: string
}

const fromRaw = (r: RawRow): Effect.Effect<LedgerRow, Diagnostic> => {
  const partial = decodePartial(r.partial)
  return partial._tag === "Left"
    ? Effect.fail(
      diagnostic("cluster_unreachable", `ledger row ${r.run_id}/${r.shard_index} does not hold a partial`, {
        subject: LEDGER_TABLE
      })
    )
    : Effect.succeed({
      runId: r.run_id,
      index: Number(r.shard_index),
      from: Number(r.game_from),
      to: Number(r.game_to),
      runner: r.runner,
      partial: partial.right
    })
}

/** Creates the table once per database (an advisory lock keeps concurrent runners from racing on it). */
const ensureTable = (sql: SqlClient.SqlClient) =>
  sql.withTransaction(
    Effect.zipRight(
      sql`SELECT pg_advisory_xact_lock(hashtext(${LEDGER_TABLE}))`,
      sql.unsafe(`CREATE TABLE IF NOT EXISTS ${LEDGER_TABLE} (
        run_id TEXT NOT NULL,
        shard_index INTEGER NOT NULL,
        game_from INTEGER NOT NULL,
        game_to INTEGER NOT NULL,
        runner TEXT NOT NULL,
        partial TEXT NOT NULL,
        recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT ${LEDGER_TABLE}_once PRIMARY KEY (run_id, shard_index)
      )`)
    )
  )

/** The cluster's message tables (`SqlMessageStorage`'s default prefix) and the shard entity's type. */
const MESSAGES_TABLE = "cluster_messages"
const REPLIES_TABLE = "cluster_replies"
const SHARD_ENTITY_TYPE = "CardfxSimulationShard"

export const make: Effect.Effect<ShardLedgerService, Diagnostic, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* Effect.mapError(ensureTable(sql), unavailable)
  const select = (runId: string, index: number) =>
    sql<RawRow>`SELECT run_id, shard_index, game_from, game_to, runner, partial FROM ${
      sql(LEDGER_TABLE)
    } WHERE run_id = ${runId} AND shard_index = ${index}`.pipe(
      Effect.mapError(unavailable),
      Effect.flatMap((rows) => rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.asSome(fromRaw(rows[0])))
    )
  const service: ShardLedgerService = {
    find: select,
    // The insert answers the row when it is the first; only a shard already recorded costs a second query.
    record: (row) =>
      sql<{ readonly runner: string }>`INSERT INTO ${
        sql(LEDGER_TABLE)
      } (run_id, shard_index, game_from, game_to, runner, partial)
        VALUES (${row.runId}, ${row.index}, ${row.from}, ${row.to}, ${row.runner}, ${encodePartial(row.partial)})
        ON CONFLICT (run_id, shard_index) DO NOTHING RETURNING runner`.pipe(
        Effect.mapError(unavailable),
        Effect.flatMap((inserted) =>
          inserted.length > 0
            ? Effect.succeed(row)
            : Effect.map(select(row.runId, row.index), Option.getOrElse(() => row))
        )
      ),
    rows: (runId) =>
      sql<RawRow>`SELECT run_id, shard_index, game_from, game_to, runner, partial FROM ${
        sql(LEDGER_TABLE)
      } WHERE run_id = ${runId} ORDER BY shard_index`.pipe(
        Effect.mapError(unavailable),
        Effect.flatMap((rows) => Effect.forEach(rows, fromRaw))
      ),
    sweep: (retainSeconds) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const old = yield* sql<{ readonly run_id: string }>`SELECT run_id FROM ${sql(LEDGER_TABLE)}
            GROUP BY run_id HAVING max(recorded_at) < now() - make_interval(secs => ${retainSeconds})
            ORDER BY run_id LIMIT 1000`
          if (old.length === 0) return 0
          const runs = old.map((r) => r.run_id)
          const entities = sql`SELECT request_id FROM ${sql(MESSAGES_TABLE)}
            WHERE entity_type = ${SHARD_ENTITY_TYPE} AND split_part(entity_id, '/', 1) IN ${sql.in(runs)}`
          yield* sql`DELETE FROM ${sql(REPLIES_TABLE)} WHERE request_id IN (${entities})`
          yield* sql`DELETE FROM ${sql(MESSAGES_TABLE)}
            WHERE entity_type = ${SHARD_ENTITY_TYPE} AND split_part(entity_id, '/', 1) IN ${sql.in(runs)}`
          yield* sql`DELETE FROM ${sql(LEDGER_TABLE)} WHERE run_id IN ${sql.in(runs)}`
          return runs.length
        })
      ).pipe(Effect.mapError(unavailable))
  }
  return service
})

export const layer: Layer.Layer<ShardLedger, Diagnostic, SqlClient.SqlClient> = Layer.effect(ShardLedger, make)
