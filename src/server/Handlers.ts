/**
 * The handlers of every endpoint of {@link CardfxApi}: thin faces over the
 * public services (the switchable catalog, the planner, the ledger store, the
 * Hallyu Hex games). Each request reads the runtime current when it starts
 * and finishes on it, whatever a reload does meanwhile.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Either, Layer, type ParseResult, Schema } from "effect"
import { type ApiError, apiError, apiErrorOf, CardfxApi } from "../api/Api.js"
import {
  type AssessRequest,
  type DiscoverRequest,
  InspectDocument,
  type InstanceDocument,
  type ReloadReport
} from "../api/Documents.js"
import {
  appendEntry,
  AssessResult,
  type CardfxError,
  type CardLedger,
  CardTransformationPlanner,
  componentOrigins,
  ContentLoader,
  decodeScenario,
  type Diagnostic,
  diagnostic,
  diagnosticFromError,
  type EffectiveCardDefinition,
  emptyLedger,
  Json,
  LedgerStore,
  LiveCatalog,
  MAIN,
  Ordinal,
  resolveEffectiveCard,
  runScenarioWith,
  type Runtime,
  sealById,
  verifyLedger
} from "../services/index.js"
import { Games } from "./Games.js"
import { checkStoredInstances, runtimeInfo } from "./Reload.js"

/** What the handlers need to know about how the server was started. */
export class ServedPackages extends Context.Tag("cardfx/server/ServedPackages")<
  ServedPackages,
  { readonly packages: ReadonlyArray<string>; readonly deckFile: string }
>() {}

const DEFAULT_ACTIVITY = "canonical_command"

const fromError = (e: CardfxError): ApiError => apiError([diagnosticFromError(e)])
const fromDiagnostics = (ds: ReadonlyArray<Diagnostic>): ApiError => apiError(ds)

const requireCard = (runtime: Runtime, cardId: string, path = "/cardId") =>
  runtime.cards.get(cardId) === undefined
    ? Effect.fail(apiErrorOf("unknown_card", `no card ${cardId} is published`, { subject: cardId, path }))
    : Effect.void

/** The ledger a query runs against: a sealed ledger in the body, or empty (stored instances go through the planner). */
const bodyLedger = (body: AssessRequest | DiscoverRequest): Effect.Effect<CardLedger, ApiError> => {
  if (body.ledger === undefined) return Effect.succeed(emptyLedger(body.cardId))
  const verified = verifyLedger(body.ledger)
  if (Either.isLeft(verified)) {
    return Effect.fail(fromDiagnostics(verified.left.map((d) => ({ ...d, path: `/ledger${d.path ?? ""}` }))))
  }
  if (verified.right.cardId !== body.cardId) {
    return Effect.fail(
      apiErrorOf("unknown_card", `the ledger belongs to card ${verified.right.cardId}, not ${body.cardId}`, {
        path: "/ledger/cardId"
      })
    )
  }
  return Effect.succeed(verified.right)
}

const bothSources = (body: AssessRequest | DiscoverRequest) =>
  body.ledger !== undefined && body.instanceId !== undefined
    ? Effect.fail(apiErrorOf("schema_invalid", "give ledger or instanceId, not both", { path: "/ledger" }))
    : Effect.void

/** The `inspect` document of a card with upgrades sealed and appended in order. */
const inspectCard = (runtime: Runtime, cardId: string, upgrades: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const baseCard = runtime.cards.get(cardId)
    if (baseCard === undefined) {
      return yield* Effect.fail(apiErrorOf("unknown_card", `no card ${cardId} is published`, { subject: cardId }))
    }
    let ledger = emptyLedger(cardId)
    for (let i = 0; i < upgrades.length; i++) {
      const upgradeId = upgrades[i] as string
      const sealed = sealById(runtime, upgradeId)
      if (Either.isLeft(sealed)) {
        return yield* Effect.fail(fromDiagnostics(sealed.left.map((d) => ({ ...d, path: `/with/${i}` }))))
      }
      const next = appendEntry(ledger, sealed.right, {
        entryId: `e${ledger.entries.length + 1}`,
        captured: { revision: ledger.revision, sequence: 0, step: 0 }
      })
      if (Either.isLeft(next)) return yield* Effect.fail(fromDiagnostics(next.left))
      ledger = next.right
    }
    const effective = resolveEffectiveCard({ baseCard, ledger, statuses: runtime.statuses })
    if (Either.isLeft(effective)) return yield* Effect.fail(fromDiagnostics(effective.left))
    return {
      ok: true as const,
      inspection: { cardId, ledger, effectiveBase: effective.right, origins: componentOrigins(ledger, effective.right) }
    }
  })

