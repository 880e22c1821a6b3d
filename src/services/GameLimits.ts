/**
 * The limits of the game sessions: event streams (a seat's slots never
 * taken by spectators; spectators per game, per client and server-wide; the
 * idle close) and creation (live games, an invitation's life). Defaults are
 * `cardfx serve`'s flags' (docs/serving.md).
 *
 * @since 0.1.0
 */
import * as Invitations from "./Invitations.js"

/**
 * The limits on event streams. A seat's streams (and the operator's) never
 * compete with spectators: each seat of a game may hold `perSeat` streams
 * whatever the spectators do. Spectator streams are limited per game, per
 * client address and server-wide, separately, and a spectator that has
 * received no step for `spectatorIdleMs` is closed (it may reconnect).
 */
export interface StreamLimits {
  readonly perSeat: number
  readonly spectatorsPerGame: number
  readonly spectatorsPerClient: number
  readonly spectators: number
  readonly spectatorIdleMs: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perSeat: 4,
  spectatorsPerGame: 8,
  spectatorsPerClient: 8,
  spectators: 512,
  spectatorIdleMs: 10 * 60 * 1000
}

/** The limits on creation: live games (in progress and created or moved within `liveWindowMs`). */
export interface GameLimits {
  readonly maxLiveGames: number
  readonly liveWindowMs: number
  readonly invitationTtlMs: number
}

export const DEFAULT_GAME_LIMITS: GameLimits = {
  maxLiveGames: 1000,
  liveWindowMs: 60 * 60 * 1000,
  invitationTtlMs: Invitations.DEFAULT_INVITATION_TTL_MS
}
