/** Test support: run one @effect/cli command in-process, capturing its output and exit code. */
import { Command } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Effect, Exit } from "effect"
import { vi } from "vitest"

export interface CliResult {
  /** 0, the `exitCode` of a `CommandExit` failure, or 2 for any other failure (a usage error). */
  readonly code: number
  /** What went to stdout (console.log). */
  readonly out: string
  /** What went to stderr (console.error). */
  readonly err: string
  /** Both, interleaved in order. */
  readonly all: string
}

/** Runs `command` with `args` as `cardfx` would. */
export const runCli = async (command: unknown, ...args: ReadonlyArray<string>): Promise<CliResult> => {
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
  const run = Command.run(command as Command.Command<string, never, unknown, unknown>, { name: "cardfx", version: "test" })
  const exit = await Effect.runPromiseExit(run(["node", "cardfx", ...args]).pipe(Effect.provide(NodeContext.layer)))
  log.mockRestore()
  error.mockRestore()
  const failure = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? (exit.cause.error as { exitCode?: unknown }) : undefined
  const code = Exit.isSuccess(exit) ? 0 : typeof failure?.exitCode === "number" ? failure.exitCode : 2
  return { code, out: out.join("\n"), err: err.join("\n"), all: all.join("\n") }
}
