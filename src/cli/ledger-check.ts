/**
 * `cardfx ledger check --package DIR... --store PATH_OR_URL [--format human|json|sarif]`:
 * the hot-reload check of `cardfx serve`, offline, for CI of content
 * changes. Publishes the packages and recomposes every stored instance of
 * every branch under them (sealed rules as sealed, base cards and statuses
 * from the new content). `--format json` prints the `ReloadReport` document
 * (`switched` is always false here); `--format sarif` one SARIF 2.1.0 log
 * with a result per broken instance (its branch, instance and card as
 * logical locations). Exit 0 when every instance composes,
 * 1 when any would break (or the content does not publish).
 *
 * @since 0.1.0
 */
import { Console, Effect } from "effect"
import { type ReloadReport } from "../api/Documents.js"
import { checkStoredInstances, runtimeInfo } from "../server/index.js"
import { diagnostic, LedgerStore } from "../services/index.js"
import { loadRuntime, packagesOption } from "./assess.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import * as Options from "./Options.js"
import { sarifLog } from "./Sarif.js"

const checkFormatOption = Options.choice("format", ["human", "json", "sarif"] as const).pipe(
  Options.withDefault("human" as const),
  Options.withDescription("Output format: human, json or sarif (SARIF 2.1.0).")
)

export const checkCommand = Command.make(
  "check",
  {
    packages: packagesOption,
    store: Options.text("store").pipe(
      Options.withDescription("The ledger store to check (SQLite path or postgres:// URL).")
    ),
    format: checkFormatOption
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
      else if (o.format === "sarif") {
        const inputs = broken.map((b) => ({
          diagnostic: diagnostic(b.code, `${b.branch} ${b.instanceId} (${b.cardId}): ${b.message}`, {
            subject: b.instanceId
          }),
          logical: [
            { name: b.branch, kind: "namespace" },
            { name: `${b.branch}/${b.instanceId}`, kind: "object" },
            { name: b.cardId, kind: "type" }
          ]
        }))
        yield* Console.log(JSON.stringify(sarifLog(inputs), null, 2))
      } else {
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
