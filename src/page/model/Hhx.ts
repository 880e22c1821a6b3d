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

/**
 * Instance → how the table names it for a designer: the card's name and where it is now (`Rookie Vocalist Yuna
 * (seat 0, hand 2)`, `… (seat 1, stage 1)`); a card in no zone the view shows (deck, archive) by name and seat.
 * Never the engine's instance ID (`p0-02`), which stays one Details toggle away.
 */
export const placedNames = (
  view: PlayerViewDoc | null,
  names: ReadonlyMap<string, string>
): (inst: string) => string => {
  const where = new Map<string, string>()
  if (view !== null) {
    for (const seat of [0, 1] as const) {
      const s = view.seats[seat]
      ;(s.hand ?? []).forEach((i, k) => where.set(i, `seat ${seat}, hand ${k + 1}`))
      s.stage.forEach((i, k) => where.set(i, `seat ${seat}, stage ${k + 1}`))
      s.pending.forEach((i, k) => where.set(i, `seat ${seat}, pending ${k + 1}`))
    }
  }
  return (inst) => {
    const n = names.get(inst) ?? "a card"
    const owner = /^p([01])-/.exec(inst)?.[1]
    return `${n} (${where.get(inst) ?? (owner === undefined ? "" : `seat ${owner}`)})`.replace(/ \(\)$/, "")
  }
}

/** A decision in a dialog as a designer reads it: which card and effect asks, what it says, and what each answer does. */
export interface DecisionPrompt {
  readonly title: string
  /** The asking effect's text (`hhx explain`'s), when known. */
  readonly effect: string | null
  /** Action ID → what choosing it does. */
  readonly answers: ReadonlyMap<string, string>
}

/** The frame of the effect that asks (`f`: its source card instance and effect index), when the decision has one. */
const frameOf = (d: DecisionDoc): { readonly src: string; readonly eff: number } | null => {
  const f = d["f"]
  if (typeof f !== "object" || f === null || !("src" in f) || !("eff" in f)) return null
  return typeof f.src === "string" && typeof f.eff === "number" ? { src: f.src, eff: f.eff } : null
}

export const decisionPrompt = (
  decision: DecisionDoc,
  legal: ReadonlyArray<GameActionDoc>,
  cards: ReadonlyMap<string, HhxCardDoc>,
  name: (inst: string) => string
): DecisionPrompt => {
  const frame = frameOf(decision)
  const card = frame === null ? undefined : cards.get(frame.src)
  const effect = frame === null || card === undefined ? null : (explainCard(card).effects[frame.eff]?.generated ?? null)
  const asker = frame === null ? null : `${name(frame.src)}, effect ${effectTag(frame.eff)}`
  const pend = decision["pend"]
  const answers = new Map<string, string>()
  for (const a of legal) {
    switch (decision.d) {
      case "optional":
        answers.set(a.id, a.choice === 1 ? "Yes: the effect happens." : "No: the effect is skipped.")
        break
      case "pay":
        answers.set(
          a.id,
          a.choice === 1
            ? "Pay: pay the cost and the effect goes on."
            : "Do not pay: keep your resources; the effect's alternative applies."
        )
        break
      case "choose":
        answers.set(a.id, `Option ${(a.choice ?? 0) + 1} of the effect.`)
        break
      case "redirect":
        answers.set(a.id, `Send the pending damage to ${a.id.slice("redirect:".length)}.`)
        break
      default:
        break
    }
  }
  const what = {
    optional: "may do something: yes or no?",
    pay: "asks you to pay a cost.",
    choose: "asks you to choose one option.",
    redirect: "lets you redirect pending damage.",
    main: "waits for your move.",
    window: "gives you a chance to respond."
  }[decision.d]
  const title = asker !== null
    ? `Seat ${decision.player}: ${asker} ${what}`
    : typeof pend === "string"
    ? `Seat ${decision.player}: damage from ${name(pend)} is pending; ${what}`
    : `Seat ${decision.player}: the game ${what}`
  return { title, effect, answers }
}

/** The table's terms, one tap away (RULES.md §2–3). */
export const GLOSSARY: ReadonlyArray<readonly [term: string, meaning: string]> = [
  [
    "Composure",
    "A player's life: it starts at 20 and cannot rise above that. Damage lowers it; a player at 0 has lost."
  ],
  ["Fandom", "What cards cost. You gain 3 at the start of your turn (at most 10); what you do not spend carries over."],
  ["Trend", "Your buzz. It starts at 0; a player whose Trend reaches the cap (10) wins."],
  ["Stage", "Your cards in play; some add Trend or can be activated (an effect E1, E2, … of the card)."],
  ["Ending: composure", "One player's Composure reached 0: the other player wins."],
  ["Ending: trend-cap", "One player's Trend reached the cap: that player wins."],
  ["Ending: simultaneous", "Both players lost, or reached the cap, at the same moment: a draw."],
  ["Ending: turn-limit", "Turn 40 ended: more Trend wins, then more Composure; otherwise a draw."]
]
