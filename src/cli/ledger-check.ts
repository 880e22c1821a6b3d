/**
 * `cardfx ledger check --package DIR... --store PATH_OR_URL [--format human|json]`:
 * the hot-reload check of `cardfx serve`, offline, for CI of content
 * changes. Publishes the packages and recomposes every stored instance of
 * every branch under them (sealed rules as sealed, base cards and statuses
 * from the new content). `--format json` prints the `ReloadReport` document
 * (`switched` is always false here). Exit 0 when every instance composes,
 * 1 when any would break (or the content does not publish).
 *
 * @since 0.1.0
 */
import { Console, Effect } from "effect"
import { checkStoredInstances, LedgerStore, type ReloadReport, runtimeInfo } from "../index.js"
import { loadRuntime, packagesOption } from "./assess.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import * as Options from "./Options.js"
import { resultFormatOption } from "./Output.js"

export const checkCommand = Command.make(
  "check",
  {
    packages: packagesOption,
    store: Options.text("store").pipe(
      Options.withDescription("The ledger store to check (SQLite path or postgres:// URL).")
    ),
    format: resultFormatOption
  },
  (o) =>
    Effect.gen(function*() {
      const runtime = yield* loadRuntime(o.packages)
      const { broken, checked } = yield* Effect.flatMap(LedgerStore, (store) => checkStoredInstances(store, runtime))
        .pipe(
          Effect.provide(LedgerStore.layerFor(o.store))
        )
      const report: ReloadReport = { switched: false, runtime: runtimeInfo(runtime), checked, broken }
      if (o.format === "json") yield* Console.log(JSON.stringify(report, null, 2))
      else {
        yield* Console.log(`${checked} stored instance(s) checked, ${broken.length} would break`)
        for (const b of broken) {
          yield* Console.log(`  ${b.branch} ${b.instanceId} (${b.cardId}): ${b.code}: ${b.message}`)
        }
      }
      if (broken.length > 0) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
).pipe(
  Command.withDescription(
    "Check that every stored instance still composes under new content; exit 1 if any would break."
  ),
  Command.withExit(1, "a stored instance would no longer compose")
)
