/**
 * The Hallyu Hex game state: immutable, serializable plain data (JSON with
 * no `undefined`), including the RNG state, the resolution stack and any
 * pending decision, so a game can be saved and resumed in the middle of a
 * choice. Each `apply` returns a new state that shares every part it did not
 * change with the previous one.
 *
 * @since 0.1.0
 */
import type { RngState } from "../../kernel/Rng.js"
import type { CardGroup } from "../Schema.js"

export type Seat = 0 | 1

export interface PlayerState {
  readonly composure: number
  readonly fandom: number
  readonly trend: number
  /** Top first. */
  readonly deck: ReadonlyArray<string>
  readonly hand: ReadonlyArray<string>
  /** In the order cards entered the stage. */
  readonly stage: ReadonlyArray<string>
  readonly archive: ReadonlyArray<string>
  readonly pending: ReadonlyArray<string>
}

/** Where an effect's actions are: the effect's `actions`, or a nested list under action `i`. */
export interface PathStep {
  readonly i: number
  readonly f: "options" | "on_prevented" | "unless"
  readonly o: number
}

/** The context an effect resolves in. */
export interface Frame {
  /** Source card instance. */
  readonly src: string
  /** Card index in the deck file. */
  readonly card: number
  /** Effect index on the card. */
  readonly eff: number
  readonly ctrl: Seat
  /** Chosen targets of the source card, keyed `<effect index>/<target id>`. */
  readonly tg: Readonly<Record<string, string>> | null
  /** The pending card a response answers. */
  readonly pend: string | null
  /** The current `for_each` card. */
  readonly each: string | null
}

/** One item of the resolution stack (the top is the last element). */
export type Work =
  | { readonly w: "step"; readonly s: "start" | "turn-start" | "draw" | "turn-end" | "cleanup" }
  | { readonly w: "spot"; readonly i: number }
  | { readonly w: "effect"; readonly f: Frame; readonly ok: boolean }
  | { readonly w: "acts"; readonly f: Frame; readonly path: ReadonlyArray<PathStep>; readonly i: number }
  | { readonly w: "resolve"; readonly inst: string; readonly win: string | null; readonly about: string | null }
  | { readonly w: "settle"; readonly inst: string }
  | {
    readonly w: "deal"
    readonly f: Frame
    readonly path: ReadonlyArray<PathStep>
    readonly i: number
    readonly seat: Seat
    readonly n: number
  }
  | { readonly w: "dmgfin"; readonly f: Frame; readonly path: ReadonlyArray<PathStep>; readonly i: number }
  | { readonly w: "window"; readonly win: string; readonly player: Seat; readonly about: string | null }

/** A question to one player, recorded until it is answered. */
export type Decision =
  | { readonly d: "main"; readonly player: Seat }
  | { readonly d: "window"; readonly player: Seat; readonly win: string; readonly about: string | null }
  | {
    readonly d: "choose"
    readonly player: Seat
    readonly f: Frame
    readonly path: ReadonlyArray<PathStep>
    readonly i: number
    readonly options: ReadonlyArray<number>
  }
  | { readonly d: "optional"; readonly player: Seat; readonly f: Frame }
  | {
    readonly d: "pay"
    readonly player: Seat
    readonly f: Frame
    readonly path: ReadonlyArray<PathStep>
    readonly i: number
    readonly target: string
  }
  | {
    readonly d: "redirect"
    readonly player: Seat
    readonly pend: string
    readonly options: ReadonlyArray<{ readonly key: string; readonly to: string }>
  }

export interface PendingDamage {
  readonly target: Seat
  readonly source: string
  readonly amount: number
  readonly prevented: number
}

export interface ToneChange {
  readonly inst: string
  readonly from: string
  readonly to: string
  readonly ctrl: Seat
  readonly until: "end-of-turn" | "until-your-next-turn"
}

export interface CostChange {
  readonly ctrl: Seat
  readonly group: CardGroup | null
  readonly inst: string | null
  readonly amount: number
  readonly until: "end-of-turn" | "until-your-next-turn"
}

export interface CastRecord {
  readonly inst: string
  readonly seat: Seat
  readonly type: string
  readonly tones: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
}

export interface Look {
  readonly player: Seat
  readonly owner: Seat
  readonly cards: ReadonlyArray<string>
}

export type TerminalReason = "composure" | "trend-cap" | "simultaneous" | "turn-limit"

export interface GameResult {
  readonly winner: Seat | null
  readonly reason: TerminalReason
}

export interface GameState {
  readonly format: "hhx-state/1"
  /** sha256 of the deck file's canonical JSON: a state belongs to one deck. */
  readonly deckHash: string
  readonly seed: string
  readonly rng: RngState
  /** Card index (in the deck file) of every instance; never changes during a game. */
  readonly cardOf: Readonly<Record<string, number>>
  readonly turn: number
  readonly active: Seat
  readonly first: Seat
  readonly players: readonly [PlayerState, PlayerState]
  /** Counters on stage cards: instance → counter → count (only positive counts). */
  readonly counters: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly toneChanges: ReadonlyArray<ToneChange>
  readonly costChanges: ReadonlyArray<CostChange>
  readonly damage: ReadonlyArray<PendingDamage>
  /** Chosen targets of cards on the pending zone. */
  readonly castTargets: Readonly<Record<string, Readonly<Record<string, string>>>>
  readonly cast: ReadonlyArray<CastRecord>
  /** Event counts this turn, index `event * 2 + seat`. */
  readonly events: ReadonlyArray<number>
  /** Limit uses this turn, keyed `<instance>/<effect index>`. */
  readonly uses: Readonly<Record<string, number>>
  readonly looks: ReadonlyArray<Look>
  readonly work: ReadonlyArray<Work>
  readonly queue: ReadonlyArray<Frame>
  readonly decision: Decision | null
  readonly result: GameResult | null
  /** Actions applied so far. */
  readonly ply: number
}

/** A legal action: a stable, content-derived ID and what it does. */
export interface GameAction {
  readonly id: string
  readonly player: Seat
  readonly kind: "end-turn" | "pass" | "cast" | "activate" | "choose" | "optional" | "pay" | "redirect"
  /** cast / activate: the card instance. */
  readonly inst: string | null
  /** activate: the effect index. */
  readonly effect: number | null
  /** cast / activate: chosen targets, keyed `<effect index>/<target id>`. */
  readonly targets: Readonly<Record<string, string>> | null
  /** choose: option index; redirect: option index; optional / pay: 1 yes, 0 no. */
  readonly choice: number | null
}
