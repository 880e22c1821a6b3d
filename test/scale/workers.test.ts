/**
 * Worker pools: the same bytes for any number of workers (through the built
 * bin), a worker crash is a diagnostic, not a hang.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { Cause, Effect, Exit } from "effect"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { runSimulation } from "../../src/workers/Runs.js"
import * as ScaleOut from "../../src/workers/ScaleOut.js"
import { engine } from "../hallyu/engine-fixtures.js"
import { writeTree } from "../support/tmp.js"

/** Runs the built bin (asynchronously: a blocked test worker misses vitest's own messages). */
const cardfx = (...args: Array<string>): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const child = execFile(process.execPath, ["dist/cli/cardfx.mjs", ...args], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024
    }, (_e, out, err) => resolve({ code: child.exitCode, out, err }))
  })

/**
 * The command's results for --workers 1, 2 and 3; all three must print the
 * same bytes. The three run at once: vitest runs one test file at a time on
 * 2 cores, and a run in process leaves the other core idle.
 */
const acrossWorkers = (...args: Array<string>) =>
  Promise.all([1, 2, 3].map((n) => cardfx(...args, "--workers", String(n))))

const starter = readFileSync("data/hallyu-hex/starter-deck.v0.json", "utf8")

/** 500 files in nested folders: decks (valid and broken), bad JSON, unknown documents, unknown file types. */
const generatedTree = (): string => {
  const files: Record<string, string> = {}
  const deck = JSON.parse(starter) as { cards: Array<Record<string, unknown>> }
  for (let i = 0; i < 500; i++) {
    const dir = `d${i % 7}/e${i % 3}`
    switch (i % 5) {
      case 0: {
        // A deck whose card i%N lost its cost: one schema diagnostic, with a file position.
        const cards = deck.cards.map((
          c,
          k
        ) => (k === i % deck.cards.length
          ? Object.fromEntries(Object.entries(c).filter(([key]) => key !== "cost"))
          : c)
        )
        files[`${dir}/deck-${i}.json`] = JSON.stringify({ ...deck, cards }, null, 1)
        break
      }
      case 1:
        files[`${dir}/broken-${i}.json`] = `{"cards": [${i},`
        break
      case 2:
        files[`${dir}/other-${i}.json`] = JSON.stringify({ something: i })
        break
      case 3:
        files[`${dir}/notes-${i}.txt`] = `note ${i}`
        break
      default:
        files[`${dir}/deck-${i}.json`] = starter
    }
  }
  return writeTree(files)
}

describe("the same result for any number of workers (built bin)", () => {
  it("simulate --games 2000 --seed 9: byte-identical JSON with --workers 1, 2 and 3", async () => {
    const runs = await acrossWorkers("simulate", "--games", "2000", "--seed", "9", "--format", "json")
    for (const r of runs) expect(r.code, r.err).toBe(0)
    // Not a TTY: no progress line.
    for (const r of runs) expect(r.err).toBe("")
    const summary = JSON.parse(runs[0]?.out ?? "") as { games: number; winsBySeat: Record<string, number> }
    expect(summary.games).toBe(2000)
    expect(Object.values(summary.winsBySeat).reduce((a, b) => a + b, 0)).toBe(2000)
    expect(runs[1]?.out).toBe(runs[0]?.out)
    expect(runs[2]?.out).toBe(runs[0]?.out)
  }, 300_000)

  it("simulate --stats --games 600 --seed 9: byte-identical JSON and CSV with --workers 1, 2 and 3", async () => {
    for (const format of ["json", "csv"]) {
      const runs = await acrossWorkers("simulate", "--games", "600", "--seed", "9", "--stats", "--format", format)
      for (const r of runs) expect(r.code, r.err).toBe(0)
      expect(runs[1]?.out).toBe(runs[0]?.out)
      expect(runs[2]?.out).toBe(runs[0]?.out)
      if (format === "json") {
        const report = JSON.parse(runs[0]?.out ?? "") as { games: number; seats: Array<{ count: number }> }
        expect(report.games).toBe(600)
        expect(report.seats.length).toBe(2)
      } else {
        expect(runs[0]?.out.split("\n")[0]).toBe("section,key,name,count,of,rate,low,high")
      }
    }
  }, 300_000)

  it("fuzz --runs 200: the same report with --workers 1, 2 and 3", async () => {
    const runs = await acrossWorkers(
      "fuzz",
      "--runs",
      "200",
      "--seed",
      "5",
      "--only",
      "composition.shapes",
      "--only",
      "hallyu.shapes",
      "--format",
      "json"
    )
    for (const r of runs) expect(r.code, r.err).toBe(0)
    const report = JSON.parse(runs[0]?.out ?? "") as {
      properties: Array<{ runs: number }>
      codes: Record<string, number>
    }
    expect(report.properties.map((p) => p.runs)).toEqual([200, 200])
    expect(Object.keys(report.codes).length).toBeGreaterThan(3)
    expect(runs[1]?.out).toBe(runs[0]?.out)
    expect(runs[2]?.out).toBe(runs[0]?.out)
  }, 300_000)

  it(
    "a fuzz failure found by a worker prints the replay command of one process, which replays in one process",
    async () => {
      // A real package declaring the bundle ID generated content uses for its second bundle: publication fails.
      const base = JSON.parse(readFileSync("data/heroscript.base/transformations.json", "utf8")) as {
        bundles: Array<{ bundleId: string }>
      }
      const colliding = { ...base, bundles: [...base.bundles, { ...base.bundles[0], bundleId: "fz.bundle1" }] }
      const files: Record<string, string> = { "transformations.json": JSON.stringify(colliding, null, 2) }
      for (const f of ["cards.json", "manifest.json", "sources.json", "statuses.json"]) {
        files[f] = readFileSync(
          `data/heroscript.base/${f}`,
          "utf8"
        )
      }
      const pkg = writeTree(files)
      const args = ["fuzz", "--runs", "40", "--only", "composition.catalog", "--package", pkg]
      const [one, two, three] = await acrossWorkers(...args)
      expect(one?.code).toBe(1)
      expect(one?.out).toContain("duplicate_id")
      expect(two?.out).toBe(one?.out)
      expect(three?.out).toBe(one?.out)
      const replay = /replay: cardfx (fuzz .*)$/m.exec(one?.out ?? "")?.[1]?.split(" ") ?? []
      expect(replay.slice(0, 5)).toEqual(["fuzz", "--seed", "42", "--only", "composition.catalog"])
      // The line names the content the run used, so it replays as printed.
      expect(replay.slice(-2)).toEqual(["--package", pkg])
      const again = await cardfx(...replay, "--workers", "1")
      // The replay finds the same minimal case, and prints the same path.
      const failure = (out: string) => ({
        counterexample: /minimal case after \d+ shrinks: (.*)$/m.exec(out)?.[1],
        path: /replay: cardfx fuzz .* --path (\S+)/m.exec(out)?.[1]
      })
      expect(again.code).toBe(1)
      expect(failure(one?.out ?? "").counterexample).toBeDefined()
      expect(failure(again.out)).toEqual(failure(one?.out ?? ""))
    },
    300_000
  )

  it("validate over a generated tree of 500 files: the same report with --workers 1, 2 and 3", async () => {
    const root = generatedTree()
    for (const format of ["json", "human"]) {
      const runs = await acrossWorkers("validate", root, "--format", format)
      for (const r of runs) expect(r.code, r.err).toBe(1)
      expect(runs[1]?.out).toBe(runs[0]?.out)
      expect(runs[2]?.out).toBe(runs[0]?.out)
      if (format === "json") {
        const report = JSON.parse(runs[0]?.out ?? "") as {
          files: number
          diagnostics: Array<{ code: string; file: string }>
        }
        expect(report.files).toBe(500)
        const codes = new Set(report.diagnostics.map((d) => d.code))
        for (const c of ["json_syntax", "unclassified_file", "missing_field"]) {
          expect(codes.has(c), [...codes].join(",")).toBe(true)
        }
      }
    }
  }, 300_000)
})

