/** The progress line: done/total, rate, time left; silent when quiet or when stderr is not a TTY. */
import { describe, expect, it, vi } from "vitest"
import { makeProgress, progressLine } from "../../src/cli/Scale.js"

describe("progress", () => {
  it("states done/total, the rate and the time left", () => {
    expect(progressLine("games", 500, 2000, 2000)).toBe("500/2000 games, 250/s, 6s left")
    expect(progressLine("files", 3, 1000, 2000)).toBe("3/1000 files, 1.5/s, 11m05s left")
    expect(progressLine("runs", 0, 10, 1500)).toBe("0/10 runs, 0.0/s, ? left")
  })

  it("writes nothing when quiet, nor when stderr is not a TTY", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true)
    const tty = process.stderr.isTTY
    try {
      Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true })
      const quiet = makeProgress("games", true)
      quiet.update(1, 2)
      quiet.end()
      Object.defineProperty(process.stderr, "isTTY", { value: false, configurable: true })
      const piped = makeProgress("games", false)
      piped.update(1, 2)
      piped.end()
      expect(write).not.toHaveBeenCalled()
      // A TTY gets the line, after the first second only.
      Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true })
      vi.useFakeTimers({ now: 0 })
      const shown = makeProgress("games", false)
      shown.update(1, 10)
      expect(write).not.toHaveBeenCalled()
      vi.setSystemTime(2000)
      shown.update(4, 10)
      shown.end()
      expect(write.mock.calls.map((c) => String(c[0]))).toEqual(["\r\x1b[2K4/10 games, 2.0/s, 3s left", "\r\x1b[2K"])
    } finally {
      vi.useRealTimers()
      Object.defineProperty(process.stderr, "isTTY", { value: tty, configurable: true })
      write.mockRestore()
    }
  })
})
