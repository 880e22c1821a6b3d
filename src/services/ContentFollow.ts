/**
 * Reload across processes: every server (and every worker) on one store
 * serves the same content hash. Each process keeps a row in the store's
 * `<prefix>cardfx_servers` table (its content hash, refreshed every
 * {@link HEARTBEAT_MS}; a row not refreshed for {@link LIVE_MS} is a process
 * gone). A reload through any of them runs as two phases over the
 * `StepBus` (LISTEN/NOTIFY, or the primary's IPC relay):
 *
 * 1. **prepare** — the reloading process publishes its packages again and
 *    asks the others to do the same with theirs; each answers (in its row)
 *    the hash it would switch to. Any other hash, or no answer within
 *    {@link VOTE_MS}, aborts: nobody switches, the reload fails with
 *    `reload_rejected` naming the process and its hash;
 * 2. **check and commit** — the reloading process runs the one check of the
 *    stored instances (`ContentCatalog.reload`) and switches; then it tells
 *    the others to commit, and answers once each serves the new hash (or
 *    after {@link VOTE_MS}). A rejected check aborts the prepared others.
 *
 * A start whose content differs from what the live others serve is
 * refused (`start_rejected`) unless `allowMismatch` (`--allow-content-mismatch`).
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Redacted, Runtime as EffectRuntime } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import type { Runtime } from "../composition/Runtime.js"
import { sqliteClientLayer } from "../composition/store/LedgerStore.js"
import { hashCanonical } from "../kernel/Canonical.js"
import { diagnostic } from "../kernel/Diagnostic.js"
import { errorOf, type StartRejected, type StoreFailure } from "../kernel/Errors.js"
import { ContentLoader, LiveCatalog } from "./Catalog.js"
import { ContentCatalog } from "./ContentCatalog.js"
import { StepBus } from "./StepBus.js"

const HEARTBEAT_MS = 2_000
const LIVE_MS = 8_000
const VOTE_MS = 10_000
const POLL_MS = 50

interface ServerRow {
  readonly server_id: string
  readonly content_hash: string
  readonly vote_generation: unknown
  readonly vote_hash: string | null
  readonly seen_at: unknown
}

const hashOf = (runtime: Runtime): string => hashCanonical(runtime.pin)

const clientFor = (store: string): Layer.Layer<SqlClient.SqlClient, StoreFailure> =>
  Layer.mapError(
    /^postgres(ql)?:\/\//.test(store)
      ? Layer.unwrapEffect(
        Effect.map(
          Effect.promise(() => import("@effect/sql-pg/PgClient")),
          (PgClient) => PgClient.layer({ url: Redacted.make(store), maxConnections: 2, connectTimeout: "5 seconds" })
        )
      )
      : sqliteClientLayer(store),
    (e) => errorOf("store_failure", `the servers' table of the store cannot be opened: ${String(e).slice(0, 200)}`)
  )

/** Whether a process of this machine runs (signal 0 checks without signalling; EPERM: it runs, as another user). */
const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e instanceof Error && "code" in e && e.code === "EPERM"
  }
}

/**
 * The served content, followed across the processes on the store: this
 * process's `ContentCatalog` with a two-phase `reload`, its row kept, and
 * the others' reloads followed.
 */
