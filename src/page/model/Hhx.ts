/**
 * The Hallyu Hex table as the workbench draws it, over the engine's public
 * documents: a player view per seat (`observe`), the legal actions with
 * their IDs, and the actions that are not legal now with their `explain`
 * reason. Pure: which buttons exist, which are enabled, and why not. The
 * documents' types are the wire Schemas' (src/api; type imports only).
 *
 * @since 0.1.0
 */
import type { HhxAction, HhxDecision, HhxPlayerView, HhxSeat, HhxSeatView } from "../../api/Documents.js"
import { explainCard, type ExplainedCard } from "../../api/Explain.js"
import type { StarterDeck } from "../../api/Schemas.js"

export type Seat = typeof HhxSeat.Type

export type SeatViewDoc = typeof HhxSeatView.Type

export type DecisionDoc = typeof HhxDecision.Type

/** What one seat may see of a game. */
export type PlayerViewDoc = typeof HhxPlayerView.Type

/** A legal action: its stable ID and what it does. */
export type GameActionDoc = typeof HhxAction.Type

export interface UnavailableDoc {
  readonly actionId: string
  readonly reason: string
  readonly message: string
}

/** Decisions answered in a dialog rather than from the table. */
export const DIALOG_DECISIONS: ReadonlySet<string> = new Set(["choose", "optional", "pay", "redirect"])

export const isDialogDecision = (d: DecisionDoc | null): boolean => d !== null && DIALOG_DECISIONS.has(d.d)

/**
 * The effect an `activate` action names, as its ID says it (`activate:p0-15:E1`: `E1`, the card's first effect,
 * `HHX-PROTO-012-E1`); `effect` in the action is the index (0 for E1).
 */
export const effectTag = (effectIndex: number | null): string => `E${(effectIndex ?? 0) + 1}`

/** A button's label: `Cast Yuna (p0-07) → Minho (p1-03)`, `Activate Practice Studio (p0-15) E1`, `End turn`. */
export const actionLabel = (a: GameActionDoc, cardName: (inst: string) => string = (i) => i): string => {
  const targets = a.targets === null || a.targets === undefined
    ? ""
    : ` → ${
      Object.keys(a.targets)
        .sort()
        .map((k) => cardName(a.targets?.[k] ?? ""))
        .join(", ")
    }`
  switch (a.kind) {
    case "end-turn":
      return "End turn"
    case "pass":
      return "Pass"
    case "cast":
      return `Cast ${cardName(a.inst ?? "")}${targets}`
    case "activate":
      return `Activate ${cardName(a.inst ?? "")} ${effectTag(a.effect)}${targets}`
    case "choose":
      return `Choose ${a.id.slice("choose:".length)}`
    case "optional":
      return a.choice === 1 ? "Yes" : "No"
    case "pay":
      return a.choice === 1 ? "Pay" : "Do not pay"
    case "redirect":
      return `Redirect ${a.id.slice("redirect:".length)}`
    default:
      return a.id
  }
}

export interface ActionButton {
  readonly id: string
  readonly label: string
  readonly enabled: boolean
  /** Why not, for a disabled button (the engine's `explain`). */
  readonly reason: string | null
}

/** Legal actions first (enabled, in the engine's order), then the unavailable ones with their reasons. */
export const actionButtons = (
  legal: ReadonlyArray<GameActionDoc>,
  unavailable: ReadonlyArray<UnavailableDoc>,
  cardName?: (inst: string) => string
): ReadonlyArray<ActionButton> => [
  ...legal.map((a) => ({ id: a.id, label: actionLabel(a, cardName), enabled: true, reason: null })),
  ...unavailable.map((u) => ({
    id: u.actionId,
    label: unavailableLabel(u.actionId, cardName),
    enabled: false,
    reason: `${u.reason}: ${u.message}`
  }))
]

const unavailableLabel = (id: string, cardName: (inst: string) => string = (i) => i): string => {
  const [kind, inst, eff] = id.split(":")
  if (kind === "cast" && inst !== undefined) return `Cast ${cardName(inst)}`
  if (kind === "activate" && inst !== undefined) return `Activate ${cardName(inst)} ${eff ?? ""}`.trim()
  if (kind === "end-turn") return "End turn"
  if (kind === "pass") return "Pass"
  return id
}

/** The deck file (`GET /v1/hhx/deck`). */
export type HhxDeckDoc = typeof StarterDeck.Type

/**
 * Each instance with the deck entry's card ID, numbered as the engine numbers
 * a game's cards at set-up (RULES.md §1.2): `p<seat>-<nn>` in deck-list
 * order, `nn` from 01. `lists` null means the deck file's first two lists.
 */
const instances = (
  deck: HhxDeckDoc,
  lists: readonly [string, string] | null
): ReadonlyArray<readonly [inst: string, cardId: string]> => {
  const ids = lists ?? [deck.decks[0]?.id ?? "", deck.decks[1]?.id ?? deck.decks[0]?.id ?? ""]
  const out: Array<readonly [string, string]> = []
  for (const seat of [0, 1] as const) {
    const list = deck.decks.find((d) => d.id === ids[seat])
    let n = 0
    for (const e of list?.cards ?? []) {
      for (let k = 0; k < e.count; k++) {
        n++
        out.push([`p${seat}-${String(n).padStart(2, "0")}`, e.card])
      }
    }
  }
  return out
}

