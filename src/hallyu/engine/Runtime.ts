/**
 * The compiled deck as one engine runs it: the immutable `CompiledDeck` plus
 * the memo tables of that engine (instance numbering per deck-list pair,
 * limit-use keys, shared untargeted actions, target plans, the card index of
 * setup-numbered instances, the static sources of the last state
 * enumerated). Every table belongs to the engine value that `makeEngine`
 * builds; none is module-level, so two engines never share or race on one.
 *
 * Internal to the engine (not exported from the package index).
 *
 * @since 0.1.0
 */
import type { CompiledCard, CompiledDeck } from "./Compiled.js"
import type { StaticSource } from "./Reading.js"
import type { Lineup } from "./Setup.js"
import type { CastRecord, Frame, GameAction, Seat } from "./State.js"
import type { TargetPlan } from "./Targets.js"

/** The memo of `staticSources` for the last state enumerated (see `enumerationStatics`). */
interface StaticsMemo {
  readonly cardOf: object
  readonly s0: object
  readonly s1: object
  readonly statics: ReadonlyArray<StaticSource>
}

/** Bound on the instance-keyed tables for instances not numbered at setup (states built by hand). */
const TABLE_BOUND = 4096

/** `seat * 100 + nn` for an instance named `p<seat>-<nn>`, else -1. */
export const setupSlot = (inst: string): number => {
  if (inst.length !== 5 || inst.charCodeAt(0) !== 112 || inst.charCodeAt(2) !== 45) return -1
  const seat = inst.charCodeAt(1) - 48
  const d1 = inst.charCodeAt(3) - 48
  const d2 = inst.charCodeAt(4) - 48
  return seat >= 0 && seat <= 1 && d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 ? seat * 100 + d1 * 10 + d2 : -1
}

/**
 * The targeted actions of one card instance under one target plan, by chosen targets in slot order
 * (one level per slot). Levels past `TABLE_BOUND` entries are not kept (a fresh node each time).
 */
export class ActionTrie {
  action: GameAction | undefined = undefined
  private readonly next = new Map<string, ActionTrie>()
  /** The children of setup-numbered instances by `setupSlot` (an array read instead of a string-keyed probe). */
  private readonly bySlot: Array<ActionTrie | undefined> = []

  at(inst: string): ActionTrie {
    const slot = setupSlot(inst)
    if (slot >= 0) {
      let node = this.bySlot[slot]
      if (node === undefined) {
        node = new ActionTrie()
        this.bySlot[slot] = node
      }
      return node
    }
    let node = this.next.get(inst)
    if (node === undefined) {
      node = new ActionTrie()
      if (this.next.size < TABLE_BOUND) this.next.set(inst, node)
    }
    return node
  }

  /** The child for a seat (the action's player). */
  seat(seat: Seat): ActionTrie {
    let node = this.bySlot[seat === 0 ? SEAT0 : SEAT1]
    if (node === undefined) {
      node = new ActionTrie()
      this.bySlot[seat === 0 ? SEAT0 : SEAT1] = node
    }
    return node
  }
}

/** `bySlot` indexes past every setup slot (0-199) for a trie level keyed by seat. */
const SEAT0 = 200
const SEAT1 = 201

/** One engine's memo tables. Each is a pure function of its key (a cache, never a result). */
export class Memo {
  /** Instance numbering per pair of deck lists (§1.2), shared by every game that uses them. */
  readonly lineups = new Map<string, Lineup>()
  /** Target plans per card, by cast window or activated effect index. */
  readonly plans = new Map<CompiledCard, Map<string | number, TargetPlan>>()
  /** The target plans of casts in `main` by card index (the same plans as `plans`, read without probes). */
  readonly mainPlans: Array<TargetPlan | undefined> = []
  /** The target plans of activations by card index and effect index (the same plans as `plans`). */
  readonly activationPlans: Array<Array<TargetPlan | undefined> | undefined> = []
  statics: StaticsMemo | null = null
  /** Untargeted cast actions per instance (fully determined by it; immutable, so shared). */
  private readonly castCache = new Map<string, GameAction>()
  /** The same for setup-numbered instances, by `setupSlot` (an array read instead of a hash probe). */
  private readonly castBySlot: Array<GameAction | undefined> = []
  private readonly activationCache = new Map<string, Array<GameAction>>()
  /** Limit-use keys `<instance>/<effect index>` (a fresh string is hashed on every use). */
  private readonly useKeys = new Map<string, Array<string>>()
  /**
   * Card indexes of setup-numbered instances by `setupSlot`, for the last `cardOf` record seen
   * (games of one deck pair share theirs): a string-keyed lookup in a 60-entry record is a
   * dictionary probe on every card read. Other names use the record.
   */
  private indexedCardOf: object | null = null
  private readonly cardIndexTable = new Int32Array(200)
  /** The cards of `cardIndexTable` (undefined where it holds -1). */
  private readonly cardTable: Array<CompiledCard | undefined> = new Array<CompiledCard | undefined>(200).fill(undefined)

