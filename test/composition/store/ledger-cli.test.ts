/**
 * `cardfx ledger` through the built bin (`node dist/cli/cardfx.mjs`): retries
 * (a re-run is a retry, also after the process died between commit and
 * output, and prints the same bytes), reads that do not create a store,
 * stores that cannot be opened, IDs at the edge, damaged pages, `verify`,
 * and writes interrupted by SIGINT/SIGTERM.
 */
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import { closeSync, existsSync, openSync, readSync, statSync, writeFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "./support.js"

const BIN = join(process.cwd(), "dist/cli/cardfx.mjs")
const PKG = join(process.cwd(), "data/heroscript.base")
const tmp = tempDir("ledger-cli")
afterAll(() => tmp.cleanup())

interface Run {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly out: string
  readonly err: string
  readonly ms: number
}

/** Runs the bin; `onSpawn` may act on the child (signals, closing its stdout). */
const cardfx = (
  args: ReadonlyArray<string>,
  opts: { onSpawn?: (child: ReturnType<typeof spawn>) => void; cwd?: string } = {}
) =>
  new Promise<Run>((resolve) => {
    const t0 = Date.now()
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? tmp.dir,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.stderr.on("data", (d: Buffer) => (err += d.toString()))
    child.stdout.on("error", () => undefined)
    // A guard, not a timing assertion: a process that would spin (mkdir on /proc) or ignore a signal is
    // killed here, and its result (signal SIGKILL, no exit code) fails the test that expected an exit.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, out, err, ms: Date.now() - t0 })
    })
    opts.onSpawn?.(child)
  })

/** The command line of `ledger apply core.sharpened_strike` on `basic_attack` in `store`, then `extra`. */
const applyArgs = (store: string, ...extra: ReadonlyArray<string>): Array<string> => [
  "ledger",
  "apply",
  "core.sharpened_strike",
  "--package",
  PKG,
  "--card",
  "basic_attack",
  "--store",
  store,
  ...extra
]

const apply = (store: string, ...extra: ReadonlyArray<string>) => cardfx(applyArgs(store, ...extra))

const rows = (file: string, sql: string): Array<Record<string, unknown>> => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(sql).all() as Array<Record<string, unknown>>
  } finally {
    db.close()
  }
}

