/**
 * The bin's front (bundled as dist/cli/cardfx-front.cjs): it answers a
 * command line that needs no command to run — a usage error, `--help`,
 * `--version` — from the command table the build writes out as data
 * (dist/cli/cardfx.spec.json), without loading the services, the engines
 * and their Schemas: such an answer costs ~0.15 s of CPU instead of the
 * full bundle's ~0.6 s. `runCardfx` starts with the same `preflight`, so
 * the bytes and the exit status are the same either way; any other command
 * line goes on to the full bundle (the loader, scripts/code-cache-loader.mjs).
 *
 * @since 0.1.0
 */
import { preflight } from "../cli/Preflight.js"
import type { CommandSpec } from "../cli/Spec.js"

export { preflight }

/** Prints the answer to a command line that needs no command to run and returns its exit status; else undefined. */
export const answer = (spec: CommandSpec, argv: ReadonlyArray<string>): number | undefined => {
  const p = preflight(spec, argv)
  if (p._tag === "Run") return undefined
  // The bytes Effect's default Console (console.log, console.error) writes for runCardfx: each line and a newline.
  for (const line of p.stdout) process.stdout.write(`${line}\n`)
  for (const line of p.stderr) process.stderr.write(`${line}\n`)
  return p.exitCode
}
