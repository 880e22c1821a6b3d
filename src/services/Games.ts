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
 * Hidden information: a game is created with a random ID and one random
 * secret per seat (returned once; only their sha256 is stored). Every read
 * and action names its {@link Caller}; what it gets is the projection
 * {@link gameView} for the {@link Viewer} its credential proves — a seat's
 * own view, or a spectator's with both hands hidden. The full log (the seed
 * replays to both hands) is the operator's until the game ends.
 *
 * Push: {@link GamesService.events} streams each new step, projected for each
 * subscriber's viewer (once per distinct viewer per step, not per
 * subscriber), from a per-game set of subscribers filled by `act` itself — no
 * fiber or timer per step; one shared heartbeat timer runs while any stream
 * is open. A game's streams end after its last step, and all of them on
 * {@link GamesService.closeStreams} (a server's drain) or when the layer
 * closes.
 *
 * @since 0.1.0
 */
import { Clock, Context, Effect, Either, Layer, Option, Runtime, type Scope, Stream } from "effect"
import { invalidRequestId } from "../composition/schema/Symbols.js"
import * as Hallyu from "../hallyu/index.js"
import { sha256Hex } from "../kernel/Canonical.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { type ChannelError, domainChannel, errorChannel } from "../kernel/ErrorChannel.js"
import {
  errorOf,
  type InvalidId,
  type InvitationInvalid,
  type StepConflict,
  type StoreCorrupt,
  type StoreFailure,
  type TooManyGames,
  type TooManySubscribers,
  type UnknownGame
} from "../kernel/Errors.js"
import { traced } from "../kernel/Tracing.js"
import {
  type CreatedGame,
  type ExplainDocument,
  type GameDocument,
  type GameEvent,
  gameView,
  type JoinedGame,
  type Viewer
} from "./GameDocuments.js"
import { makeFeeds } from "./GameFeeds.js"
import { DEFAULT_GAME_LIMITS, DEFAULT_STREAM_LIMITS, type GameLimits, type StreamLimits } from "./GameLimits.js"
import { anonymous, type Caller, type CredentialError, randomToken, viewerOf } from "./GameSeats.js"
import { drawSeed } from "./GameSeeds.js"
import { GameStore, type StoredGame } from "./GameStore.js"
import * as Invitations from "./Invitations.js"
import { StepBus } from "./StepBus.js"

export * from "./GameDocuments.js"
export * from "./GameLimits.js"
export * from "./GameSeats.js"

/** What the Hallyu Hex engine's `Either`s can fail with (its own codes, the executor's, and its input checks). */
export const engineErrors = errorChannel([
  ...domainChannel(["hallyu", "executor"]).codes,
  "schema_invalid",
  "unknown_reference",
  "replay_mismatch"
])
/** The engine's failures as tagged errors. */
export type EngineError = ChannelError<typeof engineErrors>

/**
 * A new game: the client's seed (mixed into the server's random one, see
 * `GameSeeds`; used as it is only with `fixedSeed`, the operator's), the two
 * deck lists (default: the deck file's), and whether seat 1 is for another
 * client (`invite`: the creator gets seat 0's secret and an invitation).
 */
export interface NewGame {
  readonly seed?: string | number | undefined
  readonly fixedSeed?: boolean | undefined
  readonly invite?: boolean | undefined
  readonly decks?: readonly [string, string] | null | undefined
  /**
   * Seats played by the server (computer seats, src/services/ComputerSeats.ts): their secrets are made and
   * hashed as any seat's but never returned, so no client can read or act for them.
   */
  readonly withheld?: ReadonlyArray<Hallyu.Seat> | undefined
}

/** An action at the step the caller saw. */
export interface ActRequest {
  readonly actionId: string
  readonly expectedStep: number
}

/** Told of every step applied (and of every new game's first step), in the process that applied it. */
export type StepListener = (game: StoredGame, state: Hallyu.GameState) => void

/** Every stream the server holds, of any kind (a bound on memory; the per-kind limits are below it). */
export const MAX_SUBSCRIBERS = 4096
/** Steps buffered for a subscriber that reads slower than the game moves (past it the oldest go; it can resume). */
const SUBSCRIBER_BUFFER = 256
/** Default time between heartbeats on open streams. */
export const DEFAULT_HEARTBEAT_MS = 15_000

/** The game sessions. */
export interface GamesService {
  readonly engine: Hallyu.Engine
  /** A new game; the caller decides whether a fixed seed is allowed (the operator's) and the live-games cap (not the operator's). */
  readonly create: (
    request: NewGame,
    caller?: Caller
  ) => Effect.Effect<
    CreatedGame,
    EngineError | InvalidId | StoreFailure | StoreCorrupt | CredentialError | TooManyGames
  >
  /** Exchanges an invitation's code for its seat's secret (once). */
  readonly join: (
    code: string
  ) => Effect.Effect<JoinedGame, InvalidId | InvitationInvalid | StoreFailure | StoreCorrupt>
  /** Applies an action for the caller's seat (the operator: for the seat to act); answers that seat's view. */
  readonly act: (
    gameId: string,
    request: ActRequest,
    caller: Caller
  ) => Effect.Effect<
    GameDocument,
    EngineError | InvalidId | UnknownGame | StepConflict | StoreFailure | StoreCorrupt | CredentialError
  >
  readonly get: (
    gameId: string,
    caller: Caller
  ) => Effect.Effect<
    GameDocument,
    EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt | CredentialError
  >
  /** The full log: once the game is over, or for the operator. */
  readonly log: (
    gameId: string,
    caller: Caller
  ) => Effect.Effect<
    Hallyu.GameLog,
    EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt | CredentialError
  >
  /** Why an action is (not) legal: for the seat to act (another seat hears `not-your-decision`) or the operator. */
  readonly explain: (
    gameId: string,
    actionId: string,
    caller: Caller
  ) => Effect.Effect<
    ExplainDocument,
    EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt | CredentialError
  >
  /**
   * The game's steps as the caller may see them: the steps after `lastEventId`
   * (a step number) when given, else the current step, then each new step;
   * heartbeats between; ends after the game's last step.
   */
  readonly events: (
    gameId: string,
    caller: Caller,
    lastEventId: number | undefined
  ) => Effect.Effect<
    Stream.Stream<GameEvent>,
    EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt | CredentialError | TooManySubscribers
  >
  /** Ends every open event stream and refuses new ones (a server's drain). */
  readonly closeStreams: Effect.Effect<void>
  /** Calls `listener` after each step this process applies (and a new game's step 0) until the scope closes. */
  readonly onStep: (listener: StepListener) => Effect.Effect<void, never, Scope.Scope>
}

const logOf = (g: StoredGame): Hallyu.GameLog => ({
  format: "hhx-log/1",
  deckHash: g.deckHash,
  seed: g.seed,
  decks: g.decks,
  actions: g.actions,
  fingerprints: g.fingerprints
})

/** A game ID is a request ID (`invalid_id` otherwise, as the HTTP path Schema says): checked before any read. */
const checkGameId = (gameId: string): Effect.Effect<void, InvalidId> => {
  const invalid = invalidRequestId([["/gameId", gameId]])
  return invalid === undefined ? Effect.void : Effect.fail(invalid)
}

const CACHE_SIZE = 256

/** A published step, kept as it is (immutable) until a subscriber's viewer is known. */
interface Published {
  readonly game: StoredGame
  readonly state: Hallyu.GameState
  readonly fp: string
}

/**
 * An open event stream. It is registered before the game is read, so no
 * step can fall between the read and the subscription: until its stream
 * runs, steps wait in `pending`; then `emit` takes them as they come.
 */
interface Subscriber {
  viewer: Viewer
  /** Known once the game is read and the credential checked: a seat's (or the operator's) stream, or a spectator's. */
  kind: "seat" | "spectator" | undefined
  readonly address: string
  /** When it last received a step (performance.now ms): a spectator idle past the limit is closed. */
  lastStepAt: number
  pending: Array<Published> | undefined
  /**
   * The stream has been handed to the caller (the game is read). Only then do heartbeat ticks count toward
   * dropping it: a game still being read (a slow store, a loaded machine) is not a stream that never started.
   */
  handedOut: boolean
  /** Heartbeat ticks seen since it was handed out while still not started: its client left first; dropped. */
  idleTicks: number
  ended: boolean
  emit: ((event: GameEvent) => void) | undefined
  finish: (() => void) | undefined
}

const finish = (s: Subscriber): void => {
  if (s.ended) return
  s.ended = true
  s.finish?.()
}

const viewerKey = (v: Viewer): string => `${v.seat ?? "-"}/${v.operator ? "op" : ""}`

const make = (
  engine: Hallyu.Engine,
  options: { readonly heartbeatMs: number; readonly streams: StreamLimits; readonly games: GameLimits }
) =>
  Effect.gen(function*() {
    const limits = options.streams
    const store = yield* GameStore
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
      EngineError | InvalidId | UnknownGame | StoreFailure | StoreCorrupt
    > =>
      Effect.gen(function*() {
        yield* checkGameId(gameId)
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

    // ------------------------------------------------------------ push

    const subscribers = new Map<string, Set<Subscriber>>()
    let open = 0
    let spectators = 0
    const spectatorsByAddress = new Map<string, number>()
    let closed = false
    let heartbeat: ReturnType<typeof setInterval> | undefined
    const everyone = (f: (s: Subscriber) => void) => {
      for (const set of subscribers.values()) for (const s of [...set]) f(s)
    }
    const remove = (gameId: string, s: Subscriber) => {
      const set = subscribers.get(gameId)
      if (set === undefined || !set.delete(s)) return
      open--
      if (s.kind === "spectator") {
        spectators--
        const n = (spectatorsByAddress.get(s.address) ?? 1) - 1
        if (n <= 0) spectatorsByAddress.delete(s.address)
        else spectatorsByAddress.set(s.address, n)
      }
      if (set.size === 0) {
        subscribers.delete(gameId)
        feeds.closed(gameId)
      }
      if (open === 0 && heartbeat !== undefined) {
        clearInterval(heartbeat)
        heartbeat = undefined
      }
    }
    const add = (gameId: string, s: Subscriber) => {
      const set = subscribers.get(gameId) ?? new Set<Subscriber>()
      set.add(s)
      subscribers.set(gameId, set)
      open++
      // One timer for every open stream, only while there is one.
      if (heartbeat === undefined) {
        // One tick serves both the heartbeats and the spectators' idle limit: whichever is shorter.
        const tick = Math.min(options.heartbeatMs, limits.spectatorIdleMs)
        let lastBeat = performance.now()
        heartbeat = setInterval(
          () => {
            const now = performance.now()
            const beat = now - lastBeat >= options.heartbeatMs - tick / 2
            if (beat) lastBeat = now
            subscribers.forEach((set, id) =>
              set.forEach((x) => {
                // A spectator that has seen no step for the idle limit is closed (its client may reconnect).
                if (x.kind === "spectator" && x.emit !== undefined && now - x.lastStepAt >= limits.spectatorIdleMs) {
                  finish(x)
                } else if (x.emit !== undefined) {
                  if (beat) x.emit({ _tag: "heartbeat" })
                } else if (beat && x.handedOut && ++x.idleTicks >= 2) remove(id, x)
              })
            )
          },
          tick
        )
        heartbeat.unref()
      }
    }
    /** Sends a new step to the game's subscribers: one projection per distinct viewer; the last step ends them. */
    const publish = (game: StoredGame, state: Hallyu.GameState, fp: string) => {
      const set = subscribers.get(game.gameId)
      if (set === undefined) return
      const byViewer = new Map<string, GameDocument>()
      for (const s of set) {
        if (s.ended) continue
        if (s.emit === undefined) {
          s.pending?.push({ game, state, fp })
          if ((s.pending?.length ?? 0) > SUBSCRIBER_BUFFER) s.pending?.shift()
          continue
        }
        const key = viewerKey(s.viewer)
        const document = byViewer.get(key) ?? gameView(engine, game, state, fp, s.viewer)
        byViewer.set(key, document)
        s.lastStepAt = performance.now()
        s.emit({ _tag: "step", step: state.ply, document })
      }
      if (state.result !== null) { for (const s of [...set]) finish(s) }
    }
    const stepListeners = new Set<StepListener>()
    const stepped = (game: StoredGame, state: Hallyu.GameState) => {
      for (const l of stepListeners) l(game, state)
    }
    const onStep: GamesService["onStep"] = (listener) =>
      Effect.acquireRelease(
        Effect.sync(() => void stepListeners.add(listener)),
        () => Effect.sync(() => void stepListeners.delete(listener))
      )
    // Across processes (src/services/GameFeeds.ts, StepBus.ts): each step published here once, in order.
    const bus = yield* Effect.serviceOption(StepBus)
    const runtime = yield* Effect.runtime<never>()
    const feeds = makeFeeds({
      engine,
      publish,
      followed: (gameId) => subscribers.has(gameId),
      read: store.read,
      fork: (e) => void Runtime.runFork(runtime)(e)
    })
    if (Option.isSome(bus)) {
      yield* bus.value.subscribe((n) => n._tag === "step" && feeds.notified(n.gameId, n.step))
    }
    const closeStreams = Effect.sync(() => {
      closed = true
      everyone(finish)
    })
    yield* Effect.addFinalizer(() => closeStreams)

    /** The step events after `after` up to the game's current step, replayed once from the log. */
    const stepsAfter = (
      game: StoredGame,
      after: number,
      viewer: Viewer
    ): Either.Either<Array<GameEvent>, Diagnostic> => {
      const started = engine.newGame(game.decks === null ? { seed: game.seed } : { seed: game.seed, decks: game.decks })
      if (Either.isLeft(started)) return Either.left(started.left)
      let s = started.right
      const out: Array<GameEvent> = []
      for (let step = 0;; step++) {
        if (step > after) {
          const fp = game.fingerprints[step] ?? Hallyu.fingerprint(s)
          out.push({ _tag: "step", step, document: gameView(engine, game, s, fp, viewer) })
        }
        const action = game.actions[step]
        if (action === undefined) return Either.right(out)
        const next = engine.apply(s, action)
        if (Either.isLeft(next)) return Either.left(next.left)
        s = next.right
      }
    }

    const refuse = (gameId: string, message: string, limit: number): TooManySubscribers =>
      errorOf("too_many_subscribers", message, { subject: gameId, details: { limit } })

    /** Before a stream is registered: the server is not draining and holds fewer streams than its memory bound. */
    const tooMany = (gameId: string): TooManySubscribers | undefined =>
      closed
        ? refuse(gameId, "the server is shutting down", MAX_SUBSCRIBERS)
        : open >= MAX_SUBSCRIBERS
        ? refuse(gameId, `the server has ${MAX_SUBSCRIBERS} open event streams, the most it allows`, MAX_SUBSCRIBERS)
        : undefined

    /**
     * Once the viewer is known: a seat's stream counts only against that seat's own slots (spectators cannot take
     * them); a spectator's against the game's, its address's and the server's spectator slots. Admitted: counted.
     */
    const admit = (gameId: string, s: Subscriber): TooManySubscribers | undefined => {
      const set = subscribers.get(gameId) ?? new Set<Subscriber>()
      if (s.viewer.seat !== null || s.viewer.operator) {
        const key = viewerKey(s.viewer)
        let mine = 0
        for (const x of set) if (x !== s && x.kind === "seat" && viewerKey(x.viewer) === key) mine++
        if (mine >= limits.perSeat) {
          return refuse(
            gameId,
            `this seat has ${limits.perSeat} open event streams on game ${gameId}, the most it allows`,
            limits.perSeat
          )
        }
        s.kind = "seat"
        return undefined
      }
      let here = 0
      for (const x of set) if (x.kind === "spectator") here++
      const fromAddress = spectatorsByAddress.get(s.address) ?? 0
      if (here >= limits.spectatorsPerGame) {
        return refuse(
          gameId,
          `game ${gameId} has ${limits.spectatorsPerGame} spectator streams, the most it allows (a seat's stream needs its X-Seat-Secret)`,
          limits.spectatorsPerGame
        )
      }
      if (fromAddress >= limits.spectatorsPerClient) {
        return refuse(
          gameId,
          `this client has ${limits.spectatorsPerClient} spectator streams open, the most it allows`,
          limits.spectatorsPerClient
        )
      }
      if (spectators >= limits.spectators) {
        return refuse(
          gameId,
          `the server has ${limits.spectators} spectator streams open, the most it allows`,
          limits.spectators
        )
      }
      s.kind = "spectator"
      spectators++
      spectatorsByAddress.set(s.address, fromAddress + 1)
      return undefined
    }

    const events: GamesService["events"] = (gameId, caller, lastEventId) =>
      Effect.gen(function*() {
        // Before the subscriber is registered under the ID.
        yield* checkGameId(gameId)
        const refused = tooMany(gameId)
        if (refused !== undefined) return yield* Effect.fail(refused)
        const s: Subscriber = {
          viewer: { seat: null, operator: false },
          kind: undefined,
          address: caller.address ?? "",
          lastStepAt: performance.now(),
          pending: [],
          handedOut: false,
          idleTicks: 0,
          ended: false,
          emit: undefined,
          finish: undefined
        }
        add(gameId, s)
        const { backlog, finished } = yield* Effect.gen(function*() {
          const { fp, game, state } = yield* load(gameId)
          s.viewer = yield* viewerOf(game, caller)
          const slotless = admit(gameId, s)
          if (slotless !== undefined) return yield* Effect.fail(slotless)
          feeds.opened(game, state, fp)
          const finished = state.result !== null
          // Without Last-Event-ID: the current step; with one, every step after it (none when it is current).
          if (lastEventId === undefined) {
            const current: GameEvent = {
              _tag: "step",
              step: state.ply,
              document: gameView(engine, game, state, fp, s.viewer)
            }
            return { backlog: [current], finished }
          }
          if (lastEventId >= state.ply) return { backlog: [], finished }
          const after = yield* Either.match(stepsAfter(game, lastEventId, s.viewer), {
            onLeft: (d) => engineErrors.fail([d]),
            onRight: (events) => Effect.succeed(events)
          })
          return { backlog: after, finished }
        }).pipe(Effect.onError(() => Effect.sync(() => remove(gameId, s))))
        const last = backlog.reduce((m, e) => (e._tag === "step" ? Math.max(m, e.step) : m), lastEventId ?? -1)
        s.handedOut = true
        return Stream.asyncPush<GameEvent>(
          (emit) =>
            Effect.acquireRelease(
              Effect.sync(() => {
                let over = finished
                const send = (step: number, document: GameDocument) => {
                  emit.single({ _tag: "step", step, document })
                  over = over || document.result !== null
                }
                for (const e of backlog) if (e._tag === "step") send(e.step, e.document)
                // Steps published while the game was being read.
                for (const p of s.pending ?? []) {
                  if (p.state.ply > last) send(p.state.ply, gameView(engine, p.game, p.state, p.fp, s.viewer))
                }
                s.pending = undefined
                if (s.ended || over) return emit.end()
                s.emit = (e) => void emit.single(e)
                s.finish = () => emit.end()
              }),
              () => Effect.sync(() => remove(gameId, s))
            ),
          { bufferSize: SUBSCRIBER_BUFFER, strategy: "sliding" }
        )
      })

    return {
      engine,
      create: (request, caller = anonymous) =>
        Effect.gen(function*() {
          if (request.fixedSeed === true && !caller.operator) {
            return yield* Effect.fail(
              errorOf("forbidden", "a fixed seed needs the operator's token; without it the server draws the seed", {
                path: "/fixedSeed"
              })
            )
          }
          const clientSeed = request.seed === undefined ? undefined : String(request.seed)
          if (request.fixedSeed === true && clientSeed === undefined) {
            return yield* Effect.fail(
              errorOf("schema_invalid", "fixedSeed needs a seed", { path: "/seed" })
            )
          }
          const seed = request.fixedSeed === true && clientSeed !== undefined ? clientSeed : drawSeed(clientSeed)
          const decks = request.decks ?? null
          const invalid = invalidRequestId([["/decks/0", decks?.[0]], ["/decks/1", decks?.[1]]])
          if (invalid !== undefined) return yield* Effect.fail(invalid)
          const nowMs = yield* Clock.currentTimeMillis
          if (!caller.operator) {
            const live = yield* store.countLive(nowMs - options.games.liveWindowMs)
            if (live >= options.games.maxLiveGames) {
              return yield* Effect.fail(
                errorOf(
                  "too_many_games",
                  `the server has ${options.games.maxLiveGames} live games, the most it allows; retry when some end`,
                  { details: { limit: options.games.maxLiveGames } }
                )
              )
            }
          }
          const started = engine.newGame(decks === null ? { seed } : { seed, decks })
          if (Either.isLeft(started)) return yield* engineErrors.fail([started.left])
          const fp = Hallyu.fingerprint(started.right)
          // Random, unguessable: 16 bytes (22 base64url characters) for the ID, 32 for each seat's secret.
          // An ID starts with a letter or digit (RequestId): a leading "-" or "_" of the token becomes "G".
          const token = randomToken(16)
          const gameId = /^[-_]/.test(token) ? `G${token.slice(1)}` : token
          // An invited seat's secret is drawn only when the invitation is exchanged: the creator never holds it.
          const invitation = request.invite === true
            ? Invitations.newInvitation(gameId, nowMs, options.games.invitationTtlMs)
            : undefined
          const secrets = [randomToken(32), invitation === undefined ? randomToken(32) : undefined] as const
          const stored: StoredGame = {
            gameId,
            seed,
            decks,
            deckHash: engine.compiled.hash,
            actions: [],
            fingerprints: [fp],
            seatHashes: [
              sha256Hex(secrets[0]),
              secrets[1] === undefined ? invitation?.placeholder ?? "" : sha256Hex(secrets[1])
            ]
          }
          yield* store.create(stored, { nowMs })
          remember(gameId, started.right, fp)
          stepped(stored, started.right)
          const withheld = request.withheld ?? []
          return {
            game: gameView(engine, stored, started.right, fp, { seat: null, operator: false }),
            seats: (secrets[1] === undefined
              ? [{ seat: 0 as const, secret: secrets[0] }]
              : [{ seat: 0 as const, secret: secrets[0] }, { seat: 1 as const, secret: secrets[1] }]).filter((s) =>
                !withheld.includes(s.seat)
              ),
            invitation: invitation === undefined
              ? null
              : { code: invitation.code, seat: 1, expiresAt: new Date(invitation.expiresAtMs).toISOString() }
          }
        }),
      join: (code) =>
        Effect.gen(function*() {
          const unknown = errorOf(
            "invitation_invalid",
            "no open invitation has this code (unknown, already used, or expired)",
            { path: "/code" }
          )
          const parsed = Invitations.parseCode(code)
          if (parsed === undefined || invalidRequestId([["/code", parsed.gameId]]) !== undefined) {
            return yield* Effect.fail(unknown)
          }
          const found = yield* store.read(parsed.gameId)
          if (Option.isNone(found) || found.value.seatHashes === null) return yield* Effect.fail(unknown)
          const game = found.value
          const nowMs = yield* Clock.currentTimeMillis
          const hashes = game.seatHashes
          const seat: Hallyu.Seat | undefined = hashes !== null && Invitations.isPlaceholder(hashes[1]) &&
              Invitations.opens(hashes[1], parsed.token, nowMs)
            ? 1
            : hashes !== null && Invitations.isPlaceholder(hashes[0]) &&
                Invitations.opens(hashes[0], parsed.token, nowMs)
            ? 0
            : undefined
          if (seat === undefined || hashes === null) return yield* Effect.fail(unknown)
          const secret = randomToken(32)
          // Compare-and-set: of two exchanges of one code, one wins; the other finds no open invitation.
          const claimed = yield* store.claimSeat(game.gameId, seat, hashes[seat], sha256Hex(secret))
          if (!claimed) return yield* Effect.fail(unknown)
          const { fp, state } = yield* Effect.orElseFail(load(game.gameId), () => unknown)
          const joined: StoredGame = {
            ...game,
            seatHashes: seat === 0 ? [sha256Hex(secret), hashes[1]] : [hashes[0], sha256Hex(secret)]
          }
          return {
            gameId: game.gameId,
            seat,
            secret,
            game: gameView(engine, joined, state, fp, { seat, operator: false })
          }
        }),
      act: (gameId, request, caller) =>
        Effect.gen(function*() {
          const { game, state } = yield* load(gameId)
          const viewer = yield* viewerOf(game, caller)
          const toAct = state.decision?.player ?? null
          if (viewer.seat === null && !viewer.operator) {
            return yield* Effect.fail(
              errorOf("unauthorized", "acting needs the seat's X-Seat-Secret (or the operator's token)", {
                subject: gameId
              })
            )
          }
          if (viewer.seat !== null && toAct !== null && viewer.seat !== toAct && state.result === null) {
            return yield* Effect.fail(
              errorOf("forbidden", `seat ${viewer.seat} cannot act for seat ${toAct}`, {
                subject: gameId,
                details: { seat: viewer.seat, toAct }
              })
            )
          }
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
          const nowMs = yield* Clock.currentTimeMillis
          const appended = yield* store.append(gameId, request.expectedStep, request.actionId, fp, {
            nowMs,
            finished: next.right.result !== null
          })
          if (!appended) {
            return yield* Effect.fail(
              errorOf("step_conflict", `game ${gameId} moved past step ${request.expectedStep}`, { subject: gameId })
            )
          }
          remember(gameId, next.right, fp)
          const after: StoredGame = {
            ...game,
            actions: [...game.actions, request.actionId],
            fingerprints: [...game.fingerprints, fp]
          }
          feeds.applied(after, next.right, fp)
          stepped(after, next.right)
          if (Option.isSome(bus)) yield* bus.value.publish({ _tag: "step", gameId, step: next.right.ply })
          // The operator acts for the seat to act and sees what that seat sees.
          return gameView(engine, after, next.right, fp, { seat: viewer.seat ?? toAct, operator: viewer.operator })
        }),
      get: (gameId, caller) =>
        Effect.gen(function*() {
          const { fp, game, state } = yield* load(gameId)
          const viewer = yield* viewerOf(game, caller)
          return gameView(engine, game, state, fp, viewer)
        }),
      // The log of a game in progress says `partial`, so `cardfx replay` accepts it.
      log: (gameId, caller) =>
        Effect.gen(function*() {
          const { game, state } = yield* load(gameId)
          yield* viewerOf(game, caller)
          if (state.result !== null) return logOf(game)
          if (!caller.operator) {
            return yield* Effect.fail(
              errorOf(
                "forbidden",
                `game ${gameId} is in progress: its log (whose seed replays to both hands) is the operator's until the game ends`,
                { subject: gameId }
              )
            )
          }
          return { ...logOf(game), partial: true }
        }),
      explain: (gameId, actionId, caller) =>
        Effect.gen(function*() {
          const { game, state } = yield* load(gameId)
          const viewer = yield* viewerOf(game, caller)
          if (viewer.seat === null && !viewer.operator) {
            return yield* Effect.fail(
              errorOf("unauthorized", "explain needs the acting seat's X-Seat-Secret (or the operator's token)", {
                subject: gameId
              })
            )
          }
          const toAct = state.decision?.player ?? null
          // Another seat's question would probe the acting seat's hand: it hears only whose decision it is.
          if (viewer.seat !== null && state.result === null && toAct !== null && viewer.seat !== toAct) {
            return {
              actionId,
              legal: false,
              reason: "not-your-decision",
              message: `seat ${toAct} is to act, not seat ${viewer.seat}`
            }
          }
          const e = engine.explain(state, actionId)
          return e.legal
            ? { actionId, legal: true, reason: null, message: null }
            : { actionId, legal: false, reason: e.reason, message: e.message }
        }),
      events,
      closeStreams,
      onStep
    } satisfies GamesService
  })

/** The fields of a partial options object that are set (an `undefined` one keeps the default). */
const definedOf = <A extends object>(o: Partial<A> | undefined): Partial<A> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<A>

/** Hallyu Hex game sessions. */
export class Games extends Context.Tag("cardfx/Games")<Games, GamesService>() {
  static readonly layer = (
    engine: Hallyu.Engine,
    options: {
      readonly heartbeatMs?: number | undefined
      readonly streams?: Partial<StreamLimits> | undefined
      readonly games?: Partial<GameLimits> | undefined
    } = {}
  ): Layer.Layer<Games, never, GameStore> =>
    Layer.scoped(
      Games,
      Effect.map(
        make(engine, {
          heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
          streams: { ...DEFAULT_STREAM_LIMITS, ...definedOf(options.streams) },
          games: { ...DEFAULT_GAME_LIMITS, ...definedOf(options.games) }
        }),
        (s) => traced("Games", s)
      )
    )
}

/** A diagnostic for a deck that cannot be served (used at start-up). */
export const deckProblem = (file: string, message: string) =>
  diagnostic("file_unreadable", `${file}: ${message}`, { file })
