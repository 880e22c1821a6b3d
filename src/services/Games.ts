/**
 * `Games`: Hallyu Hex game sessions with their persistence — the engine of
 * one deck, games persisted in the {@link GameStore} as their logs, and the
 * documents a face answers with (`/v1/hhx/*` is an adapter over it). The
 * engine's failures (plain diagnostics from its `Either`) become tagged errors
 * here, at the service boundary, each carrying every diagnostic. A
 * game's state is rebuilt by replaying its log (checked against the stored
 * fingerprints) and kept in a small per-server cache keyed by game and step,
 * so a request usually applies one action to a cached state.
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer, Option } from "effect"
import * as Hallyu from "../hallyu/index.js"
import { diagnostic } from "../kernel/Diagnostic.js"
import { type ChannelError, domainChannel, errorChannel } from "../kernel/ErrorChannel.js"
import { errorOf, type StepConflict, type StoreFailure, type UnknownGame } from "../kernel/Errors.js"
import { GameStore, type StoredGame } from "./GameStore.js"

/** What the Hallyu Hex engine's `Either`s can fail with (its own codes, the executor's, and its input checks). */
export const engineErrors = errorChannel([
  ...domainChannel(["hallyu", "executor"]).codes,
  "schema_invalid",
  "unknown_reference",
  "replay_mismatch"
])
/** The engine's failures as tagged errors. */
export type EngineError = ChannelError<typeof engineErrors>

/** A new game: its seed, and the two deck lists (default: the deck file's). */
export interface NewGame {
  readonly seed: string | number
  readonly decks?: readonly [string, string] | null | undefined
}

/** An action at the step the caller saw. */
export interface ActRequest {
  readonly actionId: string
  readonly expectedStep: number
}

/** A game at a state: both seats' views, who acts, the legal actions, the result. */
export interface GameDocument {
  readonly gameId: string
  readonly step: number
  readonly seed: string
  readonly decks: readonly [string, string] | null
  readonly deckHash: string
  readonly fingerprint: string
  readonly views: readonly [Hallyu.PlayerView, Hallyu.PlayerView]
  readonly toAct: 0 | 1 | null
  readonly legalActions: ReadonlyArray<Hallyu.GameAction>
  readonly result: Hallyu.GameState["result"]
}

/** Whether an action is legal now, and why not. */
export interface ExplainDocument {
  readonly actionId: string
  readonly legal: boolean
  readonly reason: string | null
  readonly message: string | null
}

/** The game sessions. */
export interface GamesService {
  readonly engine: Hallyu.Engine
  readonly create: (request: NewGame) => Effect.Effect<GameDocument, EngineError | StoreFailure>
  readonly act: (
    gameId: string,
    request: ActRequest
  ) => Effect.Effect<GameDocument, EngineError | UnknownGame | StepConflict | StoreFailure>
  readonly get: (gameId: string) => Effect.Effect<GameDocument, EngineError | UnknownGame | StoreFailure>
  readonly log: (gameId: string) => Effect.Effect<Hallyu.GameLog, EngineError | UnknownGame | StoreFailure>
  readonly explain: (
    gameId: string,
    actionId: string
  ) => Effect.Effect<ExplainDocument, EngineError | UnknownGame | StoreFailure>
}

/** The document of a game at a state. */
export const gameDocument = (
  engine: Hallyu.Engine,
  game: StoredGame,
  state: Hallyu.GameState,
  fp: string
): GameDocument => ({
  gameId: game.gameId,
  step: state.ply,
  seed: game.seed,
  decks: game.decks,
  deckHash: game.deckHash,
  fingerprint: fp,
  views: [Hallyu.observe(state, 0), Hallyu.observe(state, 1)],
  toAct: state.decision?.player ?? null,
  legalActions: state.result === null ? engine.legalActions(state) : [],
  result: state.result
})

const logOf = (g: StoredGame): Hallyu.GameLog => ({
  format: "hhx-log/1",
  deckHash: g.deckHash,
  seed: g.seed,
  decks: g.decks,
  actions: g.actions,
  fingerprints: g.fingerprints
})

const CACHE_SIZE = 256