/** Instance → card name (the card ID when the deck file has no such card). */
export const instanceNames = (
  deck: HhxDeckDoc,
  lists: readonly [string, string] | null
): ReadonlyMap<string, string> => {
  const byId = new Map(deck.cards.map((c) => [c.id, c.name]))
  return new Map(instances(deck, lists).map(([inst, id]) => [inst, byId.get(id) ?? id]))
}

/**
 * The actions worth showing disabled: casting each card of the acting seat's
 * hand that no legal action casts, and ending the turn when that is not legal
 * — at the table only, never while a dialog decision is open.
 */
export const unavailableCandidates = (
  view: PlayerViewDoc | null,
  legal: ReadonlyArray<GameActionDoc>
): ReadonlyArray<string> => {
  if (view === null || view.result !== null || view.toAct === null || isDialogDecision(view.decision)) return []
  const hand = view.seats[view.toAct].hand ?? []
  const castable = new Set(legal.filter((a) => a.kind === "cast").map((a) => a.inst))
  const out = hand.filter((i) => !castable.has(i)).map((i) => `cast:${i}`)
  if (!legal.some((a) => a.kind === "end-turn" || a.kind === "pass")) out.push("end-turn")
  return out
}

/** Instance → its deck card (numbered as {@link instanceNames} numbers them). */
export const instanceCards = (
  deck: HhxDeckDoc,
  lists: readonly [string, string] | null
): ReadonlyMap<string, HhxCardDoc> => {
  const byId = new Map(deck.cards.map((c) => [c.id, c]))
  const out = new Map<string, HhxCardDoc>()
  for (const [inst, id] of instances(deck, lists)) {
    const card = byId.get(id)
    if (card !== undefined) out.set(inst, card)
  }
  return out
}

/** A card of the deck file. */
export type HhxCardDoc = HhxDeckDoc["cards"][number]

/** A hand card as the table draws it: `hhx explain`'s explanation (printed rules text, generated text per effect). */
export const handCard = (card: HhxCardDoc): ExplainedCard => explainCard(card)

/** The effects a cast resolves (not its activated, response or static abilities), generated as `hhx explain` does. */
const castEffects = (x: ExplainedCard): ReadonlyArray<string> =>
  x.effects.filter((e) => e.kind === "on-resolve" || e.kind === "on-enter").map((e) => e.generated)

/**
 * One step of a game's log in words (from the same explanation code as `cardfx hhx explain`):
 * `Seat 0 casts Rookie Vocalist Yuna (p0-03) → Minho (p1-07). When this card enters the stage, …`.
 * The seat of a decision with no card (end turn, choose, pay…) is the one to act at that step, when known.
 */
export const logLine = (
  actionId: string,
  cards: ReadonlyMap<string, HhxCardDoc>,
  name: (inst: string) => string,
  seat: Seat | null
): string => {
  // `cast:<inst>[:<targets>]`, `activate:<inst>:E<n>[:<targets>]`; targets `<effect>/<key>=<inst>,…`.
  const [kind = "", inst = "", ...rest] = actionId.split(":")
  const eff = kind === "activate" ? (rest[0] ?? "") : ""
  const targetsPart = kind === "activate" ? rest[1] : kind === "cast" ? rest[0] : undefined
  const who = seat === null ? "The seat to act" : `Seat ${seat}`
  const targets = targetsPart === undefined
    ? ""
    : ` → ${targetsPart.split(",").map((t) => name(t.slice(t.indexOf("=") + 1))).join(", ")}`
  const card = cards.get(inst)
  const x = card === undefined ? null : explainCard(card)
  const owner = /^p([01])-/.exec(inst)?.[1]
  const actor = owner === undefined ? who : `Seat ${owner}`
  switch (kind) {
    case "cast": {
      const words = x === null ? [] : castEffects(x)
      return `${actor} casts ${name(inst)}${targets}.${words.length === 0 ? "" : ` ${words.join(" ")}`}`
    }
    case "activate": {
      const effect = x?.effects[Number(eff.slice(1)) - 1]
      return `${actor} activates ${name(inst)} ${eff}${targets}.${effect === undefined ? "" : ` ${effect.generated}`}`
    }
    case "end-turn":
      return `${who} ends the turn.`
    case "pass":
      return `${who} passes.`
    case "choose":
      return `${who} chooses ${actionId.slice("choose:".length)}.`
    case "optional":
      return `${who} answers ${inst === "yes" ? "yes" : "no"}.`
    case "pay":
      return inst === "yes" ? `${who} pays.` : `${who} does not pay.`
    case "redirect":
      return `${who} redirects ${actionId.slice("redirect:".length)}.`
    default:
      return `${who}: ${actionId}.`
  }
}
