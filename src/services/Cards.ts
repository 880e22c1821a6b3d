/**
 * `Cards`: the card queries every face offers, in one implementation —
 * `inspect` (the effective card of a ledger with transformations sealed and
 * appended in order: `cardfx inspect`, `GET /v1/cards/{id}/effective`),
 * `assess` and `discover` (`CardTransformationPlanner.Assess` and the
 * discovery, against a caller-supplied sealed ledger, a stored instance or an
 * empty ledger), and the card list. Each query reads the runtime current when
 * it starts (a {@link LiveCatalog}) and finishes on it.
 *
 * The IDs a query names are request IDs (`RequestId`: 1..128 characters of
 * the ID syntax), checked first: `invalid_id` otherwise, on every face.
 * Unknown references are failures, the same on every face: a card the
 * runtime does not publish is `unknown_card`, a transformation it does not
 * publish `unknown_transformation`, an activity it does not declare
 * `unknown_activity`; a caller-supplied ledger of another card is
 * `invalid_composition` (the card exists; composing that ledger onto it is
 * what is invalid). Policy results (not eligible, not authorized, slot full,
 * ...) are the assessment's answer, not failures.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Context, Effect, Either, Layer, Option } from "effect"
import { sealById, sealErrors } from "../composition/BundleCompiler.js"
import { type CardInspection, componentOrigins } from "../composition/Effective.js"
import { commandIds } from "../composition/ledger/Command.js"
import { appendEntry, CardLedger, emptyLedger, verifyLedger } from "../composition/ledger/Ledger.js"
import {
  type AssessResult,
  discover,
  type Discovery,
  type LedgerCommand,
  plan,
  type PlanAt
} from "../composition/planner/Plan.js"
import { type PlanningCache, PlanningCaches, SharedPlanningCaches } from "../composition/planner/PlanningCache.js"
import { resolveEffectiveCard, resolveErrors } from "../composition/Resolver.js"
import type { Runtime } from "../composition/Runtime.js"
import type { Card } from "../composition/schema/Card.js"
import { invalidRequestId } from "../composition/schema/Symbols.js"
import { LedgerStore, MAIN } from "../composition/store/LedgerStore.js"
import { makeDecoder } from "../kernel/Decode.js"
import { type Diagnostic, diagnostic, type DiagnosticContext, withContext } from "../kernel/Diagnostic.js"
import { type ChannelError, codesOf, domainChannel, errorChannel } from "../kernel/ErrorChannel.js"
import {
  type BranchNotFound,
  errorOf,
  type InvalidComposition,
  type InvalidId,
  type StoreCorrupt,
  type StoreFailure,
  type UnknownActivity,
  type UnknownCard,
  type UnknownTransformation
} from "../kernel/Errors.js"
import { readJsonFile } from "../kernel/JsonFile.js"
import { compareOrdinal } from "../kernel/Ordinal.js"
import { traced } from "../kernel/Tracing.js"
import { LiveCatalog } from "./Catalog.js"
import { wrongKind } from "./DocumentKinds.js"

/** A caller-supplied ledger, and where it came from (added to its diagnostics: a file, a JSON pointer prefix). */
export interface GivenLedger {
  readonly ledger: CardLedger
  readonly file?: string | undefined
  /** JSON pointer of the ledger in the request (`/ledger`), prefixed to its diagnostics' paths. */
  readonly pointer?: string | undefined
}

/** Where a query's ledger comes from: none (empty), given by the caller, or a stored instance. */
export type LedgerSource =
  | { readonly _tag: "Empty" }
  | ({ readonly _tag: "Given" } & GivenLedger)
  | { readonly _tag: "Stored"; readonly branch?: string | undefined; readonly instanceId: string }

/** The empty ledger source. */
export const noLedger: LedgerSource = { _tag: "Empty" }

const decodeLedger = makeDecoder(CardLedger)

/** Every code reading a ledger file can fail with: the file, its JSON, its Schema and the content limits of its IDs. */
export const ledgerFileErrors = domainChannel(["input", "content", "compiler", "composition"])
/** The errors of {@link readLedgerFile}. */
export type LedgerFileError = ChannelError<typeof ledgerFileErrors>