describe("retries", () => {
  it("re-running an identical apply after its commit is a retry: nothing applied twice, byte-identical JSON", async () => {
    const store = join(tmp.dir, "retry.db")
    const first = await apply(store, "--format", "json")
    expect(first.code, first.err).toBe(0)
    const second = await apply(store, "--format", "json")
    expect(second.code).toBe(0)
    expect(second.out).toBe(first.out)
    expect(JSON.parse(first.out)).toMatchObject({ status: "applied", revision: 1 })
    expect(rows(store, "SELECT command_id FROM events")).toHaveLength(1)
    // human format: the same words both times
    const h1 = await apply(store)
    expect(h1.out).toMatch(/^applied: cli-/)
    expect((await apply(store)).out).toBe(h1.out)
  })

  it("an explicit --command-id without --expected-revision can be retried (not command_conflict)", async () => {
    const store = join(tmp.dir, "explicit.db")
    const first = await apply(store, "--command-id", "my-cmd-1", "--format", "json")
    expect(first.code, first.err).toBe(0)
    const second = await apply(store, "--command-id", "my-cmd-1", "--format", "json")
    expect(second.code, second.out).toBe(0)
    expect(second.out).toBe(first.out)
    // with --expected-revision stated, the request differs: the same ID is a conflict
    const other = await apply(store, "--command-id", "my-cmd-1", "--expected-revision", "1", "--format", "json")
    expect(other.code).toBe(1)
    expect(other.out).toContain("command_conflict")
    expect(rows(store, "SELECT command_id FROM events")).toHaveLength(1)
  })

  it("the process dies between commit and output (its stdout is gone): the re-run prints the first outcome", async () => {
    const store = join(tmp.dir, "died.db")
    // Closing our end of its stdout pipe: the commit happens, the answer cannot be written.
    const died = await cardfx(
      applyArgs(store, "--format", "json"),
      { onSpawn: (c) => c.stdout?.destroy() }
    )
    expect(died.out).toBe("")
    expect(rows(store, "SELECT command_id FROM events")).toHaveLength(1)
    const rerun = await apply(store, "--format", "json")
    expect(rerun.code).toBe(0)
    expect(JSON.parse(rerun.out)).toMatchObject({ status: "applied", revision: 1, sequence: 1 })
    expect((await apply(store, "--format", "json")).out).toBe(rerun.out)
    expect(rows(store, "SELECT command_id FROM events")).toHaveLength(1)
  })

  it("SIGKILL as soon as the commit is visible: the re-run applies nothing twice", async () => {
    const store = join(tmp.dir, "killed.db")
    const killed = await cardfx(
      applyArgs(store, "--format", "json"),
      {
        onSpawn: (c) => {
          const poll = setInterval(() => {
            if (!existsSync(store)) return
            try {
              if (rows(store, "SELECT 1 FROM commands").length > 0) {
                clearInterval(poll)
                c.kill("SIGKILL")
              }
            } catch {
              // the schema is not there yet
            }
          }, 2)
          c.on("close", () => clearInterval(poll))
        }
      }
    )
    expect(killed.code === 0 || killed.signal === "SIGKILL").toBe(true)
    const rerun = await apply(store, "--format", "json")
    expect(rerun.code).toBe(0)
    expect(JSON.parse(rerun.out)).toMatchObject({ status: "applied", revision: 1 })
    expect(rows(store, "SELECT command_id FROM events")).toHaveLength(1)
  })
})

describe("reads do not create; stores that cannot be opened", () => {
  it.each([
    ["show", "--card", "basic_attack"],
    ["history", "--card", "basic_attack"],
    ["replay"],
    ["verify"],
    ["branch"]
  ])("ledger %s on a store path that does not exist is store_not_found, exit 1, nothing created", async (...args) => {
    const store = join(tmp.dir, "typo", "ledgr.db")
    const r = await cardfx(["ledger", ...args, "--store", store])
    expect(r.code).toBe(1)
    expect(r.out + r.err).toContain("store_not_found")
    expect(r.out + r.err).toContain(store)
    expect(existsSync(join(tmp.dir, "typo"))).toBe(false)
  })

  it("ledger show --store /proc/cardfx/ledger.db ends promptly: store_not_found", async () => {
    const r = await cardfx(["ledger", "show", "--card", "basic_attack", "--store", "/proc/cardfx/ledger.db"])
    expect([r.code, r.signal]).toEqual([1, null])
    expect(r.out + r.err).toContain("store_not_found")
  })

  it("a write to a store whose folder cannot be created is store_unavailable naming the path, exit 1 (no spin on mkdir)", async () => {
    const r = await apply("/proc/cardfx/ledger.db")
    expect([r.code, r.signal]).toEqual([1, null])
    expect(r.out + r.err).toContain("store_unavailable")
    expect(r.out + r.err).toContain("/proc/cardfx/ledger.db")
    writeFileSync(join(tmp.dir, "a-file"), "x")
    const under = await apply(join(tmp.dir, "a-file", "ledger.db"), "--format", "json")
    expect(under.code).toBe(1)
    expect(JSON.parse(under.out).diagnostics[0]).toMatchObject({ code: "store_unavailable" })
  })
})