  constructor(private readonly cards: ReadonlyArray<CompiledCard>) {}
  /** Scratch for the sort keys of offers (`LegalActions.ts`; never nested). */
  readonly sortKeys: Array<number> = []
  /** Scratch for the chosen targets of a depth-first walk over target slots (`Targets.ts`; never nested). */
  readonly chosen: Array<string> = []
  /** Frames without targets, pending card or `for_each` card, by `setupSlot` and effect index (see `frame`). */
  private readonly frames: Array<Array<Frame | undefined> | undefined> = []
  /** Frames of response checks by `setupSlot` and effect index: the last pending card asked about (see `responseFrame`). */
  private readonly responseFrames: Array<Array<Frame | undefined> | undefined> = []
  /** Static sources by `setupSlot` (see `staticSource`). */
  private readonly staticSources: Array<StaticSource | undefined> = []
  /** Cast records with printed tones, by `setupSlot` (see `castRecord`). */
  private readonly castRecords: Array<CastRecord | undefined> = []

  /**
   * The frame `{ src, card, eff, ctrl }` with no targets, pending card or `for_each` card. Frames are
   * immutable, so one per instance and effect is shared by every resolution, trigger and check that
   * needs it (a fresh one per resolved effect and per activation check was most of a playout's
   * allocation). Kept for setup-numbered instances; a cached frame of another card or controller
   * (another lineup, a state built by hand) is replaced.
   */
  frame(src: string, card: number, eff: number, ctrl: Seat): Frame {
    const slot = setupSlot(src)
    if (slot < 0) return { src, card, eff, ctrl, tg: null, pend: null, each: null }
    let byEff = this.frames[slot]
    if (byEff === undefined) {
      byEff = []
      this.frames[slot] = byEff
    }
    let f = byEff[eff]
    if (f === undefined || f.card !== card || f.ctrl !== ctrl || f.src !== src) {
      f = { src, card, eff, ctrl, tg: null, pend: null, each: null }
      byEff[eff] = f
    }
    return f
  }

  /**
   * The frame `{ src, card, eff, ctrl, pend }` of a response's condition, answering pending card
   * `pend`: a window's checks and its offers ask about one pending card again and again, so the last
   * one is kept per instance and effect.
   */
  responseFrame(src: string, card: number, eff: number, ctrl: Seat, pend: string): Frame {
    const slot = setupSlot(src)
    if (slot < 0) return { src, card, eff, ctrl, tg: null, pend, each: null }
    let byEff = this.responseFrames[slot]
    if (byEff === undefined) {
      byEff = []
      this.responseFrames[slot] = byEff
    }
    let f = byEff[eff]
    if (f === undefined || f.pend !== pend || f.card !== card || f.ctrl !== ctrl || f.src !== src) {
      f = { src, card, eff, ctrl, tg: null, pend, each: null }
      byEff[eff] = f
    }
    return f
  }

  /**
   * The static source `src` (a stage card with static effects) controlled by `ctrl`: one frame per
   * static effect. Immutable, so kept per setup-numbered instance (stages change often, and the
   * sources were rebuilt with their frame lists each time).
   */
  staticSource(src: string, card: CompiledCard, ctrl: Seat): StaticSource {
    const slot = setupSlot(src)
    let x = slot < 0 ? undefined : this.staticSources[slot]
    if (x === undefined || x.card !== card || x.seat !== ctrl || x.src !== src) {
      x = { src, seat: ctrl, card, frames: card.statics.map((ei): Frame => this.frame(src, card.index, ei, ctrl)) }
      if (slot >= 0) this.staticSources[slot] = x
    }
    return x
  }

