/**
 * Restart: the built bin (`node dist/cli/cardfx.mjs serve`) on a SQLite
 * store and on PostgreSQL (a throw-away database, when reachable), a stream of commands (each with its own commandId) SIGKILLed in the
 * middle, the server restarted on the same store, and every unacknowledged
 * command retried with its ID: each command's effect is present exactly once,
 * and a Hallyu Hex game advanced before the kill resumes at the same step and
 * fingerprint. 127.0.0.1 only; every wait is bounded.
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted } from "effect"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { type CardfxClient, makeClient } from "../../src/client.js"
import { killed, serveBin } from "../support/served.js"
import { PACKAGE, PG_URL, pgUp } from "./support.js"

interface Served {
  readonly child: ChildProcess
  readonly url: string
  readonly client: CardfxClient
}

const children: Array<ChildProcess> = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
})

/** Starts the built bin on `store` (test/support/served.ts) and a typed client for it. */
const serve = async (store: string, extra: ReadonlyArray<string> = []): Promise<Served> => {
  const s = await serveBin(["--package", PACKAGE, "--store", store, ...extra])
  children.push(s.child)
  const client = await Effect.runPromise(makeClient(s.url).pipe(Effect.provide(FetchHttpClient.layer)))
  return { child: s.child, url: s.url, client }
}

const ember = { kind: "apply", upgradeId: "core.ember.affinity" } as const
const sharpen = { kind: "apply", upgradeId: "core.sharpened_strike" } as const

interface Command {
  readonly instanceId: string
  readonly commandId: string
  readonly expectedRevision: number
  readonly command: typeof ember | typeof sharpen
}

const INSTANCES = 24
/** Each instance gets two commands, in order (ember at revision 0, then sharpen at revision 1). */
const chains: ReadonlyArray<ReadonlyArray<Command>> = Array.from({ length: INSTANCES }, (_, i) => [
  { instanceId: `hero-${i}`, commandId: `hero-${i}-ember`, expectedRevision: 0, command: ember },
  { instanceId: `hero-${i}`, commandId: `hero-${i}-sharpen`, expectedRevision: 1, command: sharpen }
])

const send = (client: CardfxClient, c: Command) =>
  Effect.runPromiseExit(
    client.instances.command({
      path: { instanceId: c.instanceId },
      payload: {
        commandId: c.commandId,
        cardId: "basic_attack",
        expectedRevision: c.expectedRevision,
        command: c.command
      }
    })
  )

/** Runs one statement on the PostgreSQL server of PG_URL (database administration: no transaction). */
const pgAdmin = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.scoped,
      Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL) }))
    )
  )

/** A throw-away PostgreSQL database for this process (the bin takes a URL, no table prefix). */
const PG_DATABASE = `cardfx_restart_${process.pid}`
const pgStore = (): string => {
  const u = new URL(PG_URL)
  u.pathname = `/${PG_DATABASE}`
  return u.toString()
}
let pgCreated = false
afterAll(async () => {
  if (pgCreated) await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
})