describe("words and codes", () => {
  it("ledger remove prints removed:, not applied:; branching past the end is fork_out_of_range", async () => {
    const store = join(tmp.dir, "words.db")
    expect((await apply(store)).code).toBe(0)
    const removed = await cardfx([
      "ledger",
      "remove",
      "e1",
      "--package",
      PKG,
      "--card",
      "basic_attack",
      "--store",
      store
    ])
    expect(removed.code, removed.out).toBe(0)
    expect(removed.out).toMatch(/^removed: /)
    expect(removed.out).not.toContain("applied")
    const past = await cardfx(["ledger", "branch", "what-if", "--at", "99", "--store", store, "--format", "json"])
    expect(past.code).toBe(1)
    expect(JSON.parse(past.out).diagnostics[0]).toMatchObject({ code: "fork_out_of_range" })
    expect(rows(store, "SELECT name FROM branches")).toHaveLength(0)
  })
})

describe("IDs at the edge", () => {
  it.each([
    ["an empty --command-id", ["--command-id", ""]],
    ["a 129-character --command-id", ["--command-id", "c".repeat(129)]],
    ["a --command-id with a space", ["--command-id", "a b"]],
    ["a 10,000-character --instance", ["--instance", "i".repeat(10_000)]],
    ["a --branch outside the syntax", ["--branch", "-x"]]
  ])("%s is invalid_id, exit 1, nothing written", async (_, extra) => {
    const store = join(tmp.dir, "ids.db")
    const r = await apply(store, ...extra, "--format", "json")
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out).diagnostics[0]).toMatchObject({ code: "invalid_id" })
    expect(existsSync(store) ? rows(store, "SELECT 1 FROM commands") : []).toHaveLength(0)
  })

  it("a request with several invalid IDs reports every one (JSON and human), exit 1, nothing written", async () => {
    const store = join(tmp.dir, "ids-all.db")
    const bad = ["--command-id", "a b", "--instance", "-i", "--branch", "-b"]
    const r = await apply(store, ...bad, "--format", "json")
    expect(r.code).toBe(1)
    const { diagnostics } = JSON.parse(r.out) as { diagnostics: Array<{ code: string; path: string }> }
    expect(diagnostics.map((d) => [d.code, d.path]).sort()).toEqual([
      ["invalid_id", "/branch"],
      ["invalid_id", "/commandId"],
      ["invalid_id", "/instanceId"]
    ])
    const human = await apply(store, ...bad)
    expect(human.code).toBe(1)
    for (const at of ["/commandId", "/branch", "/instanceId"]) expect(human.err).toContain(`(at ${at})`)
    expect(human.err.split("\n").filter((l) => l.includes("invalid_id"))).toHaveLength(3)
    expect(existsSync(store) ? rows(store, "SELECT 1 FROM commands") : []).toHaveLength(0)
  })

  it("128 characters are accepted", async () => {
    const r = await apply(join(tmp.dir, "ids-ok.db"), "--command-id", "c".repeat(128), "--instance", "i".repeat(128))
    expect(r.code, r.out).toBe(0)
  })

  it("a branch name outside the syntax is invalid_id", async () => {
    const store = join(tmp.dir, "ids.db")
    expect((await apply(store)).code).toBe(0)
    const r = await cardfx(["ledger", "branch", "b".repeat(129), "--store", store, "--format", "json"])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out).diagnostics[0]).toMatchObject({ code: "invalid_id" })
  })
})

