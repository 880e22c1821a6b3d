/**
 * The Hallyu Hex engine: legal-action enumeration and resolution that read
 * the effect records directly (never `rules_text`), following
 * `data/hallyu-hex/RULES.md` (rules 0.2.0; section numbers are cited as §).
 *
 * Pure TypeScript over immutable states. `apply` works on a copy-on-write
 * draft: only the parts of the state an action touches are copied, the rest
 * is shared with the previous state. No EffectRecord, no exceptions, no clock: the
 * RNG state lives in the game state.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { type Budget, budgetExceeded, makeBudget, spend } from "../../kernel/Budget.js"
import { compareOrdinal } from "../../kernel/Ordinal.js"
import { RngStream, seedState } from "../../kernel/Rng.js"
import type { Action, Amount, CardFilter, CardGroup, CardSelector, Condition, EffectRecord, PlayerSelector, StarterDeck, TargetSpec } from "../Schema.js"
import { isValidated } from "../Validated.js"
import { EVENTS, type EventName, SCANDAL, type ZoneName } from "../Vocabulary.js"
import { type CompiledCard, type CompiledDeck, compileDeck, effectsCastIn } from "./Compiled.js"
import { addTally, countOp, makeTally, type OperationTally, talliedApply } from "./Tally.js"
import type {
  CastRecord,
  CostChange,
  Decision,
  Frame,
  GameAction,
  GameResult,
  GameState,
  PathStep,
  PendingDamage,
  PlayerState,
  Seat,
  ToneChange,
  Work
} from "./State.js"

// ------------------------------------------------------------------ the engine value

/** Options for a new game. */
export interface GameOptions {
  readonly seed: number | string
  /** Deck list IDs for seat 0 and seat 1 (default: the file's first and second decks). */
  readonly decks?: readonly [string, string]
}

/** Why an action is not legal now. */
export type IllegalReason =
  | "game-over"
  | "not-your-decision"
  | "wrong-window"
  | "not-in-hand"
  | "not-on-stage"
  | "not-enough-fandom"
  | "cannot-pay-activation-cost"
  | "limit-reached"
  | "no-legal-target"
  | "illegal-target"
  | "condition-false"
  | "for-each-empty"
  | "no-such-option"
  | "unknown-action"

export type Explanation = { readonly legal: true } | { readonly legal: false; readonly reason: IllegalReason; readonly message: string }

export interface Engine {
  readonly deck: StarterDeck
  readonly compiled: CompiledDeck
  /** A new game, set up per §4. */
  readonly newGame: (options: GameOptions) => Either.Either<GameState, Diagnostic>
  /** Every legal action for the player to act, in ordinal order of their IDs. */
  readonly legalActions: (state: GameState) => ReadonlyArray<GameAction>
  /** Whether an action is legal, and if not, why. */
  readonly explain: (state: GameState, action: GameAction | string) => Explanation
  /**
   * Applies a legal action (or its ID) and resolves until the next decision or
   * the end of the game. `operations`, when given, counts each operation executed.
   */
  readonly apply: (state: GameState, action: GameAction | string, operations?: Record<string, number>) => Either.Either<GameState, Diagnostic>
}

/** Builds an engine for a deck that `validateDeck` returned. Any other deck is refused. */
export const makeEngine = (deck: StarterDeck): Either.Either<Engine, Diagnostic> => {
  if (!isValidated(deck)) {
    return Either.left(diagnostic("illegal_action", "the engine accepts only a deck returned by validateDeck", { subject: "deck" }))
  }
  const c = compileDeck(deck)
  // A one-entry memo: callers ask for the legal actions of a state and then apply one of them.
  // (A WeakMap over every state would make the garbage collector process an ephemeron per action.)
  let lastState: GameState | null = null
  let lastActions: ReadonlyArray<GameAction> = []
  const legal = (s: GameState): ReadonlyArray<GameAction> => {
    if (s !== lastState) {
      lastActions = enumerate(c, s)
      lastState = s
    }
    return lastActions
  }
  const find = (s: GameState, a: GameAction | string): GameAction | undefined => {
    const id = typeof a === "string" ? a : a.id
    const xs = legal(s)
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as GameAction
      if (x.id === id) return typeof a === "string" || a.player === x.player ? x : undefined
    }
    return undefined
  }
  const apply = (s: GameState, a: GameAction | string, ops: OperationTally | null): Either.Either<GameState, Diagnostic> => {
    if (s.deckHash !== c.hash) return Either.left(diagnostic("illegal_action", "this state belongs to another deck", { subject: "deckHash" }))
    if (s.result !== null) return Either.left(diagnostic("game_over", "the game is over; no action is legal", { subject: typeof a === "string" ? a : a.id }))
    const found = find(s, a)
    if (found === undefined) {
      const why = explainIllegal(c, s, a)
      return Either.left(
        diagnostic("illegal_action", why.legal ? "not legal" : why.message, {
          subject: typeof a === "string" ? a : a.id,
          details: { reason: why.legal ? "unknown-action" : why.reason }
        })
      )
    }
    return applyLegal(c, s, found, ops)
  }
  const engine: Engine = {
    deck,
    compiled: c,
    newGame: (o) => newGame(c, o),
    legalActions: legal,
    explain: (s, a) => (find(s, a) !== undefined ? { legal: true } : explainIllegal(c, s, a)),
    apply: (s, a, ops) => {
      if (ops === undefined) return apply(s, a, null)
      const tally = makeTally()
      const r = apply(s, a, tally)
      addTally(tally, ops)
      return r
    }
  }
  talliedApply.set(engine, apply)
  return Either.right(engine)
}

// ------------------------------------------------------------------ setup (§4)

const other = (s: Seat): Seat => (s === 0 ? 1 : 0)
const ownerOf = (inst: string): Seat => (inst.charCodeAt(1) === 48 ? 0 : 1)

interface Lineup {
  readonly cardOf: Readonly<Record<string, number>>
  readonly decks: ReadonlyArray<ReadonlyArray<string>>
}

/** Instance numbering for a pair of deck lists (§1.2); shared by every game that uses them. */
const lineups = new WeakMap<CompiledDeck, Map<string, Lineup>>()

const lineupOf = (c: CompiledDeck, lists: readonly [string, string]): Either.Either<Lineup, Diagnostic> => {
  let byLists = lineups.get(c)
  if (byLists === undefined) {
    byLists = new Map()
    lineups.set(c, byLists)
  }
  const key = `${lists[0]}\u0000${lists[1]}`
  const cached = byLists.get(key)
  if (cached !== undefined) return Either.right(cached)
  const cardOf: Record<string, number> = {}
  const decks: Array<Array<string>> = []
  for (let seat = 0; seat < 2; seat++) {
    const list = c.deck.decks.find((d) => d.id === lists[seat])
    if (list === undefined) {
      return Either.left(diagnostic("unknown_reference", `no deck list ${String(lists[seat])} in the deck file`, { subject: String(lists[seat]) }))
    }
    const ids: Array<string> = []
    for (const e of list.cards) {
      const idx = c.byId.get(e.card)
      if (idx === undefined) return Either.left(diagnostic("unknown_reference", `unknown card ${e.card}`, { subject: e.card }))
      for (let k = 0; k < e.count; k++) {
        const inst = `p${seat}-${String(ids.length + 1).padStart(2, "0")}`
        ids.push(inst)
        cardOf[inst] = idx
      }
    }
    decks.push(ids)
  }
  const lineup: Lineup = { cardOf, decks }
  byLists.set(key, lineup)
  return Either.right(lineup)
}

const newGame = (c: CompiledDeck, o: GameOptions): Either.Either<GameState, Diagnostic> => {
  const lists: readonly [string, string] = o.decks ?? [c.deck.decks[0]?.id ?? "", c.deck.decks[1]?.id ?? c.deck.decks[0]?.id ?? ""]
  const lineup = lineupOf(c, lists)
  if (Either.isLeft(lineup)) return Either.left(lineup.left)
  const cardOf = lineup.right.cardOf
  const decks = lineup.right.decks.map((d) => d.slice())
  const seed = String(o.seed)
  const rng = new RngStream(seedState(seed, "hhx.game"))
  const first: Seat = rng.int(2) === 0 ? 0 : 1
  for (const d of decks) {
    for (let i = d.length - 1; i >= 1; i--) {
      const j = rng.int(i + 1)
      const t = d[i] as string
      d[i] = d[j] as string
      d[j] = t
    }
  }
  const p = c.params
  const players = decks.map(
    (d): PlayerState => ({
      composure: p.starting_composure,
      fandom: 0,
      trend: 0,
      deck: d.slice(p.opening_hand),
      hand: d.slice(0, p.opening_hand),
      stage: [],
      archive: [],
      pending: []
    })
  ) as unknown as readonly [PlayerState, PlayerState] // two decks were built above
  const s0: GameState = {
    format: "hhx-state/1",
    deckHash: c.hash,
    seed,
    rng: rng.state(),
    cardOf,
    turn: 1,
    active: first,
    first,
    players,
    counters: {},
    toneChanges: [],
    costChanges: [],
    damage: [],
    castTargets: {},
    cast: [],
    events: new Array<number>(c.eventIndex.size * 2).fill(0),
    uses: {},
    looks: [],
    work: turnStartWork,
    queue: [],
    decision: null,
    result: null,
    ply: 0
  }
  const d = new Draft(c, s0)
  if (!run(d)) return Either.left(budgetExceeded(d.budget, "resolution steps of setup", "newGame"))
  return Either.right(d.finish())
}

