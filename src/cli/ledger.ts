/**
 * `cardfx ledger apply|remove|replace|show|history|replay|branch ... [--store PATH_OR_URL]`.
 *
 * The store is a SQLite file (default `.cardfx/ledger.db`, folders created)
 * or a PostgreSQL database when `--store` is a `postgres://` URL. A card
 * instance is `--instance ID` (default: the card ID) on `--branch NAME`
 * (default `main`).
 *
 * - `apply UPGRADE_ID`, `remove ENTRY_ID`, `replace ENTRY_ID --with UPGRADE_ID`:
 *   `--package DIR... --card ID [--activity NAME] [--expected-revision N]
 *   [--command-id ID]`. The request holds only what the user stated: without
 *   `--expected-revision` there is no revision check (the command applies to
 *   the current revision). `--command-id` defaults to `cli-` + 16 hex of the
 *   hash of the stated request, so re-running the same invocation is a retry:
 *   it applies nothing twice and prints the first outcome, byte for byte
 *   (outcomes print in canonical key order). Prints the `CommandOutcome`;
 *   exit 1 when rejected.
 * - `show --card ID`: the instance's revision, ledger and fingerprint.
 * - `history --card ID`: its events.
 * - `replay [--branch NAME]`: rebuilds every snapshot from the events alone
 *   (no package needed) and checks the fingerprints; exit 1 on a mismatch.
 * - `branch [NAME] [--from BRANCH] [--at SEQUENCE] [--discard] [--instance ID]`:
 *   lists branches (no NAME; with `--instance`, those the instance can be
 *   read on, `main` first, as over HTTP), forks NAME, or discards it.
 * - `verify`: the integrity check (SQLite pages, then the store's own
 *   invariants); exit 0 when every check passes, 1 otherwise.
 *
 * Only writes create a store: reads (`show`, `history`, `replay`, `verify`,
 * listing branches) on a store that does not exist are `store_not_found`.
 * IDs (command, instance, branch) follow the ID syntax, 1..128 characters
 * (`invalid_id`). `--format json` prints one JSON document. Store failures
 * and rejections print their diagnostics and exit 1; usage errors exit 2.
 *
 * @since 0.1.0
 */
import { Console, Effect, Layer, Option } from "effect"
import {
  Canonical,
  type CardfxError,
  CardTransformationPlanner,
  type CommandOutcome,
  CommandRequest,
  ContentCatalog,
  Decode,
  DEFAULT_STORE,
  type Diagnostic,
  diagnostic,
  errorFromDiagnostics,
  Instances,
  type LedgerCommand,
  LedgerStore,
  LiveCatalog,
  MAIN,
  outcomeJson,
  type VerifyReport
} from "../services/index.js"
import * as Args from "./Args.js"
import { activityOption, cardOption, loadRuntime, packagesOption, usage } from "./assess.js"
import * as Command from "./Command.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { checkCommand } from "./ledger-check.js"
import * as Options from "./Options.js"
import { humanLine, resultFormatOption } from "./Output.js"

const storeOption = Options.text("store").pipe(
  Options.withDefault(DEFAULT_STORE),
  Options.withDescription(
    "The ledger store: a SQLite file path or a postgres:// URL (default .cardfx/ledger.db; only writes create it)."
  )
)
const branchOption = Options.text("branch").pipe(
  Options.withDefault(MAIN),
  Options.withDescription("The branch (default main).")
)
const instanceOption = Options.text("instance").pipe(
  Options.optional,
  Options.withDescription("The card instance ID (default: the card ID).")
)
const expectedOption = Options.integer("expected-revision").pipe(
  Options.optional,
  Options.withDescription(
    "Optimistic concurrency: reject the command unless the instance is at this revision (default: no check)."
  )
)
const commandIdOption = Options.text("command-id").pipe(
  Options.optional,
  Options.withDescription(
    "Idempotence key, 1-128 characters of the ID syntax (default: derived from what you stated, so re-running the same command is a retry that applies nothing twice; pass a new ID to apply the same transformation again)."
  )
)

type Format = "human" | "json"

/** Runs a store program against `--store`; store errors are typed errors the runner prints (exit 1). Only writers create the store. */
const withStore = <A, E extends CardfxError | CommandExit, R>(
  store: string,
  _format: Format,
  mode: "read" | "write",
  program: Effect.Effect<A, E, R>
): Effect.Effect<A, E | CardfxError, Exclude<R, LedgerStore | CardTransformationPlanner>> =>
  program.pipe(
    Effect.provide(
      Layer.provideMerge(CardTransformationPlanner.layer, LedgerStore.layerFor(store, { create: mode === "write" }))
    )
  )