  /**
   * The cast record of `inst` cast by `seat`, shared when its tones are the printed ones (records are
   * immutable; the same fields, in the order `castCard` always wrote them).
   */
  castRecord(
    inst: string,
    seat: Seat,
    type: string,
    tones: ReadonlyArray<string>,
    tags: ReadonlyArray<string>
  ): CastRecord {
    const slot = setupSlot(inst)
    if (slot < 0) return { inst, seat, type, tones, tags }
    let r = this.castRecords[slot]
    if (
      r === undefined || r.seat !== seat || r.type !== type || r.tones !== tones || r.tags !== tags || r.inst !== inst
    ) {
      r = { inst, seat, type, tones, tags }
      this.castRecords[slot] = r
    }
    return r
  }

  useKey(inst: string, ei: number): string {
    let keys = this.useKeys.get(inst)
    if (keys === undefined) {
      keys = []
      if (this.useKeys.size < TABLE_BOUND) this.useKeys.set(inst, keys)
    }
    let k = keys[ei]
    if (k === undefined) {
      k = `${inst}/${ei}`
      keys[ei] = k
    }
    return k
  }

  /** `cardOf[inst] ?? 0`, through the index table when the instance has a setup name. */
  cardIndex(cardOf: Readonly<Record<string, number>>, inst: string): number {
    if (cardOf !== this.indexedCardOf) this.indexCards(cardOf)
    const slot = setupSlot(inst)
    if (slot >= 0) {
      const i = this.cardIndexTable[slot] ?? -1
      if (i >= 0) return i
    }
    return cardOf[inst] ?? 0
  }

  /** The tables of `cardIndex` and `card` for `cardOf`. */
  private indexCards(cardOf: Readonly<Record<string, number>>): void {
    this.cardIndexTable.fill(-1)
    this.cardTable.fill(undefined)
    for (const i in cardOf) {
      const slot = setupSlot(i)
      if (slot >= 0) {
        const index = cardOf[i] ?? -1
        this.cardIndexTable[slot] = index
        this.cardTable[slot] = index >= 0 ? this.cards[index] : undefined
      }
    }
    this.indexedCardOf = cardOf
  }

  /** `cards[cardIndex(cardOf, inst)]`, read from a table of cards by `setupSlot` (one load less per card read). */
  card(cardOf: Readonly<Record<string, number>>, inst: string): CompiledCard {
    return this.cardAt(cardOf, inst, setupSlot(inst))
  }

  /** `card` for a caller that already parsed the instance's `setupSlot` (enumeration's loops). */
  cardAt(cardOf: Readonly<Record<string, number>>, inst: string, slot: number): CompiledCard {
    if (cardOf !== this.indexedCardOf) this.indexCards(cardOf)
    if (slot >= 0) {
      const card = this.cardTable[slot]
      if (card !== undefined) return card
    }
    return this.cards[this.cardIndex(cardOf, inst)] as CompiledCard // every instance was numbered at setup
  }

  untargetedCast(seat: Seat, inst: string): GameAction {
    return this.untargetedCastAt(seat, inst, setupSlot(inst))
  }

  /** `untargetedCast` for a caller that already parsed the instance's `setupSlot`. */
  untargetedCastAt(seat: Seat, inst: string, slot: number): GameAction {
    // A hand holds only its owner's cards, so the instance alone is the key.
    let a = slot >= 0 ? this.castBySlot[slot] : this.castCache.get(inst)
    if (a === undefined) {
      a = { id: `cast:${inst}`, player: seat, kind: "cast", inst, effect: null, targets: null, choice: null }
      if (slot >= 0) this.castBySlot[slot] = a
      else if (this.castCache.size < TABLE_BOUND) this.castCache.set(inst, a)
    }
    return a
  }

  untargetedActivation(seat: Seat, inst: string, ei: number): GameAction {
    let byEffect = this.activationCache.get(inst)
    if (byEffect === undefined) {
      byEffect = []
      if (this.activationCache.size < TABLE_BOUND) this.activationCache.set(inst, byEffect)
    }
    let a = byEffect[ei]
    if (a === undefined) {
      a = {
        id: `activate:${inst}:E${ei + 1}`,
        player: seat,
        kind: "activate",
        inst,
        effect: ei,
        targets: null,
        choice: null
      }
      byEffect[ei] = a
    }
    return a
  }
}

/** The compiled deck with one engine's memo tables. */
export interface Runtime extends CompiledDeck {
  readonly memo: Memo
}

/** A runtime with fresh memo tables over a compiled deck. */
export const makeRuntime = (c: CompiledDeck): Runtime => ({ ...c, memo: new Memo(c.cards) })