const turnStartWork: ReadonlyArray<Work> = [
  { w: "step", s: "draw" },
  { w: "step", s: "turn-start" },
  { w: "spot", i: 0 },
  { w: "step", s: "start" }
]

// ------------------------------------------------------------------ the draft (copy-on-write)

/** Resolution steps one action may take; a starter-deck action takes a few dozen. */
export const RESOLUTION_BUDGET = 100_000

const zoneIndex = (z: ZoneName): number => (z === "deck" ? 0 : z === "hand" ? 1 : z === "stage" ? 2 : z === "archive" ? 3 : 4)

/** A player's zone by name, read with named property loads (a computed key is a megamorphic keyed load). */
const zoneArray = (p: PlayerState, z: ZoneName): ReadonlyArray<string> => {
  switch (z) {
    case "deck":
      return p.deck
    case "hand":
      return p.hand
    case "stage":
      return p.stage
    case "archive":
      return p.archive
    case "pending":
      return p.pending
  }
}

/** Limit-use keys `<instance>/<effect index>`, built once per instance and effect (a fresh string is hashed on every use). */
const useKeys = new Map<string, Array<string>>()
const useKey = (inst: string, ei: number): string => {
  let keys = useKeys.get(inst)
  if (keys === undefined) {
    keys = []
    if (useKeys.size < 4096) useKeys.set(inst, keys)
  }
  let k = keys[ei]
  if (k === undefined) {
    k = `${inst}/${ei}`
    keys[ei] = k
  }
  return k
}

type MPlayer = { -readonly [K in keyof PlayerState]: PlayerState[K] }
type MState = { -readonly [K in keyof GameState]: GameState[K] }

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

class Draft {
  readonly s: MState
  readonly work: Array<Work>
  queue: Array<Frame> | null = null
  /** Resolution steps per `apply` (see `run`). */
  readonly budget: Budget = makeBudget(RESOLUTION_BUDGET)
  /** Counts operations executed, for simulation summaries. */
  ops: OperationTally | null = null
  private playersOwned = false
  /** Bits 0-1: player objects copied; bits 2-11: zone arrays copied (seat * 5 + zone). */
  private owned = 0
  private countersOwned = false
  private counterInner: Array<string> | null = null
  private eventsOwned = false
  private usesOwned = false
  private targetsOwned = false

  constructor(
    readonly c: CompiledDeck,
    state: GameState
  ) {
    this.s = copyState(state)
    this.work = state.work.slice()
  }

  finish(): GameState {
    this.s.work = this.work
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
      this.s.counters = { ...this.s.counters }
      this.countersOwned = true
    }
    const all = this.s.counters as Record<string, Record<string, number>>
    if (this.counterInner === null) this.counterInner = []
    if (!this.counterInner.includes(inst)) {
      all[inst] = { ...(all[inst] ?? {}) }
      this.counterInner.push(inst)
    }
    return all[inst] as Record<string, number>
  }

  clearCounters(inst: string): void {
    if (this.s.counters[inst] === undefined) return
    if (!this.countersOwned) {
      this.s.counters = { ...this.s.counters }
      this.countersOwned = true
    }
    delete (this.s.counters as Record<string, unknown>)[inst]
    if (this.counterInner !== null) this.counterInner = this.counterInner.filter((x) => x !== inst)
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
      this.s.uses = { ...this.s.uses }
      this.usesOwned = true
    }
    ;(this.s.uses as Record<string, number>)[key] = (this.s.uses[key] ?? 0) + 1
  }

  setTargets(inst: string, t: Readonly<Record<string, string>> | null): void {
    if (t === null && this.s.castTargets[inst] === undefined) return // nothing to clear (most cards have no targets)
    if (!this.targetsOwned) {
      this.s.castTargets = { ...this.s.castTargets }
      this.targetsOwned = true
    }
    const all = this.s.castTargets as Record<string, Readonly<Record<string, string>>>
    if (t === null) delete all[inst]
    else all[inst] = t
  }

  enqueue(f: Frame): void {
    if (this.queue === null) this.queue = this.s.queue.slice()
    this.queue.push(f)
  }

  resetTurn(): void {
    this.s.cast = []
    this.s.events = new Array<number>(this.c.eventIndex.size * 2).fill(0)
    this.eventsOwned = true
    this.s.uses = {}
    this.usesOwned = true
  }
}

// ------------------------------------------------------------------ reading the state

/**
 * Card indexes of setup-numbered instances (`p<seat>-<nn>`) by `seat * 100 + nn`, for the last
 * `cardOf` record seen (games of one deck pair share theirs): a string-keyed lookup in a
 * 60-entry record is a dictionary probe on every card read. Other names use the record.
 */
let indexedCardOf: object | null = null
const cardIndexTable = new Int32Array(200)

const indexCardOf = (cardOf: Readonly<Record<string, number>>): void => {
  cardIndexTable.fill(-1)
  for (const inst in cardOf) {
    const slot = setupSlot(inst)
    if (slot >= 0) cardIndexTable[slot] = cardOf[inst] ?? -1
  }
  indexedCardOf = cardOf
}

/** `seat * 100 + nn` for an instance named `p<seat>-<nn>`, else -1. */
const setupSlot = (inst: string): number => {
  if (inst.length !== 5 || inst.charCodeAt(0) !== 112 || inst.charCodeAt(2) !== 45) return -1
  const seat = inst.charCodeAt(1) - 48
  const d1 = inst.charCodeAt(3) - 48
  const d2 = inst.charCodeAt(4) - 48
  return seat >= 0 && seat <= 1 && d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 ? seat * 100 + d1 * 10 + d2 : -1
}

/** `cardOf[inst] ?? 0`, through the index table when the instance has a setup name. */
const cardIndex = (cardOf: Readonly<Record<string, number>>, inst: string): number => {
  if (cardOf !== indexedCardOf) indexCardOf(cardOf)
  const slot = setupSlot(inst)
  if (slot >= 0) {
    const i = cardIndexTable[slot] ?? -1
    if (i >= 0) return i
  }
  return cardOf[inst] ?? 0
}

const cardOfInst = (c: CompiledDeck, s: Pick<GameState, "cardOf">, inst: string): CompiledCard =>
  c.cards[cardIndex(s.cardOf, inst)] as CompiledCard // every instance was numbered at setup

const effectOf = (c: CompiledDeck, f: Frame): EffectRecord => (c.cards[f.card] as CompiledCard).def.effects[f.eff] as EffectRecord // frames are built from existing effects

const zoneOf = (s: GameState, inst: string): ZoneName | null => {
  const p = s.players[ownerOf(inst)]
  if (p.stage.includes(inst)) return "stage"
  if (p.pending.includes(inst)) return "pending"
  if (p.hand.includes(inst)) return "hand"
  if (p.archive.includes(inst)) return "archive"
  if (p.deck.includes(inst)) return "deck"
  return null
}

/** A card's current tones: printed, with the active tone changes applied in order (§1.5). */
const tonesOf = (c: CompiledDeck, s: GameState, inst: string): ReadonlyArray<string> => {
  const printed = cardOfInst(c, s, inst).def.tones
  if (s.toneChanges.length === 0) return printed
  let tones: Array<string> | null = null
  for (const t of s.toneChanges) {
    if (t.inst !== inst) continue
    const cur: Array<string> = tones ?? printed.slice()
    const k = cur.indexOf(t.from)
    if (k >= 0) {
      if (cur.includes(t.to)) cur.splice(k, 1)
      else cur[k] = t.to
    }
    tones = cur
  }
  return tones ?? printed
}

const matches = (c: CompiledDeck, s: GameState, inst: string, f: CardFilter): boolean => {
  const def = cardOfInst(c, s, inst).def
  if (f.type !== undefined && def.type !== f.type) return false
  if (f.card !== undefined && def.id !== f.card) return false
  if (f.tag !== undefined && !def.tags.includes(f.tag)) return false
  if (f.tone !== undefined && !tonesOf(c, s, inst).includes(f.tone)) return false
  return true
}

const ONE: readonly [ReadonlyArray<Seat>, ReadonlyArray<Seat>] = [[0], [1]]
const BOTH: readonly [ReadonlyArray<Seat>, ReadonlyArray<Seat>] = [[0, 1], [1, 0]]
const NONE: ReadonlyArray<Seat> = []

const seatsOf = (ctrl: Seat, who: "self" | "opponent" | "any"): ReadonlyArray<Seat> =>
  who === "self" ? ONE[ctrl] : who === "opponent" ? ONE[other(ctrl)] : BOTH[ctrl]

/** Cards of a group, relative to `ctrl`, in zone order. */
const groupCards = (c: CompiledDeck, s: GameState, ctrl: Seat, g: CardGroup): Array<string> => {
  const out: Array<string> = []
  for (const seat of seatsOf(ctrl, g.controller)) {
    for (const inst of zoneArray(s.players[seat], g.zone as ZoneName) ?? []) if (matches(c, s, inst, g)) out.push(inst)
  }
  return out
}

const inGroup = (c: CompiledDeck, s: GameState, ctrl: Seat, g: CardGroup, inst: string): boolean => {
  const owner = ownerOf(inst)
  if (g.controller === "self" ? owner !== ctrl : g.controller === "opponent" ? owner === ctrl : false) return false
  if (!(zoneArray(s.players[owner], g.zone as ZoneName) ?? []).includes(inst)) return false
  return matches(c, s, inst, g)
}

