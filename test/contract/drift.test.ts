/**
 * The drift table: one mistake, one code, on every face. Each row is one
 * request run through the library (the services, as an embedder builds them:
 * `Served.layer`, the content loader, the card service's ledger reader, the
 * scale-out port), the CLI (in process, through the same `runCardfx` and
 * composition root the bin runs: test/cli/contract.test.ts covers the bin's
 * own process contract) and HTTP (one server for the file). Every face must
 * answer with the same code, and a failure must end with the code table's
 * exit class (CLI) and HTTP status (server). A face that cannot say a
 * request (HTTP has no file paths; the CLI has no game sessions) is named in
 * the row with the reason.
 */
import type { FileSystem } from "@effect/platform"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, Option, Scope } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import * as Root from "../../src/bin/Root.js"
import { rootCommand } from "../../src/cli/Cli.js"
import { commands } from "../../src/cli/commands.js"
import {
  type CardLedger,
  Cards,
  ContentLoader,
  type DiagnosticCode,
  exitClassOf,
  Games,
  httpStatusOf,
  Instances,
  isCardfxError,
  ScaleOut,
  Scenarios,
  Served
} from "../../src/services/index.js"
import { type Running, startServer } from "../server/support.js"
import { runArgs } from "../support/cli.js"

const BASE = "data/heroscript.base"
const DECK = "data/hallyu-hex/starter-deck.v0.json"
const AFFINITY = "core.ember.affinity"

type Services =
  | Cards.Cards
  | Instances.Instances
  | Games.Games
  | Scenarios.Scenarios
  | ContentLoader
  | ScaleOut
  | FileSystem.FileSystem

type Face = "lib" | "cli" | "http"

interface Row {
  readonly name: string
  readonly code: DiagnosticCode | "ok"
  readonly lib?: Effect.Effect<unknown, unknown, Services>
  readonly cli?: ReadonlyArray<string>
  readonly http?: {
    readonly method: "GET" | "POST"
    readonly path: string
    readonly body?: unknown
    /** The body as sent, when it is not JSON. */
    readonly raw?: string
    readonly headers?: Record<string, string>
  }
  /** Why a face cannot say this request (every face a row lacks is named here). */
  readonly without?: Partial<Record<Face, string>>
}

const dir = mkdtempSync(join(tmpdir(), "cardfx-drift-"))
/** The library's store: the CLI's `ledger show|history` read the same file. */
const LIB_STORE = join(dir, "lib.db")
const file = (name: string, value: unknown): string => {
  const path = join(dir, name)
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2))
  return path
}

// ---------------------------------------------------------------- the faces

/** The code a value answers with: a failure's code, an incompatible assessment's first code, else "ok". */
const codeOfAnswer = (value: unknown): string => {
  if (typeof value !== "object" || value === null) return "ok"
  if ("ok" in value && value.ok === false && "diagnostics" in value && Array.isArray(value.diagnostics)) {
    return String((value.diagnostics[0] as { code?: string } | undefined)?.code)
  }
  if ("isCompatible" in value && value.isCompatible === false && "diagnostics" in value) {
    return Array.isArray(value.diagnostics) ? String((value.diagnostics[0] as { code?: string })?.code) : "?"
  }
  // A rejected ledger command (`cardfx ledger apply` prints the recorded outcome): its first diagnostic.
  if ("status" in value && value.status === "rejected" && "diagnostics" in value && Array.isArray(value.diagnostics)) {
    return String((value.diagnostics[0] as { code?: string } | undefined)?.code)
  }
  return "ok"
}

const runLib = (services: Layer.Layer<Services>, e: Effect.Effect<unknown, unknown, Services>) =>
  Effect.runPromiseExit(Effect.provide(e, services)).then((exit) => {
    if (Exit.isSuccess(exit)) return codeOfAnswer(exit.value)
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure) && isCardfxError(failure.value)) {
      // Every failure carries all of its diagnostics, the one it stands for first.
      expect(failure.value.diagnostics[0].code).toBe(failure.value.code)
      return failure.value.code
    }
    return `defect: ${Cause.pretty(exit.cause).slice(0, 200)}`
  })