/** Entries kept per runtime; past it the oldest goes (a bound on what hostile query variety can hold). */
const DOCUMENT_CACHE_LIMIT = 512
/** Keys longer than this (a big ledger in the body) are not kept: their documents are computed each time. */
const DOCUMENT_KEY_LIMIT = 16 * 1024

/**
 * Answers of pure queries (`effective`, and `assess` of a ledger in the
 * body), encoded once per runtime: the response is a function of the runtime
 * and the request, so a repeat is the stored bytes, with no planning,
 * resolving or Schema encoding. The runtime is the key of a `WeakMap`: a
 * reload's new runtime starts empty and the old one's entries go with it.
 * Failures are not kept.
 */
const makeDocumentCache = () => {
  const byRuntime = new WeakMap<Runtime, Map<string, HttpServerResponse.HttpServerResponse>>()
  return {
    cached: <A, I, E>(
      runtime: Runtime,
      key: string,
      compute: Effect.Effect<A, E>,
      encode: (a: A) => Effect.Effect<I, ParseResult.ParseError>
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, E> => {
      const entries = byRuntime.get(runtime) ?? new Map<string, HttpServerResponse.HttpServerResponse>()
      byRuntime.set(runtime, entries)
      const hit = entries.get(key)
      if (hit !== undefined) return Effect.succeed(hit)
      return Effect.map(
        // The documents are the endpoints' own success Schemas: an encode failure is a defect, as in the platform.
        Effect.flatMap(compute, (a) => Effect.orDie(encode(a))),
        (encoded) => {
          const response = HttpServerResponse.unsafeJson(encoded)
          if (key.length <= DOCUMENT_KEY_LIMIT) {
            if (entries.size >= DOCUMENT_CACHE_LIMIT) {
              const oldest = entries.keys().next()
              if (oldest.done !== true) entries.delete(oldest.value)
            }
            entries.set(key, response)
          }
          return response
        }
      )
    }
  }
}

const RuntimeLive = HttpApiBuilder.group(CardfxApi, "runtime", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* LiveCatalog
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("runtime", () => Effect.map(catalog.current, runtimeInfo))
  }))

const encodeInspect = Schema.encode(InspectDocument)
const encodeAssess = Schema.encode(AssessResult)

const CardsLive = HttpApiBuilder.group(CardfxApi, "cards", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* LiveCatalog
    const planner = yield* CardTransformationPlanner
    const documents = makeDocumentCache()
    return handlers
      .handle("list", () =>
        Effect.map(catalog.current, (runtime) => ({
          cards: [...runtime.cards.values()]
            .sort((a, b) => Ordinal.compareOrdinal(a.cardId, b.cardId))
            .map((c) => ({ cardId: c.cardId, nameKey: c.metadata.nameKey, cost: c.cost, tags: c.tags ?? [] }))
        })))
      .handle("effective", ({ path, urlParams }) =>
        Effect.flatMap(catalog.current, (runtime) =>
          documents.cached(
            runtime,
            JSON.stringify(["effective", path.cardId, urlParams.with ?? []]),
            inspectCard(runtime, path.cardId, urlParams.with ?? []),
            encodeInspect
          )))
      .handle("assess", ({ payload }) =>
        Effect.gen(function*() {
          const runtime = yield* catalog.current
          yield* bothSources(payload)
          yield* requireCard(runtime, payload.cardId)
          const activity = payload.activity ?? DEFAULT_ACTIVITY
          if (payload.instanceId === undefined) {
            // A pure query (the ledger is in the body, or empty): its answer depends on the runtime and the body only.
            return yield* documents.cached(
              runtime,
              JSON.stringify(["assess", payload]),
              Effect.flatMap(
                bodyLedger(payload),
                (ledger) => planner.assess(runtime, ledger, payload.command, activity)
              ),
              encodeAssess
            )
          }
          return yield* Effect.mapError(
            planner.assessStored(
              runtime,
              { branch: payload.branch ?? MAIN, instanceId: payload.instanceId, cardId: payload.cardId },
              payload.command,
              activity
            ),
            fromError
          )
        }))
      .handle("discover", ({ payload }) =>
        Effect.gen(function*() {
          const runtime = yield* catalog.current
          yield* bothSources(payload)
          yield* requireCard(runtime, payload.cardId)
          const activity = payload.activity ?? DEFAULT_ACTIVITY
          if (payload.instanceId !== undefined) {
            return yield* Effect.mapError(
              planner.discoverStored(runtime, {
                branch: payload.branch ?? MAIN,
                instanceId: payload.instanceId,
                cardId: payload.cardId
              }, activity),
              fromError
            )
          }
          const ledger = yield* bodyLedger(payload)
          return yield* planner.discover(runtime, ledger, activity)
        }))
  }))