const decodeRequest = Decode.makeDecoder(CommandRequest)

/** What an applied command did, in words ("removed", not "applied", for a removal). */
const verb = (o: CommandOutcome, command: LedgerCommand): string =>
  o.status !== "applied"
    ? o.status
    : command.kind === "apply"
    ? "applied"
    : command.kind === "remove"
    ? "removed"
    : "replaced"

/** An outcome as JSON in canonical key order, so a retry (decoded from the store) prints the same bytes. */
const outcomeDocument = (o: CommandOutcome): string => JSON.stringify(JSON.parse(outcomeJson(o)), null, 2)

const renderOutcome = (o: CommandOutcome, command: LedgerCommand): Array<string> => [
  `${verb(o, command)}: ${o.commandId} on ${o.branch}/${o.instanceId} (${o.cardId})  revision ${o.revision}${
    o.sequence !== null ? `  sequence ${o.sequence}` : ""
  }`,
  ...(o.entryId !== null ? [`entry: ${o.entryId}`] : []),
  ...(o.fingerprint !== null ? [`fingerprint: ${o.fingerprint}`] : []),
  ...(o.changedComponentIds.length > 0 ? [`changed components: ${o.changedComponentIds.join(", ")}`] : [])
]
/** Human format: the outcome on stdout, its diagnostics on stderr. */
const printOutcome = (o: CommandOutcome, command: LedgerCommand) =>
  Effect.zipRight(
    Effect.forEach(renderOutcome(o, command), (line) => Console.log(line), { discard: true }),
    Effect.forEach(o.diagnostics, (d: Diagnostic) => Console.error(humanLine(d)), { discard: true })
  )

const commandOptions = {
  packages: packagesOption,
  card: cardOption,
  instance: instanceOption,
  branch: branchOption,
  activity: activityOption,
  expected: expectedOption,
  commandId: commandIdOption,
  store: storeOption,
  format: resultFormatOption
}

type CommandOptions = {
  readonly packages: ReadonlyArray<string>
  readonly card: string
  readonly instance: Option.Option<string>
  readonly branch: string
  readonly activity: string
  readonly expected: Option.Option<number>
  readonly commandId: Option.Option<string>
  readonly store: string
  readonly format: Format
}

const runCommand = (o: CommandOptions, command: LedgerCommand) =>
  Effect.gen(function*() {
    if (Option.isSome(o.expected) && o.expected.value < 0) return yield* usage("--expected-revision must be at least 0")
    const runtime = yield* loadRuntime(o.packages)
    const instanceId = Option.getOrElse(o.instance, () => o.card)
    // Only what the user stated: the derived ID (and the request hash the store checks on a retry)
    // must not depend on anything read from the store, or a re-run after a commit would differ.
    const stated = {
      branch: o.branch,
      instanceId,
      cardId: o.card,
      ...(Option.isSome(o.expected) ? { expectedRevision: o.expected.value } : {}),
      activity: o.activity,
      command
    }
    const decoded = decodeRequest({
      commandId: Option.getOrElse(o.commandId, () => `cli-${Canonical.hashCanonical(stated).slice(0, 16)}`),
      ...stated
    })
    // Every diagnostic of the request (an --instance and a --branch both outside the ID syntax: both said).
    if (decoded._tag === "Left") {
      return yield* Effect.fail(
        errorFromDiagnostics(
          decoded.left,
          diagnostic("invalid_id", "the request is not valid", { subject: "request" })
        )
      )
    }
    // The write goes through the Instances service, as `POST /v1/instances/{id}/commands` does, over the
    // runtime just loaded (loaded before the store is opened: bad content creates no store).
    const outcome = yield* withStore(
      o.store,
      o.format,
      "write",
      Effect.flatMap(Instances.Instances, (instances) => instances.execute(decoded.right)).pipe(
        Effect.provide(
          Instances.Instances.layer.pipe(
            Layer.provide(ContentCatalog.ContentCatalog.layer(o.packages)),
            Layer.provide(LiveCatalog.fromRuntime(runtime))
          )
        )
      )
    )
    if (o.format === "json") yield* Console.log(outcomeDocument(outcome))
    else yield* printOutcome(outcome, command)
    if (outcome.status !== "applied") {
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    }
  })

const applyCommand = Command.make(
  "apply",
  {
    upgrade: Args.text({ name: "UPGRADE_ID" }).pipe(Args.withDescription("The transformation to apply.")),
    ...commandOptions
  },
  ({ upgrade, ...o }) => runCommand(o, { kind: "apply", upgradeId: upgrade })
).pipe(
  Command.withDescription("Apply a transformation to a card instance (sealed at apply time)."),
  Command.withExit(1, "the command is not applied (rejected)")
)