const playerSeats = (s: GameState, f: Frame, p: PlayerSelector): ReadonlyArray<Seat> => {
  switch (p) {
    case "self":
      return ONE[f.ctrl]
    case "opponent":
      return ONE[other(f.ctrl)]
    case "each":
      return BOTH[s.active]
    case "pending-controller":
      return f.pend === null ? NONE : ONE[ownerOf(f.pend)]
  }
}

const isPending = (s: GameState, inst: string): boolean => s.players[ownerOf(inst)].pending.includes(inst)

/** The target spec of key `<effect>/<id>` on a card. */
const specOf = (card: CompiledCard, key: string): TargetSpec | undefined => {
  const slash = key.indexOf("/")
  const e = card.def.effects[Number(key.slice(0, slash))]
  const id = key.slice(slash + 1)
  return e?.targets?.find((t) => t.id === id)
}

const cardsOf = (c: CompiledDeck, s: GameState, f: Frame, sel: CardSelector): ReadonlyArray<string> => {
  if (sel === "self") return [f.src]
  if (sel === "each") return f.each === null ? [] : [f.each]
  if (sel === "pending-card") return f.pend !== null && isPending(s, f.pend) ? [f.pend] : []
  if ("target" in sel) {
    const key = `${f.eff}/${sel.target}`
    const inst = f.tg?.[key]
    if (inst === undefined) return []
    const spec = specOf(c.cards[f.card] as CompiledCard, key)
    // A target that is no longer a legal choice is ignored (§10).
    return spec !== undefined && inGroup(c, s, f.ctrl, spec, inst) ? [inst] : []
  }
  return groupCards(c, s, f.ctrl, sel.group)
}

const compare = (a: number, op: "gte" | "lte" | "eq", b: number): boolean => (op === "gte" ? a >= b : op === "lte" ? a <= b : a === b)

const holds = (c: CompiledDeck, s: GameState, cond: Condition | undefined, f: Frame): boolean => {
  if (cond === undefined) return true
  switch (cond.fact) {
    case "controls@1": {
      const seats = playerSeats(s, f, cond.player)
      return seats.length > 0 && seats.every((seat) => {
        let n = 0
        for (const inst of s.players[seat].stage) if (matches(c, s, inst, cond.filter)) n++
        return n >= cond.at_least
      })
    }
    case "events-this-turn@1": {
      const e = c.eventIndex.get(cond.event) ?? 0
      const seats = playerSeats(s, f, cond.player)
      return seats.length > 0 && seats.every((seat) => compare(s.events[e * 2 + seat] ?? 0, cond.compare, cond.value))
    }
    case "damage-pending@1": {
      const seats = playerSeats(s, f, cond.player)
      return s.damage.some((d) => seats.includes(d.target))
    }
    case "resource@1": {
      const seats = playerSeats(s, f, cond.player)
      const r = cond.resource as "composure" | "fandom" | "trend"
      return seats.length > 0 && seats.every((seat) => compare(s.players[seat][r], cond.compare, cond.value))
    }
    case "pending-has-target@1":
      return f.pend !== null && Object.keys(s.castTargets[f.pend] ?? {}).length > 0
    case "counters@1": {
      const xs = cardsOf(c, s, f, cond.card)
      return xs.length > 0 && xs.every((inst) => compare(s.counters[inst]?.[cond.counter] ?? 0, cond.compare, cond.value))
    }
  }
}

const amountOf = (s: GameState, a: Amount, f: Frame, c: CompiledDeck): number => {
  if (typeof a === "number") return a
  if (a === "all") return Number.MAX_SAFE_INTEGER
  const seats = playerSeats(s, f, a.player)
  let n = 0
  for (const r of s.cast) {
    if (!seats.includes(r.seat)) continue
    const flt = a.filter
    if (flt !== undefined) {
      if (flt.type !== undefined && r.type !== flt.type) continue
      if (flt.tone !== undefined && !r.tones.includes(flt.tone)) continue
      if (flt.tag !== undefined && !r.tags.includes(flt.tag)) continue
      if (flt.card !== undefined && (c.cards[cardIndex(s.cardOf, r.inst)] as CompiledCard).def.id !== flt.card) continue
    }
    n++
  }
  return n
}

/** A stage card with static effects: its controller, and one frame per static effect (`card.statics` order). */
type StaticSource = { readonly src: string; readonly seat: Seat; readonly card: CompiledCard; readonly frames: ReadonlyArray<Frame> }
const NO_STATICS: ReadonlyArray<StaticSource> = []

/** Stage cards with static effects, with their controller (usually none). */
const staticSources = (c: CompiledDeck, s: GameState): ReadonlyArray<StaticSource> => {
  if (!c.hasStatics) return NO_STATICS
  let out: Array<StaticSource> | null = null
  for (let seat: Seat = 0; seat <= 1; seat++) {
    const stage = s.players[seat as Seat].stage
    for (let k = 0; k < stage.length; k++) {
      const src = stage[k] as string
      const card = cardOfInst(c, s, src)
      if (card.statics.length > 0) {
        const ctrl = seat as Seat
        const frames = card.statics.map((ei): Frame => ({ src, card: card.index, eff: ei, ctrl, tg: null, pend: null, each: null }))
        ;(out ??= []).push({ src, seat: ctrl, card, frames })
      }
    }
  }
  return out ?? NO_STATICS
}

/**
 * `staticSources` of the last state enumerated, by identity of both stages
 * (unchanged by most actions, and shared between states until one changes).
 * Only for `legalActions`, whose states are finished and immutable; a draft
 * mutates its own stage copies, so resolution calls `staticSources` itself.
 */
let staticsMemo: { readonly c: CompiledDeck; readonly cardOf: object; readonly s0: object; readonly s1: object; readonly statics: ReadonlyArray<StaticSource> } | null = null
const enumerationStatics = (c: CompiledDeck, s: GameState): ReadonlyArray<StaticSource> => {
  const m = staticsMemo
  if (m !== null && m.c === c && m.cardOf === s.cardOf && m.s0 === s.players[0].stage && m.s1 === s.players[1].stage) return m.statics
  const statics = staticSources(c, s)
  staticsMemo = { c, cardOf: s.cardOf, s0: s.players[0].stage, s1: s.players[1].stage, statics }
  return statics
}

/** A card's current cost (§8.5): printed, plus static and temporary cost changes, floored at 0. */
export const currentCost = (
  c: CompiledDeck,
  s: GameState,
  inst: string,
  statics: ReadonlyArray<StaticSource> = staticSources(c, s)
): number => {
  let cost = cardOfInst(c, s, inst).def.cost
  if (statics.length === 0 && s.costChanges.length === 0) return cost < 0 ? 0 : cost
  for (const { card, frames } of statics) {
    for (let j = 0; j < frames.length; j++) {
      const f = frames[j] as Frame
      const e = card.def.effects[f.eff] as EffectRecord
      if (!holds(c, s, e.condition, f)) continue
      for (const a of e.actions) {
        if (a.op !== "modify-cost" || typeof a.amount !== "number") continue
        if (holds(c, s, a.condition, f) && selectorContains(c, s, f, a.card, inst)) cost += a.amount
      }
    }
  }
  for (const m of s.costChanges) {
    if (m.inst !== null ? m.inst === inst : m.group !== null && inGroup(c, s, m.ctrl, m.group, inst)) cost += m.amount
  }
  return cost < 0 ? 0 : cost
}

const selectorContains = (c: CompiledDeck, s: GameState, f: Frame, sel: CardSelector, inst: string): boolean =>
  typeof sel === "object" && "group" in sel ? inGroup(c, s, f.ctrl, sel.group, inst) : cardsOf(c, s, f, sel).includes(inst)

const resolveList = (e: EffectRecord, path: ReadonlyArray<PathStep>): ReadonlyArray<Action> => {
  let list: ReadonlyArray<Action> = e.actions
  for (const step of path) {
    const a = list[step.i]
    if (a === undefined) return []
    if (step.f === "options" && a.op === "choose-one") list = a.options[step.o]?.actions ?? []
    else if (step.f === "on_prevented" && a.op === "deal-damage") list = a.on_prevented?.actions ?? []
    else if (step.f === "unless" && a.op === "counter-card") list = a.unless?.optional_payment.actions ?? []
    else return []
  }
  return list
}

// ------------------------------------------------------------------ legal actions (§5.2, §7, §8)

const byId = (a: GameAction, b: GameAction): number => compareOrdinal(a.id, b.id)

/**
 * Stable ordinal sort by ID (the order `sort(byId)` gives). Offers are a
 * handful of actions, mostly in order already: an insertion sort with direct
 * string comparison beats the comparator calls of `Array.prototype.sort`.
 */
const sortById = (xs: Array<GameAction>): Array<GameAction> => {
  if (xs.length > 32) return xs.sort(byId)
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] as GameAction
    const id = x.id
    let j = i - 1
    while (j >= 0 && (xs[j] as GameAction).id > id) {
      xs[j + 1] = xs[j] as GameAction
      j--
    }
    xs[j + 1] = x
  }
  return xs
}

const targetSuffix = (t: Readonly<Record<string, string>> | null): string => {
  if (t === null) return ""
  const keys = Object.keys(t).sort(compareOrdinal)
  return keys.length === 0 ? "" : ":" + keys.map((k) => `${k}=${t[k] ?? ""}`).join(",")
}

const NO_TARGETS: Array<Readonly<Record<string, string>> | null> = [null]

