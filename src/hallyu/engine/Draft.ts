/**
 * The copy-on-write draft of a state that one `apply` (or setup) resolves
 * on: only the parts of the state an action touches are copied (players,
 * their zone arrays, counters, event counts, limit uses, chosen targets, the
 * trigger queue); the rest is shared with the previous state, which is never
 * mutated. The draft also carries the action's resolution budget and the
 * operation tally of a playout.
 *
 * @since 0.1.0
 */
import { type Budget, makeBudget } from "../../kernel/Budget.js"
import type { ZoneName } from "../Vocabulary.js"
import { cardOfInst, type StaticSource, staticSources, zoneArray } from "./Reading.js"
import type { Runtime } from "./Runtime.js"
import type { CastRecord, Frame, GameState, PathStep, PlayerState, Seat, Work } from "./State.js"
import { emptyRecord, type OperationTally } from "./Tally.js"

/** Resolution steps one action may take; a starter-deck action takes a few dozen. */
export const RESOLUTION_BUDGET = 100_000

export const zoneIndex = (
  z: ZoneName
): number => (z === "deck" ? 0 : z === "hand" ? 1 : z === "stage" ? 2 : z === "archive" ? 3 : 4)

export type MPlayer = { -readonly [K in keyof PlayerState]: PlayerState[K] }
export type MState = { -readonly [K in keyof GameState]: GameState[K] }

/**
 * A shallow copy of a state, written out field by field in the order
 * `newGame` creates them: every state then has one hidden class, so reads
 * of its fields stay monomorphic, and the copy is a plain allocation (a
 * spread of states of several hidden classes took V8's slow clone path).
 */
const copyState = (s: GameState): MState => ({
  format: s.format,
  deckHash: s.deckHash,
  seed: s.seed,
  rng: s.rng,
  cardOf: s.cardOf,
  turn: s.turn,
  active: s.active,
  first: s.first,
  players: s.players,
  counters: s.counters,
  toneChanges: s.toneChanges,
  costChanges: s.costChanges,
  damage: s.damage,
  castTargets: s.castTargets,
  cast: s.cast,
  events: s.events,
  uses: s.uses,
  looks: s.looks,
  work: s.work,
  queue: s.queue,
  decision: s.decision,
  result: s.result,
  ply: s.ply
})

/** A shallow copy of a player's state, field by field (see `copyState`). */
const copyPlayer = (p: PlayerState): MPlayer => ({
  composure: p.composure,
  fandom: p.fandom,
  trend: p.trend,
  deck: p.deck,
  hand: p.hand,
  stage: p.stage,
  archive: p.archive,
  pending: p.pending
})

/** Work item kinds of a `Job` (the `w` of the state's `Work` items). */
export const W_STEP = 0
export const W_SPOT = 1
export const W_EFFECT = 2
export const W_ACTS = 3
export const W_RESOLVE = 4
export const W_SETTLE = 5
export const W_DEAL = 6
export const W_DMGFIN = 7
export const W_WINDOW = 8

export type StepName = "start" | "turn-start" | "draw" | "turn-end" | "cleanup"

export const NO_PATH: ReadonlyArray<PathStep> = []

/**
 * One item of the draft's work stack: every kind in one class, so the
 * resolution loop reads one hidden class (the state's `Work` items are nine
 * object shapes, and the loop's read of their kind was megamorphic), and the
 * draft reuses the objects of popped items instead of allocating one per
 * resolution step. Only the fields of its kind mean anything; the state's
 * plain `Work` items are written from these when the draft finishes.
 */
export class Job {
  w = W_STEP
  s: StepName = "start"
  i = 0
  f: Frame | null = null
  ok = false
  path: ReadonlyArray<PathStep> = NO_PATH
  inst = ""
  win: string | null = null
  about: string | null = null
  seat: Seat = 0
  n = 0
}

/** The state's `Work` item of a job, with the keys in the order the engine always wrote them. */
const workOf = (j: Job): Work => {
  const f = j.f as Frame // set for every kind that has a frame
  switch (j.w) {
    case W_STEP:
      return { w: "step", s: j.s }
    case W_SPOT:
      return { w: "spot", i: j.i }
    case W_EFFECT:
      return { w: "effect", f, ok: j.ok }
    case W_ACTS:
      return { w: "acts", f, path: j.path, i: j.i }
    case W_RESOLVE:
      return { w: "resolve", inst: j.inst, win: j.win, about: j.about }
    case W_SETTLE:
      return { w: "settle", inst: j.inst }
    case W_DEAL:
      return { w: "deal", f, path: j.path, i: j.i, seat: j.seat, n: j.n }
    case W_DMGFIN:
      return { w: "dmgfin", f, path: j.path, i: j.i }
    default:
      return { w: "window", win: j.win ?? "", player: j.seat, about: j.about }
  }
}