const removeCommand = Command.make(
  "remove",
  {
    entry: Args.text({ name: "ENTRY_ID" }).pipe(Args.withDescription("The ledger entry to remove.")),
    ...commandOptions
  },
  ({ entry, ...o }) => runCommand(o, { kind: "remove", entryId: entry })
).pipe(
  Command.withDescription("Remove a ledger entry (rejected if another entry depends on it)."),
  Command.withExit(1, "the command is not applied (rejected)")
)

const replaceCommand = Command.make(
  "replace",
  {
    entry: Args.text({ name: "ENTRY_ID" }).pipe(Args.withDescription("The ledger entry to replace.")),
    with: Options.text("with").pipe(Options.withDescription("The replacing transformation.")),
    ...commandOptions
  },
  ({ entry, with: upgrade, ...o }) => runCommand(o, { kind: "replace", entryId: entry, upgradeId: upgrade })
).pipe(
  Command.withDescription("Replace a ledger entry by another transformation, keeping its position."),
  Command.withExit(1, "the command is not applied (rejected)")
)

const showCommand = Command.make(
  "show",
  { card: cardOption, instance: instanceOption, branch: branchOption, store: storeOption, format: resultFormatOption },
  (o) =>
    withStore(
      o.store,
      o.format,
      "read",
      Effect.gen(function*() {
        const store = yield* LedgerStore
        const instanceId = Option.getOrElse(o.instance, () => o.card)
        // An instance no command was stored for is unknown_instance, as over HTTP and in the library.
        yield* Instances.storedEvents(store, o.branch, instanceId)
        const s = yield* store.read(o.branch, instanceId, o.card)
        if (o.format === "json") {
          return yield* Console.log(
            JSON.stringify(
              {
                branch: s.branch,
                instanceId: s.instanceId,
                cardId: s.cardId,
                revision: s.revision,
                sequence: s.lastSequence,
                fingerprint: s.fingerprint ?? null,
                ledger: s.ledger,
                effective: s.effective === undefined ? null : (JSON.parse(s.effective) as unknown)
              },
              null,
              2
            )
          )
        }
        yield* Console.log(
          `${s.branch}/${s.instanceId} (${s.cardId})  revision ${s.revision}  sequence ${s.lastSequence}`
        )
        const active = s.ledger.entries.filter((e) => e.state === "active").sort((a, b) => a.position - b.position)
        if (active.length === 0) yield* Console.log("  (empty ledger)")
        for (const e of active) {
          yield* Console.log(
            `  ${e.entryId}  ${e.upgradeId}  position ${e.position}  revision ${e.captured.revision}  sequence ${e.captured.sequence}`
          )
        }
        if (s.fingerprint !== undefined) yield* Console.log(`fingerprint: ${s.fingerprint}`)
      })
    )
).pipe(Command.withDescription("Show a card instance's ledger, revision and fingerprint."))

const historyCommand = Command.make(
  "history",
  { card: cardOption, instance: instanceOption, branch: branchOption, store: storeOption, format: resultFormatOption },
  (o) =>
    withStore(
      o.store,
      o.format,
      "read",
      Effect.gen(function*() {
        const store = yield* LedgerStore
        const { events } = yield* Instances.storedEvents(store, o.branch, Option.getOrElse(o.instance, () => o.card))
        if (o.format === "json") return yield* Console.log(JSON.stringify({ events }, null, 2))
        for (const e of events) {
          const c = e.body.command
          const what = c.kind === "apply"
            ? `apply ${c.upgradeId}`
            : c.kind === "remove"
            ? `remove ${c.entryId}`
            : `replace ${c.entryId} with ${c.upgradeId}`
          yield* Console.log(
            `#${e.sequence} ${e.branch} revision ${e.revision}  ${what}  [${e.body.activity}]  command ${e.commandId}`
          )
        }
      })
    )
).pipe(Command.withDescription("List a card instance's events (its branch's and, up to the fork, its parents')."))

const replayLedgerCommand = Command.make(
  "replay",
  {
    branch: Options.text("branch").pipe(Options.optional, Options.withDescription("Only this branch (default: all).")),
    store: storeOption,
    format: resultFormatOption
  },
  (o) =>
    withStore(
      o.store,
      o.format,
      "read",
      Effect.gen(function*() {
        const store = yield* LedgerStore
        const steps = yield* store.replay(Option.getOrUndefined(o.branch))
        if (o.format === "json") return yield* Console.log(JSON.stringify({ ok: true, steps }, null, 2))
        yield* Console.log(`replayed ${steps.length} snapshot(s): every fingerprint matches`)
      })
    )
).pipe(Command.withDescription("Rebuild every snapshot from the events alone and check its fingerprint."))