export const layer = (options: {
  readonly store: string
  readonly tablePrefix?: string | undefined
  readonly packages: ReadonlyArray<string>
  readonly allowMismatch?: boolean | undefined
}): Layer.Layer<ContentCatalog, StartRejected | StoreFailure, ContentCatalog | LiveCatalog | ContentLoader | StepBus> =>
  Layer.scoped(
    ContentCatalog,
    Effect.gen(function*() {
      const sql = yield* Effect.provide(SqlClient.SqlClient, yield* Layer.build(clientFor(options.store)))
      const catalog = yield* ContentCatalog
      const live = yield* LiveCatalog
      const loader = yield* ContentLoader
      const bus = yield* StepBus
      const prefix = options.tablePrefix ?? ""
      const servers = sql.literal(`${prefix}cardfx_servers`)
      // The row's ID names this machine and process, so a start can tell a crashed server on its own machine
      // (its process is gone) from a live one before its row goes stale.
      const me = `${hostname()}:${process.pid}:${randomBytes(12).toString("base64url")}`
      // Liveness only (which rows are fresh): never part of a result.
      const now = Clock.currentTimeMillis
      yield* sql`CREATE TABLE IF NOT EXISTS ${servers} (
        server_id TEXT PRIMARY KEY,
        content_hash TEXT NOT NULL,
        vote_generation BIGINT NOT NULL DEFAULT 0,
        vote_hash TEXT,
        seen_at BIGINT NOT NULL
      )`.pipe(Effect.retry({ times: 3 }))
      const others = Effect.flatMap(
        now,
        (t) => sql<ServerRow>`SELECT * FROM ${servers} WHERE server_id <> ${me} AND seen_at > ${t - LIVE_MS}`
      )
      // Rows of processes of this machine that no longer run (a SIGKILL leaves its row fresh for LIVE_MS) go first.
      for (const r of yield* others) {
        const [host, pid] = r.server_id.split(":")
        if (host === hostname() && pid !== undefined && /^\d+$/.test(pid) && !running(Number(pid))) {
          yield* sql`DELETE FROM ${servers} WHERE server_id = ${r.server_id}`
        }
      }
      // The start: content that differs from what the live others serve is refused unless told.
      const mine = hashOf(yield* live.current)
      const differing = (yield* others).filter((r) => r.content_hash !== mine)
      if (differing.length > 0 && options.allowMismatch !== true) {
        return yield* Effect.fail(errorOf(
          "start_rejected",
          `the other servers on this store serve content ${differing[0]?.content_hash.slice(0, 12)}…, this start has ${
            mine.slice(0, 12)
          }… (reload them, or start with --allow-content-mismatch to serve it anyway)`,
          { details: { servers: differing.length } }
        ))
      }
      yield* sql`INSERT INTO ${servers} ${
        sql.insert({ server_id: me, content_hash: mine, vote_generation: 0, vote_hash: null, seen_at: yield* now })
      }`
      yield* Effect.addFinalizer(() => Effect.ignore(sql`DELETE FROM ${servers} WHERE server_id = ${me}`))
      const beat = Effect.flatMap(
        Effect.zip(live.current, now),
        ([r, t]) => sql`UPDATE ${servers} SET seen_at = ${t}, content_hash = ${hashOf(r)} WHERE server_id = ${me}`
      )
      yield* beat.pipe(
        Effect.ignore,
        Effect.zipRight(Effect.sleep(HEARTBEAT_MS)),
        Effect.forever,
        Effect.forkScoped
      )

      // ---- following the others' reloads
      const prepared = new Map<number, Runtime>()
      const runtime = yield* Effect.runtime<never>()
      const follow = (generation: number, phase: "prepare" | "commit" | "abort") =>
        Effect.gen(function*() {
          if (phase === "abort") {
            return void prepared.delete(generation)
          }
          if (phase === "commit") {
            const candidate = prepared.get(generation)
            prepared.clear()
            if (candidate === undefined) {
              return
            }
            yield* live.set(candidate)
            yield* beat
            return yield* Effect.logInfo("reload followed").pipe(
              Effect.annotateLogs({ generation, contentHash: hashOf(candidate) })
            )
          }
          const candidate = yield* Effect.either(loader.load(options.packages))
          const hash = candidate._tag === "Right" ? hashOf(candidate.right) : `unloadable: ${candidate.left.message}`
          if (candidate._tag === "Right") {
            prepared.set(generation, candidate.right)
          }
          yield* sql`UPDATE ${servers} SET vote_generation = ${generation}, vote_hash = ${hash} WHERE server_id = ${me}`
        }).pipe(Effect.catchAll((e) => Effect.logWarning("reload follow failed", String(e))))
      const reloading = { generation: 0 }
      yield* bus.subscribe((n) => {
        if (n._tag !== "content" || n.generation === reloading.generation) return
        EffectRuntime.runFork(runtime)(follow(n.generation, n.phase))
      })

      /** Waits until `ok` holds for every live other (at most VOTE_MS); the others that did not get there. */
      const awaitOthers = (ok: (r: ServerRow) => boolean) =>
        Effect.gen(function*() {
          const end = (yield* now) + VOTE_MS
          for (;;) {
            const pending = (yield* others).filter((r) => !ok(r))
            if (pending.length === 0 || (yield* now) > end) return pending
            yield* Effect.sleep(POLL_MS)
          }
        })

      const reload: typeof catalog.reload = Effect.gen(function*() {
        const peers = yield* Effect.orDie(others)
        if (peers.length === 0) return yield* catalog.reload
        // Unique enough across processes: time in ms and randomness (a generation only names one attempt).
        const generation = (yield* now) * 1000 + randomBytes(2).readUInt16BE(0) % 1000
        reloading.generation = generation
        const candidate = yield* loader.load(options.packages)
        const hash = hashOf(candidate)
        const abort = bus.publish({ _tag: "content", generation, phase: "abort" })
        yield* bus.publish({ _tag: "content", generation, phase: "prepare" })
        const votes = yield* Effect.orDie(awaitOthers((r) => Number(r.vote_generation) === generation))
        const disagree = (yield* Effect.orDie(others)).filter((r) =>
          Number(r.vote_generation) !== generation || r.vote_hash !== hash
        )
        if (votes.length > 0 || disagree.length > 0) {
          yield* abort
          const first = disagree[0] ?? votes[0]
          return yield* Effect.fail(errorOf(
            "reload_rejected",
            `another server on this store cannot switch to ${hash.slice(0, 12)}…: ${
              first === undefined || Number(first.vote_generation) !== generation
                ? "it did not answer"
                : `its packages hash to ${first.vote_hash ?? "?"}`
            }; nobody switched`,
            { details: { servers: disagree.length } },
            [diagnostic("reload_rejected", "the servers on this store disagree on the content")]
          ))
        }
        const report = yield* catalog.reload.pipe(Effect.tapError(() => abort))
        yield* bus.publish({ _tag: "content", generation, phase: "commit" })
        yield* beat.pipe(Effect.ignore)
        yield* Effect.ignore(awaitOthers((r) => r.content_hash === report.runtime.contentHash))
        return report
      })
      return { ...catalog, reload }
    }).pipe(
      // The servers' table cannot be reached or written: the store's failure, as every other store error is.
      Effect.catchTag(
        "SqlError",
        (e) =>
          Effect.fail(errorOf("store_failure", `the servers' table of the store: ${e.message}`, {
            details: { reason: String(e.cause).slice(0, 200) }
          }))
      )
    )
  )