const stores = [
  ["SQLite", async () => join(mkdtempSync(join(tmpdir(), "cardfx-restart-")), "ledger.db"), []],
  // `serve --workers 2` (issue 44): the primary SIGKILLed, its workers end with it; restarted with 2 workers.
  ["SQLite, 2 workers", async () => join(mkdtempSync(join(tmpdir(), "cardfx-restart-")), "ledger.db"), [
    "--workers",
    "2"
  ]],
  ["PostgreSQL", async () => {
    await pgAdmin(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
    await pgAdmin(`CREATE DATABASE ${PG_DATABASE}`)
    pgCreated = true
    return pgStore()
  }, []]
] as const

describe.each(stores)("cardfx serve on %s survives SIGKILL", (kind, makeStore, extra) => {
  it.skipIf(kind === "PostgreSQL" && !pgUp)(
    "every unacknowledged command retried with its ID lands exactly once; an HHX game resumes at its step and fingerprint",
    async () => {
      const store = await makeStore()
      const first = await serve(store, extra)

      // A game in progress: created and advanced a few steps before the kill.
      const created = await Effect.runPromise(first.client.hhx.create({ payload: { seed: 7 } }))
      const gameId = created.game.gameId
      // The view of the seat to act, read with that seat's secret.
      const as = (seat: 0 | 1 | null) => ({ "x-seat-secret": created.seats[seat ?? 0]?.secret ?? "" })
      const acting = (c: typeof first.client, toAct: 0 | 1 | null) =>
        Effect.runPromise(c.hhx.get({ path: { gameId }, urlParams: {}, headers: as(toAct) }))
      let game = await acting(first.client, created.game.toAct)
      for (let i = 0; i < 4 && game.result === null; i++) {
        const action = game.legalActions[0]
        if (action === undefined) break
        const moved = await Effect.runPromise(
          first.client.hhx.act({
            path: { gameId },
            headers: as(game.toAct),
            payload: { actionId: action.id, expectedStep: game.step }
          })
        )
        game = await acting(first.client, moved.toAct)
      }
      expect(game.step).toBeGreaterThan(0)

      // The stream: 4 clients, each walking its instances' chains in order; SIGKILL after 10 acknowledgements,
      // while the other clients' requests are in flight.
      const acknowledged = new Set<string>()
      let dead = false
      let kill: Promise<void> | undefined
      const worker = async (w: number) => {
        for (let i = w; i < INSTANCES && !dead; i += 4) {
          for (const c of chains[i] ?? []) {
            const exit = await send(first.client, c)
            if (Exit.isFailure(exit)) return // the server is gone: this chain resumes after the restart
            expect(exit.value.status).toBe("applied")
            acknowledged.add(c.commandId)
            if (acknowledged.size === 10) {
              dead = true
              kill = killed(first.child)
            }
          }
        }
      }
      await Promise.all([0, 1, 2, 3].map(worker))
      await (kill ?? killed(first.child))
      const all = chains.flat()
      expect(acknowledged.size).toBeGreaterThanOrEqual(10)
      expect(acknowledged.size).toBeLessThan(all.length)

      // Restart on the same store; retry every unacknowledged command, in each instance's order, with its ID.
      const second = await serve(store, extra)
      for (const c of all.filter((c) => !acknowledged.has(c.commandId))) {
        const exit = await send(second.client, c)
        if (Exit.isFailure(exit)) throw new Error(`retry of ${c.commandId} failed: ${String(exit.cause)}`)
        // applied now, or the outcome recorded before the kill: the same revision either way
        expect(exit.value.status).toBe("applied")
        expect(exit.value.revision).toBe(c.expectedRevision + 1)
      }
      // A retry of an acknowledged command answers its recorded outcome, not a second application.
      const firstCommand = all[0]
      if (firstCommand === undefined) throw new Error("no commands")
      const again = await send(second.client, firstCommand)
      expect(Exit.isSuccess(again) && again.value.revision).toBe(1)

      for (let i = 0; i < INSTANCES; i++) {
        const instanceId = `hero-${i}`
        const history = await Effect.runPromise(
          second.client.instances.history({ path: { instanceId }, urlParams: {} })
        )
        expect(history.events.map((e) => e.commandId), instanceId).toEqual([
          `${instanceId}-ember`,
          `${instanceId}-sharpen`
        ])
        const doc = await Effect.runPromise(second.client.instances.get({ path: { instanceId }, urlParams: {} }))
        expect(doc.ledger.entries.map((e) => e.upgradeId), instanceId).toEqual([
          "core.ember.affinity",
          "core.sharpened_strike"
        ])
        const replay = await Effect.runPromise(second.client.instances.replay({ path: { instanceId }, urlParams: {} }))
        expect(replay.matches, instanceId).toBe(true)
      }

      // The game resumes where it was, and plays on.
      const resumed = await acting(second.client, game.toAct)
      expect(resumed.step).toBe(game.step)
      expect(resumed.fingerprint).toBe(game.fingerprint)
      expect(resumed.legalActions).toEqual(game.legalActions)
      const next = resumed.legalActions[0]
      if (next !== undefined) {
        const moved = await Effect.runPromise(
          second.client.hhx.act({
            path: { gameId },
            headers: as(resumed.toAct),
            payload: { actionId: next.id, expectedStep: resumed.step }
          })
        )
        expect(moved.step).toBe(game.step + 1)
      }
      await killed(second.child)
    },
    90_000
  )
})