/** One target to choose: its key `<effect index>/<target id>`, its spec, and the earlier slots of the same effect. */
interface TargetSlot {
  readonly key: string
  readonly spec: TargetSpec
  /** Indexes of earlier slots of the same effect: two targets of one effect are different cards. */
  readonly same: ReadonlyArray<number>
}

/**
 * The targets of a list of effects, in declaration order, with the slot
 * indexes in ordinal order of their keys (for action IDs). Built once per
 * card and effect list; `generic` when two slots share a key, which the
 * slot-based enumeration does not model (then the record-based one runs).
 */
interface TargetPlan {
  readonly slots: ReadonlyArray<TargetSlot>
  readonly sorted: ReadonlyArray<number>
  readonly generic: boolean
}

const planCache = new WeakMap<CompiledCard, Map<string | number, TargetPlan>>()

/** The target plan of `effects` on `card`, cached under `key` (the cast window, or the activated effect's index). */
const targetPlan = (card: CompiledCard, effects: ReadonlyArray<number>, key: string | number): TargetPlan => {
  let byKey = planCache.get(card)
  if (byKey === undefined) {
    byKey = new Map()
    planCache.set(card, byKey)
  }
  let plan = byKey.get(key)
  if (plan === undefined) {
    const slots: Array<TargetSlot> = []
    const owner: Array<number> = []
    for (const ei of effects) {
      for (const spec of card.def.effects[ei]?.targets ?? []) {
        const same: Array<number> = []
        for (let j = 0; j < slots.length; j++) if (owner[j] === ei) same.push(j)
        slots.push({ key: `${ei}/${spec.id}`, spec, same })
        owner.push(ei)
      }
    }
    const keys = slots.map((x) => x.key)
    const sorted = keys.map((_, j) => j).sort((a, b) => compareOrdinal(keys[a] as string, keys[b] as string))
    plan = { slots, sorted, generic: new Set(keys).size !== keys.length }
    byKey.set(key, plan)
  }
  return plan
}

/**
 * Every assignment of candidates to the plan's slots (§7.2), in the order
 * of the record-based enumeration: earlier slots vary slowest, candidates
 * in zone order. Empty when some slot has no legal choice.
 */
const targetAssignments = (c: CompiledDeck, s: GameState, plan: TargetPlan, ctrl: Seat): Array<Array<string>> => {
  let acc: Array<Array<string>> = [[]]
  for (const slot of plan.slots) {
    const cands = groupCards(c, s, ctrl, slot.spec)
    const next: Array<Array<string>> = []
    for (const partial of acc) {
      for (const inst of cands) {
        let taken = false
        for (const j of slot.same) if (partial[j] === inst) taken = true
        if (!taken) {
          const grown = partial.slice()
          grown.push(inst)
          next.push(grown)
        }
      }
    }
    acc = next
    if (acc.length === 0) return acc
  }
  return acc
}

/** The chosen-targets record of an assignment: keys in slot order (as the state stores them). */
const targetRecord = (plan: TargetPlan, chosen: ReadonlyArray<string>): Record<string, string> => {
  const t: Record<string, string> = {}
  for (let j = 0; j < plan.slots.length; j++) t[(plan.slots[j] as TargetSlot).key] = chosen[j] as string
  return t
}

/** `targetSuffix` of an assignment's record, from the plan's key order. */
const planSuffix = (plan: TargetPlan, chosen: ReadonlyArray<string>): string => {
  let out = ""
  for (let k = 0; k < plan.sorted.length; k++) {
    const j = plan.sorted[k] as number
    out += `${k === 0 ? ":" : ","}${(plan.slots[j] as TargetSlot).key}=${chosen[j] as string}`
  }
  return out
}

/** All target assignments for the targets of `effects` (§7.2), or [null] when there are none. */
const targetChoices = (
  c: CompiledDeck,
  s: GameState,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  ctrl: Seat
): Array<Readonly<Record<string, string>> | null> => {
  if (!card.hasTargets) return NO_TARGETS
  let acc: Array<Record<string, string>> = [{}]
  for (const ei of effects) {
    const specs = card.def.effects[ei]?.targets ?? []
    for (const spec of specs) {
      const cands = groupCards(c, s, ctrl, spec)
      const next: Array<Record<string, string>> = []
      for (const partial of acc) {
        for (const inst of cands) {
          // Two targets of one effect are different cards.
          let taken = false
          for (const k in partial) if (k.startsWith(`${ei}/`) && partial[k] === inst) taken = true
          if (!taken) next.push({ ...partial, [`${ei}/${spec.id}`]: inst })
        }
      }
      acc = next
      if (acc.length === 0) return []
    }
  }
  return acc.length === 1 && Object.keys(acc[0] as object).length === 0 ? NO_TARGETS : acc
}

/**
 * Pushes the actions `<prefix><target suffix>` for every target assignment
 * of `effects` (§7.2); `make` builds one from its ID and targets.
 */
const pushTargeted = (
  c: CompiledDeck,
  s: GameState,
  card: CompiledCard,
  effects: ReadonlyArray<number>,
  planKey: string | number,
  ctrl: Seat,
  prefix: string,
  make: (id: string, t: Readonly<Record<string, string>> | null) => GameAction,
  out: Array<GameAction>
): void => {
  const plan = targetPlan(card, effects, planKey)
  if (plan.generic) {
    for (const t of targetChoices(c, s, card, effects, ctrl)) out.push(make(prefix + targetSuffix(t), t))
    return
  }
  if (plan.slots.length === 0) {
    out.push(make(prefix, null))
    return
  }
  for (const chosen of targetAssignments(c, s, plan, ctrl)) out.push(make(prefix + planSuffix(plan, chosen), targetRecord(plan, chosen)))
}

/** Whether `effects` have at least one target assignment (or no targets). */
const hasTargetChoice = (c: CompiledDeck, s: GameState, card: CompiledCard, effects: ReadonlyArray<number>, planKey: string | number, ctrl: Seat): boolean => {
  if (!card.hasTargets) return true
  const plan = targetPlan(card, effects, planKey)
  return plan.generic ? targetChoices(c, s, card, effects, ctrl).length > 0 : targetAssignments(c, s, plan, ctrl).length > 0
}

/** The effects that resolve when a card is cast in `win` (§7.3, §7.4); precomputed for its cast windows. */
const effectsForWindow = (card: CompiledCard, win: string): ReadonlyArray<number> =>
  win === "main" ? card.onResolve : (card.windowEffects.get(win) ?? effectsCastIn(card.def, card.onResolve, win))

/** Untargeted cast actions are fully determined by the instance: built once and shared (they are immutable). */
const castCache = new Map<string, GameAction>()
/** The same cache for setup-numbered instances, by `setupSlot` (an array read instead of a hash probe). */
const castBySlot: Array<GameAction | undefined> = []
const untargetedCast = (seat: Seat, inst: string): GameAction => {
  // A hand holds only its owner's cards, so the instance alone is the key.
  const slot = setupSlot(inst)
  let a = slot >= 0 ? castBySlot[slot] : castCache.get(inst)
  if (a === undefined) {
    a = { id: `cast:${inst}`, player: seat, kind: "cast", inst, effect: null, targets: null, choice: null }
    if (slot >= 0) castBySlot[slot] = a
    else if (castCache.size < 4096) castCache.set(inst, a)
  }
  return a
}

const activationCache = new Map<string, ReadonlyArray<GameAction>>()
const untargetedActivation = (seat: Seat, inst: string, ei: number): GameAction => {
  let byEffect = activationCache.get(inst)
  if (byEffect === undefined) {
    byEffect = []
    if (activationCache.size < 4096) activationCache.set(inst, byEffect)
  }
  let a = byEffect[ei]
  if (a === undefined) {
    a = { id: `activate:${inst}:E${ei + 1}`, player: seat, kind: "activate", inst, effect: ei, targets: null, choice: null }
    ;(byEffect as Array<GameAction>)[ei] = a
  }
  return a
}

/** Whether a card may be cast in `win` at all (§7.1). */
const castsIn = (card: CompiledCard, win: string): boolean => (win === "main" ? card.castInMain : card.castWindows.includes(win))

/** Whether a hand card that may be cast in `win` passes the cost and response-condition checks (§7.2). */
const castable = (c: CompiledDeck, s: GameState, seat: Seat, inst: string, card: CompiledCard, win: string, about: string | null, statics: ReadonlyArray<StaticSource>, fandom: number): boolean => {
  if (currentCost(c, s, inst, statics) > fandom) return false
  if (card.response) {
    const effects = effectsForWindow(card, win)
    let ok = false
    for (const ei of effects) {
      const e = card.def.effects[ei]
      if (e?.kind === "response" && holds(c, s, e.condition, { src: inst, card: card.index, eff: ei, ctrl: seat, tg: null, pend: about, each: null })) {
        ok = true
        break
      }
    }
    if (!ok) return false
  }
  return true
}

const castActions = (c: CompiledDeck, s: GameState, seat: Seat, win: string, about: string | null, out: Array<GameAction>): void => {
  const p = s.players[seat]
  const hand = p.hand
  if (hand.length === 0) return
  let statics: ReadonlyArray<StaticSource> | null = null // only needed once a card may be cast in `win`
  for (let k = 0; k < hand.length; k++) {
    const inst = hand[k] as string
    const card = cardOfInst(c, s, inst)
    if (!castsIn(card, win)) continue
    statics ??= enumerationStatics(c, s)
    if (!castable(c, s, seat, inst, card, win, about, statics, p.fandom)) continue
    if (!card.hasTargets) {
      out.push(untargetedCast(seat, inst))
      continue
    }
    pushTargeted(c, s, card, effectsForWindow(card, win), win, seat, `cast:${inst}`, (id, t) => ({ id, player: seat, kind: "cast", inst, effect: null, targets: t, choice: null }), out)
  }
}