const cli = rootCommand(commands)

/** A command line run in process as the bin runs it, with `--format json` (one JSON document on stdout). */
const runCli = async (args: ReadonlyArray<string>) => {
  const r = await runArgs(cli, [...args, "--format", "json"])
  try {
    return { code: codeOfAnswer(JSON.parse(r.out)), exit: r.code }
  } catch {
    return { code: `unparsed: ${r.all.slice(0, 200)}`, exit: r.code }
  }
}

const runHttp = (url: string, r: NonNullable<Row["http"]>) =>
  fetch(`${url}${r.path}`, {
    method: r.method,
    headers: {
      ...(r.body !== undefined || r.raw !== undefined ? { "content-type": "application/json" } : {}),
      ...r.headers
    },
    ...(r.body !== undefined || r.raw !== undefined ? { body: r.raw ?? JSON.stringify(r.body) } : {})
  }).then(async (res) => {
    const body: unknown = await res.json()
    const code = res.status >= 400 && typeof body === "object" && body !== null && "code" in body
      ? String(body.code)
      : codeOfAnswer(body)
    return { code, status: res.status }
  })

// ---------------------------------------------------------------- the rows

const cards = <A, E>(f: (c: Cards.CardsService) => Effect.Effect<A, E>) => Effect.flatMap(Cards.Cards, f)
const instances = <A, E>(f: (c: Instances.InstancesService) => Effect.Effect<A, E>) =>
  Effect.flatMap(Instances.Instances, f)
const games = <A, E>(f: (c: Games.GamesService) => Effect.Effect<A, E>) => Effect.flatMap(Games.Games, f)
const scenarios = <A, E>(f: (c: Scenarios.ScenariosService) => Effect.Effect<A, E>) =>
  Effect.flatMap(Scenarios.Scenarios, f)

const apply = (upgradeId: string) => ({ kind: "apply" as const, upgradeId })
const given = (ledger: CardLedger, path?: string): Cards.LedgerSource => ({
  _tag: "Given",
  ledger,
  ...(path !== undefined ? { file: path } : {})
})
/** A ledger file as the library reads it (the reader `--ledger` uses), then a query over it. */
const withLedgerFile = <A, E, R>(path: string, f: (source: Cards.LedgerSource) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Cards.readLedgerFile(path), (g) => f({ _tag: "Given", ...g }))
const discoverWith = (path: string) =>
  withLedgerFile(
    path,
    (source) => cards((c) => c.discover({ cardId: "basic_attack", activity: "canonical_command", source }))
  )
const assessWith = (path: string) =>
  withLedgerFile(
    path,
    (source) =>
      cards((c) =>
        c.assess({ cardId: "basic_attack", command: apply(AFFINITY), activity: "canonical_command", source })
      )
  )

/** A card query: the operation, its card and what else it names. */
interface Query {
  readonly op: "inspect" | "assess" | "discover"
  readonly card: string
  readonly with?: ReadonlyArray<string>
  readonly command?: { readonly kind: "apply"; readonly upgradeId: string } | {
    readonly kind: "remove"
    readonly entryId: string
  } | { readonly kind: "replace"; readonly entryId: string; readonly upgradeId: string }
  readonly activity?: string
  readonly ledger?: { readonly value: CardLedger; readonly file: string }
}

/** Why HTTP cannot say a request about files: it takes documents, never paths. */
const NO_PATHS = "HTTP takes documents, never file paths"