describe("worker failures", () => {
  it("a worker that dies mid-run fails the run with worker_failed (no hang)", async () => {
    const exit = await Effect.runPromiseExit(
      runSimulation({
        engine,
        deck: { json: starter, file: "starter.json" },
        // More games than this thread could play before the worker thread takes its first request.
        games: 1_000_000,
        seed: "9",
        workers: 2,
        workerEntry: new URL("./fixtures/crash-worker.mjs", import.meta.url)
      })
    )
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const failures = [...Cause.failures(exit.cause)]
      expect(failures.length).toBeGreaterThan(0)
      for (const f of failures) {
        expect(f.code).toBe("worker_failed")
        expect(f.message).toContain("exited with code 3")
      }
    }
  })

  it("a bad --workers is a usage error", async () => {
    const r = await cardfx("simulate", "--games", "3", "--workers", "0")
    expect(r.code).toBe(2)
    expect(r.err).toContain("--workers")
  })

  it(
    "ScaleOut (the embedding API): the same simulation summary and validation report for 1 and 2 workers",
    async () => {
      const root = generatedTree()
      const both = await Effect.runPromise(
        Effect.gen(function*() {
          const scale = yield* ScaleOut.ScaleOut
          // With every game's log: the logs come back in game order whichever thread played them.
          const sims = yield* Effect.forEach(
            [1, 2],
            (workers) =>
              scale.simulate({
                deck: "data/hallyu-hex/starter-deck.v0.json",
                games: 70,
                seed: "e",
                workers,
                logs: true
              })
          )
          const reports = yield* Effect.forEach([1, 2], (workers) => scale.validate([root], { workers }))
          const missing = yield* Effect.flip(
            scale.simulate({ deck: `${root}/nope.json`, games: 1, seed: 1, workers: 2 })
          )
          return { sims, reports, missing }
        }).pipe(Effect.provide(ScaleOut.layer), Effect.provide(NodeFileSystem.layer))
      )
      expect(both.sims[0]?.summary.games).toBe(70)
      expect(JSON.stringify(both.sims[1]?.summary)).toBe(JSON.stringify(both.sims[0]?.summary))
      expect(both.sims[1]?.logs.map((l) => l.seed)).toEqual(Array.from({ length: 70 }, (_, k) => `e/${k}`))
      expect(JSON.stringify(both.sims[1]?.logs)).toBe(JSON.stringify(both.sims[0]?.logs))
      expect(both.reports[0]?.files).toBe(500)
      expect(JSON.stringify(both.reports[1]?.diagnostics)).toBe(JSON.stringify(both.reports[0]?.diagnostics))
      expect(both.reports[1]?.documents).toEqual(both.reports[0]?.documents)
      expect(both.missing._tag).toBe("FileUnreadable")
    },
    120_000
  )
})
