/**
 * `ComputerSeats`: seats of a served Hallyu Hex game that the server plays
 * (issue 39's computer seats over HTTP, issue 44's agents off the request
 * path).
 *
 * A game is created with its seats (`create`): a human seat gets its secret
 * as before; a computer seat names a fair agent (`random`, `greedy`,
 * `ismcts`: never `cheater`) and its iterations, at most the server's
 * `maxIterations`; its secret is made and hashed as any seat's but never
 * handed out, so no client reads its hand or acts for it. The seats are
 * stored (`ComputerSeatStore`) before the answer goes out.
 *
 * After each step the `Games` service applies (its `onStep` hook), a game
 * whose seat to act is a computer seat is queued — once, by its ID — and one
 * of `poolSize` decision fibers takes it: it builds that seat's
 * {@link SeatKnowledge} (`knowledgeOf`: the seat's view, the public history,
 * its legal actions — never the state), asks the {@link AgentDecider} port
 * (worker threads in the `cardfx` bin, src/workers/AgentPool.ts; in process
 * for an embedder that provides none) for the agent's choice, and applies it
 * through `Games.act` with that seat's authority at the step it decided on,
 * so the move is checked, logged, persisted and streamed like any client's;
 * then it records the move. An action that arrives first (the operator
 * acting for the seat) makes the decision's step stale: it is dropped, and
 * the next step queues the game again if need be.
 *
 * Determinism: the agent's seed is {@link agentSeed} of the game's seed, the
 * seat and the step — a sha256, so it reveals nothing of the deal — and is
 * recorded with the move and the iterations the decision was given: the
 * move is `decide(engine, spec, knowledgeOf(state, seat, history), seed)`,
 * checkable again from the log. There is no wall-clock cap: the iteration
 * budget (bounded by `maxIterations`) is what bounds a decision's time.
 *
 * A starting server resumes every stored game with a computer seat that has
 * not ended: a computer move that was pending when the server stopped is
 * queued again. A step of a game this process neither created nor resumed
 * (another server's, on the same store) makes it read that game's seats once.
 *
 * @since 0.1.0
 */
import { Context, Duration, Effect, Either, Layer, Option, Queue, Runtime, Schedule, Schema } from "effect"
import { DEFAULT_ITERATIONS, FairAgentName, knowledgeOf, MAX_ITERATIONS } from "../hallyu/agents/Agent.js"
import * as Hallyu from "../hallyu/index.js"
import {
  errorOf,
  type InvalidId,
  type InvalidIterations,
  type StoreCorrupt,
  type StoreFailure,
  type TooManyGames,
  type UnknownAgent
} from "../kernel/Errors.js"
import { AgentDecider, agentSeed } from "./AgentDecisions.js"
import { type ComputerMove, type ComputerSeat, ComputerSeatStore, type SeatAgents } from "./ComputerSeatStore.js"
import {
  anonymous,
  type Caller,
  type CreatedGame,
  type CredentialError,
  type EngineError,
  Games,
  type NewGame
} from "./Games.js"
import type { DeckSource } from "./Simulation.js"

export * from "./AgentDecisions.js"
export { type ComputerMove, type ComputerSeat, ComputerSeatStore, type SeatAgents }

/** Decision threads when `--agent-pool` is not given. */
export const DEFAULT_AGENT_POOL_SIZE = 2
/** The largest iteration budget a computer seat may be given when `--max-agent-iterations` is not given. */
export const DEFAULT_MAX_AGENT_ITERATIONS = 5000
/** The largest `--max-agent-iterations`: the agents' own maximum. */
export const MAX_SERVER_ITERATIONS = MAX_ITERATIONS

/** A seat of a new game as a request names it: a human (a client holds its secret) or a computer seat. */
export type SeatRequest =
  | { readonly kind: "human" }
  | { readonly kind: "computer"; readonly agent: string; readonly iterations?: number | undefined }

/** A new game with its seats (absent, or fewer than two: the other seats are human). */
export interface NewGameWithSeats extends Omit<NewGame, "withheld"> {
  readonly seats?: ReadonlyArray<SeatRequest> | undefined
}

