/**
 * Hallyu Hex games over HTTP: the engine of the served deck, games persisted
 * in the `GameStore` as their logs, and the documents the API answers. A
 * game's state is rebuilt by replaying its log (checked against the stored
 * fingerprints) and kept in a small per-server cache keyed by game and step,
 * so a request usually applies one action to a cached state.
 *
 * @since 0.1.0
 */
import { Context, Effect, Either, Layer, Option } from "effect"
import { type ApiError, apiError, apiErrorOf } from "../api/Api.js"
import type { ExplainDocument, GameActionRequest, GameDocument, NewGameRequest } from "../api/Documents.js"
import { diagnostic, diagnosticFromError, Hallyu } from "../services/index.js"
import { GameStore, type StoredGame } from "./GameStore.js"

export interface GamesService {
  readonly engine: Hallyu.Engine
  readonly create: (request: NewGameRequest) => Effect.Effect<GameDocument, ApiError>
  readonly act: (gameId: string, request: GameActionRequest) => Effect.Effect<GameDocument, ApiError>
  readonly get: (gameId: string) => Effect.Effect<GameDocument, ApiError>
  readonly log: (gameId: string) => Effect.Effect<Hallyu.GameLog, ApiError>
  readonly explain: (gameId: string, actionId: string) => Effect.Effect<ExplainDocument, ApiError>
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
  views: [Hallyu.observe(state, 0), Hallyu.observe(state, 1)] as unknown as GameDocument["views"],
  toAct: state.decision?.player ?? null,
  legalActions: state.result === null ? (engine.legalActions(state) as GameDocument["legalActions"]) : [],
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
    const storeError = (e: Parameters<typeof diagnosticFromError>[0]) => apiError([diagnosticFromError(e)])

    const load = (gameId: string): Effect.Effect<{ game: StoredGame; state: Hallyu.GameState; fp: string }, ApiError> =>
      Effect.gen(function*() {
        const found = yield* Effect.mapError(store.read(gameId), storeError)
        if (Option.isNone(found)) {
          return yield* Effect.fail(apiErrorOf("unknown_game", `no game ${gameId}`, { subject: gameId }))
        }
        const game = found.value
        const step = game.actions.length
        const cached = cache.get(gameId)
        if (cached !== undefined && cached.state.ply === step && cached.fp === game.fingerprints[step]) {
          return { game, state: cached.state, fp: cached.fp }
        }
        // A stored game may be in progress: its log is replayed as a partial one (after a restart the cache is empty).
        const replayed = Hallyu.replay(engine, { ...logOf(game), partial: true })
        if (Either.isLeft(replayed)) return yield* Effect.fail(apiError([replayed.left]))
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
          if (Either.isLeft(started)) return yield* Effect.fail(apiError([started.left]))
          const fp = Hallyu.fingerprint(started.right)
          const gameId = yield* Effect.mapError(
            store.create({ seed, decks, deckHash: engine.compiled.hash, fingerprints: [fp] }),
            storeError
          )
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
              apiErrorOf("step_conflict", `game ${gameId} is at step ${state.ply}, not ${request.expectedStep}`, {
                subject: gameId,
                details: { step: state.ply, expectedStep: request.expectedStep }
              })
            )
          }
          const next = engine.apply(state, request.actionId)
          if (Either.isLeft(next)) return yield* Effect.fail(apiError([{ ...next.left, path: "/actionId" }]))
          const fp = Hallyu.fingerprint(next.right)
          const appended = yield* Effect.mapError(
            store.append(gameId, request.expectedStep, request.actionId, fp),
            storeError
          )
          if (!appended) {
            return yield* Effect.fail(
              apiErrorOf("step_conflict", `game ${gameId} moved past step ${request.expectedStep}`, { subject: gameId })
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

/** The Hallyu Hex games of a server. */
export class Games extends Context.Tag("cardfx/server/Games")<Games, GamesService>() {
  static readonly layer = (engine: Hallyu.Engine): Layer.Layer<Games, never, GameStore> =>
    Layer.effect(Games, make(engine))
}

/** A diagnostic for a deck that cannot be served (used at start-up). */
export const deckProblem = (file: string, message: string) =>
  diagnostic("file_unreadable", `${file}: ${message}`, { file })