/** Whether `castActions` would offer anything (a window with nothing to declare is skipped). */
const hasCastAction = (c: CompiledDeck, s: GameState, seat: Seat, win: string, about: string | null): boolean => {
  const p = s.players[seat]
  const hand = p.hand
  if (hand.length === 0) return false
  let statics: ReadonlyArray<StaticSource> | null = null // only needed once a card may be cast in `win`
  for (let k = 0; k < hand.length; k++) {
    const inst = hand[k] as string
    const card = cardOfInst(c, s, inst)
    if (!castsIn(card, win)) continue
    statics ??= staticSources(c, s)
    if (!castable(c, s, seat, inst, card, win, about, statics, p.fandom)) continue
    if (hasTargetChoice(c, s, card, effectsForWindow(card, win), win, seat)) return true
  }
  return false
}

const canPayActivation = (c: CompiledDeck, s: GameState, f: Frame, a: Action | undefined): boolean => {
  if (a === undefined) return true
  if (a.op === "remove-counter") {
    const n = amountOf(s, a.amount, f, c)
    const xs = cardsOf(c, s, f, a.card)
    return xs.length > 0 && xs.every((inst) => (s.counters[inst]?.[a.counter] ?? 0) >= n)
  }
  if (a.op === "lose-resource") {
    const n = amountOf(s, a.amount, f, c)
    const r = a.resource as "composure" | "fandom" | "trend"
    return playerSeats(s, f, a.player).every((seat) => s.players[seat][r] >= n)
  }
  return false
}

const activateActions = (c: CompiledDeck, s: GameState, seat: Seat, out: Array<GameAction>): void => {
  for (const inst of s.players[seat].stage) {
    const card = cardOfInst(c, s, inst)
    for (const ei of card.activated) {
      const e = card.def.effects[ei] as EffectRecord
      if (e.limit !== undefined && (s.uses[useKey(inst, ei)] ?? 0) >= e.limit.count) continue
      const f: Frame = { src: inst, card: card.index, eff: ei, ctrl: seat, tg: null, pend: null, each: null }
      if (!holds(c, s, e.condition, f)) continue
      if (e.for_each !== undefined && groupCards(c, s, seat, e.for_each).length === 0) continue
      if (!canPayActivation(c, s, f, e.activation_cost)) continue
      if (e.targets === undefined || e.targets.length === 0) {
        out.push(untargetedActivation(seat, inst, ei))
        continue
      }
      pushTargeted(c, s, card, [ei], ei, seat, `activate:${inst}:E${ei + 1}`, (id, t) => ({ id, player: seat, kind: "activate", inst, effect: ei, targets: t, choice: null }), out)
    }
  }
}

const simple = (id: string, player: Seat, kind: GameAction["kind"], choice: number | null): GameAction => ({
  id,
  player,
  kind,
  inst: null,
  effect: null,
  targets: null,
  choice
})

const END_TURN: ReadonlyArray<GameAction> = [simple("end-turn", 0, "end-turn", null), simple("end-turn", 1, "end-turn", null)]
const PASS: ReadonlyArray<GameAction> = [simple("pass", 0, "pass", null), simple("pass", 1, "pass", null)]

const enumerate = (c: CompiledDeck, s: GameState): ReadonlyArray<GameAction> => {
  const d = s.decision
  if (s.result !== null || d === null) return []
  const out: Array<GameAction> = []
  switch (d.d) {
    case "main":
      castActions(c, s, d.player, "main", null, out)
      activateActions(c, s, d.player, out)
      out.push(END_TURN[d.player] as GameAction)
      break
    case "window":
      castActions(c, s, d.player, d.win, d.about, out)
      out.push(PASS[d.player] as GameAction)
      break
    case "choose": {
      const a = resolveList(effectOf(c, d.f), d.path)[d.i]
      for (const o of d.options) {
        const label = a?.op === "choose-one" ? (a.options[o]?.label ?? String(o)) : String(o)
        out.push(simple(`choose:${label}`, d.player, "choose", o))
      }
      break
    }
    case "optional":
      out.push(simple("optional:no", d.player, "optional", 0), simple("optional:yes", d.player, "optional", 1))
      break
    case "pay":
      out.push(simple("pay:no", d.player, "pay", 0), simple("pay:yes", d.player, "pay", 1))
      break
    case "redirect":
      d.options.forEach((o, k) => out.push(simple(`redirect:${o.key}=${o.to}`, d.player, "redirect", k)))
      break
  }
  return out.length > 1 ? sortById(out) : out
}

// ------------------------------------------------------------------ explain (typed reasons)

const no = (reason: IllegalReason, message: string): Explanation => ({ legal: false, reason, message })

const explainIllegal = (c: CompiledDeck, s: GameState, a: GameAction | string): Explanation => {
  if (s.result !== null) return no("game-over", "the game is over")
  const d = s.decision
  if (d === null) return no("unknown-action", "no decision is pending")
  const id = typeof a === "string" ? a : a.id
  const player = typeof a === "string" ? d.player : a.player
  if (player !== d.player) return no("not-your-decision", `seat ${d.player} is to act, not seat ${player}`)
  const m = /^(cast|activate):(p[01]-[^:]+)(?::E(\d+))?/.exec(id)
  if (m === null) {
    const kind = id.split(":")[0] ?? ""
    const expected: Record<Decision["d"], ReadonlyArray<string>> = {
      main: ["end-turn"],
      window: ["pass"],
      choose: ["choose"],
      optional: ["optional"],
      pay: ["pay"],
      redirect: ["redirect"]
    }
    if (!(expected[d.d] ?? []).includes(kind) && ["end-turn", "pass", "choose", "optional", "pay", "redirect"].includes(kind)) {
      return no("wrong-window", `${kind} is not an answer to the pending ${d.d} decision`)
    }
    return no(kind === "choose" ? "condition-false" : "no-such-option", `${id} is not one of the offered answers`)
  }
  const inst = m[2] as string
  if (s.cardOf[inst] === undefined) return no("unknown-action", `no card instance ${inst}`)
  const card = cardOfInst(c, s, inst)
  const p = s.players[d.player]
  if (m[1] === "cast") {
    if (!p.hand.includes(inst)) return no("not-in-hand", `${inst} is not in seat ${d.player}'s hand`)
    const win = d.d === "main" ? "main" : d.d === "window" ? d.win : null
    if (win === null || !card.castWindows.includes(win)) {
      return no("wrong-window", `${card.def.code} may be cast only in ${card.castWindows.join(", ")}`)
    }
    const cost = currentCost(c, s, inst)
    if (cost > p.fandom) return no("not-enough-fandom", `${card.def.code} costs ${cost} Fandom; seat ${d.player} has ${p.fandom}`)
    const effects = effectsForWindow(card, win)
    if (card.response) {
      const about = d.d === "window" ? d.about : null
      const ok = effects.some((ei) => holds(c, s, card.def.effects[ei]?.condition, { src: inst, card: card.index, eff: ei, ctrl: d.player, tg: null, pend: about, each: null }))
      if (!ok) return no("condition-false", `the condition of ${card.def.code}'s response is false`)
    }
    const choices = targetChoices(c, s, card, effects, d.player)
    if (choices.length === 0) return no("no-legal-target", `${card.def.code} has a target with no legal choice`)
    return no("illegal-target", `the chosen targets of ${card.def.code} are not legal`)
  }
  const ei = Number(m[3] ?? "0") - 1
  const e = card.def.effects[ei]
  if (e === undefined || e.kind !== "activated") return no("unknown-action", `${card.def.code} has no activated effect E${ei + 1}`)
  if (d.d !== "main") return no("wrong-window", "effects are activated only in main")
  if (!p.stage.includes(inst)) return no("not-on-stage", `${inst} is not on seat ${d.player}'s stage`)
  if (e.limit !== undefined && (s.uses[`${inst}/${ei}`] ?? 0) >= e.limit.count) return no("limit-reached", `${e.id} was used ${e.limit.count} time(s) this turn`)
  const f: Frame = { src: inst, card: card.index, eff: ei, ctrl: d.player, tg: null, pend: null, each: null }
  if (!holds(c, s, e.condition, f)) return no("condition-false", `the condition of ${e.id} is false`)
  if (e.for_each !== undefined && groupCards(c, s, d.player, e.for_each).length === 0) return no("for-each-empty", `${e.id} has no card to apply to`)
  if (!canPayActivation(c, s, f, e.activation_cost)) return no("cannot-pay-activation-cost", `the activation cost of ${e.id} cannot be paid`)
  if (targetChoices(c, s, card, [ei], d.player).length === 0) return no("no-legal-target", `${e.id} has a target with no legal choice`)
  return no("illegal-target", `the chosen targets of ${e.id} are not legal`)
}

// ------------------------------------------------------------------ apply

