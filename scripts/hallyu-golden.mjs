#!/usr/bin/env node
/**
 * Golden outputs of the Hallyu Hex engine, recorded from the built bin.
 *
 * `node scripts/hallyu-golden.mjs` runs `cardfx simulate` (three seeds of the
 * starter deck, one with `--log`, and the rule-paths test deck, logged) and
 * `cardfx replay` of the first log with `dist/cli/cardfx.mjs`
 * and writes test/hallyu/fixtures/golden.json: each run's arguments, its
 * stdout (summaries verbatim, long outputs as sha256) and the sha256 of the
 * log file. test/hallyu/engine-golden.test.ts replays the same arguments
 * through the in-process CLI (today's src) and demands the same bytes, so a
 * refactor of the engine that changes any game, fingerprint or count fails.
 *
 * Regenerate only when a change of outputs is intended, in its own commit
 * saying why. `--check` compares instead of writing (exit 1 on a difference).
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const fixture = join(root, "test/hallyu/fixtures/golden.json")
const sha256 = (s) => createHash("sha256").update(s).digest("hex")

/** The runs; `{log}` is a temporary log file shared by the runs in order. */
export const runs = [
  {
    name: "simulate seed 1 × 2000",
    args: ["simulate", "--games", "2000", "--seed", "1", "--format", "json"],
    keep: "stdout"
  },
  {
    name: "simulate seed golden × 500",
    args: ["simulate", "--games", "500", "--seed", "golden", "--format", "json"],
    keep: "stdout"
  },
  {
    name: "simulate seed 7 × 300, logged",
    args: ["simulate", "--games", "300", "--seed", "7", "--format", "json", "--log", "{log}"],
    keep: "stdout",
    log: true
  },
  { name: "replay of the seed 7 log", args: ["replay", "{log}", "--format", "json"], keep: "sha256" },
  {
    name: "simulate the rule-paths deck, seed 3 × 300, logged",
    args: [
      "simulate",
      "--deck",
      "test/hallyu/fixtures/rule-paths.deck.json",
      "--games",
      "300",
      "--seed",
      "3",
      "--format",
      "json",
      "--log",
      "{log}"
    ],
    keep: "stdout",
    log: true
  }
]

const record = () => {
  const dir = mkdtempSync(join(tmpdir(), "hhx-golden-"))
  const logFile = join(dir, "games.json")
  try {
    return runs.map((r) => {
      const args = r.args.map((a) => (a === "{log}" ? logFile : a))
      const out = execFileSync(process.execPath, [join(root, "dist/cli/cardfx.mjs"), ...args], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 1 << 28
      }).replace(/\n$/, "")
      return {
        name: r.name,
        args: r.args,
        ...(r.keep === "stdout" ? { stdout: out } : { stdoutSha256: sha256(out) }),
        ...(r.log === true ? { logSha256: sha256(readFileSync(logFile)) } : {})
      }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const got = JSON.stringify(record(), null, 2) + "\n"
  if (process.argv.includes("--check")) {
    const want = readFileSync(fixture, "utf8")
    if (got !== want) {
      process.stderr.write("hallyu-golden: outputs differ from test/hallyu/fixtures/golden.json\n")
      process.exit(1)
    }
    process.stdout.write("hallyu-golden: identical\n")
  } else {
    writeFileSync(fixture, got)
    process.stdout.write(`hallyu-golden: wrote ${fixture}\n`)
  }
}
