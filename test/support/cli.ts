/**
 * Test support: run one command of the table in-process exactly as the `cardfx`
 * bin does (the same `runCardfx`: usage checks, error rendering, exit codes —
 * a defect is 70 here as in the bin, never mistaken for a usage error), over
 * the bin's composition root (src/bin/Root.ts: the worker pools, the cluster, the server).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Effect } from "effect"
import { vi } from "vitest"
import * as Root from "../../src/bin/Root.js"
import { rootCommand, runCardfx } from "../../src/cli/Cli.js"
import type { Command } from "../../src/cli/Command.js"

export interface CliResult {
  /** The exit code the bin would set: 0, 1, 2, 70 or 130. */
  readonly code: number
  /** What went to stdout (console.log). */
  readonly out: string
  /** What went to stderr (console.error). */
  readonly err: string
  /** Both, interleaved in order. */
  readonly all: string
}

/** Runs `command` (mounted under `cardfx`) with `args` as `cardfx NAME ...args` would. */
export const runCli = (command: Command, ...args: ReadonlyArray<string>): Promise<CliResult> =>
  runArgs(rootCommand([command]), [command.name, ...args])

/** Runs a root command with a full command line (without `node cardfx`). */
export const runArgs = async (root: Command, argv: ReadonlyArray<string>): Promise<CliResult> => {
  const out: Array<string> = []
  const err: Array<string> = []
  const all: Array<string> = []
  const capture = (into: Array<string>) => (...xs: Array<unknown>) => {
    const line = xs.map(String).join(" ")
    into.push(line)
    all.push(line)
  }
  const log = vi.spyOn(globalThis.console, "log").mockImplementation(capture(out))
  const error = vi.spyOn(globalThis.console, "error").mockImplementation(capture(err))
  try {
    const code = await Effect.runPromise(
      runCardfx(root, argv).pipe(Effect.provide(Root.layer), Effect.provide(NodeContext.layer))
    )
    return { code, out: out.join("\n"), err: err.join("\n"), all: all.join("\n") }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}
