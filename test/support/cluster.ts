/**
 * What the cluster suites share: throw-away PostgreSQL databases, free ports,
 * the built bin as child processes (each one's output kept, every one killed
 * after the file), polling with a deadline, and a dump of every child's
 * output tail when a test fails (a hang then says where it hung).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { afterAll, onTestFailed } from "vitest"
import { PG_URL } from "./pg.js"

export const BIN = "dist/cli/cardfx.mjs"

/** Runs SQL against a database of the server. */
export const sqlAt = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(SqlClient.SqlClient, f)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    )
  )

/** A TCP port nothing listens on now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a !== null ? a.port : 0))
    })
  })

/** A TCP port the test listens on (so it is in use) until `close`. */
export const holdPort = (): Promise<{ readonly port: number; readonly close: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      resolve({
        port: typeof a === "object" && a !== null ? a.port : 0,
        close: () => new Promise<void>((done) => s.close(() => done()))
      })
    })
  })

export interface Proc {
  readonly args: ReadonlyArray<string>
  readonly child: ChildProcess
  readonly out: () => string
  readonly err: () => string
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

/** Polls `f` every 20 ms until it returns a value (not undefined), at most `ms`. */
export const until = async <A>(
  what: () => string,
  ms: number,
  f: () => Promise<A | undefined> | A | undefined
): Promise<A> => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const a = await f()
    if (a !== undefined) return a
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`timed out waiting for ${what()}`)
}

export const alive = (pid: number | undefined): boolean => {
  if (pid === undefined) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const tail = (s: string, n: number): string => (s.length > n ? `…${s.slice(-n)}` : s)

/**
 * One file's cluster fixture: call at the top of a test file. Databases are
 * named `<prefix>_<pid>_<n>` and dropped after the file; children are killed
 * after the file; a failed test prints every child's command and output tail.
 */
export const clusterFixture = (prefix: string) => {
  const databases: Array<string> = []
  const procs: Array<Proc> = []
  const others: Array<ChildProcess> = []

  /** A new empty database; its URL. */
  const freshDatabase = async (): Promise<string> => {
    const name = `${prefix}_${process.pid}_${databases.length}`
    await sqlAt(
      PG_URL,
      (sql) =>
        sql.unsafe(`DROP DATABASE IF EXISTS ${name}`).pipe(Effect.zipRight(sql.unsafe(`CREATE DATABASE ${name}`)))
    )
    databases.push(name)
    const u = new globalThis.URL(PG_URL)
    u.pathname = `/${name}`
    return u.toString()
  }

  /** The built bin with `args`, its output kept. */
  const start = (args: ReadonlyArray<string>): Proc => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    child.stdout?.on("data", (d: Buffer) => void (out += d.toString()))
    child.stderr?.on("data", (d: Buffer) => void (err += d.toString()))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal }))
    )
    const proc = { args, child, out: () => out, err: () => err, exited }
    procs.push(proc)
    return proc
  }

  /** Another child process of the test's, killed after the file. */
  const adopt = (child: ChildProcess): ChildProcess => {
    others.push(child)
    return child
  }

  /** Registers the failure dump for the running test: call first in each test. */
  const dumpOnFailure = () =>
    onTestFailed(() => {
      for (const p of procs) {
        console.error(
          `--- cardfx ${p.args.join(" ")} (pid ${p.child.pid}, exit ${
            p.child.exitCode ?? p.child.signalCode ?? "running"
          })\n` +
            `stdout: ${tail(p.out(), 600)}\nstderr: ${tail(p.err(), 1500)}`
        )
      }
    })

  afterAll(async () => {
    for (const c of [...procs.map((p) => p.child), ...others]) if (alive(c.pid)) c.kill("SIGKILL")
    for (const name of databases) {
      await sqlAt(PG_URL, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined)
    }
  }, 30_000)

  return { freshDatabase, start, adopt, dumpOnFailure }
}