const NO_WORK: ReadonlyArray<Work> = []
/** No limit uses: shared by states, never mutated (a draft copies it on its first `use`). */
const NO_USES: Readonly<Record<string, number>> = {}

/**
 * A copy of a record keyed by card instance (counters, limit uses, chosen targets) in dictionary mode
 * (`emptyRecord`), same keys in the same order. Games add those keys in a different order every
 * time, so a fast-mode copy took a new hidden class per key added (a runtime map transition: the
 * store of a new instance's counters was a percent of a playout, profiled). Making one costs two
 * runtime deletes, so a playout's draft makes each once per game and then mutates it in place.
 */
const dictionaryCopy = <A>(r: Readonly<Record<string, A>>): Record<string, A> => {
  const copy = emptyRecord<A>()
  for (const k in r) copy[k] = r[k] as A
  return copy
}

export class Draft {
  readonly s: MState
  /** The work stack: `jobs[0 .. depth - 1]`, the top last; the objects past `depth` are kept for reuse. */
  private readonly jobs: Array<Job> = []
  depth = 0
  queue: Array<Frame> | null = null
  /** Resolution steps per `apply` (see `run`); a playout's long-lived draft starts a new one per action (`begin`). */
  readonly budget: Budget = makeBudget(RESOLUTION_BUDGET)
  /** Counts operations executed, for simulation summaries. */
  ops: OperationTally | null = null
  private playersOwned = false
  /** Bits 0-1: player objects copied; bits 2-11: zone arrays copied (seat * 5 + zone). */
  private owned = 0
  private countersOwned = false
  /** Instances whose inner counter record this draft copied (a set: a playout's draft lives for a whole game). */
  private counterInner: Set<string> | null = null
  private eventsOwned = false
  private castOwned = false
  private usesOwned = false
  /** The keys of the owned limit-use record (emptied in place at the end of a turn). */
  private readonly usesKeys: Array<string> = []
  private targetsOwned = false
  /** Counts `zone(_, "stage")` calls: stages change only through `zone`, so a count seen before means the same stages. */
  stageTouches = 0
  private staticsMemo: ReadonlyArray<StaticSource> | null = null
  private staticsAt = -1
  private listenMemo = 0
  private listenAt = -1

  /** `adopt`: `state` is fresh and no one else's (setup's start state), so the draft takes it uncopied. */
  constructor(
    readonly c: Runtime,
    state: GameState,
    adopt = false
  ) {
    this.s = adopt ? (state as MState) : copyState(state)
    for (const x of state.work) this.pushWork(x)
  }

  /** The top work item (undefined on an empty stack). Valid until the next push. */
  top(): Job | undefined {
    return this.depth === 0 ? undefined : this.jobs[this.depth - 1]
  }

  pop(): void {
    if (this.depth > 0) this.depth--
  }

  clearWork(): void {
    this.depth = 0
  }

  /** A job on top of the stack (a popped one reused): the caller sets its fields. */
  private next(w: number): Job {
    let j = this.jobs[this.depth]
    if (j === undefined) {
      j = new Job()
      this.jobs.push(j)
    }
    this.depth++
    j.w = w
    return j
  }

  pushStep(s: StepName): void {
    this.next(W_STEP).s = s
  }

  pushSpot(i: number): void {
    this.next(W_SPOT).i = i
  }

  pushEffect(f: Frame, ok: boolean): void {
    const j = this.next(W_EFFECT)
    j.f = f
    j.ok = ok
  }

  pushActs(f: Frame, path: ReadonlyArray<PathStep>, i: number): void {
    this.pushAt(W_ACTS, f, path, i)
  }

  pushResolve(inst: string, win: string | null, about: string | null): void {
    const j = this.next(W_RESOLVE)
    j.inst = inst
    j.win = win
    j.about = about
  }

  pushSettle(inst: string): void {
    this.next(W_SETTLE).inst = inst
  }