/**
 * Reads a ledger file (hardened JSON, the `CardLedger` Schema) as a given
 * ledger, which the queries then verify: a file that is not JSON, of another
 * document kind or not a ledger fails with all of its diagnostics.
 */
export const readLedgerFile = (
  file: string
): Effect.Effect<GivenLedger, LedgerFileError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const doc = yield* readJsonFile(file)
    if (Either.isLeft(doc)) return yield* ledgerFileErrors.fail([doc.left])
    const other = wrongKind(doc.right, "ledger")
    if (other !== undefined) return yield* ledgerFileErrors.fail([other])
    const decoded = decodeLedger(doc.right.value, doc.right)
    if (Either.isLeft(decoded)) {
      return yield* ledgerFileErrors.fail(
        decoded.left.length > 0
          ? decoded.left
          : [diagnostic("schema_invalid", `${file} is not a valid ledger`, { file })]
      )
    }
    return { ledger: decoded.right, file }
  })

/** One line of the card list. */
export interface CardSummary {
  readonly cardId: string
  readonly nameKey: string
  readonly cost: number
  readonly tags: ReadonlyArray<string>
}

/** What a caller-supplied ledger can fail with: its seals, and belonging to another card. */
export const givenLedgerErrors = errorChannel(["unsealed_definition", "invalid_composition"])

/** Every code `Cards.inspect` can fail with. */
export const inspectErrors = errorChannel([
  ...codesOf(sealErrors, resolveErrors, givenLedgerErrors),
  "unknown_card",
  "unsealed_definition",
  "duplicate_id"
])
/** The errors of `Cards.inspect`. */
export type InspectError = ChannelError<typeof inspectErrors>

/** The errors of `Cards.assess`. */
export type AssessError =
  | InvalidId
  | UnknownCard
  | UnknownActivity
  | UnknownTransformation
  | InvalidComposition
  | ChannelError<typeof givenLedgerErrors>
  | StoreFailure
  | StoreCorrupt
  | BranchNotFound

/** The errors of `Cards.discover`. */
export type DiscoverError =
  | InvalidId
  | UnknownCard
  | UnknownActivity
  | InvalidComposition
  | ChannelError<typeof givenLedgerErrors>
  | StoreFailure
  | StoreCorrupt
  | BranchNotFound

/** The card queries. */
export interface CardsService {
  /** Every published card, sorted by ID. */
  readonly list: Effect.Effect<ReadonlyArray<CardSummary>>
  /**
   * The effective card of `ledger` (default empty) with `upgrades` sealed and
   * appended in order (entry IDs `e<n>`, skipping the ones the ledger has).
   * `upgradesPointer` (`/with`) locates an upgrade's diagnostics in the request.
   */
  readonly inspect: (request: {
    readonly cardId: string
    readonly upgrades?: ReadonlyArray<string> | undefined
    readonly ledger?: GivenLedger | undefined
    readonly upgradesPointer?: string | undefined
  }) => Effect.Effect<CardInspection, InspectError>
  /** What a ledger command would do (nothing changes). */
  readonly assess: (request: {
    readonly cardId: string
    readonly command: LedgerCommand
    readonly activity: string
    readonly source: LedgerSource
  }) => Effect.Effect<AssessResult, AssessError>
  /** Every transformation with its assessment for the card in the activity. */
  readonly discover: (request: {
    readonly cardId: string
    readonly activity: string
    readonly source: LedgerSource
  }) => Effect.Effect<Discovery, DiscoverError>
}

/** A query's ledger source's IDs (a stored instance's), for the request-ID check. */
const sourceIds = (source: LedgerSource): ReadonlyArray<readonly [string, string | undefined]> =>
  source._tag === "Stored" ? [["/instanceId", source.instanceId], ["/branch", source.branch]] : []

/**
 * The IDs a query names, checked first, as the HTTP request Schema checks
 * them before a handler runs: `invalid_id` past 128 characters or outside
 * the ID syntax on every face; a valid ID that names nothing is not found.
 */
const checkIds = (fields: ReadonlyArray<readonly [string, string | undefined]>): Effect.Effect<void, InvalidId> => {
  const invalid = invalidRequestId(fields)
  return invalid === undefined ? Effect.void : Effect.fail(invalid)
}

