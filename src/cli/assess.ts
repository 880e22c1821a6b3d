/**
 * `cardfx assess --package DIR... --card ID [--ledger FILE]
 * (--apply UPGRADE_ID | --remove ENTRY_ID | --replace ENTRY_ID --with UPGRADE_ID)
 * [--activity NAME] [--format human|json]`.
 *
 * Publishes the packages, reads the card's ledger (`--ledger FILE`, a sealed
 * `CardLedger` JSON document; or a stored instance with `--store PATH_OR_URL
 * [--instance ID] [--branch NAME]`, whose captured sequence then comes from
 * the store; empty when neither is given) and prints
 * `CardTransformationPlanner.Assess` of the command in the activity (default
 * `canonical_command`). `--format json` prints exactly the Assess result:
 * `{isCompatible, revision, sequence, step, changedComponentIds,
 * compositionTrace, diagnostics}`. Exit 0 compatible, 1 incompatible or
 * content errors, 2 usage errors.
 *
 * Also exports the helpers the `ledger` and `discover` commands share.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Layer, Option } from "effect"
import {
  type AssessResult,
  type CardfxError,
  Cards,
  ContentLoader,
  type LedgerCommand,
  LedgerStore,
  LiveCatalog,
  type LoadError,
  type Runtime,
  type StoreOpenError
} from "../services/index.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode, usageError } from "./Exit.js"
import * as Options from "./Options.js"
import { humanLine, resultFormatOption } from "./Output.js"

/** `--package DIR` (repeatable). */
export const packagesOption = Options.directory("package").pipe(
  Options.atLeast(1),
  Options.withDescription("A content package folder (repeatable; published together).")
)
/** `--card ID`. */
export const cardOption = Options.text("card").pipe(Options.withDescription("The base card's ID."))
/** `--ledger FILE` (optional). */
export const ledgerFileOption = Options.file("ledger").pipe(
  Options.optional,
  Options.withDescription("A CardLedger JSON file (sealed entries); an empty ledger when absent.")
)
/** `--activity NAME` (default canonical_command). */
export const activityOption = Options.text("activity").pipe(
  Options.withDefault("canonical_command"),
  Options.withDescription("The activity (mode) the command runs in; it must authorize the transformation.")
)

/** `--store PATH_OR_URL` (optional): read the card instance from a ledger store instead of a file. */
export const storeSourceOption = Options.text("store").pipe(
  Options.optional,
  Options.withDescription(
    "Read the card instance's ledger from this store (SQLite path or postgres:// URL) instead of --ledger."
  )
)
/** `--instance ID` (default: the card ID). */
export const instanceSourceOption = Options.text("instance").pipe(
  Options.optional,
  Options.withDescription("With --store: the card instance (default: the card ID).")
)
/** `--branch NAME` (default main). */
export const branchSourceOption = Options.text("branch").pipe(
  Options.withDefault("main"),
  Options.withDescription("With --store: the branch.")
)

/** Where a query's ledger comes from: a file, a store, or nowhere (empty). */
export interface LedgerSource {
  readonly ledger: Option.Option<string>
  readonly store: Option.Option<string>
  readonly instance: Option.Option<string>
  readonly branch: string
}

/** A usage error (exit 2): printed once, in the contract's one style, by the runner. */
export const usage = (message: string): Effect.Effect<never, CardfxError> => Effect.fail(usageError(message))

/** Loads and publishes packages through the public `ContentLoader`; fails with the load's tagged error. */
export const loadRuntime = (dirs: ReadonlyArray<string>): Effect.Effect<Runtime, LoadError, ContentLoader> =>
  Effect.flatMap(ContentLoader, (loader) => loader.load(dirs))

/** `--ledger` or `--store`, not both (a usage error). */
export const oneSource = (o: LedgerSource): Effect.Effect<void, CardfxError> =>
  Option.isSome(o.ledger) && Option.isSome(o.store) ? usage("give --ledger or --store, not both") : Effect.void

/**
 * The card queries over the packages (published once), and over the store
 * of `--store` when given (read only: a store that does not exist is
 * `store_not_found`, never created).
 */
export const withCards = <A, E>(
  packages: ReadonlyArray<string>,
  store: Option.Option<string>,
  use: (cards: Cards.CardsService) => Effect.Effect<A, E, FileSystem.FileSystem>
): Effect.Effect<A, E | LoadError | StoreOpenError, ContentLoader | FileSystem.FileSystem> => {
  const catalog = Cards.Cards.layer.pipe(Layer.provide(LiveCatalog.load(packages)))
  const cards = Option.match(store, {
    onNone: () => catalog,
    onSome: (s) => catalog.pipe(Layer.provide(LedgerStore.layerFor(s, { create: false })))
  })
  return Effect.flatMap(Cards.Cards, use).pipe(Effect.provide(cards))
}

