/** Replay of game logs: a log whose actions stop before the game ends is `replay_incomplete` unless it says `partial`. */
import { Either } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { replayCommand } from "../../src/cli/hhx.js"
import { playRandom, replay } from "../../src/hallyu/engine/Simulate.js"
import { runCli } from "../support/cli.js"
import { engine } from "./engine-fixtures.js"

const game = (() => {
  const r = playRandom(engine, { seed: "replay/1", fingerprints: true })
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
})()

describe("replay of a truncated log", () => {
  it("a complete log replays; its log has no partial field", () => {
    expect(game.result).not.toBeNull()
    expect("partial" in game.log).toBe(false)
    expect(Either.isRight(replay(engine, game.log))).toBe(true)
  })

  it("actions that end before the game does are replay_incomplete", () => {
    const cut = game.log.actions.length - 3
    const log = {
      ...game.log,
      actions: game.log.actions.slice(0, cut),
      fingerprints: game.log.fingerprints.slice(0, cut + 1)
    }
    const r = replay(engine, log)
    expect(Either.isLeft(r) && [r.left.code, r.left.details?.["steps"]]).toEqual(["replay_incomplete", cut])
    expect(Either.isLeft(replay(engine, { ...log, actions: [], fingerprints: [] }))).toBe(true)
  })

  it("a log that says it is partial replays up to its last action", () => {
    const cut = 5
    const log = {
      ...game.log,
      actions: game.log.actions.slice(0, cut),
      fingerprints: game.log.fingerprints.slice(0, cut + 1),
      partial: true
    }
    const r = replay(engine, log)
    expect(Either.isRight(r) && r.right.ply).toBe(cut)
    expect(Either.isLeft(replay(engine, { ...log, partial: false }))).toBe(true)
  })

  it("a playout cut by its action bound writes a partial log, which replays", () => {
    const r = playRandom(engine, { seed: "replay/2", maxActions: 7 })
    if (Either.isLeft(r)) return expect.fail(r.left.message)
    expect(r.right.result).toBeNull()
    expect(r.right.log.partial).toBe(true)
    expect(Either.isRight(replay(engine, r.right.log))).toBe(true)
  })

  it("cardfx replay exits 1 with replay_incomplete for a truncated log, 0 for the same log marked partial", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hhx-replay-"))
    try {
      const file = join(dir, "log.json")
      const cut = {
        ...game.log,
        actions: game.log.actions.slice(0, 10),
        fingerprints: game.log.fingerprints.slice(0, 11)
      }
      writeFileSync(file, JSON.stringify(cut))
      const bad = await runCli(replayCommand, file, "--format", "json")
      expect(bad.code).toBe(1)
      const doc = JSON.parse(bad.out) as { ok: boolean; replays: Array<{ diagnostic?: { code: string } }> }
      expect([doc.ok, doc.replays[0]?.diagnostic?.code]).toEqual([false, "replay_incomplete"])
      writeFileSync(file, JSON.stringify({ ...cut, partial: true }))
      const ok = await runCli(replayCommand, file)
      expect(ok.code).toBe(0)
      expect(ok.out).toContain("ok replay/1: 10 steps")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