  pushDeal(f: Frame, path: ReadonlyArray<PathStep>, i: number, seat: Seat, n: number): void {
    const j = this.next(W_DEAL)
    j.f = f
    j.path = path
    j.i = i
    j.seat = seat
    j.n = n
  }

  pushDmgfin(f: Frame, path: ReadonlyArray<PathStep>, i: number): void {
    this.pushAt(W_DMGFIN, f, path, i)
  }

  /** A job that walks `path` of frame `f` from step `i` (the acts and the damage-finish jobs). */
  private pushAt(kind: number, f: Frame, path: ReadonlyArray<PathStep>, i: number): void {
    const j = this.next(kind)
    j.f = f
    j.path = path
    j.i = i
  }

  pushWindow(win: string, player: Seat, about: string | null): void {
    const j = this.next(W_WINDOW)
    j.win = win
    j.seat = player
    j.about = about
  }

  /** Pushes a state's work item. */
  pushWork(x: Work): void {
    switch (x.w) {
      case "step":
        return this.pushStep(x.s)
      case "spot":
        return this.pushSpot(x.i)
      case "effect":
        return this.pushEffect(x.f, x.ok)
      case "acts":
        return this.pushActs(x.f, x.path, x.i)
      case "resolve":
        return this.pushResolve(x.inst, x.win, x.about)
      case "settle":
        return this.pushSettle(x.inst)
      case "deal":
        return this.pushDeal(x.f, x.path, x.i, x.seat, x.n)
      case "dmgfin":
        return this.pushDmgfin(x.f, x.path, x.i)
      case "window":
        return this.pushWindow(x.win, x.player, x.about)
    }
  }

  /**
   * Starts the next action on a draft that lives across actions (a playout's, see `Playout.ts`): a
   * fresh budget and tally. What the draft copied stays owned, so later actions mutate in place.
   */
  begin(ops: OperationTally | null): void {
    this.budget.used = 0
    this.ops = ops
  }

  /**
   * `staticSources` of the draft's state, kept until a stage changes (the engine's memo for finished
   * states keys them by the identity of the stage arrays, which a draft changes in place).
   */
  readonly staticsOf = (): ReadonlyArray<StaticSource> => {
    if (this.staticsMemo === null || this.staticsAt !== this.stageTouches) {
      this.staticsMemo = staticSources(this.c, this.s)
      this.staticsAt = this.stageTouches
    }
    return this.staticsMemo
  }

  /**
   * The events some stage card listens to (bit `ev`: an `EV_*` index), kept until a stage changes
   * like `staticsOf`: `emit` skips the scan of both stages for the events no stage card listens to.
   */
  listening(): number {
    if (this.listenAt !== this.stageTouches) {
      let m = 0
      for (let seat = 0; seat <= 1; seat++) {
        const stage = this.s.players[seat as Seat].stage
        for (let k = 0; k < stage.length; k++) m |= cardOfInst(this.c, this.s, stage[k] as string).triggerMask
      }
      this.listenMemo = m
      this.listenAt = this.stageTouches
    }
    return this.listenMemo
  }

  /** The state with its work stack written out (plain `Work` items: the state is plain data). */
  finish(): GameState {
    if (this.depth === 0) this.s.work = NO_WORK
    else {
      const work: Array<Work> = []
      for (let k = 0; k < this.depth; k++) work.push(workOf(this.jobs[k] as Job))
      this.s.work = work
    }
    if (this.queue !== null) this.s.queue = this.queue
    return this.s
  }

  get players(): readonly [PlayerState, PlayerState] {
    return this.s.players
  }

  player(seat: Seat): MPlayer {
    if (!this.playersOwned) {
      this.s.players = [this.s.players[0], this.s.players[1]]
      this.playersOwned = true
    }
    const ps = this.s.players as unknown as [MPlayer, MPlayer] // owned copy made above
    if ((this.owned & (1 << seat)) === 0) {
      ps[seat] = copyPlayer(ps[seat])
      this.owned |= 1 << seat
    }
    return ps[seat]
  }

  zone(seat: Seat, z: ZoneName): Array<string> {
    if (z === "stage") this.stageTouches++
    const p = this.player(seat)
    const bit = 1 << (2 + seat * 5 + zoneIndex(z))
    if ((this.owned & bit) !== 0) return zoneArray(p, z) as Array<string> // owned: copied earlier in this draft
    this.owned |= bit
    const copy = zoneArray(p, z).slice()
    switch (z) {
      case "deck":
        p.deck = copy
        break
      case "hand":
        p.hand = copy
        break
      case "stage":
        p.stage = copy
        break
      case "archive":
        p.archive = copy
        break
      case "pending":
        p.pending = copy
        break
    }
    return copy
  }

