/**
 * The searches behind the agents, on the engine's in-place playout path
 * (`MutablePlayout`): plain TypeScript, no Effect, no clock, no `Math.random`.
 *
 * - `greedy`: one ply. Each legal action is applied in the same `n` sampled
 *   worlds; the game then goes on to the opponent's next main window (the
 *   opponent passes every response window and answers other questions with
 *   its first option; the seat answers its own questions with its first
 *   option and ends its turn), where the position is scored by
 *   {@link evaluate}. The best average wins (ties: the engine's order).
 * - `ismcts`: single-observer information-set MCTS. Every iteration samples
 *   a world (`sample`), descends the tree of the seat's information sets
 *   (one node per action ID sequence; forced moves, with one legal action,
 *   make no node) choosing by UCB1 among the children *available* in this
 *   world (each child counts how often it was available: the availability
 *   fix of ISMCTS), expands one untried action, plays out with uniformly
 *   random actions for at most {@link PLAYOUT_PLIES} actions, scores the end
 *   (a finished game: 1 / ½ / 0; a cut one: `winChance(evaluate)`) and
 *   backs it up from each mover's side. The answer is the root's most
 *   visited action (ties: the engine's order).
 *
 * @since 0.1.0
 */
import type { RngStream } from "../../kernel/Rng.js"
import type { Engine } from "../engine/Engine.js"
import { type MutablePlayout, mutablePlayoutOf } from "../engine/Playout.js"
import type { GameAction, GameState, Seat } from "../engine/State.js"
import { evaluate, winChance } from "./Evaluate.js"

/** Random actions a playout takes before it is cut and scored by the evaluation. */
export const PLAYOUT_PLIES = 12

/** The UCB1 exploration constant (rewards in [0, 1]). */
export const UCB_C = 0.3

/**
 * How an iteration's playout ends: `random` — uniformly random actions, cut after
 * {@link PLAYOUT_PLIES}; `light` — the greedy's continuation (the seat ends its turn, the opponent
 * passes its response windows) up to the opponent's next main window, where the evaluation scores
 * it. `light` is what the `ismcts` agent plays; `random` is the bench's row.
 */
export type PlayoutPolicy = "random" | "light"

/** A world for iteration `k`: a fair agent samples one, the cheater returns the true state. */
export type Sampler = (rng: RngStream) => GameState

const playoutOn = (engine: Engine, s: GameState): MutablePlayout | undefined => {
  const make = mutablePlayoutOf(engine)
  return make === undefined ? undefined : make(s)
}

// ------------------------------------------------------------------ greedy

/** Plays on from the seat's action to the opponent's next main window (see the module's comment). */
const advance = (p: MutablePlayout, me: Seat): void => {
  let ended = false
  for (let guard = 0; guard < 200 && p.result() === null; guard++) {
    const d = p.peek().decision
    if (d === null) return
    const legal = p.legal()
    if (legal.length === 0) return
    let a = legal[0] as GameAction
    if (d.player !== me) {
      if (d.d === "main") return
      for (let k = 0; k < legal.length; k++) if ((legal[k] as GameAction).kind === "pass") a = legal[k] as GameAction
    } else if (d.d === "main") {
      if (ended) return
      let found = false
      for (let k = 0; k < legal.length; k++) {
        if ((legal[k] as GameAction).kind === "end-turn") {
          a = legal[k] as GameAction
          found = true
        }
      }
      if (!found) return
      ended = true
    }
    if (p.step(a, null) !== null) return
  }
}

/** The greedy choice among `legal` (IDs), each scored over the same `worlds` sampled worlds. */
export const greedy = (
  engine: Engine,
  me: Seat,
  legal: ReadonlyArray<GameAction>,
  sample: Sampler,
  worlds: number,
  rng: RngStream
): GameAction => {
  const states: Array<GameState> = []
  for (let m = 0; m < worlds; m++) states.push(sample(rng))
  let best = legal[0] as GameAction
  let bestScore = Number.NEGATIVE_INFINITY
  for (const action of legal) {
    let total = 0
    for (const s of states) {
      const p = playoutOn(engine, s)
      if (p === undefined) return best
      const a = p.legal().find((x) => x.id === action.id)
      if (a === undefined || p.step(a, null) !== null) {
        total += -1000
        continue
      }
      if (a.kind !== "end-turn") advance(p, me)
      else advance(p, me)
      total += evaluate(engine.compiled, p.peek(), me)
    }
    if (total > bestScore) {
      bestScore = total
      best = action
    }
  }
  return best
}