const make = (engine: Hallyu.Engine) =>
  Effect.map(GameStore, (store): GamesService => {
    // gameId → the latest state served; insertion order gives a simple LRU bound.
    const cache = new Map<string, { readonly state: Hallyu.GameState; readonly fp: string }>()
    const remember = (gameId: string, state: Hallyu.GameState, fp: string): void => {
      cache.delete(gameId)
      cache.set(gameId, { state, fp })
      if (cache.size > CACHE_SIZE) {
        const oldest = cache.keys().next()
        if (oldest.done !== true) cache.delete(oldest.value)
      }
    }
    const load = (
      gameId: string
    ): Effect.Effect<
      { game: StoredGame; state: Hallyu.GameState; fp: string },
      EngineError | UnknownGame | StoreFailure
    > =>
      Effect.gen(function*() {
        const found = yield* store.read(gameId)
        if (Option.isNone(found)) {
          return yield* Effect.fail(errorOf("unknown_game", `no game ${gameId}`, { subject: gameId }))
        }
        const game = found.value
        const step = game.actions.length
        const cached = cache.get(gameId)
        if (cached !== undefined && cached.state.ply === step && cached.fp === game.fingerprints[step]) {
          return { game, state: cached.state, fp: cached.fp }
        }
        // A stored game may be in progress: its log is replayed as a partial one (after a restart the cache is empty).
        const replayed = Hallyu.replay(engine, { ...logOf(game), partial: true })
        if (Either.isLeft(replayed)) return yield* engineErrors.fail([replayed.left])
        const fp = Hallyu.fingerprint(replayed.right)
        remember(gameId, replayed.right, fp)
        return { game, state: replayed.right, fp }
      })

    return {
      engine,
      create: (request) =>
        Effect.gen(function*() {
          const seed = String(request.seed)
          const decks = request.decks ?? null
          const started = engine.newGame(decks === null ? { seed } : { seed, decks })
          if (Either.isLeft(started)) return yield* engineErrors.fail([started.left])
          const fp = Hallyu.fingerprint(started.right)
          const gameId = yield* store.create({ seed, decks, deckHash: engine.compiled.hash, fingerprints: [fp] })
          remember(gameId, started.right, fp)
          return gameDocument(
            engine,
            { gameId, seed, decks, deckHash: engine.compiled.hash, actions: [], fingerprints: [fp] },
            started.right,
            fp
          )
        }),
      act: (gameId, request) =>
        Effect.gen(function*() {
          const { fp: _fp, game, state } = yield* load(gameId)
          if (state.ply !== request.expectedStep) {
            return yield* Effect.fail(
              errorOf("step_conflict", `game ${gameId} is at step ${state.ply}, not ${request.expectedStep}`, {
                subject: gameId,
                details: { step: state.ply, expectedStep: request.expectedStep }
              })
            )
          }
          const next = engine.apply(state, request.actionId)
          if (Either.isLeft(next)) return yield* engineErrors.fail([{ ...next.left, path: "/actionId" }])
          const fp = Hallyu.fingerprint(next.right)
          const appended = yield* store.append(gameId, request.expectedStep, request.actionId, fp)
          if (!appended) {
            return yield* Effect.fail(
              errorOf("step_conflict", `game ${gameId} moved past step ${request.expectedStep}`, { subject: gameId })
            )
          }
          remember(gameId, next.right, fp)
          return gameDocument(
            engine,
            { ...game, actions: [...game.actions, request.actionId], fingerprints: [...game.fingerprints, fp] },
            next.right,
            fp
          )
        }),
      get: (gameId) => Effect.map(load(gameId), ({ fp, game, state }) => gameDocument(engine, game, state, fp)),
      // The log of a game in progress says `partial`, so `cardfx replay` accepts it.
      log: (gameId) =>
        Effect.map(load(gameId), ({ game, state }) =>
          state.result === null ? { ...logOf(game), partial: true } : logOf(game)),
      explain: (gameId, actionId) =>
        Effect.map(load(gameId), ({ state }) => {
          const e = engine.explain(state, actionId)
          return e.legal
            ? { actionId, legal: true, reason: null, message: null }
            : { actionId, legal: false, reason: e.reason, message: e.message }
        })
    }
  })

/** Hallyu Hex game sessions. */
export class Games extends Context.Tag("cardfx/Games")<Games, GamesService>() {
  static readonly layer = (engine: Hallyu.Engine): Layer.Layer<Games, never, GameStore> =>
    Layer.effect(Games, make(engine))
}

/** A diagnostic for a deck that cannot be served (used at start-up). */
export const deckProblem = (file: string, message: string) =>
  diagnostic("file_unreadable", `${file}: ${message}`, { file })