  counters(inst: string): Record<string, number> {
    if (!this.countersOwned) {
      this.s.counters = dictionaryCopy(this.s.counters)
      this.countersOwned = true
    }
    const all = this.s.counters as Record<string, Record<string, number>>
    if (this.counterInner === null) this.counterInner = new Set()
    if (!this.counterInner.has(inst)) {
      // A copy key by key (same keys, same order): a spread of these records took V8's slow clone path.
      const prev = all[inst]
      const copy: Record<string, number> = {}
      if (prev !== undefined) { for (const k in prev) copy[k] = prev[k] as number }
      all[inst] = copy
      this.counterInner.add(inst)
    }
    return all[inst] as Record<string, number>
  }

  clearCounters(inst: string): void {
    if (this.s.counters[inst] === undefined) return
    if (!this.countersOwned) {
      this.s.counters = dictionaryCopy(this.s.counters)
      this.countersOwned = true
    }
    delete (this.s.counters as Record<string, unknown>)[inst]
    if (this.counterInner !== null) this.counterInner.delete(inst)
  }

  /** Drops an instance's counter record once it holds no counter (only positive counts are kept). */
  pruneCounters(inst: string): void {
    const cs = this.s.counters[inst]
    if (cs !== undefined && Object.keys(cs).length === 0) this.clearCounters(inst)
  }

  bumpEvent(i: number): void {
    if (!this.eventsOwned) {
      this.s.events = this.s.events.slice()
      this.eventsOwned = true
    }
    ;(this.s.events as Array<number>)[i] = (this.s.events[i] ?? 0) + 1
  }

  use(key: string): void {
    if (!this.usesOwned) {
      this.s.uses = dictionaryCopy(this.s.uses)
      for (const k in this.s.uses) this.usesKeys.push(k)
      this.usesOwned = true
    }
    const uses = this.s.uses as Record<string, number>
    const n = uses[key]
    if (n === undefined) this.usesKeys.push(key)
    uses[key] = (n ?? 0) + 1
  }

  setTargets(inst: string, t: Readonly<Record<string, string>> | null): void {
    if (t === null && this.s.castTargets[inst] === undefined) return // nothing to clear (most cards have no targets)
    if (!this.targetsOwned) {
      this.s.castTargets = dictionaryCopy(this.s.castTargets)
      this.targetsOwned = true
    }
    const all = this.s.castTargets as Record<string, Readonly<Record<string, string>>>
    if (t === null) delete all[inst]
    else all[inst] = t
  }

  /** Records a cast this turn (§9's cast records): appended in place once the draft owns the list. */
  addCast(rec: CastRecord): void {
    if (!this.castOwned) {
      this.s.cast = this.s.cast.slice()
      this.castOwned = true
    }
    ;(this.s.cast as Array<CastRecord>).push(rec)
  }

  enqueue(f: Frame): void {
    if (this.queue === null) this.queue = this.s.queue.slice()
    this.queue.push(f)
  }

  resetTurn(): void {
    // A cast list this draft owns is emptied in place (no state shares it); a shared one is replaced.
    if (this.castOwned) {
      const cast = this.s.cast as Array<CastRecord>
      while (cast.length > 0) cast.pop() // measured faster than setting the length to 0 (a runtime call)
    } else this.s.cast = []
    this.castOwned = true
    // An events array this draft owns is zeroed in place (no state shares it); a shared one is replaced.
    if (this.eventsOwned) {
      const events = this.s.events as Array<number>
      for (let k = 0; k < events.length; k++) events[k] = 0
    } else this.s.events = new Array<number>(this.c.eventIndex.size * 2).fill(0)
    this.eventsOwned = true
    // An owned record (no state shares it) is emptied in place, by the keys this draft added to it:
    // a playout's draft makes one dictionary-mode record per game (see `dictionaryCopy`).
    if (this.usesOwned) {
      const uses = this.s.uses as Record<string, number>
      for (let k = this.usesKeys.pop(); k !== undefined; k = this.usesKeys.pop()) delete uses[k]
    } else this.s.uses = NO_USES
  }
}
