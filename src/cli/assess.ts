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
import { Console, Effect, Either, Option } from "effect"
import {
  type AssessResult,
  type CardfxError,
  CardLedger,
  ContentLoader,
  Decode,
  type Diagnostic,
  diagnostic,
  emptyLedger,
  errorFromDiagnostic,
  JsonFile,
  type LedgerCommand,
  LedgerStore,
  plan,
  type PlanAt,
  type Runtime,
  verifyLedger
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

/**
 * The card's ledger and the sequence basis of a query: from `--ledger FILE`,
 * from `--store` (a stored instance), or an empty ledger.
 */
export const readSource = (
  source: LedgerSource,
  cardId: string
): Effect.Effect<
  { readonly ledger: CardLedger; readonly at: PlanAt | undefined },
  CardfxError,
  FileSystem.FileSystem
> =>
  Option.match(source.store, {
    onNone: () =>
      Effect.map(readLedger(Option.getOrUndefined(source.ledger), cardId), (ledger) => ({ ledger, at: undefined })),
    onSome: (store) =>
      Effect.gen(function*() {
        const state = yield* Effect.flatMap(
          LedgerStore,
          (s) => s.read(source.branch, Option.getOrElse(source.instance, () => cardId), cardId)
        ).pipe(
          // A query only reads: a store that does not exist is store_not_found, never created.
          Effect.provide(LedgerStore.layerFor(store, { create: false }))
        )
        return {
          ledger: state.ledger,
          at: { lastSequence: state.lastSequence, nextSequence: state.lastSequence + 1 } as PlanAt | undefined
        }
      })
  })

/** A usage error (exit 2): printed once, in the contract's one style, by the runner. */
export const usage = (message: string): Effect.Effect<never, CardfxError> => Effect.fail(usageError(message))

/** Loads and publishes packages through the public `ContentLoader`; fails with the first error's typed error. */
export const loadRuntime = (dirs: ReadonlyArray<string>): Effect.Effect<Runtime, CardfxError, ContentLoader> =>
  Effect.flatMap(ContentLoader, (loader) => loader.load(dirs))

/** The same mistake, the same treatment: a card the runtime does not publish is `unknown_card` (exit 1) for every command. */
export const requireCard = (runtime: Runtime, cardId: string): Effect.Effect<void, CardfxError> =>
  runtime.cards.has(cardId)
    ? Effect.void
    : Effect.fail(
      errorFromDiagnostic(
        diagnostic(
          "unknown_card",
          `no card ${cardId} is published${didYouMeanCard(cardId, [...runtime.cards.keys()])}`,
          { subject: cardId }
        )
      )
    )

const didYouMeanCard = (id: string, ids: ReadonlyArray<string>): string => {
  const near = ids.filter((x) => x.toLowerCase() === id.toLowerCase() || x.includes(id) || id.includes(x)).sort()
  return near.length > 0 && near.length <= 3 ? `; did you mean ${near.join(" or ")}?` : ""
}

const first = (ds: ReadonlyArray<Diagnostic>, file: string): CardfxError =>
  errorFromDiagnostic(
    ds.find((d) => d.severity === "error") ?? ds[0] ??
      diagnostic("schema_invalid", `${file} is not a valid ledger`, { file })
  )

const decodeLedger = Decode.makeDecoder(CardLedger)

/** Reads a sealed ledger file for a card (or an empty ledger). */
export const readLedger = (
  file: string | undefined,
  cardId: string
): Effect.Effect<CardLedger, CardfxError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    if (file === undefined) return emptyLedger(cardId)
    const doc = yield* JsonFile.readJsonFile(file)
    if (Either.isLeft(doc)) return yield* Effect.fail(errorFromDiagnostic(doc.left))
    const decoded = decodeLedger(doc.right.value, doc.right)
    if (Either.isLeft(decoded)) return yield* Effect.fail(first(decoded.left, file))
    const verified = verifyLedger(decoded.right)
    if (Either.isLeft(verified)) return yield* Effect.fail(first(verified.left.map((d) => ({ ...d, file })), file))
    if (verified.right.cardId !== cardId) {
      return yield* Effect.fail(
        errorFromDiagnostic(
          diagnostic(
            "invalid_composition",
            `the ledger in ${file} belongs to card ${verified.right.cardId}, not ${cardId}`,
            { file, path: "/cardId", subject: cardId }
          )
        )
      )
    }
    return verified.right
  })

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
      if (Option.isSome(o.ledger) && Option.isSome(o.store)) return yield* usage("give --ledger or --store, not both")
      const runtime = yield* loadRuntime(o.packages)
      yield* requireCard(runtime, o.card)
      const { at, ledger } = yield* readSource(o, o.card)
      const result = plan({ runtime, ledger, command: command.right, activity: o.activity, at }).assessment
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
