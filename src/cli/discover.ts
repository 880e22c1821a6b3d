/**
 * `cardfx discover --package DIR... --card ID [--ledger FILE | --store PATH_OR_URL
 * [--instance ID] [--branch NAME]] [--activity NAME] [--format human|json]`.
 *
 * Every transformation of the published runtime, in upgradeId order, with the
 * full assessment of applying it to the card in the activity (the same plan
 * the apply command makes). `--format json` prints the `Discovery` document
 * `{cardId, activity, revision, offers: [{upgradeId, category, slotId?,
 * assessment}]}`. Exit 0 (the discovery itself succeeded, whatever it
 * offers), 1 content errors, 2 usage errors.
 *
 * @since 0.1.0
 */
import { Console, Effect, Option } from "effect"
import { discover, type Discovery } from "../services/index.js"
import {
  activityOption,
  branchSourceOption,
  cardOption,
  instanceSourceOption,
  ledgerFileOption,
  loadRuntime,
  packagesOption,
  readSource,
  requireCard,
  storeSourceOption,
  usage
} from "./assess.js"
import * as Command from "./Command.js"
import { humanLine, resultFormatOption } from "./Output.js"

/** The human rendering of a discovery. */
export const renderDiscovery = (d: Discovery): Array<string> => {
  const lines = [`card ${d.cardId}  activity ${d.activity}  revision ${d.revision}`]
  for (const o of d.offers) {
    const where = `${o.category}${o.slotId !== undefined ? `, slot ${o.slotId}` : ""}`
    if (o.assessment.isCompatible) {
      lines.push(`  + ${o.upgradeId} (${where})  changes: ${o.assessment.changedComponentIds.join(", ") || "(none)"}`)
    } else {
      lines.push(`  - ${o.upgradeId} (${where})`)
      for (const diag of o.assessment.diagnostics) lines.push(`      ${humanLine(diag)}`)
    }
  }
  return lines
}

/** The `discover` subcommand. */
export const discoverCommand = Command.make(
  "discover",
  {
    packages: packagesOption,
    card: cardOption,
    ledger: ledgerFileOption,
    store: storeSourceOption,
    instance: instanceSourceOption,
    branch: branchSourceOption,
    activity: activityOption,
    format: resultFormatOption
  },
  (o) =>
    Effect.gen(function*() {
      if (Option.isSome(o.ledger) && Option.isSome(o.store)) return yield* usage("give --ledger or --store, not both")
      const runtime = yield* loadRuntime(o.packages)
      yield* requireCard(runtime, o.card)
      const { at, ledger } = yield* readSource(o, o.card)
      const d = discover(runtime, ledger, o.activity, at)
      if (o.format === "json") yield* Console.log(JSON.stringify(d, null, 2))
      else for (const line of renderDiscovery(d)) yield* Console.log(line)
    })
).pipe(Command.withDescription("List every transformation with its assessment for a card in an activity."))