/** Reads a ledger file: the card service's reader (the queries verify what it reads). */
export const readLedgerFile = Cards.readLedgerFile

/** The ledger source of a query's options. */
export const sourceOf = (
  o: LedgerSource,
  cardId: string
): Effect.Effect<Cards.LedgerSource, CardfxError, FileSystem.FileSystem> =>
  Option.isSome(o.ledger)
    ? Effect.map(readLedgerFile(o.ledger.value), (given) => ({ _tag: "Given" as const, ...given }))
    : Effect.succeed(
      Option.isSome(o.store)
        ? { _tag: "Stored" as const, branch: o.branch, instanceId: Option.getOrElse(o.instance, () => cardId) }
        : Cards.noLedger
    )

/** The command selected by `--apply` / `--remove` / `--replace --with`, or a usage message. */
export const selectCommand = (o: {
  readonly apply: Option.Option<string>
  readonly remove: Option.Option<string>
  readonly replace: Option.Option<string>
  readonly with: Option.Option<string>
}): Either.Either<LedgerCommand, string> => {
  const chosen = [o.apply, o.remove, o.replace].filter(Option.isSome).length
  if (chosen !== 1) return Either.left("give exactly one of --apply, --remove or --replace")
  if (Option.isSome(o.with) && Option.isNone(o.replace)) return Either.left("--with goes with --replace")
  if (Option.isSome(o.apply)) return Either.right({ kind: "apply", upgradeId: o.apply.value })
  if (Option.isSome(o.remove)) return Either.right({ kind: "remove", entryId: o.remove.value })
  if (Option.isSome(o.replace) && Option.isSome(o.with)) {
    return Either.right({ kind: "replace", entryId: o.replace.value, upgradeId: o.with.value })
  }
  return Either.left("--replace needs --with UPGRADE_ID")
}

/** The human rendering of an Assess result. */
export const renderAssessment = (a: AssessResult): Array<string> => {
  const lines = [
    `compatible: ${a.isCompatible ? "yes" : "no"}  (revision ${a.revision}, sequence ${a.sequence}, step ${a.step})`,
    `changed components: ${a.changedComponentIds.length === 0 ? "(none)" : a.changedComponentIds.join(", ")}`,
    "composition trace:"
  ]
  if (a.compositionTrace.length === 0) lines.push("  (no expansions)")
  for (const t of a.compositionTrace) {
    lines.push(
      `  ${t.entryId} ${t.transformationId} / ${t.ruleId}: bundle ${t.bundleId}, ${t.scope}, anchor ${
        t.anchorId ?? "none"
      } → [${t.memberIds.join(", ")}]`
    )
  }
  return lines
}

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.optional, Options.withDescription(description))

/** The `assess` subcommand. */
export const assessCommand = Command.make(
  "assess",
  {
    packages: packagesOption,
    card: cardOption,
    ledger: ledgerFileOption,
    store: storeSourceOption,
    instance: instanceSourceOption,
    branch: branchSourceOption,
    apply: optionalText("apply", "Assess applying this transformation (UPGRADE_ID)."),
    remove: optionalText("remove", "Assess removing this ledger entry (ENTRY_ID)."),
    replace: optionalText("replace", "Assess replacing this ledger entry (ENTRY_ID); needs --with."),
    with: optionalText("with", "The transformation that replaces the entry (UPGRADE_ID)."),
    activity: activityOption,
    format: resultFormatOption
  },
  (o) =>
    Effect.gen(function*() {
      const command = selectCommand(o)
      if (Either.isLeft(command)) return yield* usage(command.left)
      yield* oneSource(o)
      const source = yield* sourceOf(o, o.card)
      const result = yield* withCards(
        o.packages,
        o.store,
        (cards) => cards.assess({ cardId: o.card, command: command.right, activity: o.activity, source })
      )
      if (o.format === "json") yield* Console.log(JSON.stringify(result, null, 2))
      else {
        for (const line of renderAssessment(result)) yield* Console.log(line)
        for (const d of result.diagnostics) yield* Console.error(humanLine(d))
      }
      if (!result.isCompatible) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
).pipe(
  Command.withDescription(
    "Assess a ledger command (apply/remove/replace) on a card without changing anything; exit 1 if incompatible."
  ),
  Command.withExit(1, "the command is incompatible")
)