const InstancesLive = HttpApiBuilder.group(CardfxApi, "instances", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* LiveCatalog
    const planner = yield* CardTransformationPlanner
    const store = yield* LedgerStore
    const cardOf = (branch: string, instanceId: string) =>
      Effect.flatMap(Effect.mapError(store.history(branch, instanceId), fromError), (events) => {
        const first = events[0]
        return first === undefined
          ? Effect.fail(
            apiErrorOf("unknown_instance", `no stored instance ${instanceId} on branch ${branch}`, {
              subject: instanceId
            })
          )
          : Effect.succeed({ cardId: first.cardId, events })
      })
    return handlers
      .handle("command", ({ path, payload }) =>
        Effect.gen(function*() {
          const runtime = yield* catalog.current
          const outcome = yield* Effect.mapError(
            planner.execute(runtime, {
              commandId: payload.commandId,
              branch: payload.branch ?? MAIN,
              instanceId: path.instanceId,
              cardId: payload.cardId,
              expectedRevision: payload.expectedRevision,
              activity: payload.activity ?? DEFAULT_ACTIVITY,
              command: payload.command
            }),
            fromError
          )
          if (outcome.status === "applied") return outcome
          return yield* Effect.fail(
            fromDiagnostics(
              outcome.diagnostics.length > 0
                ? outcome.diagnostics
                : [diagnostic("transformation_invalid", "the command was rejected")]
            )
          )
        }))
      .handle("get", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const branch = urlParams.branch ?? MAIN
          const { cardId } = yield* cardOf(branch, path.instanceId)
          const state = yield* Effect.mapError(store.read(branch, path.instanceId, cardId), fromError)
          if (state.effective === undefined || state.fingerprint === undefined) {
            return yield* Effect.fail(
              apiErrorOf("unknown_instance", `instance ${path.instanceId} has no effective card`, {
                subject: path.instanceId
              })
            )
          }
          // The store wrote this JSON itself from a resolved card; it is trusted.
          const effective = JSON.parse(state.effective) as EffectiveCardDefinition
          const doc: InstanceDocument = {
            branch,
            instanceId: path.instanceId,
            cardId,
            revision: state.revision,
            sequence: state.lastSequence,
            fingerprint: state.fingerprint,
            ledger: state.ledger,
            effective,
            origins: componentOrigins(state.ledger, effective)
          }
          return doc
        }))
      .handle("history", ({ path, urlParams }) =>
        Effect.map(cardOf(urlParams.branch ?? MAIN, path.instanceId), ({ events }) => ({
          branch: urlParams.branch ?? MAIN,
          instanceId: path.instanceId,
          events
        })))
      .handle("replay", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const branch = urlParams.branch ?? MAIN
          yield* cardOf(branch, path.instanceId)
          const steps = (yield* Effect.mapError(store.replay(branch), fromError))
            .filter((s) =>
              s.instanceId === path.instanceId
            )
            .map((s) => ({ revision: s.revision, sequence: s.sequence, fingerprint: s.fingerprint, stored: s.stored }))
          return { branch, instanceId: path.instanceId, steps, matches: steps.every((s) => s.fingerprint === s.stored) }
        }))
      .handle("createBranch", ({ payload }) =>
        Effect.mapError(
          store.fork(payload.name, {
            ...(payload.parent !== undefined ? { parent: payload.parent } : {}),
            ...(payload.atSequence !== undefined ? { atSequence: payload.atSequence } : {})
          }),
          fromError
        ))
      .handle("branches", () => Effect.map(Effect.mapError(store.branches, fromError), (branches) => ({ branches })))
  }))

