/**
 * A process's feed of each followed game: the last step it published to its
 * event streams, so that every step reaches them once and in order, whichever
 * process applied it (see `StepBus.ts`). A game is followed while it has a
 * stream open here. The feed moves only forward, one step at a time, from the
 * game store's log: a step applied here moves it at once (its state is at
 * hand); a notice from another process (or a gap) reads the game from the
 * store and replays the missing actions from the feed's state. Notices are
 * hints: late, repeated or out-of-order ones cost at most a read.
 *
 * @since 0.1.0
 */
import { Effect, Either, Option } from "effect"
import * as Hallyu from "../hallyu/index.js"
import type { StoreCorrupt, StoreFailure } from "../kernel/Errors.js"
import type { StoredGame } from "./GameStore.js"

interface Feed {
  readonly step: number
  readonly state: Hallyu.GameState
}

export interface GameFeeds {
  /** A stream of the game read it at `state`: the feed starts there (or catches up to it). */
  readonly opened: (game: StoredGame, state: Hallyu.GameState, fp: string) => void
  /** This process applied the game's last step (`game` is the log through it). */
  readonly applied: (game: StoredGame, state: Hallyu.GameState, fp: string) => void
  /** Another process says the game reached `step`. */
  readonly notified: (gameId: string, step: number) => void
  /** The game's last stream here closed. */
  readonly closed: (gameId: string) => void
}

export const makeFeeds = (o: {
  readonly engine: Hallyu.Engine
  /** Sends a step to the game's streams here. */
  readonly publish: (game: StoredGame, state: Hallyu.GameState, fp: string) => void
  readonly followed: (gameId: string) => boolean
  readonly read: (gameId: string) => Effect.Effect<Option.Option<StoredGame>, StoreFailure | StoreCorrupt>
  /** Runs a catch-up in the background. */
  readonly fork: (effect: Effect.Effect<void>) => void
}): GameFeeds => {
  const feeds = new Map<string, Feed>()
  /** The highest step heard of for a followed game whose feed has not started yet. */
  const wanted = new Map<string, number>()

  /** Publishes the steps of `game`'s log after the feed's, in order (`last`: the state at its last step, if known). */
  const advance = (game: StoredGame, last?: { readonly state: Hallyu.GameState; readonly fp: string }) => {
    const target = game.actions.length
    let feed = feeds.get(game.gameId)
    while (feed !== undefined && feed.step < target) {
      const step = feed.step + 1
      let state: Hallyu.GameState
      let fp: string
      if (last !== undefined && step === target) {
        state = last.state
        fp = last.fp
      } else {
        const action = game.actions[feed.step]
        if (action === undefined) return
        const next = o.engine.apply(feed.state, action)
        // A stored log always replays (the store checked it); a failure here leaves the feed where it is.
        if (Either.isLeft(next)) return
        state = next.right
        fp = game.fingerprints[step] ?? Hallyu.fingerprint(state)
      }
      feed = { step, state }
      feeds.set(game.gameId, feed)
      o.publish(game, state, fp)
    }
  }

  const catchUp = (gameId: string) =>
    o.fork(
      o.read(gameId).pipe(
        Effect.tap((found) => Option.isSome(found) ? Effect.sync(() => advance(found.value)) : Effect.void),
        Effect.catchAll((e) => Effect.logWarning("game feed: cannot read the game", e.message)),
        Effect.asVoid
      )
    )

  return {
    opened: (game, state, fp) => {
      const feed = feeds.get(game.gameId)
      if (feed === undefined) feeds.set(game.gameId, { step: state.ply, state })
      else advance(game, { state, fp })
      const w = wanted.get(game.gameId)
      wanted.delete(game.gameId)
      if (w !== undefined && w > (feeds.get(game.gameId)?.step ?? w)) catchUp(game.gameId)
    },
    applied: (game, state, fp) => {
      if (!o.followed(game.gameId)) return
      if (feeds.has(game.gameId)) advance(game, { state, fp })
      else wanted.set(game.gameId, Math.max(wanted.get(game.gameId) ?? -1, state.ply))
    },
    notified: (gameId, step) => {
      if (!o.followed(gameId)) return
      const feed = feeds.get(gameId)
      if (feed === undefined) wanted.set(gameId, Math.max(wanted.get(gameId) ?? -1, step))
      else if (feed.step < step) catchUp(gameId)
    },
    closed: (gameId) => {
      feeds.delete(gameId)
      wanted.delete(gameId)
    }
  }
}
