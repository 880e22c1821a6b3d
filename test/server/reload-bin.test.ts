/**
 * Reload as one serialized operation, through the built bin
 * (`node dist/cli/cardfx.mjs serve`) on an ephemeral 127.0.0.1 port:
 *
 * - on PostgreSQL, 4 concurrent writers create instances of a card while
 *   reloads remove it, 20 rounds: a reload never switches to content that
 *   breaks a committed instance, and every write is answered — applied (and
 *   then covered by the check), or refused on the new content with
 *   `unknown_card`;
 * - a start on content that breaks stored instances is refused
 *   (`start_rejected`, exit 1, one stderr line naming them) on SQLite and
 *   PostgreSQL, and `--allow-broken` serves it, logging each one;
 * - `--watch` reloads on an in-place save, a rename over the file, a delete,
 *   a folder renamed over the package and a `git checkout` of it; never on
 *   a save of the same bytes; each rejected reload's line names the file or
 *   the broken instances.
 *
 * Every wait is bounded; every child is SIGKILLed after its test.
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { checkCommand } from "../../src/cli/ledger-check.js"
import { type CardfxClient, makeClient } from "../../src/client.js"
import { runCli } from "../support/cli.js"
import { BIN, killed } from "../support/served.js"
import { PACKAGE, PG_URL, pgUp } from "./support.js"

interface Card {
  readonly cardId: string
  readonly [k: string]: unknown
}

const BASE_CARDS = (JSON.parse(readFileSync(join(PACKAGE, "cards.json"), "utf8")) as { cards: Array<Card> }).cards
const attack = BASE_CARDS.find((c) => c.cardId === "basic_attack") as Card

/** A copy of the base package in a fresh temp folder. */
const freshPackage = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), "cardfx-reload-bin-")), "heroscript.base")
  cpSync(PACKAGE, dir, { recursive: true })
  return dir
}

interface Transformation {
  readonly eligibility: { readonly cardIds: ReadonlyArray<string> }
  readonly [k: string]: unknown
}
const BASE_CARDS_DOC = JSON.parse(readFileSync(join(PACKAGE, "cards.json"), "utf8")) as Record<string, unknown>
const BASE_TRANSFORMATIONS = JSON.parse(readFileSync(join(PACKAGE, "transformations.json"), "utf8")) as {
  transformations: Array<Transformation>
  readonly [k: string]: unknown
}

/**
 * The content of `dir`: the base cards plus copies of basic_attack named
 * `extra` (cards.json, written to `cardsFile` when given: a temp file to
 * rename over it), each eligible for the ember affinity
 * (transformations.json, written first when cards go, last when they come).
 */
const writeCards = (dir: string, extra: ReadonlyArray<string>, cardsFile = join(dir, "cards.json")) => {
  const transformations = {
    ...BASE_TRANSFORMATIONS,
    transformations: BASE_TRANSFORMATIONS.transformations.map((t, i) =>
      i === 0 ? { ...t, eligibility: { ...t.eligibility, cardIds: [...t.eligibility.cardIds, ...extra] } } : t
    )
  }
  const cards = { ...BASE_CARDS_DOC, cards: [...BASE_CARDS, ...extra.map((cardId) => ({ ...attack, cardId }))] }
  const file = join(dir, "transformations.json")
  const before = (JSON.parse(readFileSync(file, "utf8")) as { transformations: Array<Transformation> }).transformations
  const shrinking =
    (before[0]?.eligibility.cardIds.length ?? 0) > (transformations.transformations[0]?.eligibility.cardIds.length ?? 0)
  if (shrinking) writeFileSync(file, JSON.stringify(transformations, null, 2))
  writeFileSync(cardsFile, JSON.stringify(cards, null, 2))
  if (!shrinking) writeFileSync(file, JSON.stringify(transformations, null, 2))
}

// ---------------------------------------------------------------- the bin

interface Bin {
  readonly child: ChildProcess
  readonly url: string
  readonly client: CardfxClient
  /** Every JSON line the server printed on stdout so far. */
  readonly lines: Array<Record<string, unknown>>
  /** Resolves with the first line (from index `from`) matching, within `ms`. */
  readonly waitFor: (
    match: (l: Record<string, unknown>) => boolean,
    from?: number,
    ms?: number
  ) => Promise<Record<string, unknown>>
}

const children: Array<ChildProcess> = []
afterEach(async () => {
  await Promise.all(children.splice(0).map(killed))
})