const ScenariosLive = HttpApiBuilder.group(CardfxApi, "scenarios", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* LiveCatalog
    return handlers.handle("run", ({ payload }) =>
      Effect.gen(function*() {
        const runtime = yield* catalog.current
        const served = new Set(runtime.pin.packages.map((p) => p.packageId))
        const unknown = payload.packages.flatMap((p, i) =>
          served.has(p)
            ? []
            : [
              diagnostic("unknown_reference", `package ${p} is not served (give a served package ID, not a path)`, {
                path: `/packages/${i}`,
                subject: p
              })
            ]
        )
        if (unknown.length > 0) return yield* Effect.fail(fromDiagnostics(unknown))
        // The body was decoded already; decodeScenario adds the in-document reference checks.
        const doc = Json.parseJson(JSON.stringify(payload))
        if (Either.isLeft(doc)) return yield* Effect.fail(fromDiagnostics([doc.left]))
        const scenario = decodeScenario(doc.right)
        if (Either.isLeft(scenario)) return yield* Effect.fail(fromDiagnostics(scenario.left))
        const report = runScenarioWith(runtime, scenario.right)
        if (Either.isLeft(report)) return yield* Effect.fail(fromDiagnostics(report.left))
        return { ok: true as const, runs: 1, report: report.right }
      }))
  }))

const HhxLive = HttpApiBuilder.group(CardfxApi, "hhx", (handlers) =>
  Effect.gen(function*() {
    const games = yield* Games
    return handlers
      .handle("deck", () => Effect.succeed(games.engine.deck))
      .handle("create", ({ payload }) => games.create(payload))
      .handle("act", ({ path, payload }) => games.act(path.gameId, payload))
      .handle("get", ({ path }) => games.get(path.gameId))
      .handle("log", ({ path }) => games.log(path.gameId))
      .handle("explain", ({ path, urlParams }) => games.explain(path.gameId, urlParams.actionId))
  }))

/** Loads the served folders again and switches to them when every stored instance still composes. */
export const reload = Effect.gen(function*() {
  const catalog = yield* LiveCatalog
  const loader = yield* ContentLoader
  const store = yield* LedgerStore
  const { packages } = yield* ServedPackages
  const report = yield* loader.report(packages)
  if (report.runtime === undefined) return yield* Effect.fail(fromDiagnostics(report.diagnostics))
  const candidate = report.runtime
  const { broken, checked } = yield* Effect.mapError(checkStoredInstances(store, candidate), fromError)
  if (broken.length > 0) {
    return yield* Effect.fail(
      fromDiagnostics([
        diagnostic(
          "reload_rejected",
          `${broken.length} stored instance(s) would not compose; the old runtime is still served`,
          {
            details: { broken: broken.length, checked }
          }
        ),
        ...broken.map((b) =>
          diagnostic(b.code, b.message, {
            subject: b.instanceId,
            details: { instanceId: b.instanceId, cardId: b.cardId, branch: b.branch }
          })
        )
      ])
    )
  }
  yield* catalog.set(candidate)
  const out: ReloadReport = { switched: true, runtime: runtimeInfo(candidate), checked, broken: [] }
  return out
})

const AdminLive = HttpApiBuilder.group(CardfxApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<LiveCatalog | ContentLoader | LedgerStore | ServedPackages>()
    return handlers.handle("reload", () => Effect.provide(reload, context))
  }))

/** Every group's handlers. */
export const HandlersLive = Layer.mergeAll(RuntimeLive, CardsLive, InstancesLive, ScenariosLive, HhxLive, AdminLive)