const applyLegal = (
  c: CompiledDeck,
  s: GameState,
  a: GameAction,
  ops: OperationTally | null
): Either.Either<GameState, Diagnostic> => {
  const d = new Draft(c, s)
  d.ops = ops
  const dec = s.decision as Decision // legal actions exist only under a decision
  d.s.decision = null
  d.s.ply = s.ply + 1
  switch (a.kind) {
    case "end-turn":
      d.work.push({ w: "step", s: "cleanup" }, { w: "step", s: "turn-end" })
      break
    case "pass":
      d.work.pop() // the window item on top
      break
    case "cast": {
      const inst = a.inst as string // cast actions carry their card
      const win = dec.d === "window" ? dec.win : "main"
      castCard(d, inst, a.player, a.targets, win, dec.d === "window" ? dec.about : null)
      break
    }
    case "activate": {
      const inst = a.inst as string // activate actions carry their card
      const card = cardOfInst(c, d.s, inst)
      const ei = a.effect ?? 0
      const e = card.def.effects[ei] as EffectRecord
      const f: Frame = { src: inst, card: card.index, eff: ei, ctrl: a.player, tg: a.targets, pend: null, each: null }
      d.use(useKey(inst, ei))
      if (e.activation_cost !== undefined) exec(d, e.activation_cost, f, [], -1)
      d.work.push({ w: "effect", f, ok: false })
      break
    }
    case "choose":
      if (dec.d === "choose") d.work.push({ w: "acts", f: dec.f, path: [...dec.path, { i: dec.i, f: "options", o: a.choice ?? 0 }], i: 0 })
      break
    case "optional":
      if (dec.d === "optional" && a.choice === 1) d.work.push({ w: "effect", f: dec.f, ok: true })
      break
    case "pay":
      if (dec.d === "pay") {
        if (a.choice === 1) d.work.push({ w: "acts", f: dec.f, path: [...dec.path, { i: dec.i, f: "unless", o: 0 }], i: 0 })
        else counterCard(d, dec.target)
      }
      break
    case "redirect":
      if (dec.d === "redirect") {
        const o = dec.options[a.choice ?? 0]
        if (o !== undefined) d.setTargets(dec.pend, { ...(d.s.castTargets[dec.pend] ?? {}), [o.key]: o.to })
      }
      break
  }
  if (!run(d)) return Either.left(budgetExceeded(d.budget, "resolution steps of one action", a.id))
  return Either.right(d.finish())
}

const castCard = (d: Draft, inst: string, seat: Seat, targets: Readonly<Record<string, string>> | null, win: string, about: string | null): void => {
  const c = d.c
  const card = cardOfInst(c, d.s, inst)
  // Targets were chosen with the action (§7.2 step 1); now pay the cost (step 2).
  const cost = currentCost(c, d.s, inst)
  const p = d.player(seat)
  p.fandom -= cost
  const hand = d.zone(seat, "hand")
  hand.splice(hand.indexOf(inst), 1)
  d.zone(seat, "pending").push(inst)
  if (targets !== null) d.setTargets(inst, targets)
  const rec: CastRecord = { inst, seat, type: card.def.type, tones: tonesOf(c, d.s, inst), tags: card.def.tags }
  d.s.cast = [...d.s.cast, rec]
  if (win === "main") {
    d.work.push({ w: "resolve", inst, win: null, about: null }, { w: "window", win: "card-pending-to-opponent", player: other(seat), about: inst })
  } else {
    d.work.push({ w: "resolve", inst, win, about })
  }
  emit(d, EV_CARD_CAST, seat, inst)
}

// ------------------------------------------------------------------ events, terminal check, triggers (§3, §8.3, §9)

/** Event indexes (`compileDeck`'s `eventIndex` numbers the events in `EVENTS` order). */
const EV = Object.fromEntries(EVENTS.map((e, i) => [e, i])) as Readonly<Record<EventName, number>>
const EV_TURN_START = EV["turn-start"]
const EV_TURN_END = EV["turn-end"]
const EV_CARD_CAST = EV["card-cast"]
const EV_CARD_RESOLVED = EV["card-resolved"]
const EV_CARD_ENTERED = EV["card-entered"]
const EV_CARD_COUNTERED = EV["card-countered"]
const EV_CARD_ARCHIVED = EV["card-archived"]
const EV_CARD_DRAWN = EV["card-drawn"]
const EV_DRAW_FAILED = EV["draw-failed"]
const EV_DAMAGE_PENDING = EV["damage-pending"]
const EV_DAMAGE_DEALT = EV["damage-dealt"]
const EV_DAMAGE_PREVENTED = EV["damage-prevented"]
const EV_COUNTER_ADDED = EV["counter-added"]
const EV_COUNTER_REMOVED = EV["counter-removed"]
const EV_RESOURCE_GAINED = EV["resource-gained"]
const EV_RESOURCE_LOST = EV["resource-lost"]

/** Emits event number `ev` (an `EV_*` constant) for `seat`: counts it, checks the end of the game, offers triggers. */
const emit = (d: Draft, ev: number, seat: Seat, inst: string | null): void => {
  const c = d.c
  d.bumpEvent(ev * 2 + seat)
  terminalCheck(d)
  if (d.s.result !== null || c.triggerOn[ev] !== true) return
  const event = EVENTS[ev] as EventName // ev is an EVENTS index
  const s = d.s as GameState
  for (const holder of BOTH[s.active]) {
    for (const src of s.players[holder].stage) {
      const card = cardOfInst(c, s, src)
      for (const ei of card.triggered) {
        const e = card.def.effects[ei] as EffectRecord
        const t = e.trigger
        if (t === undefined || t.event !== event) continue
        if (t.player === "self" ? seat !== holder : t.player === "opponent" ? seat === holder : false) continue
        if (t.filter !== undefined && (inst === null || !matches(c, s, inst, t.filter))) continue
        const key = useKey(src, ei)
        if (e.limit !== undefined && (s.uses[key] ?? 0) >= e.limit.count) continue
        const f: Frame = { src, card: card.index, eff: ei, ctrl: holder, tg: null, pend: null, each: null }
        if (!holds(c, s, e.condition, f)) continue
        d.use(key)
        d.enqueue(f)
      }
    }
  }
}

const terminalCheck = (d: Draft): void => {
  const a = d.s.players[0]
  const b = d.s.players[1]
  const cap = d.c.params.trend_cap
  const lostA = a.composure <= 0
  const lostB = b.composure <= 0
  let r: GameResult | null = null
  if (lostA || lostB) r = lostA && lostB ? { winner: null, reason: "simultaneous" } : { winner: lostA ? 1 : 0, reason: "composure" }
  else {
    const capA = a.trend >= cap
    const capB = b.trend >= cap
    if (capA || capB) r = capA && capB ? { winner: null, reason: "simultaneous" } : { winner: capA ? 0 : 1, reason: "trend-cap" }
  }
  if (r !== null) {
    d.s.result = r
    d.s.decision = null
  }
}

// ------------------------------------------------------------------ the resolution loop

/**
 * Resolves until a decision or the end of the game. Every loop step spends
 * one unit of the draft's budget, so a deck whose effects trigger each other
 * forever ends in `budget_exceeded` instead of hanging; false then.
 */
const run = (d: Draft): boolean => {
  const c = d.c
  for (;;) {
    if (!spend(d.budget)) return false
    if (d.s.result !== null) {
      // The rest of the current action, effect, trigger and window is abandoned (§3.4).
      d.work.length = 0
      d.queue = []
      d.s.decision = null
      return true
    }
    if (d.s.decision !== null) return true
    if (d.queue !== null && d.queue.length > 0) {
      for (let i = d.queue.length - 1; i >= 0; i--) d.work.push({ w: "effect", f: d.queue[i] as Frame, ok: false })
      d.queue = []
      continue
    }
    const top = d.work[d.work.length - 1]
    if (top === undefined) {
      d.s.decision = { d: "main", player: d.s.active }
      return true
    }
    const s = d.s as GameState
    switch (top.w) {
      case "step":
        d.work.pop()
        step(d, top.s)
        break
      case "spot": {
        const stage = s.players[s.active].stage
        if (top.i >= stage.length) {
          d.work.pop()
          break
        }
        d.work[d.work.length - 1] = { w: "spot", i: top.i + 1 }
        const inst = stage[top.i] as string
        const card = cardOfInst(c, s, inst)
        if (card.isStar) {
          const gain = (card.def.buzz ?? 0) - (s.counters[inst]?.[SCANDAL] ?? 0)
          if (gain > 0) gainResource(d, s.active, "trend", gain)
        }
        break
      }
      case "effect": {
        d.work.pop()
        const e = effectOf(c, top.f)
        if (!holds(c, s, e.condition, top.f)) break
        if (e.optional === true && !top.ok) {
          d.s.decision = { d: "optional", player: top.f.ctrl, f: top.f }
          break
        }
        if (e.for_each !== undefined) {
          const xs = groupCards(c, s, top.f.ctrl, e.for_each)
          for (let k = xs.length - 1; k >= 0; k--) d.work.push({ w: "acts", f: { ...top.f, each: xs[k] as string }, path: [], i: 0 })
        } else d.work.push({ w: "acts", f: top.f, path: [], i: 0 })
        break
      }
      case "acts": {
        const list = resolveList(effectOf(c, top.f), top.path)
        if (top.i >= list.length) {
          d.work.pop()
          break
        }
        d.work[d.work.length - 1] = { w: "acts", f: top.f, path: top.path, i: top.i + 1 }
        const a = list[top.i] as Action
        if (holds(c, s, a.condition, top.f)) exec(d, a, top.f, top.path, top.i)
        break
      }
      case "resolve": {
        d.work.pop()
        if (!isPending(s, top.inst)) break
        const card = cardOfInst(c, s, top.inst)
        const owner = ownerOf(top.inst)
        d.work.push({ w: "settle", inst: top.inst })
        const effects = effectsForWindow(card, top.win ?? "main")
        const tg = s.castTargets[top.inst] ?? null
        for (let k = effects.length - 1; k >= 0; k--) {
          d.work.push({ w: "effect", f: { src: top.inst, card: card.index, eff: effects[k] as number, ctrl: owner, tg, pend: top.about, each: null }, ok: false })
        }
        break
      }
      case "settle":
        d.work.pop()
        settle(d, top.inst)
        break
      case "deal":
        d.work.pop()
        startDamage(d, top.f, top.path, top.i, top.seat, top.n)
        break
      case "dmgfin":
        d.work.pop()
        finishDamage(d, top.f, top.path, top.i)
        break
      case "window": {
        if (top.about !== null && !isPending(s, top.about)) {
          d.work.pop()
          break
        }
        if (top.win === "damage-pending-to-controller") {
          const dmg = s.damage[s.damage.length - 1]
          if (dmg === undefined || dmg.target !== top.player || dmg.amount - dmg.prevented <= 0) {
            d.work.pop()
            break
          }
        }
        if (!hasCastAction(c, s, top.player, top.win, top.about)) {
          d.work.pop() // a window with nothing to declare is skipped (§8.1)
          break
        }
        d.s.decision = { d: "window", player: top.player, win: top.win, about: top.about }
        break
      }
    }
  }
}

