/**
 * The documents of the game sessions: a game at a state as one viewer may
 * see it, a seat's secret, an invitation, what `create` and `join` answer,
 * an explanation, an event of the stream, and the pure projection
 * (`gameView`) that makes a game document. The `Games` service returns
 * these; `src/api/Documents.ts` holds their wire Schemas, whose types they
 * are assignable to without a cast.
 *
 * @since 0.1.0
 */
import * as Hallyu from "../hallyu/index.js"
import { commitmentOf } from "./GameSeeds.js"
import type { StoredGame } from "./GameStore.js"

/** Whose projection a document is: a seat's (or a spectator's, `seat: null`), and whether the operator asked. */
export interface Viewer {
  readonly seat: Hallyu.Seat | null
  readonly operator: boolean
}

/** A game at a state as one viewer may see it. */
export interface GameDocument {
  readonly gameId: string
  readonly step: number
  /** The seat whose view this is; null: a spectator's view (both hands hidden). */
  readonly viewer: Hallyu.Seat | null
  /** Null until the game ends, except for the operator (the seed replays to both hands). */
  readonly seed: string | null
  /** sha256 (hex) of the seed, published from the start: the seed revealed at the end must match it. */
  readonly seedCommitment: string
  readonly decks: readonly [string, string] | null
  readonly deckHash: string
  /** Null in a spectator's view of a game in progress. */
  readonly fingerprint: string | null
  readonly view: Hallyu.PlayerView
  readonly toAct: 0 | 1 | null
  /** The viewer's own legal actions: empty unless the viewer is the seat to act. */
  readonly legalActions: ReadonlyArray<Hallyu.GameAction>
  readonly result: Hallyu.GameState["result"]
}

/** A seat's credential, returned once, when the game is created. */
export interface SeatSecret {
  readonly seat: Hallyu.Seat
  readonly secret: string
}

/** An invitation to a seat: the code the inviter hands over (single use, until `expiresAt`). */
export interface InvitationDocument {
  readonly code: string
  readonly seat: Hallyu.Seat
  /** ISO 8601. */
  readonly expiresAt: string
}

/**
 * `create`'s answer: the spectator's view of the new game and one secret per
 * seat (seat 0 first; none for a withheld seat) — or, for an invitation game,
 * seat 0's secret and the invitation for seat 1.
 */
export interface CreatedGame {
  readonly game: GameDocument
  readonly seats: ReadonlyArray<SeatSecret>
  readonly invitation: InvitationDocument | null
}

/** `join`'s answer: the invited seat's secret (held by the joiner alone) and that seat's view. */
export interface JoinedGame {
  readonly gameId: string
  readonly seat: Hallyu.Seat
  readonly secret: string
  readonly game: GameDocument
}

/** Whether an action is legal now, and why not. */
export interface ExplainDocument {
  readonly actionId: string
  readonly legal: boolean
  readonly reason: string | null
  readonly message: string | null
}

/** One element of a game's event stream: a step as the subscriber may see it, or a keep-alive. */
export type GameEvent =
  | { readonly _tag: "step"; readonly step: number; readonly document: GameDocument }
  | { readonly _tag: "heartbeat" }

/**
 * The projection of a game at a state for a viewer (pure): the viewer's
 * {@link Hallyu.observe} view (a spectator's hides both hands), the viewer's
 * own legal actions only, and the seed and fingerprint only where they
 * cannot reveal a hand.
 */
export const gameView = (
  engine: Hallyu.Engine,
  game: Pick<StoredGame, "gameId" | "seed" | "decks" | "deckHash">,
  state: Hallyu.GameState,
  fp: string,
  viewer: Viewer
): GameDocument => {
  const over = state.result !== null
  const toAct = state.decision?.player ?? null
  return {
    gameId: game.gameId,
    step: state.ply,
    viewer: viewer.seat,
    seed: over || viewer.operator ? game.seed : null,
    seedCommitment: commitmentOf(game.seed),
    decks: game.decks,
    deckHash: game.deckHash,
    fingerprint: over || viewer.operator || viewer.seat !== null ? fp : null,
    view: Hallyu.observe(state, viewer.seat),
    toAct,
    legalActions: !over && viewer.seat !== null && viewer.seat === toAct ? engine.legalActions(state) : [],
    result: state.result
  }
}