/** Runs `cardfx serve ARGS...` and resolves when it exits (code, stderr) or listens (the bin). */
const start = (
  args: ReadonlyArray<string>
): Promise<{ readonly bin?: Bin; readonly code?: number; readonly stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args, "--host", "127.0.0.1", "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.push(child)
    let stderr = ""
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString()
    })
    const lines: Array<Record<string, unknown>> = []
    const waiters = new Set<() => void>()
    const timer = setTimeout(() => reject(new Error(`serve did not start in 20 s; stderr: ${stderr}`)), 20_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      // a start failure: stderr is complete once the pipe closes
      child.stderr?.once("close", () => resolve({ code: code ?? -1, stderr }))
      if (child.stderr?.closed === true) resolve({ code: code ?? -1, stderr })
    })
    const waitFor: Bin["waitFor"] = (match, from = 0, ms = 8_000) =>
      new Promise((res, rej) => {
        const check = () => {
          const hit = lines.slice(from).find(match)
          if (hit === undefined) return false
          waiters.delete(check)
          clearTimeout(t)
          res(hit)
          return true
        }
        const t = setTimeout(() => {
          waiters.delete(check)
          rej(new Error(`no matching log line in ${ms} ms; lines: ${JSON.stringify(lines.slice(from))}`))
        }, ms)
        if (!check()) waiters.add(check)
      })
    createInterface({ input: child.stdout ?? process.stdin }).on("line", (text) => {
      let line: Record<string, unknown>
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>
        // a log line's annotations beside its message
        const annotations = typeof parsed["annotations"] === "object" && parsed["annotations"] !== null
          ? parsed["annotations"]
          : {}
        line = { ...parsed, ...annotations }
      } catch {
        return
      }
      lines.push(line)
      for (const w of [...waiters]) w()
      if (line["event"] === "listening" && typeof line["url"] === "string") {
        clearTimeout(timer)
        const url = line["url"]
        void Effect.runPromise(makeClient(url).pipe(Effect.provide(FetchHttpClient.layer))).then((client) =>
          resolve({ bin: { child, url, client, lines, waitFor }, stderr })
        )
      }
    })
  })

const serving = async (args: ReadonlyArray<string>): Promise<Bin> => {
  const r = await start(args)
  if (r.bin === undefined) throw new Error(`serve exited ${r.code}: ${r.stderr}`)
  return r.bin
}

const ember = { kind: "apply", upgradeId: "core.ember.affinity" } as const

const create = (client: CardfxClient, instanceId: string, cardId: string) =>
  Effect.runPromiseExit(
    client.instances.command({
      path: { instanceId },
      payload: { commandId: `${instanceId}-c`, cardId, expectedRevision: 0, command: ember }
    })
  )

/** The API error code of a failed exit (undefined for a success or a non-API failure). */
const codeOf = (exit: Exit.Exit<unknown, unknown>): string | undefined => {
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail") return undefined
  const e: unknown = exit.cause.error
  return typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined
}

// ---------------------------------------------------------------- PostgreSQL databases

const pgAdmin = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.scoped,
      Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL) }))
    )
  )
const databases: Array<string> = []
/** A throw-away database (the bin takes a URL, no table prefix). */
const pgDatabase = async (): Promise<string> => {
  const name = `cardfx_reload_${process.pid}_${databases.length}`
  await pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await pgAdmin(`CREATE DATABASE ${name}`)
  databases.push(name)
  const u = new URL(PG_URL)
  u.pathname = `/${name}`
  return u.toString()
}
afterAll(async () => {
  for (const name of databases) await pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
})

const sqliteStore = () => join(mkdtempSync(join(tmpdir(), "cardfx-reload-bin-")), "ledger.db")

// ---------------------------------------------------------------- the race