const step = (d: Draft, which: "start" | "turn-start" | "draw" | "turn-end" | "cleanup"): void => {
  const s = d.s
  const active = s.active
  switch (which) {
    case "start":
      expire(d, (x) => x.until === "until-your-next-turn" && x.ctrl === active)
      gainResource(d, active, "fandom", d.c.params.fandom_per_turn)
      break
    case "turn-start":
      emit(d, EV_TURN_START, active, null)
      break
    case "draw":
      if (!(s.turn === 1 && active === s.first)) draw(d, active, 1)
      break
    case "turn-end":
      emit(d, EV_TURN_END, active, null)
      break
    case "cleanup": {
      expire(d, (x) => x.until === "end-of-turn")
      d.resetTurn()
      if (s.turn >= d.c.params.turn_limit) {
        const a = s.players[0]
        const b = s.players[1]
        const winner: Seat | null = a.trend !== b.trend ? (a.trend > b.trend ? 0 : 1) : a.composure !== b.composure ? (a.composure > b.composure ? 0 : 1) : null
        d.s.result = { winner, reason: "turn-limit" }
        return
      }
      d.s.turn = s.turn + 1
      d.s.active = other(active)
      d.work.push(...turnStartWork)
      break
    }
  }
}

const expire = (d: Draft, pred: (x: ToneChange | CostChange) => boolean): void => {
  if (d.s.toneChanges.some(pred)) d.s.toneChanges = d.s.toneChanges.filter((x) => !pred(x))
  if (d.s.costChanges.some(pred)) d.s.costChanges = d.s.costChanges.filter((x) => !pred(x))
}

// ------------------------------------------------------------------ zone moves

const leaveStage = (d: Draft, inst: string): void => {
  d.clearCounters(inst)
  if (d.s.toneChanges.some((t) => t.inst === inst)) d.s.toneChanges = d.s.toneChanges.filter((t) => t.inst !== inst)
}

const move = (d: Draft, inst: string, from: ZoneName, to: ZoneName): boolean => {
  const seat = ownerOf(inst)
  if (!zoneArray(d.players[seat], from).includes(inst)) return false
  const src = d.zone(seat, from)
  src.splice(src.indexOf(inst), 1)
  d.zone(seat, to).push(inst)
  if (from === "stage") leaveStage(d, inst)
  if (from === "pending") d.setTargets(inst, null)
  return true
}

const settle = (d: Draft, inst: string): void => {
  const s = d.s as GameState
  if (!isPending(s, inst)) return
  const c = d.c
  const card = cardOfInst(c, s, inst)
  const seat = ownerOf(inst)
  if (card.persistent) {
    move(d, inst, "pending", "stage")
    if (card.isStar && (card.def.starting_scandal ?? 0) > 0) d.counters(inst)[SCANDAL] = card.def.starting_scandal ?? 0
    // The card's own on-enter effects resolve first, then what its events triggered (§7.3).
    for (const ei of card.onEnter) d.enqueue({ src: inst, card: card.index, eff: ei, ctrl: seat, tg: null, pend: null, each: null })
    emit(d, EV_CARD_RESOLVED, seat, inst)
    if (d.s.result !== null) return
    emit(d, EV_CARD_ENTERED, seat, inst)
    scandalCheck(d, inst)
  } else {
    move(d, inst, "pending", "archive")
    emit(d, EV_CARD_RESOLVED, seat, inst)
  }
}

const counterCard = (d: Draft, inst: string): void => {
  if (move(d, inst, "pending", "archive")) emit(d, EV_CARD_COUNTERED, ownerOf(inst), inst)
}

/** A Star with `scandal_break` or more scandal counters is archived (§10). */
const scandalCheck = (d: Draft, inst: string): void => {
  if (d.s.result !== null) return
  const card = cardOfInst(d.c, d.s, inst)
  if (!card.isStar || (d.s.counters[inst]?.[SCANDAL] ?? 0) < d.c.params.scandal_break) return
  if (move(d, inst, "stage", "archive")) emit(d, EV_CARD_ARCHIVED, ownerOf(inst), inst)
}

// ------------------------------------------------------------------ resources and draws

const RES_CAP = (d: Draft, r: "composure" | "fandom" | "trend"): number =>
  r === "fandom" ? d.c.params.fandom_cap : r === "trend" ? d.c.params.trend_cap : d.c.params.starting_composure

/** A resource by name, with named property accesses (a computed key is a megamorphic keyed access). */
const resourceOf = (p: PlayerState, r: "composure" | "fandom" | "trend"): number => (r === "fandom" ? p.fandom : r === "trend" ? p.trend : p.composure)

const setResource = (p: MPlayer, r: "composure" | "fandom" | "trend", v: number): void => {
  if (r === "fandom") p.fandom = v
  else if (r === "trend") p.trend = v
  else p.composure = v
}

const gainResource = (d: Draft, seat: Seat, r: "composure" | "fandom" | "trend", n: number): void => {
  const cur = resourceOf(d.players[seat], r)
  const k = Math.min(n, RES_CAP(d, r) - cur)
  if (k <= 0) return
  setResource(d.player(seat), r, cur + k)
  emit(d, EV_RESOURCE_GAINED, seat, null)
}

const loseResource = (d: Draft, seat: Seat, r: "composure" | "fandom" | "trend", n: number): void => {
  const cur = resourceOf(d.players[seat], r)
  const k = Math.min(n, cur)
  if (k <= 0) return
  setResource(d.player(seat), r, cur - k)
  emit(d, EV_RESOURCE_LOST, seat, null)
}

const draw = (d: Draft, seat: Seat, n: number): void => {
  for (let k = 0; k < n && d.s.result === null; k++) {
    const deck = d.players[seat].deck
    if (deck.length === 0) {
      // Empty-deck rule (§10): each failed draw loses Composure; it is not damage.
      emit(d, EV_DRAW_FAILED, seat, null)
      if (d.s.result === null) loseResource(d, seat, "composure", d.c.params.empty_deck_composure_loss)
    } else {
      const inst = deck[0] as string
      d.zone(seat, "deck").shift()
      d.zone(seat, "hand").push(inst)
      emit(d, EV_CARD_DRAWN, seat, null)
    }
  }
}

// ------------------------------------------------------------------ damage (§6)

const startDamage = (d: Draft, f: Frame, path: ReadonlyArray<PathStep>, i: number, seat: Seat, n: number): void => {
  const c = d.c
  d.s.damage = [...d.s.damage, { target: seat, source: f.src, amount: n, prevented: 0 }]
  d.work.push({ w: "dmgfin", f, path, i }, { w: "window", win: "damage-pending-to-controller", player: seat, about: null })
  emit(d, EV_DAMAGE_PENDING, seat, f.src)
  if (d.s.result !== null) return
  // Replacement effects apply before the damage happens, the damaged player's first (§6.2).
  for (const holder of [seat, other(seat)] as const) {
    for (const src of d.players[holder].stage) {
      const card = cardOfInst(c, d.s, src)
      for (const ei of card.replacement) {
        const e = card.def.effects[ei] as EffectRecord
        const t = e.trigger
        if (t === undefined || t.event !== "damage-pending") continue
        if (t.player === "self" ? seat !== holder : t.player === "opponent" ? seat === holder : false) continue
        const key = useKey(src, ei)
        if (e.limit !== undefined && (d.s.uses[key] ?? 0) >= e.limit.count) continue
        const rf: Frame = { src, card: card.index, eff: ei, ctrl: holder, tg: null, pend: null, each: null }
        if (!holds(c, d.s, e.condition, rf)) continue
        d.use(key)
        for (const a of e.actions) if (holds(c, d.s, a.condition, rf)) exec(d, a, rf, [], -1)
      }
    }
  }
}

