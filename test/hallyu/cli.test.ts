/** `cardfx hhx explain`, `cardfx simulate`, `cardfx replay`: output, formats and exit codes. */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { hhxCommand, replayCommand, simulateCommand } from "../../src/cli/hhx.js"
import { runCli } from "../support/cli.js"
import { tempDir } from "../support/tmp.js"

const cli = (cmd: typeof hhxCommand | typeof simulateCommand | typeof replayCommand, ...args: Array<string>) =>
  runCli(cmd, ...args)

describe("cardfx hhx explain", () => {
  it("prints the records as generated text beside the printed rules_text", async () => {
    const r = await cli(hhxCommand, "explain", "HHX-PROTO-017")
    expect(r.code).toBe(0)
    expect(r.out).toContain(
      "rules_text: Deal 4 damage to your opponent. If any of it is prevented, your opponent loses 2 Composure instead."
    )
    expect(r.out).toContain(
      "generated: When cast (windows: main): deal 4 damage to your opponent; if any of it is prevented, your opponent loses 2 Composure instead."
    )
  })
  it("an unknown card code is unknown_card (exit 1, as for inspect); a broken deck is exit 1 with located diagnostics", async () => {
    const unknown = await cli(hhxCommand, "explain", "HHX-PROTO-099")
    expect(unknown.code).toBe(1)
    expect(unknown.err).toMatch(/unknown_card no card with code or ID HHX-PROTO-099/)
    const dir = tempDir("hhx-")
    const bad = join(dir, "deck.json")
    writeFileSync(
      bad,
      readFileSync("data/hallyu-hex/starter-deck.v0.json", "utf8").replace("\"draw-failed\",", "\"draw-fail\",")
    )
    const r = await cli(hhxCommand, "explain", "HHX-PROTO-001", "--deck", bad)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/deck\.json:\d+:\d+ unknown_event/)
  })
})

describe("cardfx simulate and replay", () => {
  it("simulate --format json prints the summary; --log writes logs that replay verifies step by step", async () => {
    const dir = tempDir("hhx-")
    const logFile = join(dir, "games.json")
    const r = await cli(simulateCommand, "--games", "20", "--seed", "9", "--format", "json", "--log", logFile)
    expect(r.code).toBe(0)
    const s = JSON.parse(r.out) as {
      games: number
      winsBySeat: Record<string, number>
      reasons: Record<string, number>
      operations: Record<string, number>
    }
    expect(s.games).toBe(20)
    expect(Object.values(s.winsBySeat).reduce((a, b) => a + b, 0)).toBe(20)
    expect(Object.keys(s.operations).length).toBeGreaterThan(10)
    const again = await cli(simulateCommand, "--games", "20", "--seed", "9", "--format", "json")
    expect(again.out).toBe(r.out)
    const ok = await cli(replayCommand, logFile)
    expect(ok.code).toBe(0)
    expect(ok.out.split("\n")).toHaveLength(20)
    expect(ok.out).toContain("every fingerprint matched")
    const logs = JSON.parse(readFileSync(logFile, "utf8")) as Array<{ fingerprints: Array<string> }>
    ;(logs[4] as { fingerprints: Array<string> }).fingerprints[2] = "f".repeat(64)
    writeFileSync(logFile, JSON.stringify(logs))
    const bad = await cli(replayCommand, logFile, "--format", "json")
    expect(bad.code).toBe(1)
    const doc = JSON.parse(bad.out) as { ok: boolean; replays: Array<{ ok: boolean; diagnostic?: { code: string } }> }
    expect(doc.ok).toBe(false)
    expect(doc.replays[4]?.diagnostic?.code).toBe("replay_mismatch")
  }, 30_000)

  it("the human summary lists wins, reasons, turns, plays per card and operations", async () => {
    const r = await cli(simulateCommand, "--games", "5", "--seed", "1")
    expect(r.code).toBe(0)
    expect(r.out).toMatch(
      /^Hallyu Hex simulation: 5 games, seed 1\nwins: seat 0 \d+, seat 1 \d+, draws \d+\nterminal reasons: /
    )
    expect(r.out).toContain("plays per card:")
    expect(r.out).toContain("operations executed:")
    expect(r.err).toBe("") // no progress bar when stderr is not a terminal
  })

  it("simulate --stats: the balance report as human lines, JSON and CSV; csv without --stats is a usage error", async () => {
    const human = await cli(simulateCommand, "--games", "30", "--seed", "3", "--stats")
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^Hallyu Hex balance: 30 games, seed 3, deck [0-9a-f]{12}\nwin rate: seat 0 \d+\.\d% \[/)
    expect(human.out).toContain("HHX-PROTO-014 Dating Rumor Check: drawn ")
    const json = await cli(simulateCommand, "--games", "30", "--seed", "3", "--stats", "--format", "json")
    const report = JSON.parse(json.out) as {
      format: string
      games: number
      seats: Array<{ count: number; of: number }>
      cards: Array<{ code: string; played: { count: number } }>
    }
    expect(report.format).toBe("cardfx-balance/1")
    expect(report.seats.map((s) => s.of)).toEqual([30, 30])
    const csv = await cli(simulateCommand, "--games", "30", "--seed", "3", "--stats", "--format", "csv")
    const lines = csv.out.trimEnd().split("\n")
    for (const c of report.cards) {
      expect(lines.find((l) => l.startsWith(`card-played,${c.code},`))?.split(",")[3]).toBe(String(c.played.count))
    }
    const bad = await cli(simulateCommand, "--games", "3", "--format", "csv")
    expect(bad.code).toBe(2)
    expect(bad.err).toContain("--format csv needs --stats")
  })
})