describe.skipIf(!pgUp)("reload raced by 4 writers on PostgreSQL", () => {
  it("never switches to content that breaks a committed instance; every write is answered (20 rounds)", async () => {
    const pkg = freshPackage()
    const store = await pgDatabase()
    const s = await serving(["--package", pkg, "--store", store, "--log-level", "none"])
    const ROUNDS = 20
    // Victims of rejected reloads keep their card (their instances need it); the others go.
    const kept: Array<string> = []
    let switched = 0
    let refusedAfterSwitch = 0
    for (let round = 0; round < ROUNDS; round++) {
      const victim = `victim_${round}`
      writeCards(pkg, [...kept, victim])
      const added = await Effect.runPromise(s.client.admin.reload())
      expect(added.switched).toBe(true)

      // 4 writers: two create instances of a card that stays, from before the reload; two create instances of the
      // victim, starting at a different point of the reload each round (at once, or up to 60 ms after it was sent).
      let reloaded = false
      const outcomes: Array<
        { readonly instanceId: string; readonly cardId: string; readonly code: string | undefined }
      > = []
      const writer = async (w: number, cardId: string, delay: number) => {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay))
        for (let i = 0, after = 0; i < 60 && after < 3; i++) {
          if (reloaded) after++
          const instanceId = `r${round}-${w}-${i}`
          const exit = await create(s.client, instanceId, cardId)
          outcomes.push({ instanceId, cardId, code: Exit.isSuccess(exit) ? "applied" : codeOf(exit) })
        }
      }
      const stable = [writer(0, "basic_attack", 0), writer(1, "basic_attack", 0)]
      writeCards(pkg, kept)
      const reload = Effect.runPromiseExit(s.client.admin.reload())
      const delay = [0, 5, 15, 30, 60][round % 5] ?? 0
      const victims = [writer(2, victim, delay), writer(3, victim, delay + 2)]
      const exit = await reload
      reloaded = true
      await Promise.all([...stable, ...victims])

      // Every write was answered: the stable card's applied; the victim's applied, or refused on the new content.
      for (const o of outcomes) {
        expect(o.cardId === victim ? ["applied", "unknown_card"] : ["applied"], o.instanceId).toContain(o.code)
      }
      const applied = new Set(
        outcomes.filter((o) => o.cardId === victim && o.code === "applied").map((o) => o.instanceId)
      )
      if (Exit.isSuccess(exit)) {
        // Switched: no instance of the removed card was committed; its writes waited and were refused.
        switched++
        expect(exit.value.switched).toBe(true)
        expect([...applied], `round ${round}: committed instances of a removed card`).toEqual([])
        refusedAfterSwitch += outcomes.filter((o) => o.code === "unknown_card").length
        expect((await Effect.runPromise(s.client.runtime.runtime())).cards).not.toContain(victim)
      } else {
        // Rejected: it names instances of the victim, each one a committed write; the old runtime is kept.
        expect(codeOf(exit)).toBe("reload_rejected")
        const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
        const named = (failure !== undefined && "diagnostics" in failure ? failure.diagnostics : []).slice(1)
        expect(named.length).toBeGreaterThan(0)
        for (const d of named) {
          expect(d.code).toBe("unknown_card")
          expect(applied.has(d.subject ?? ""), `${d.subject} named but not committed`).toBe(true)
        }
        kept.push(victim)
        writeCards(pkg, kept)
        expect((await Effect.runPromise(s.client.runtime.runtime())).cards).toContain(victim)
      }
    }
    // The content served composes every committed instance: a reload of it switches, and the offline check of
    // the store agrees. (Which way each round goes is the race's; the invariants above hold either way.)
    console.info(
      `reload race: ${switched} of ${ROUNDS} rounds switched; ${refusedAfterSwitch} writes refused after a switch`
    )
    const again = await Effect.runPromise(s.client.admin.reload())
    expect(again.broken).toEqual([])
    expect(again.switched).toBe(true)
    const offline = await runCli(checkCommand, "--package", pkg, "--store", store, "--format", "json")
    expect(offline.code).toBe(0)
  }, 90_000)
})

// ---------------------------------------------------------------- start-up

const stores = [["SQLite", async () => sqliteStore()], ["PostgreSQL", pgDatabase]] as const

describe.each(stores)("a start on %s", (kind, makeStore) => {
  it.skipIf(kind === "PostgreSQL" && !pgUp)(
    "refuses content that breaks stored instances (start_rejected, naming them); --allow-broken serves it and logs them",
    async () => {
      const pkg = freshPackage()
      const store = await makeStore()
      writeCards(pkg, ["doomed"])
      const first = await serving(["--package", pkg, "--store", store, "--log-level", "none"])
      for (const id of ["hero-1", "hero-2"]) expect(Exit.isSuccess(await create(first.client, id, "doomed"))).toBe(true)
      await killed(first.child)

      // The content changes while the server is down.
      writeCards(pkg, [])
      const refused = await start(["--package", pkg, "--store", store, "--log-level", "none"])
      expect(refused.bin).toBeUndefined()
      expect(refused.code).toBe(1)
      const lines = refused.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^cardfx serve: start_rejected the content would break 2 stored instance\(s\): /)
      expect(lines[0]).toContain("main/hero-1 (doomed: unknown_card), main/hero-2 (doomed: unknown_card)")

      const served = await serving(["--package", pkg, "--store", store, "--allow-broken", "--log-level", "warning"])
      const warned = served.lines.filter((l) => l["message"] === "broken instance served (--allow-broken)")
      expect(warned.map((l) => [l["instanceId"], l["cardId"], l["code"]])).toEqual([
        ["hero-1", "doomed", "unknown_card"],
        ["hero-2", "doomed", "unknown_card"]
      ])
      expect((await Effect.runPromise(served.client.runtime.runtime())).cards).not.toContain("doomed")
    },
    60_000
  )
})

// ---------------------------------------------------------------- --watch

const reloadLine = (l: Record<string, unknown>) => l["message"] === "reload" || l["message"] === "reload rejected"

