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

/** A button's label: `Cast p0-07 (1/target=p1-03)`, `End turn`, `Choose: option 2`. */
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
      return `Activate ${cardName(a.inst ?? "")} E${a.effect ?? 0}${targets}`
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
 * Instance → card name, numbered as the engine numbers a game's cards at
 * set-up (RULES.md §1.2): `p<seat>-<nn>` in deck-list order, `nn` from 01.
 * `lists` null means the deck file's first two lists.
 */
export const instanceNames = (
  deck: HhxDeckDoc,
  lists: readonly [string, string] | null
): ReadonlyMap<string, string> => {
  const ids = lists ?? [deck.decks[0]?.id ?? "", deck.decks[1]?.id ?? deck.decks[0]?.id ?? ""]
  const byId = new Map(deck.cards.map((c) => [c.id, c.name]))
  const names = new Map<string, string>()
  for (const seat of [0, 1] as const) {
    const list = deck.decks.find((d) => d.id === ids[seat])
    let n = 0
    for (const e of list?.cards ?? []) {
      for (let k = 0; k < e.count; k++) {
        n++
        names.set(`p${seat}-${String(n).padStart(2, "0")}`, byId.get(e.card) ?? e.card)
      }
    }
  }
  return names
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