const near = (id: string, ids: ReadonlyArray<string>): string => {
  const found = ids.filter((x) => x.toLowerCase() === id.toLowerCase() || x.includes(id) || id.includes(x)).sort(
    compareOrdinal
  )
  return found.length > 0 && found.length <= 3 ? `; did you mean ${found.join(" or ")}?` : ""
}

/** The card of a query, or `unknown_card` (with a did-you-mean when a published ID is close). */
export const requireCard = (runtime: Runtime, cardId: string): Effect.Effect<Card, UnknownCard> => {
  const card = runtime.cards.get(cardId)
  return card !== undefined
    ? Effect.succeed(card)
    : Effect.fail(
      errorOf("unknown_card", `no card ${cardId} is published${near(cardId, [...runtime.cards.keys()])}`, {
        subject: cardId
      })
    )
}

const requireActivity = (runtime: Runtime, activity: string): Effect.Effect<void, UnknownActivity> =>
  runtime.activities.has(activity)
    ? Effect.void
    : Effect.fail(
      errorOf(
        "unknown_activity",
        `no activity ${activity} is declared by the runtime${near(activity, [...runtime.activities.keys()])}`,
        { subject: activity }
      )
    )

const requireTransformation = (
  runtime: Runtime,
  command: LedgerCommand
): Effect.Effect<void, UnknownTransformation> => {
  const upgradeId = command.kind === "remove" ? undefined : command.upgradeId
  return upgradeId === undefined || runtime.transformations.has(upgradeId)
    ? Effect.void
    : Effect.fail(
      errorOf("unknown_transformation", `no transformation ${upgradeId} is published in the runtime`, {
        transformationId: upgradeId,
        subject: upgradeId
      })
    )
}

const locate = (d: Diagnostic, given: GivenLedger): Diagnostic => {
  const context: DiagnosticContext = {
    ...(given.file !== undefined ? { file: given.file } : {}),
    ...(given.pointer !== undefined ? { path: `${given.pointer}${d.path ?? ""}` } : {})
  }
  return withContext(given.pointer !== undefined ? { ...d, path: `${given.pointer}${d.path ?? ""}` } : d, context)
}

/** A caller-supplied ledger, verified as sealed and as the card's. */
const verifyGiven = (
  given: GivenLedger,
  cardId: string
): Effect.Effect<CardLedger, ChannelError<typeof givenLedgerErrors>> => {
  const verified = verifyLedger(given.ledger)
  if (Either.isLeft(verified)) return givenLedgerErrors.fail(verified.left.map((d) => locate(d, given)))
  if (verified.right.cardId !== cardId) {
    return Effect.fail(
      errorOf(
        "invalid_composition",
        `the ledger${
          given.file !== undefined ? ` in ${given.file}` : ""
        } belongs to card ${verified.right.cardId}, not ${cardId}`,
        {
          ...(given.file !== undefined ? { file: given.file } : {}),
          path: `${given.pointer ?? ""}/cardId`,
          subject: cardId
        }
      )
    )
  }
  return Effect.succeed(verified.right)
}