const rowsOf = (ledgers: { readonly heal: CardLedger; readonly attack: CardLedger }): Array<Row> => {
  const healFile = file("heal-ledger.json", ledgers.heal)
  const attackFile = file("attack-ledger.json", ledgers.attack)
  const tampered: CardLedger = {
    ...ledgers.attack,
    entries: ledgers.attack.entries.map((e) => ({ ...e, sealHash: "0".repeat(64) }))
  }
  const tamperedFile = file("tampered-ledger.json", tampered)
  const extraFile = file("extra-ledger.json", { ...ledgers.attack, extra: 1 })
  const deckAsLedger = file("deck.json", JSON.parse(JSON.stringify(readDeck())))
  const notJson = file("not-json.json", "{ nope")
  const P = ["--package", BASE]

  /** A card query on all three faces. */
  const query = (name: string, code: DiagnosticCode | "ok", q: Query): Row => {
    const activity = q.activity ?? "canonical_command"
    const source: Cards.LedgerSource = q.ledger === undefined ? Cards.noLedger : given(q.ledger.value, q.ledger.file)
    const ledgerArgs = q.ledger === undefined ? [] : ["--ledger", q.ledger.file]
    const activityArgs = q.activity === undefined ? [] : ["--activity", q.activity]
    if (q.op === "inspect") {
      return {
        name,
        code,
        lib: cards((c) => c.inspect({ cardId: q.card, upgrades: q.with ?? [] })),
        cli: ["inspect", ...P, "--card", q.card, ...(q.with ?? []).flatMap((w) => ["--with", w])],
        http: {
          method: "GET",
          path: `/v1/cards/${encodeURIComponent(q.card)}/effective${
            (q.with ?? []).length > 0 ? `?${(q.with ?? []).map((w) => `with=${encodeURIComponent(w)}`).join("&")}` : ""
          }`
        }
      }
    }
    const body = {
      cardId: q.card,
      ...(q.activity !== undefined ? { activity: q.activity } : {}),
      ...(q.ledger !== undefined ? { ledger: q.ledger.value } : {})
    }
    if (q.op === "discover") {
      return {
        name,
        code,
        lib: cards((c) => c.discover({ cardId: q.card, activity, source })),
        cli: ["discover", ...P, "--card", q.card, ...ledgerArgs, ...activityArgs],
        http: { method: "POST", path: "/v1/discover", body }
      }
    }
    const command = q.command ?? apply(AFFINITY)
    const commandArgs = command.kind === "apply"
      ? ["--apply", command.upgradeId]
      : command.kind === "remove"
      ? ["--remove", command.entryId]
      : ["--replace", command.entryId, "--with", command.upgradeId]
    return {
      name,
      code,
      lib: cards((c) => c.assess({ cardId: q.card, command, activity, source })),
      cli: ["assess", ...P, "--card", q.card, ...commandArgs, ...ledgerArgs, ...activityArgs],
      http: { method: "POST", path: "/v1/assess", body: { ...body, command } }
    }
  }

  const heal = { value: ledgers.heal, file: healFile }
  const attack = { value: ledgers.attack, file: attackFile }
  const rows: Array<Row> = []
  for (const op of ["inspect", "assess", "discover"] as const) {
    rows.push(query(`${op}: a card that is published`, "ok", { op, card: "basic_attack" }))
    rows.push(query(`${op}: an unknown card`, "unknown_card", { op, card: "nope" }))
    rows.push(query(`${op}: a card ID in another case`, "unknown_card", { op, card: "Basic_Attack" }))
  }
  for (const op of ["assess", "discover"] as const) {
    rows.push(
      query(`${op}: a ledger of another card`, "invalid_composition", { op, card: "basic_attack", ledger: heal })
    )
    // Its own ledger already holds the affinity: discovery answers, applying it again finds the slot full.
    rows.push(query(`${op}: the card's own ledger`, op === "assess" ? "slot_full" : "ok", {
      op,
      card: "basic_attack",
      ledger: attack
    }))
    rows.push(query(`${op}: an unknown activity`, "unknown_activity", { op, card: "basic_attack", activity: "nope" }))
    rows.push(query(`${op}: an unknown card and activity`, "unknown_card", { op, card: "nope", activity: "nope" }))
  }
  rows.push(query("inspect: an unknown upgrade", "unknown_transformation", {
    op: "inspect",
    card: "basic_attack",
    with: ["nope"]
  }))
  rows.push(query("inspect: a known upgrade", "ok", { op: "inspect", card: "basic_attack", with: [AFFINITY] }))
  // Inspect seals and appends without the planner's policy: the second affinity collides in the composition.
  rows.push(query("inspect: the same upgrade twice", "component_collision", {
    op: "inspect",
    card: "basic_attack",
    with: [AFFINITY, AFFINITY]
  }))
  rows.push(query("assess: apply an unknown upgrade", "unknown_transformation", {
    op: "assess",
    card: "basic_attack",
    command: apply("nope")
  }))
  rows.push(query("assess: replace with an unknown upgrade", "unknown_transformation", {
    op: "assess",
    card: "basic_attack",
    command: { kind: "replace", entryId: "e1", upgradeId: "nope" },
    ledger: attack
  }))
  rows.push(query("assess: remove an entry the ledger lacks", "entry_not_found", {
    op: "assess",
    card: "basic_attack",
    command: { kind: "remove", entryId: "e9" }
  }))
  rows.push(query("assess: an upgrade the activity does not authorize", "not_authorized", {
    op: "assess",
    card: "basic_attack",
    activity: "journey_opportunity"
  }))
  rows.push(query("assess: the slot is full", "slot_full", { op: "assess", card: "basic_attack", ledger: attack }))

  // Ledger files and bodies that are not sound ledgers (the CLI reads a file, HTTP a body).
  rows.push({
    name: "assess: a tampered ledger",
    code: "unsealed_definition",
    lib: cards((c) =>
      c.assess({
        cardId: "basic_attack",
        command: apply(AFFINITY),
        activity: "canonical_command",
        source: given(tampered)
      })
    ),
    cli: ["assess", ...P, "--card", "basic_attack", "--apply", AFFINITY, "--ledger", tamperedFile],
    http: {
      method: "POST",
      path: "/v1/assess",
      body: { cardId: "basic_attack", command: apply(AFFINITY), ledger: tampered }
    }
  })
  rows.push({
    name: "discover: a tampered ledger",
    code: "unsealed_definition",
    lib: cards((c) => c.discover({ cardId: "basic_attack", activity: "canonical_command", source: given(tampered) })),
    cli: ["discover", ...P, "--card", "basic_attack", "--ledger", tamperedFile],
    http: { method: "POST", path: "/v1/discover", body: { cardId: "basic_attack", ledger: tampered } }
  })
  rows.push({
    name: "assess: a ledger with a field it does not declare",
    code: "unknown_field",
    lib: assessWith(extraFile),
    cli: ["assess", ...P, "--card", "basic_attack", "--apply", AFFINITY, "--ledger", extraFile],
    http: {
      method: "POST",
      path: "/v1/assess",
      body: { cardId: "basic_attack", command: apply(AFFINITY), ledger: { ...ledgers.attack, extra: 1 } }
    }
  })
  rows.push({
    name: "discover: a body field that is not declared",
    code: "unknown_field",
    lib: discoverWith(extraFile),
    cli: ["discover", ...P, "--card", "basic_attack", "--ledger", extraFile],
    http: {
      method: "POST",
      path: "/v1/discover",
      body: { cardId: "basic_attack", ledger: { ...ledgers.attack, extra: 1 } }
    }
  })
  rows.push({
    name: "assess --ledger: a file of another document kind (a deck)",
    code: "schema_invalid",
    lib: assessWith(deckAsLedger),
    cli: ["assess", ...P, "--card", "basic_attack", "--apply", AFFINITY, "--ledger", deckAsLedger],
    without: { http: `${NO_PATHS}; a body's ledger is decoded by its field's Schema (another row)` }
  })
  rows.push({
    name: "replay: a file of another document kind (a deck)",
    code: "schema_invalid",
    cli: ["replay", DECK],
    without: {
      lib: "game logs are read by the CLI's replay (Hallyu.replay takes a decoded log)",
      http: `${NO_PATHS}; no route replays a game log`
    }
  })
  rows.push({
    name: "discover --ledger: not JSON",
    code: "json_syntax",
    lib: discoverWith(notJson),
    cli: ["discover", ...P, "--card", "basic_attack", "--ledger", notJson],
    http: { method: "POST", path: "/v1/discover", raw: "{ nope" }
  })
  rows.push({
    name: "inspect: a package folder that does not exist",
    code: "file_unreadable",
    lib: Effect.flatMap(ContentLoader, (loader) => loader.load(["data/heroscript"])),
    cli: ["inspect", "--package", "data/heroscript", "--card", "basic_attack"],
    without: { http: `${NO_PATHS}: the server publishes the folders it was started with` }
  })
  rows.push({
    name: "validate: a package folder that does not exist",
    code: "file_unreadable",
    lib: Effect.map(
      Effect.flatMap(ScaleOut, (scale) => scale.validate(["data/heroscript"], { workers: 1 })),
      (report) => ({ ok: !report.diagnostics.some((d) => d.severity === "error"), diagnostics: report.diagnostics })
    ),
    cli: ["validate", "data/heroscript"],
    without: { http: `${NO_PATHS}; no route validates folders` }
  })
  rows.push({
    name: "simulate --cluster: not a PostgreSQL URL",
    code: "usage_error",
    cli: ["simulate", "--games", "1", "--cluster", "http://x"],
    without: {
      lib: "a command-line check of --cluster (the library's Clustering port takes the URL it is given)",
      http: "no route simulates"
    }
  })

  // Stored instances and games (the library and HTTP).
  rows.push({
    name: "history of an unknown instance",
    code: "unknown_instance",
    lib: instances((i) => i.history("ghost")),
    cli: ["ledger", "history", "--card", "ghost", "--store", LIB_STORE],
    http: { method: "GET", path: "/v1/instances/ghost/history" }
  })
  rows.push({
    name: "history on an unknown branch",
    code: "branch_not_found",
    lib: instances((i) => i.history("ghost", "nope")),
    cli: ["ledger", "history", "--card", "ghost", "--branch", "nope", "--store", LIB_STORE],
    http: { method: "GET", path: "/v1/instances/ghost/history?branch=nope" }
  })
  rows.push({
    name: "state of an unknown instance",
    code: "unknown_instance",
    lib: instances((i) => i.get("ghost")),
    cli: ["ledger", "show", "--card", "ghost", "--store", LIB_STORE],
    http: { method: "GET", path: "/v1/instances/ghost" }
  })
  // IDs: 1..128 characters on every face; a longer one is `invalid_id` (the path, the query and the body alike).
  const LONG = "i".repeat(129)
  rows.push({
    name: "state of an instance whose ID is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.get(LONG)),
    cli: ["ledger", "show", "--card", LONG, "--store", LIB_STORE],
    http: { method: "GET", path: `/v1/instances/${LONG}` }
  })
  rows.push({
    name: "history of an instance whose ID is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.history(LONG)),
    cli: ["ledger", "history", "--card", LONG, "--store", LIB_STORE],
    http: { method: "GET", path: `/v1/instances/${LONG}/history` }
  })
  rows.push({
    name: "history on a branch whose name is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.history("ghost", LONG)),
    cli: ["ledger", "history", "--card", "ghost", "--branch", LONG, "--store", LIB_STORE],
    http: { method: "GET", path: `/v1/instances/ghost/history?branch=${LONG}` }
  })
  rows.push({
    name: "branches of an instance that exists on no branch",
    code: "unknown_instance",
    lib: instances((i) => i.branches("ghost")),
    cli: ["ledger", "branch", "--instance", "ghost", "--store", LIB_STORE],
    http: { method: "GET", path: "/v1/instances/ghost/branches" }
  })
  rows.push({
    name: "branches of an instance whose ID is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.branches(LONG)),
    cli: ["ledger", "branch", "--instance", LONG, "--store", LIB_STORE],
    http: { method: "GET", path: `/v1/instances/${LONG}/branches` }
  })
  rows.push({
    name: "a game that does not exist",
    code: "unknown_game",
    lib: games((g) => g.get("g999", Games.anonymous)),
    http: { method: "GET", path: "/v1/hhx/games/g999" },
    without: { cli: GAMES }
  })
  rows.push({
    name: "an action on a game that does not exist",
    code: "unknown_game",
    lib: games((g) => g.act("g999", { actionId: "pass", expectedStep: 0 }, { operator: false, secret: "s" })),
    http: {
      method: "POST",
      path: "/v1/hhx/games/g999/actions",
      body: { actionId: "pass", expectedStep: 0 },
      headers: { "x-seat-secret": "s" }
    },
    without: { cli: GAMES }
  })
  return rows.concat(requestIdRows(query))
}