const finishDamage = (d: Draft, f: Frame, path: ReadonlyArray<PathStep>, i: number): void => {
  const dmg = d.s.damage[d.s.damage.length - 1]
  if (dmg === undefined) return
  d.s.damage = d.s.damage.slice(0, -1)
  const a = resolveList(effectOf(d.c, f), path)[i]
  const onPrevented = a?.op === "deal-damage" ? a.on_prevented : undefined
  const remaining = dmg.amount - dmg.prevented
  const onPath: ReadonlyArray<PathStep> = [...path, { i, f: "on_prevented", o: 0 }]
  if (dmg.prevented > 0) {
    emit(d, EV_DAMAGE_PREVENTED, dmg.target, dmg.source)
    if (d.s.result !== null) return
  }
  if (dmg.prevented > 0 && onPrevented !== undefined && onPrevented.replace) {
    d.work.push({ w: "acts", f, path: onPath, i: 0 })
    return
  }
  if (remaining > 0) {
    const p = d.player(dmg.target)
    p.composure = Math.max(0, p.composure - remaining)
    emit(d, EV_DAMAGE_DEALT, dmg.target, dmg.source)
    if (d.s.result !== null) return
  }
  if (dmg.prevented > 0 && onPrevented !== undefined) d.work.push({ w: "acts", f, path: onPath, i: 0 })
}

// ------------------------------------------------------------------ the 16 operations (§10)

const RESOURCE = (r: string): "composure" | "fandom" | "trend" => (r === "fandom" ? "fandom" : r === "trend" ? "trend" : "composure")

const exec = (d: Draft, a: Action, f: Frame, path: ReadonlyArray<PathStep>, i: number): void => {
  const c = d.c
  if (d.ops !== null) countOp(d.ops, a.op)
  const s = d.s as GameState
  switch (a.op) {
    case "add-counter": {
      const n = amountOf(s, a.amount, f, c)
      if (n <= 0) return
      for (const inst of cardsOf(c, s, f, a.card)) {
        if (d.s.result !== null || zoneOf(d.s, inst) !== "stage") continue
        const cs = d.counters(inst)
        cs[a.counter] = (cs[a.counter] ?? 0) + n
        emit(d, EV_COUNTER_ADDED, ownerOf(inst), inst)
        if (a.counter === SCANDAL) scandalCheck(d, inst)
      }
      return
    }
    case "remove-counter": {
      const n = amountOf(s, a.amount, f, c)
      for (const inst of cardsOf(c, s, f, a.card)) {
        const have = d.s.counters[inst]?.[a.counter] ?? 0
        const k = Math.min(n, have)
        if (k <= 0 || d.s.result !== null) continue
        const cs = d.counters(inst)
        if (have - k === 0) delete cs[a.counter]
        else cs[a.counter] = have - k
        d.pruneCounters(inst)
        emit(d, EV_COUNTER_REMOVED, ownerOf(inst), inst)
      }
      return
    }
    case "move-counter": {
      const from = cardsOf(c, s, f, a.from)[0]
      const to = cardsOf(c, s, f, a.to)[0]
      if (from === undefined || to === undefined || from === to) return
      if (zoneOf(s, from) !== "stage" || zoneOf(s, to) !== "stage") return
      const have = s.counters[from]?.[a.counter] ?? 0
      const k = Math.min(amountOf(s, a.amount, f, c), have)
      if (k <= 0) return
      const fc = d.counters(from)
      if (have - k === 0) delete fc[a.counter]
      else fc[a.counter] = have - k
      d.pruneCounters(from)
      emit(d, EV_COUNTER_REMOVED, ownerOf(from), from)
      if (d.s.result !== null) return
      const tc = d.counters(to)
      tc[a.counter] = (tc[a.counter] ?? 0) + k
      emit(d, EV_COUNTER_ADDED, ownerOf(to), to)
      if (a.counter === SCANDAL) scandalCheck(d, to)
      return
    }
    case "change-tone": {
      const until = a.duration === "until-your-next-turn" ? "until-your-next-turn" : "end-of-turn"
      for (const inst of cardsOf(c, s, f, a.card)) {
        if (zoneOf(d.s, inst) !== "stage" || !tonesOf(c, d.s, inst).includes(a.from)) continue
        d.s.toneChanges = [...d.s.toneChanges, { inst, from: a.from, to: a.to, ctrl: f.ctrl, until }]
      }
      return
    }
    case "choose-one": {
      const chooser = playerSeats(s, f, a.player)[0]
      if (chooser === undefined) return
      const legal: Array<number> = []
      a.options.forEach((o, k) => {
        if (holds(c, s, o.condition, f)) legal.push(k)
      })
      if (legal.length === 0) return
      if (legal.length === 1) {
        d.work.push({ w: "acts", f, path: [...path, { i, f: "options", o: legal[0] as number }], i: 0 })
        return
      }
      d.s.decision = { d: "choose", player: chooser, f, path, i, options: legal }
      return
    }
    case "counter-card": {
      const target = cardsOf(c, s, f, a.card)[0]
      if (target === undefined) return
      const pay = a.unless?.optional_payment
      if (pay !== undefined) {
        const payer = playerSeats(s, f, pay.player)[0]
        const pf: Frame = { ...f, pend: target }
        if (payer !== undefined && pay.actions.every((x) => canPayActivation(c, s, pf, x))) {
          d.s.decision = { d: "pay", player: payer, f: pf, path, i, target }
          return
        }
      }
      counterCard(d, target)
      return
    }
    case "deal-damage": {
      const n = amountOf(s, a.amount, f, c)
      if (n <= 0) return
      const seats = playerSeats(s, f, a.player)
      for (let k = seats.length - 1; k >= 0; k--) d.work.push({ w: "deal", f, path, i, seat: seats[k] as Seat, n })
      return
    }
    case "draw": {
      const n = amountOf(s, a.amount, f, c)
      for (const seat of playerSeats(s, f, a.player)) draw(d, seat, n)
      return
    }
    case "gain-resource": {
      const n = amountOf(s, a.amount, f, c)
      for (const seat of playerSeats(s, f, a.player)) if (d.s.result === null) gainResource(d, seat, RESOURCE(a.resource), n)
      return
    }
    case "lose-resource": {
      const n = amountOf(s, a.amount, f, c)
      for (const seat of playerSeats(s, f, a.player)) if (d.s.result === null) loseResource(d, seat, RESOURCE(a.resource), n)
      return
    }
    case "look-at-top": {
      const owner = playerSeats(s, f, a.deck ?? "self")[0]
      if (owner === undefined) return
      const cards = s.players[owner].deck.slice(0, amountOf(s, a.amount, f, c))
      const lookers = new Set(a.players.flatMap((p) => playerSeats(s, f, p)))
      d.s.looks = [...d.s.looks.filter((l) => !lookers.has(l.player)), ...[...lookers].sort().map((player) => ({ player, owner, cards }))]
      return
    }
    case "modify-cost": {
      if (typeof a.amount !== "number" || a.duration === "while-source-active") return
      const until = a.duration
      const change: CostChange =
        typeof a.card === "object" && "group" in a.card
          ? { ctrl: f.ctrl, group: a.card.group, inst: null, amount: a.amount, until }
          : { ctrl: f.ctrl, group: null, inst: cardsOf(c, s, f, a.card)[0] ?? "", amount: a.amount, until }
      d.s.costChanges = [...d.s.costChanges, change]
      return
    }
    case "move-top-to-bottom":
      for (const seat of playerSeats(s, f, a.player)) {
        if (d.players[seat].deck.length < 2) continue
        const deck = d.zone(seat, "deck")
        deck.push(deck.shift() as string) // length checked above
      }
      return
    case "prevent-damage":
      for (const seat of playerSeats(s, f, a.player)) {
        let k = d.s.damage.length - 1
        while (k >= 0 && (d.s.damage[k] as PendingDamage).target !== seat) k--
        if (k < 0) continue
        const dmg = d.s.damage[k] as PendingDamage
        if (a.source !== undefined && !matches(c, d.s, dmg.source, a.source)) continue
        const n = a.amount === "all" ? dmg.amount : amountOf(s, a.amount, f, c)
        const prevented = Math.min(dmg.amount, dmg.prevented + n)
        if (prevented === dmg.prevented) continue
        const next = d.s.damage.slice()
        next[k] = { ...dmg, prevented }
        d.s.damage = next
      }
      return
    case "redirect-target": {
      const pend = cardsOf(c, s, f, a.source)[0]
      if (pend === undefined) return
      const tg = s.castTargets[pend]
      if (tg === undefined) return
      const pcard = cardOfInst(c, s, pend)
      const owner = ownerOf(pend)
      const options: Array<{ key: string; to: string }> = []
      for (const key of Object.keys(tg).sort(compareOrdinal)) {
        const spec = specOf(pcard, key)
        if (spec === undefined) continue
        const prefix = key.slice(0, key.indexOf("/") + 1)
        for (const cand of groupCards(c, s, owner, spec)) {
          let taken = false
          for (const k2 in tg) if (k2.startsWith(prefix) && tg[k2] === cand) taken = true
          if (!taken) options.push({ key, to: cand })
        }
      }
      if (options.length === 0) return
      if (options.length === 1) {
        const o = options[0] as { key: string; to: string }
        d.setTargets(pend, { ...tg, [o.key]: o.to })
        return
      }
      d.s.decision = { d: "redirect", player: f.ctrl, pend, options }
      return
    }
    case "return-card":
      for (const inst of cardsOf(c, s, f, a.card)) move(d, inst, a.from_zone as ZoneName, a.to_zone as ZoneName)
      return
  }
}
