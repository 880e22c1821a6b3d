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
import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { ContentCatalog, LedgerStore } from "../index.js"
import { packagesOption } from "./assess.js"
import { CommandExit, ExitCode } from "./Exit.js"
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
      // The served content's own check (the one a reload runs), over the packages and the store.
      const report = yield* Effect.flatMap(ContentCatalog.ContentCatalog, (catalog) => catalog.check).pipe(
        Effect.provide(
          ContentCatalog.ContentCatalog.load(o.packages).pipe(Layer.provide(LedgerStore.layerFor(o.store)))
        )
      )
      const { broken, checked } = report
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
  )
)