const branchCommand = Command.make(
  "branch",
  {
    name: Args.text({ name: "NAME" }).pipe(
      Args.optional,
      Args.withDescription("The branch to fork or discard (none: list the branches).")
    ),
    from: Options.text("from").pipe(Options.withDefault(MAIN), Options.withDescription("The parent branch.")),
    at: Options.integer("at").pipe(
      Options.optional,
      Options.withDescription("Fork at this global sequence (default: now).")
    ),
    discard: Options.boolean("discard").pipe(Options.withDescription("Discard the branch instead of creating it.")),
    instance: Options.text("instance").pipe(
      Options.optional,
      Options.withDescription(
        "List the branches this card instance can be read on instead (main first; unknown_instance on none)."
      )
    ),
    store: storeOption,
    format: resultFormatOption
  },
  (o) =>
    // A usage mistake is reported before the store is opened (or found missing).
    Option.isNone(o.name) && o.discard
      ? usage("--discard needs a branch NAME")
      : Option.isSome(o.name) && Option.isSome(o.instance)
      ? usage("--instance lists an instance's branches: give no NAME")
      : withStore(
        o.store,
        o.format,
        // Listing reads; forking and discarding write.
        Option.isNone(o.name) ? "read" : "write",
        Effect.gen(function*() {
          const store = yield* LedgerStore
          if (Option.isSome(o.instance)) {
            // The instance's branches, as `GET /v1/instances/{id}/branches` lists them.
            const listed = yield* Instances.instanceBranches(store, o.instance.value)
            if (o.format === "json") return yield* Console.log(JSON.stringify({ branches: listed }, null, 2))
            for (const b of listed) {
              yield* Console.log(
                b.parent === null ? b.name : `${b.name}  from ${b.parent} at sequence ${b.forkSequence}`
              )
            }
            return
          }
          if (Option.isNone(o.name)) {
            if (o.discard) return yield* usage("--discard needs a branch NAME")
            const list = yield* store.branches
            if (o.format === "json") return yield* Console.log(JSON.stringify({ branches: list }, null, 2))
            if (list.length === 0) yield* Console.log("(no branches besides main)")
            for (const b of list) yield* Console.log(`${b.name}  from ${b.parent} at sequence ${b.forkSequence}`)
            return
          }
          const name = o.name.value
          if (o.discard) {
            yield* store.discard(name)
            return yield* Console.log(
              o.format === "json" ? JSON.stringify({ ok: true, discarded: name }) : `discarded ${name}`
            )
          }
          const b = yield* store.fork(name, {
            parent: o.from,
            ...(Option.isSome(o.at) ? { atSequence: o.at.value } : {})
          })
          yield* Console.log(
            o.format === "json"
              ? JSON.stringify({ ok: true, branch: b }, null, 2)
              : `${b.name}  from ${b.parent} at sequence ${b.forkSequence}`
          )
        })
      )
).pipe(
  Command.withDescription(
    "List branches (an instance's with --instance), fork one (NAME [--from B] [--at SEQ]), or discard one (NAME --discard)."
  )
)

const renderReport = (store: string, r: VerifyReport): Array<string> => [
  `${store}: ${r.ok ? "ok" : "damaged"} (${r.dialect})`,
  ...r.checks.flatMap((
    c
  ) => [`  ${c.check}: ${c.ok ? "ok" : `${c.problems.length} problem(s)`}`, ...c.problems.map((p) => `    ${p}`)])
]

const verifyCommand = Command.make("verify", { store: storeOption, format: resultFormatOption }, (o) =>
  withStore(
    o.store,
    o.format,
    "read",
    Effect.gen(function*() {
      const report = yield* Effect.flatMap(LedgerStore, (s) => s.verify)
      if (o.format === "json") yield* Console.log(JSON.stringify({ store: o.store, ...report }, null, 2))
      else for (const line of renderReport(o.store, report)) yield* Console.log(line)
      if (!report.ok) return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    })
  )).pipe(
    Command.withDescription(
      "Check the store's integrity (SQLite pages, then its own invariants); exit 1 when damaged."
    ),
    Command.withExit(1, "the store is damaged")
  )

/** The `ledger` command and its subcommands. */
export const ledgerCommand = Command.make("ledger").pipe(
  Command.withDescription("Ledger commands against a store (SQLite file or PostgreSQL)."),
  Command.withSubcommands([
    applyCommand,
    removeCommand,
    replaceCommand,
    showCommand,
    historyCommand,
    replayLedgerCommand,
    branchCommand,
    verifyCommand,
    checkCommand
  ])
)