/**
 * IDs a request names are 1..128 characters on every face (content declares
 * at most 64): one of 100 characters that names nothing is the field's
 * not-found code, one of 129 is `invalid_id` (the library's own check, the
 * CLI's through it, HTTP's request Schema).
 */
const MID = "m".repeat(100)
const OVER = "o".repeat(129)

const requestIdRows = (query: (name: string, code: DiagnosticCode | "ok", q: Query) => Row): Array<Row> => {
  const P = ["--package", BASE]
  const rows: Array<Row> = []
  for (const op of ["inspect", "assess", "discover"] as const) {
    rows.push(query(`${op}: a card ID of 100 characters`, "unknown_card", { op, card: MID }))
    rows.push(query(`${op}: a card ID of 129 characters`, "invalid_id", { op, card: OVER }))
  }
  rows.push(query("inspect: an upgrade ID of 100 characters", "unknown_transformation", {
    op: "inspect",
    card: "basic_attack",
    with: [MID]
  }))
  rows.push(query("inspect: an upgrade ID of 129 characters", "invalid_id", {
    op: "inspect",
    card: "basic_attack",
    with: [OVER]
  }))
  rows.push(query("assess: apply an upgrade ID of 100 characters", "unknown_transformation", {
    op: "assess",
    card: "basic_attack",
    command: apply(MID)
  }))
  rows.push(query("assess: apply an upgrade ID of 129 characters", "invalid_id", {
    op: "assess",
    card: "basic_attack",
    command: apply(OVER)
  }))
  rows.push(query("assess: remove an entry ID of 100 characters", "entry_not_found", {
    op: "assess",
    card: "basic_attack",
    command: { kind: "remove", entryId: MID }
  }))
  rows.push(query("assess: remove an entry ID of 129 characters", "invalid_id", {
    op: "assess",
    card: "basic_attack",
    command: { kind: "remove", entryId: OVER }
  }))
  for (const op of ["assess", "discover"] as const) {
    rows.push(query(`${op}: an activity of 100 characters`, "unknown_activity", {
      op,
      card: "basic_attack",
      activity: MID
    }))
    rows.push(query(`${op}: an activity of 129 characters`, "invalid_id", { op, card: "basic_attack", activity: OVER }))
  }
  rows.push({
    name: "discover: a stored instance ID of 129 characters",
    code: "invalid_id",
    lib: cards((c) =>
      c.discover({
        cardId: "basic_attack",
        activity: "canonical_command",
        source: { _tag: "Stored", instanceId: OVER }
      })
    ),
    cli: ["discover", ...P, "--card", "basic_attack", "--store", LIB_STORE, "--instance", OVER],
    http: { method: "POST", path: "/v1/discover", body: { cardId: "basic_attack", instanceId: OVER } }
  })

  // Ledger commands on a stored instance: the store's own check (the CLI's `ledger apply` and HTTP alike).
  const command = (
    name: string,
    code: DiagnosticCode,
    c: {
      readonly commandId: string
      readonly cardId: string
      readonly upgradeId: string
      readonly activity?: string
    }
  ): Row => ({
    name,
    code,
    lib: instances((i) =>
      i.command({
        instanceId: "drift-cmd",
        cardId: c.cardId,
        commandId: c.commandId,
        expectedRevision: 0,
        command: apply(c.upgradeId),
        activity: c.activity
      })
    ),
    cli: [
      "ledger",
      "apply",
      c.upgradeId,
      ...P,
      "--card",
      c.cardId,
      "--instance",
      "drift-cmd",
      "--expected-revision",
      "0",
      "--command-id",
      c.commandId,
      ...(c.activity === undefined ? [] : ["--activity", c.activity]),
      "--store",
      LIB_STORE
    ],
    http: {
      method: "POST",
      path: "/v1/instances/drift-cmd/commands",
      body: {
        commandId: c.commandId,
        cardId: c.cardId,
        expectedRevision: 0,
        command: apply(c.upgradeId),
        ...(c.activity === undefined ? {} : { activity: c.activity })
      }
    }
  })
  const base = { cardId: "basic_attack", upgradeId: AFFINITY }
  // Rejected, and recorded under its command ID (the library and the CLI share a store: two IDs).
  rows.push(command("ledger command: a card ID of 100 characters", "unknown_card", {
    commandId: "drift-card-100",
    cardId: MID,
    upgradeId: AFFINITY
  }))
  rows.push(command("ledger command: a card ID of 129 characters", "invalid_id", {
    ...base,
    commandId: "drift-c1",
    cardId: OVER
  }))
  rows.push(command("ledger command: an upgrade ID of 129 characters", "invalid_id", {
    ...base,
    commandId: "drift-c2",
    upgradeId: OVER
  }))
  rows.push(command("ledger command: an activity of 129 characters", "invalid_id", {
    ...base,
    commandId: "drift-c3",
    activity: OVER
  }))
  rows.push(command("ledger command: a command ID of 129 characters", "invalid_id", { ...base, commandId: OVER }))

  // Branches: forking (name, parent), listing an instance's, replaying one.
  const fork = (name: string, code: DiagnosticCode, branch: string, parent: string): Row => ({
    name,
    code,
    lib: instances((i) => i.createBranch(branch, { parent })),
    cli: ["ledger", "branch", branch, "--from", parent, "--store", LIB_STORE],
    http: { method: "POST", path: "/v1/instances/ghost/branches", body: { name: branch, parent } }
  })
  rows.push(fork("fork: a parent branch of 100 characters", "branch_not_found", "drift-b", MID))
  rows.push(fork("fork: a parent branch of 129 characters", "invalid_id", "drift-b", OVER))
  rows.push(fork("fork: a branch name of 129 characters", "invalid_id", OVER, "main"))
  rows.push({
    name: "branches of an instance whose ID is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.branches(OVER)),
    http: { method: "GET", path: `/v1/instances/${OVER}/branches` },
    without: { cli: "`ledger branch` lists the store's branches; it names no instance" }
  })
  rows.push({
    name: "replay of an instance whose ID is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.replay(OVER)),
    http: { method: "GET", path: `/v1/instances/${OVER}/replay` },
    without: { cli: "`ledger replay` replays whole branches; it names no instance" }
  })
  rows.push({
    name: "replay on a branch whose name is over 128 characters",
    code: "invalid_id",
    lib: instances((i) => i.replay("ghost", OVER)),
    cli: ["ledger", "replay", "--branch", OVER, "--store", LIB_STORE],
    http: { method: "GET", path: `/v1/instances/ghost/replay?branch=${OVER}` }
  })

  // Games: the game ID and the deck lists.
  rows.push({
    name: "a game ID of 100 characters",
    code: "unknown_game",
    lib: games((g) => g.get(MID, Games.anonymous)),
    http: { method: "GET", path: `/v1/hhx/games/${MID}` },
    without: { cli: GAMES }
  })
  rows.push({
    name: "a game ID of 129 characters",
    code: "invalid_id",
    lib: games((g) => g.get(OVER, Games.anonymous)),
    http: { method: "GET", path: `/v1/hhx/games/${OVER}` },
    without: { cli: GAMES }
  })
  for (const [length, id, code] of [[100, MID, "unknown_reference"], [129, OVER, "invalid_id"]] as const) {
    rows.push({
      name: `a new game with a deck list ID of ${length} characters`,
      code,
      lib: games((g) => g.create({ seed: 1, decks: [id, id] })),
      http: { method: "POST", path: "/v1/hhx/games", body: { seed: 1, decks: [id, id] } },
      without: { cli: GAMES }
    })
  }

  // A scenario run over HTTP names served packages by ID.
  for (const [length, id, code] of [[100, MID, "unknown_reference"], [129, OVER, "invalid_id"]] as const) {
    const document = {
      scenario: 1,
      packages: [id],
      seed: 1,
      state: { turn: 1, activeSide: "ally", characters: [{ characterId: "hero", side: "ally", hp: 3, maxHp: 4 }] },
      steps: []
    }
    rows.push({
      name: `a scenario naming a served package ID of ${length} characters`,
      code,
      lib: scenarios((sc) => sc.runServed(document)),
      http: { method: "POST", path: "/v1/scenarios/run", body: document },
      without: { cli: "`cardfx run` names package folders (paths), not served package IDs" }
    })
  }
  return rows
}

