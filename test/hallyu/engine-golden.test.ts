/**
 * The engine's outputs are byte-identical to the goldens recorded from the
 * built bin by scripts/hallyu-golden.mjs (simulate summaries of three seeds,
 * the sha256 of a 300-game log with a fingerprint after every step, and the
 * replay of that log). Any change to a game, a fingerprint or a count fails
 * here; an intended change regenerates the fixture in its own commit.
 */
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { replayCommand, simulateCommand } from "../../src/cli/hhx.js"
import { runCli } from "../support/cli.js"

interface GoldenRun {
  readonly name: string
  readonly args: ReadonlyArray<string>
  readonly stdout?: string
  readonly stdoutSha256?: string
  readonly logSha256?: string
}

const golden = JSON.parse(readFileSync("test/hallyu/fixtures/golden.json", "utf8")) as ReadonlyArray<GoldenRun>
const sha256 = (s: string | Uint8Array): string => createHash("sha256").update(s).digest("hex")

describe("Hallyu Hex goldens", () => {
  it("simulate and replay print the recorded bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hhx-golden-"))
    try {
      const logFile = join(dir, "games.json")
      for (const g of golden) {
        const [command, ...rest] = g.args
        const args = rest.map((a) => (a === "{log}" ? logFile : a))
        const r = await runCli(command === "replay" ? replayCommand : simulateCommand, ...args)
        expect(r.code, g.name).toBe(0)
        if (g.stdout !== undefined) expect(r.out, g.name).toBe(g.stdout)
        if (g.stdoutSha256 !== undefined) expect(sha256(r.out), g.name).toBe(g.stdoutSha256)
        if (g.logSha256 !== undefined) expect(sha256(readFileSync(logFile)), g.name).toBe(g.logSha256)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