const make = Effect.gen(function*() {
  const catalog = yield* LiveCatalog
  const store = yield* Effect.serviceOption(LedgerStore)
  // The planning caches of the runtimes this service plans against (weakly keyed: a runtime replaced by a
  // reload takes its cache with it): the application's shared ones when it has them (the planner's too, so an
  // assessment of a stored instance leaves the resolution its apply plans from), else its own. A transformation
  // is sealed once, and a card's base composition and its empty ledger's resolution are reused by every query.
  const caches = Option.getOrElse(yield* Effect.serviceOption(SharedPlanningCaches), () => new PlanningCaches())

  /** The ledger of a source and the sequence basis of a query. */
  const sourceLedger = (
    source: LedgerSource,
    cardId: string,
    cache: PlanningCache
  ): Effect.Effect<
    { readonly ledger: CardLedger; readonly at: PlanAt | undefined },
    ChannelError<typeof givenLedgerErrors> | StoreFailure | StoreCorrupt | BranchNotFound
  > => {
    switch (source._tag) {
      case "Empty":
        return Effect.succeed({ ledger: cache.emptyLedger(cardId), at: undefined })
      case "Given":
        return Effect.map(verifyGiven(source, cardId), (ledger) => ({ ledger, at: undefined }))
      case "Stored":
        return Option.match(store, {
          // A stored query needs a ledger store in the application: its absence is a wiring defect.
          onNone: () => Effect.dieMessage("Cards: a stored-instance query needs a LedgerStore"),
          onSome: (s) =>
            Effect.map(s.read(source.branch ?? MAIN, source.instanceId, cardId), (state) => ({
              ledger: state.ledger,
              at: { lastSequence: state.lastSequence, nextSequence: state.lastSequence + 1 }
            }))
        })
    }
  }

  const service: CardsService = {
    list: Effect.map(catalog.current, (runtime) =>
      [...runtime.cards.values()]
        .sort((a, b) => compareOrdinal(a.cardId, b.cardId))
        .map((c) => ({ cardId: c.cardId, nameKey: c.metadata.nameKey, cost: c.cost, tags: c.tags ?? [] }))),
    inspect: ({ cardId, ledger: given, upgrades = [], upgradesPointer }) =>
      Effect.gen(function*() {
        yield* checkIds([
          ["/cardId", cardId],
          ...upgrades.map((u, i) => [`${upgradesPointer ?? "/upgrades"}/${i}`, u] as const)
        ])
        const runtime = yield* catalog.current
        const baseCard = yield* requireCard(runtime, cardId)
        let ledger = given === undefined ? emptyLedger(cardId) : yield* verifyGiven(given, cardId)
        const taken = new Set(ledger.entries.map((x) => x.entryId))
        for (let i = 0; i < upgrades.length; i++) {
          const upgradeId = upgrades[i] ?? ""
          const sealed = sealById(runtime, upgradeId)
          if (Either.isLeft(sealed)) {
            return yield* inspectErrors.fail(
              upgradesPointer === undefined ? sealed.left : sealed.left.map((d) => ({
                ...d,
                path: `${upgradesPointer}/${i}`
              }))
            )
          }
          let n = ledger.entries.length + 1
          while (taken.has(`e${n}`)) n++
          taken.add(`e${n}`)
          const next = appendEntry(ledger, sealed.right, {
            entryId: `e${n}`,
            captured: { revision: ledger.revision, sequence: 0, step: 0 }
          })
          if (Either.isLeft(next)) return yield* inspectErrors.fail(next.left)
          ledger = next.right
        }
        const effective = resolveEffectiveCard({ baseCard, ledger, statuses: runtime.statuses })
        if (Either.isLeft(effective)) return yield* inspectErrors.fail(effective.left)
        return { cardId, ledger, effectiveBase: effective.right, origins: componentOrigins(ledger, effective.right) }
      }),
    assess: ({ activity, cardId, command, source }) =>
      Effect.gen(function*() {
        yield* checkIds([["/cardId", cardId], ["/activity", activity], ...commandIds(command), ...sourceIds(source)])
        const runtime = yield* catalog.current
        yield* requireCard(runtime, cardId)
        const cache = caches.of(runtime)
        const { at, ledger } = yield* sourceLedger(source, cardId, cache)
        yield* requireActivity(runtime, activity)
        yield* requireTransformation(runtime, command)
        // The candidate is assessed and dropped: transient, so its resolution is not memoized (a memo entry keyed by
        // a dead candidate is kept by V8's young-generation collector and promoted: per request, as in discovery).
        return plan({ runtime, ledger, command, activity, at, cache, transient: true }).assessment
      }),
    discover: ({ activity, cardId, source }) =>
      Effect.gen(function*() {
        yield* checkIds([["/cardId", cardId], ["/activity", activity], ...sourceIds(source)])
        const runtime = yield* catalog.current
        yield* requireCard(runtime, cardId)
        const cache = caches.of(runtime)
        const { at, ledger } = yield* sourceLedger(source, cardId, cache)
        yield* requireActivity(runtime, activity)
        return discover(runtime, ledger, activity, at, cache)
      })
  }
  return service
})

/** The card queries. */
export class Cards extends Context.Tag("cardfx/Cards")<Cards, CardsService>() {
  /** Over the live catalog; stored-instance queries use the application's `LedgerStore` when it has one. */
  static readonly layer: Layer.Layer<Cards, never, LiveCatalog> = Layer.effect(
    Cards,
    Effect.map(make, (s) => traced("Cards", s))
  )
}