describe("damaged pages and ledger verify", () => {
  it("verify reports ok (exit 0); a damaged page fails verify (exit 1) and is refused for writes (store_corrupt)", async () => {
    const store = join(tmp.dir, "corrupt.db")
    for (const card of ["basic_attack", "c2", "c3", "c4"]) expect((await apply(store, "--instance", card)).code).toBe(0)
    const ok = await cardfx(["ledger", "verify", "--store", store, "--format", "json"])
    expect(ok.code, ok.out).toBe(0)
    expect(JSON.parse(ok.out)).toMatchObject({ ok: true, dialect: "sqlite" })
    // checkpoint the WAL into the file, then overwrite the middle of the last page (a table or index b-tree page)
    const db = new Database(store)
    db.pragma("wal_checkpoint(TRUNCATE)")
    const pageSize = Number(db.pragma("page_size", { simple: true }))
    db.close()
    const size = statSync(store).size
    const fd = openSync(store, "r+")
    const at = size - pageSize + 8
    const garbage = Buffer.alloc(64, 0xa5)
    writeSync(fd, garbage, 0, garbage.length, at)
    const check = Buffer.alloc(64)
    readSync(fd, check, 0, 64, at)
    closeSync(fd)
    expect(check.equals(garbage)).toBe(true)
    const bad = await cardfx(["ledger", "verify", "--store", store, "--format", "json"])
    expect(bad.code).toBe(1)
    const report = JSON.parse(bad.out) as { ok?: boolean; diagnostics?: Array<{ code: string }> }
    if (report.diagnostics !== undefined) expect(report.diagnostics[0]?.code).toBe("store_corrupt")
    else expect(report.ok).toBe(false)
    const before = statSync(store).size
    const refused = await apply(store, "--instance", "c5", "--format", "json")
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.out).diagnostics[0]).toMatchObject({ code: "store_corrupt" })
    expect(statSync(store).size).toBe(before)
  })

  it("a read that meets a damaged page at run time is store_corrupt too (no file named, `ledger verify` named)", async () => {
    const store = join(tmp.dir, "corrupt-read.db")
    expect((await apply(store, "--instance", "basic_attack")).code).toBe(0)
    // Damage the events table's root page: a reader does not check the pages when it opens, its read meets them.
    const db = new Database(store)
    db.pragma("wal_checkpoint(TRUNCATE)")
    const pageSize = Number(db.pragma("page_size", { simple: true }))
    const root = Number(db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'events'").pluck().get())
    db.close()
    const fd = openSync(store, "r+")
    writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, (root - 1) * pageSize + 8)
    closeSync(fd)
    const r = await cardfx(["ledger", "history", "--card", "basic_attack", "--store", store, "--format", "json"])
    expect(r.code).toBe(1)
    const first = (JSON.parse(r.out) as { diagnostics: Array<{ code: string; message: string }> }).diagnostics[0]
    expect(first?.code).toBe("store_corrupt")
    expect(first?.message).toContain("run `cardfx ledger verify`")
    expect(first?.message).not.toContain("corrupt-read")
  })
})

describe("signals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "a ledger write interrupted by %s ends promptly and leaves all or nothing",
    async (signal) => {
      const store = join(tmp.dir, `signal-${signal}.db`)
      expect((await apply(store, "--instance", "warm")).code).toBe(0)
      // Several delays: the signal lands before, during or after the write transaction.
      for (const delay of [150, 350, 550, 750]) {
        const r = await cardfx(
          [
            "ledger",
            "apply",
            "core.sharpened_strike",
            "--package",
            PKG,
            "--card",
            "basic_attack",
            "--instance",
            `s${delay}`,
            "--store",
            store
          ],
          { onSpawn: (c) => void setTimeout(() => c.kill(signal), delay) }
        )
        // it ended by itself after the signal (the 30 s guard did not have to kill it), never as a defect
        expect(r.signal === "SIGKILL").toBe(false)
        expect(r.code === 70).toBe(false)
        expect(r.out + r.err).not.toMatch(/\n\s+at /)
        const events = rows(store, `SELECT revision FROM events WHERE instance_id = 's${delay}'`)
        const snapshots = rows(store, `SELECT revision FROM snapshots WHERE instance_id = 's${delay}'`)
        const commands = rows(
          store,
          `SELECT outcome FROM commands WHERE command_id IN (SELECT command_id FROM events WHERE instance_id = 's${delay}')`
        )
        expect(events.length).toBeLessThanOrEqual(1)
        expect(snapshots.length).toBe(events.length)
        expect(commands.length).toBe(events.length)
        if (r.code === 0) expect(events.length).toBe(1)
      }
      expect(rows(store, "PRAGMA integrity_check")[0]).toEqual({ integrity_check: "ok" })
    }
  )
})