/** Why the CLI cannot say a request about a game session: it has none. */
const GAMES = "the CLI has no Hallyu Hex game sessions (simulate and replay play whole games)"

const readDeck = (): unknown => JSON.parse(readFileSync(DECK, "utf8"))

// ---------------------------------------------------------------- the run

describe("the drift table: one code per mistake on every face", () => {
  let server: Running | undefined
  let services: Layer.Layer<Services> | undefined
  let scope: Scope.CloseableScope | undefined

  beforeAll(async () => {
    server = await startServer({ store: join(mkdtempSync(join(tmpdir(), "cardfx-drift-srv-")), "ledger.db") })
    // The served services, the content loader and the scale-out port (on worker threads, as the bin provides it).
    const layer = Layer.mergeAll(
      Served.layer({ packages: [BASE], store: LIB_STORE, deckFile: DECK }),
      ContentLoader.layer,
      Root.layer
    ).pipe(Layer.provideMerge(NodeContext.layer), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
    scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    services = Layer.succeedContext(context)
  })
  afterAll(async () => {
    await server?.close()
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("holds on the library, the CLI and HTTP", { timeout: 120_000 }, async () => {
    const layer = services as Layer.Layer<Services>
    const url = (server as Running).url
    const heal = await Effect.runPromise(
      Effect.provide(cards((c) => c.inspect({ cardId: "heal", upgrades: [AFFINITY] })), layer)
    )
    const attack = await Effect.runPromise(
      Effect.provide(cards((c) => c.inspect({ cardId: "basic_attack", upgrades: [AFFINITY] })), layer)
    )
    const rows = rowsOf({ heal: heal.ledger, attack: attack.ledger })
    expect(rows.length).toBeGreaterThanOrEqual(40)
    // Every face a row lacks is named with the reason it cannot say the request, and only those.
    const faces: ReadonlyArray<Face> = ["lib", "cli", "http"]
    expect(
      rows.flatMap((row) =>
        faces.filter((f) => (row[f] === undefined) === ((row.without?.[f] ?? "") === "")).map((f) =>
          `${row.name}: ${f}`
        )
      )
    ).toEqual([])
    // One row at a time: the in-process CLI captures the console while it runs.
    const results: Array<{ row: string; lib: unknown; cli: unknown; http: unknown }> = []
    for (const row of rows) {
      const lib = row.lib === undefined ? undefined : await runLib(layer, row.lib)
      const cli = row.cli === undefined ? undefined : await runCli(row.cli)
      const http = row.http === undefined ? undefined : await runHttp(url, row.http)
      results.push({ row: row.name, lib, cli, http })
    }
    const expected = rows.map((row) => {
      const failing = row.code !== "ok" && !["not_authorized", "slot_full", "entry_not_found"].includes(row.code) ||
        row.cli?.[0] === "inspect"
      const code = row.code
      return {
        row: row.name,
        lib: row.lib === undefined ? undefined : code,
        cli: row.cli === undefined
          ? undefined
          : { code, exit: code === "ok" ? 0 : code === "usage_error" ? 2 : failing ? exitClassOf(code) : 1 },
        http: row.http === undefined
          ? undefined
          : { code, status: code === "ok" || !failing ? 200 : httpStatusOf(code) }
      }
    })
    expect(results).toEqual(expected)
  })
})