/**
 * A new game's seats, checked (pure): at most two (a third is a seat that
 * does not exist: `unknown_agent`), each agent a fair one (`unknown_agent`),
 * each budget an integer in 1..`maxIterations` (`invalid_iterations`; the
 * default: the agent's own default, at most `maxIterations`).
 */
export const checkSeats = (
  seats: ReadonlyArray<SeatRequest>,
  maxIterations: number
): Either.Either<SeatAgents, UnknownAgent | InvalidIterations> => {
  const out: [ComputerSeat | null, ComputerSeat | null] = [null, null]
  for (let i = 0; i < seats.length; i++) {
    const s = seats[i]
    if (s === undefined) continue
    if (i > 1) {
      return Either.left(
        errorOf("unknown_agent", `seat ${i} does not exist: a game has seats 0 and 1`, {
          path: `/seats/${i}`,
          subject: String(i)
        })
      )
    }
    if (s.kind === "human") continue
    const agent = s.agent
    if (!Schema.is(FairAgentName)(agent)) {
      return Either.left(
        errorOf("unknown_agent", `unknown agent "${agent.slice(0, 64)}" for seat ${i} (random, greedy, ismcts)`, {
          path: `/seats/${i}/agent`,
          subject: agent.slice(0, 64)
        })
      )
    }
    const iterations = s.iterations ?? Math.min(DEFAULT_ITERATIONS[agent], maxIterations)
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > maxIterations) {
      return Either.left(
        errorOf(
          "invalid_iterations",
          `seat ${i}'s iterations must be an integer in 1..${maxIterations} (this server's maximum), got ${
            String(iterations).slice(0, 32)
          }`,
          { path: `/seats/${i}/iterations`, subject: agent, details: { max: maxIterations } }
        )
      )
    }
    out[i] = { agent, iterations }
  }
  return Either.right(out)
}

/** How computer seats are played. */
export interface ComputerSeatsOptions {
  /** Decisions made at once (the decider's threads); default {@link DEFAULT_AGENT_POOL_SIZE}. */
  readonly poolSize?: number | undefined
  /** The largest iteration budget a seat may be given; default {@link DEFAULT_MAX_AGENT_ITERATIONS}. */
  readonly maxIterations?: number | undefined
}

export interface ComputerSeatsService {
  readonly poolSize: number
  readonly maxIterations: number
  /** Creates a game with its seats; a computer seat's secret is not in the answer. */
  readonly create: (
    request: NewGameWithSeats,
    caller?: Caller
  ) => Effect.Effect<
    CreatedGame,
    | EngineError
    | InvalidId
    | StoreFailure
    | StoreCorrupt
    | CredentialError
    | TooManyGames
    | UnknownAgent
    | InvalidIterations
  >
  /** A game's seats (null: a game with no computer seat). */
  readonly seatsOf: (gameId: string) => Effect.Effect<SeatAgents | null, StoreFailure>
  /** A game's computer moves, by step, each with its agent, iterations and seed. */
  readonly moves: (gameId: string) => Effect.Effect<ReadonlyArray<ComputerMove>, StoreFailure>
  /** Waits until no decision is queued or being made (for tests and benches; a game in progress may queue more). */
  readonly settled: Effect.Effect<void>
}

/** How many games without a computer seat a process remembers (so it reads their seats once). */
const HUMAN_ONLY_REMEMBERED = 4096

/** The longest a computer move waits to be recorded. */
const RECORD_EVERY_MS = 200

/** The operator acting as one seat: `Games.act` refuses it unless that seat is to act. */
const seatAuthority = (seat: Hallyu.Seat) => ({ operator: true, seat })

/** What a decision needs of a game: its seed, its history and its state now. */
interface Pending {
  readonly seed: string
  readonly actions: ReadonlyArray<string>
  readonly state: Hallyu.GameState
}