describe("cardfx serve --watch", () => {
  it(
    "reloads on in-place saves, renames, deletes and a replaced folder; never on the same bytes; names what failed",
    async () => {
      const root = mkdtempSync(join(tmpdir(), "cardfx-watch-"))
      const pkg = join(root, "pkg")
      cpSync(PACKAGE, pkg, { recursive: true })
      const cards = join(pkg, "cards.json")
      writeCards(pkg, [])
      const s = await serving(["--package", pkg, "--store", sqliteStore(), "--watch", "--log-level", "info"])
      const runtime = async () => Effect.runPromise(s.client.runtime.runtime())
      const reloadAfter = async (change: () => void) => {
        const from = s.lines.length
        change()
        const line = await s.waitFor(reloadLine, from)
        return { line, from }
      }

      // In place.
      let r = await reloadAfter(() => writeCards(pkg, ["in_place"]))
      expect(r.line).toMatchObject({
        message: "reload",
        switched: true,
        files: `${cards} ${join(pkg, "transformations.json")}`
      })
      expect((await runtime()).cards).toContain("in_place")

      // The same bytes again: nothing; then a rename over the file (write a temp file, rename it): one reload.
      const from = s.lines.length
      writeFileSync(cards, readFileSync(cards))
      await new Promise((res) => setTimeout(res, 400))
      r = await reloadAfter(() => {
        writeCards(pkg, ["renamed"], `${cards}.tmp`)
        renameSync(`${cards}.tmp`, cards)
      })
      expect(s.lines.slice(from).filter(reloadLine)).toEqual([r.line])
      expect(r.line).toMatchObject({ message: "reload", switched: true })
      expect((await runtime()).cards).toContain("renamed")

      // A new file, then its delete.
      const extra = join(pkg, "extra.json")
      r = await reloadAfter(() =>
        writeFileSync(extra, JSON.stringify({ cards: [{ ...attack, cardId: "extra_card" }] }))
      )
      expect((await runtime()).cards).toContain("extra_card")
      r = await reloadAfter(() => unlinkSync(extra))
      expect(r.line).toMatchObject({ message: "reload", switched: true })
      expect((await runtime()).cards).not.toContain("extra_card")

      // A content error: the line names the file.
      r = await reloadAfter(() => writeFileSync(join(pkg, "statuses.json"), "{ not json"))
      expect(r.line["message"]).toBe("reload rejected")
      expect(String(r.line["file"])).toContain("statuses.json")
      writeFileSync(join(pkg, "statuses.json"), readFileSync(join(PACKAGE, "statuses.json")))
      await s.waitFor((l) => l["message"] === "reload" && l["switched"] === true, r.from + 1)

      // Broken instances: the line names them.
      expect(Exit.isSuccess(await create(s.client, "hero-9", "renamed"))).toBe(true)
      r = await reloadAfter(() => writeCards(pkg, []))
      expect(r.line).toMatchObject({ message: "reload rejected", code: "reload_rejected" })
      expect(r.line["instances"]).toBe("main/hero-9 (renamed: unknown_card)")
      expect((await runtime()).cards).toContain("renamed")

      // The whole folder replaced by a rename (a new folder moved over the old one's name).
      const next = join(root, "pkg.next")
      cpSync(pkg, next, { recursive: true })
      writeCards(next, ["renamed", "folder_swap"])
      r = await reloadAfter(() => {
        renameSync(pkg, join(root, "pkg.old"))
        renameSync(next, pkg)
      })
      expect(r.line).toMatchObject({ message: "reload", switched: true })
      expect((await runtime()).cards).toContain("folder_swap")
      // ... and the new folder is watched: an in-place save there is seen.
      r = await reloadAfter(() => writeCards(pkg, ["renamed", "after_swap"]))
      expect((await runtime()).cards).toContain("after_swap")

      // A git checkout of the folder: every file rewritten by git at once.
      const git = (...args: Array<string>) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "pipe" })
      git("init", "-q", "-b", "one")
      git("add", "pkg")
      git("commit", "-qm", "one")
      git("checkout", "-qb", "two")
      r = await reloadAfter(() => writeCards(pkg, ["renamed", "from_git"]))
      git("commit", "-qam", "two")
      r = await reloadAfter(() => git("checkout", "-q", "one"))
      expect(r.line).toMatchObject({ message: "reload", switched: true })
      expect((await runtime()).cards).toContain("after_swap")
      expect((await runtime()).cards).not.toContain("from_git")
      r = await reloadAfter(() => git("checkout", "-q", "two"))
      expect((await runtime()).cards).toContain("from_git")
      rmSync(join(root, "pkg.old"), { recursive: true, force: true })
    },
    60_000
  )
})