// ------------------------------------------------------------------ ismcts

/** A node: the action that led here (by ID, in its parent's map), who took it, and its statistics. */
class Node {
  /** Visits. */
  n = 0
  /** Reward summed from the mover's side. */
  w = 0
  /** Iterations in which this node's action was legal when its parent was visited. */
  avail = 0
  kids: Map<string, Node> | null = null
  constructor(readonly player: Seat) {}
}

/** Counts of one search (the bench reads them). */
export interface SearchStats {
  iterations: number
  /** Actions stepped in the tree and in playouts. */
  steps: number
}

/** The ISMCTS choice among `legal` (the seat's legal actions at the root) after `iterations` iterations. */
export const ismcts = (
  engine: Engine,
  legal: ReadonlyArray<GameAction>,
  sample: Sampler,
  iterations: number,
  rng: RngStream,
  stats?: SearchStats,
  policy: PlayoutPolicy = "light"
): GameAction => {
  const make = mutablePlayoutOf(engine)
  if (make === undefined || legal.length <= 1) return legal[0] as GameAction
  const me = (legal[0] as GameAction).player
  const root = new Node(0)
  const path: Array<Node> = []
  const untried: Array<GameAction> = []
  let steps = 0
  for (let it = 0; it < iterations; it++) {
    const p = make(sample(rng))
    let node = root
    path.length = 0
    // Selection and expansion.
    for (;;) {
      if (p.result() !== null) break
      const xs = p.legal()
      if (xs.length === 0) break
      if (xs.length === 1) {
        steps++
        if (p.step(xs[0] as GameAction, null) !== null) break
        continue
      }
      if (node.kids === null) node.kids = new Map()
      const kids = node.kids
      untried.length = 0
      let pick: GameAction | null = null
      let pickNode: Node | null = null
      let bestU = Number.NEGATIVE_INFINITY
      for (let k = 0; k < xs.length; k++) {
        const a = xs[k] as GameAction
        const ch = kids.get(a.id)
        if (ch === undefined) untried.push(a)
        else ch.avail++
      }
      if (untried.length > 0) {
        pick = untried[untried.length === 1 ? 0 : rng.int(untried.length)] as GameAction
        pickNode = new Node(pick.player)
        pickNode.avail = 1
        kids.set(pick.id, pickNode)
      } else {
        for (let k = 0; k < xs.length; k++) {
          const a = xs[k] as GameAction
          const ch = kids.get(a.id) as Node // every legal action has a child here
          const u = ch.w / ch.n + UCB_C * Math.sqrt(Math.log(ch.avail) / ch.n)
          if (u > bestU) {
            bestU = u
            pick = a
            pickNode = ch
          }
        }
      }
      const expanded = untried.length > 0
      steps++
      if (pick === null || pickNode === null || p.step(pick, null) !== null) break
      path.push(pickNode)
      node = pickNode
      if (expanded) break
    }
    // Playout.
    if (policy === "light") advance(p, me)
    else {
      for (let k = 0; k < PLAYOUT_PLIES && p.result() === null; k++) {
        const xs = p.legal()
        if (xs.length === 0) break
        steps++
        if (p.step(xs[xs.length === 1 ? 0 : rng.int(xs.length)] as GameAction, null) !== null) break
      }
    }
    const end = p.peek()
    const r0 = end.result !== null
      ? end.result.winner === null ? 0.5 : end.result.winner === 0 ? 1 : 0
      : winChance(evaluate(engine.compiled, end, 0))
    for (let k = 0; k < path.length; k++) {
      const x = path[k] as Node
      x.n++
      x.w += x.player === 0 ? r0 : 1 - r0
    }
  }
  if (stats !== undefined) {
    stats.iterations += iterations
    stats.steps += steps
  }
  let best = legal[0] as GameAction
  let most = -1
  const kids = root.kids
  if (kids === null) return best
  for (const a of legal) {
    const n = kids.get(a.id)?.n ?? 0
    if (n > most) {
      most = n
      best = a
    }
  }
  return best
}