const make = (options: ComputerSeatsOptions) =>
  Effect.gen(function*() {
    const games = yield* Games
    const store = yield* ComputerSeatStore
    const decider = yield* AgentDecider
    const poolSize = Math.max(1, options.poolSize ?? DEFAULT_AGENT_POOL_SIZE)
    const maxIterations = Math.min(MAX_ITERATIONS, options.maxIterations ?? DEFAULT_MAX_AGENT_ITERATIONS)
    const engine = games.engine
    const deck: DeckSource = { json: JSON.stringify(engine.deck), file: "served deck" }
    const runtime = yield* Effect.runtime<never>()
    const fork = Runtime.runFork(runtime)

    // The games with a computer seat this process plays (not ended), and their latest step.
    const seatsByGame = new Map<string, SeatAgents>()
    const latest = new Map<string, Pending>()
    // Queued game IDs: each at most once (one decision pending per game), so the queue holds at most one
    // entry per game in progress; `running` decisions are at most `poolSize`.
    const queue = yield* Queue.unbounded<string>()
    const queued = new Set<string>()
    let running = 0

    // Games this process applied a step to and found without a computer seat (bounded, oldest out): a game
    // created by another server on the same store is looked up once, when this process first applies its step.
    const humanOnly = new Set<string>()
    const lookUp = (gameId: string, pending: Pending) =>
      fork(
        Effect.flatMap(store.read(gameId), (found) =>
          Effect.sync(() => {
            const seats = Option.getOrUndefined(found)
            if (seats !== undefined && (seats[0] !== null || seats[1] !== null)) {
              if (!seatsByGame.has(gameId)) seatsByGame.set(gameId, seats)
              stepped(gameId, pending)
              return
            }
            humanOnly.add(gameId)
            if (humanOnly.size > HUMAN_ONLY_REMEMBERED) {
              const oldest = humanOnly.values().next()
              if (oldest.done !== true) humanOnly.delete(oldest.value)
            }
          })).pipe(Effect.catchAll((e) => Effect.logWarning("computer seats: cannot read a game's seats", e.message)))
      )
    const stepped = (gameId: string, pending: Pending): void => {
      const seats = seatsByGame.get(gameId)
      if (seats === undefined) {
        if (!humanOnly.has(gameId) && pending.state.result === null) lookUp(gameId, pending)
        return
      }
      if (pending.state.result !== null) {
        seatsByGame.delete(gameId)
        latest.delete(gameId)
        fork(Effect.catchAll(store.finish(gameId), (e) => Effect.logWarning("computer seats", e.message)))
        return
      }
      // A step read late (a look-up, a resume) never replaces a later one.
      if ((latest.get(gameId)?.state.ply ?? -1) > pending.state.ply) return
      latest.set(gameId, pending)
      const seat = pending.state.decision?.player
      if (seat !== undefined && seats[seat] !== null && !queued.has(gameId)) {
        queued.add(gameId)
        Queue.unsafeOffer(queue, gameId)
      }
    }
    yield* games.onStep((game, state) => stepped(game.gameId, { seed: game.seed, actions: game.actions, state }))

    /** Reads a game and queues its pending computer move, if any (a new game, a game resumed at start). */
    const resume = (gameId: string) =>
      Effect.gen(function*() {
        const log = yield* games.log(gameId, { operator: true })
        const replayed = Hallyu.replay(engine, { ...log, partial: true })
        if (Either.isLeft(replayed)) return yield* Effect.logWarning("computer seats: cannot resume", replayed.left)
        stepped(gameId, { seed: log.seed, actions: log.actions, state: replayed.right })
      })

    const decideOnce = (gameId: string) =>
      Effect.gen(function*() {
        const pending = latest.get(gameId)
        const seats = seatsByGame.get(gameId)
        const seat = pending?.state.decision?.player
        if (pending === undefined || seats === undefined || seat === undefined) return
        const spec = seats[seat]
        if (spec === null) return
        const step = pending.state.ply
        const seed = agentSeed(pending.seed, seat, step)
        // The seat's knowledge only: the decider never sees the state.
        const knowledge = knowledgeOf(engine, pending.state, seat, pending.actions)
        const answer = yield* decider.decide({ deck, agent: spec.agent, iterations: spec.iterations, seed, knowledge })
          .pipe(Effect.retry({ times: 2, schedule: Schedule.spaced(Duration.millis(200)) }))
        yield* games.act(gameId, { actionId: answer.actionId, expectedStep: step }, seatAuthority(seat))
        unrecorded.push({
          gameId,
          step,
          seat,
          agent: spec.agent,
          iterations: answer.iterations,
          seed,
          actionId: answer.actionId
        })
      })

    // Moves are recorded in batches (one write, so one sync of the store, per RECORD_EVERY_MS at most, not per
    // move: SQLite writes block the thread that answers HTTP). A crash loses at most the last batch's records,
    // which the log derives again (the seed is agentSeed's, the iterations the seat's).
    const unrecorded: Array<ComputerMove> = []
    let recording = false
    const recordNow = Effect.suspend(() => {
      const batch = unrecorded.splice(0)
      recording = batch.length > 0
      return store.record(batch).pipe(
        Effect.catchAll((e) => Effect.logWarning("computer seats: cannot record moves", e.message)),
        Effect.ensuring(Effect.sync(() => (recording = false)))
      )
    })
    yield* Effect.forkScoped(Effect.repeat(recordNow, Schedule.spaced(Duration.millis(RECORD_EVERY_MS))))
    yield* Effect.addFinalizer(() => recordNow)

    const decisions = Effect.forever(
      Effect.gen(function*() {
        const gameId = yield* Queue.take(queue)
        queued.delete(gameId)
        running++
        yield* decideOnce(gameId).pipe(
          Effect.catchAll((e) =>
            // A stale step: an action arrived first (or ended the game); the step it made queued the game again if
            // need be.
            e.code === "step_conflict" || e.code === "game_over"
              ? Effect.void
              : Effect.logWarning("computer seat move failed").pipe(
                Effect.annotateLogs({ gameId, code: e.code, reason: e.message })
              )
          ),
          Effect.ensuring(Effect.sync(() => running--))
        )
      })
    )
    for (let i = 0; i < poolSize; i++) yield* Effect.forkScoped(decisions)

    // The games left with a pending computer move by a server that stopped: queued again (not blocking the start).
    yield* Effect.forkScoped(
      Effect.flatMap(store.unfinished, (rows) =>
        Effect.forEach(rows, (row) => {
          seatsByGame.set(row.gameId, row.seats)
          return Effect.catchAll(resume(row.gameId), (e) =>
            Effect.logWarning("computer seats: cannot resume").pipe(
              Effect.annotateLogs({ gameId: row.gameId, code: e.code, reason: e.message })
            ))
        }, { discard: true })).pipe(
          Effect.catchAll((e) => Effect.logWarning("computer seats: cannot list games", e.message))
        )
    )

    const create: ComputerSeatsService["create"] = (request, caller = anonymous) =>
      Effect.gen(function*() {
        const seats = yield* checkSeats(request.seats ?? [], maxIterations)
        const withheld = ([0, 1] as const).filter((s) => seats[s] !== null)
        // An invitation is for seat 1, to another client: that seat cannot also be the server's.
        if (request.invite === true && seats[1] !== null) {
          return yield* Effect.fail(
            errorOf("unknown_agent", "seat 1 is invited to another client; it cannot also be a computer seat", {
              path: "/seats/1"
            })
          )
        }
        const { seats: _seats, ...game } = request
        const created = yield* games.create({ ...game, withheld }, caller)
        if (withheld.length === 0) return created
        const gameId = created.game.gameId
        yield* store.save(gameId, seats)
        seatsByGame.set(gameId, seats)
        yield* Effect.catchAll(resume(gameId), (e) =>
          Effect.logWarning("computer seats: cannot start").pipe(
            Effect.annotateLogs({ gameId, code: e.code, reason: e.message })
          ))
        return created
      })

    return {
      poolSize,
      maxIterations,
      create,
      seatsOf: (gameId) => Effect.map(store.read(gameId), Option.getOrNull),
      moves: store.moves,
      settled: Effect.repeat(
        Effect.sync(() => queued.size === 0 && running === 0 && unrecorded.length === 0 && !recording),
        {
          until: (idle) => idle,
          schedule: Schedule.spaced(Duration.millis(10))
        }
      ).pipe(Effect.asVoid)
    } satisfies ComputerSeatsService
  })

/** Computer seats of served games. */
export class ComputerSeats extends Context.Tag("cardfx/ComputerSeats")<ComputerSeats, ComputerSeatsService>() {
  /** Plays the computer seats of the `Games` service's games, deciding on the {@link AgentDecider}. */
  static readonly layer = (
    options: ComputerSeatsOptions = {}
  ): Layer.Layer<ComputerSeats, never, Games | ComputerSeatStore | AgentDecider> =>
    Layer.scoped(ComputerSeats, make(options))
}
