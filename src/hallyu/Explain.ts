/**
 * Renders a card's effect records as generated English, to sit beside its
 * printed `rules_text`. The text link only proves that no clause is missing
 * or orphaned; this rendering lets a reviewer check, clause by clause, that
 * the records mean what the prose says. Pure and deterministic.
 *
 * @since 0.1.0
 */
import type {
  Action,
  Amount,
  Card,
  CardFilter,
  CardGroup,
  CardSelector,
  Condition,
  EffectRecord,
  PlayerSelector,
  StarterDeck
} from "./Schema.js"

/** One effect: its ID, kind, printed text and the text generated from its records. */
export interface ExplainedEffect {
  readonly id: string
  readonly kind: string
  readonly printed: string
  readonly generated: string
}

export interface ExplainedCard {
  readonly code: string
  readonly id: string
  readonly name: string
  readonly header: string
  readonly rulesText: string
  readonly effects: ReadonlyArray<ExplainedEffect>
}

/** Finds a card by code or card ID (case-insensitive). */
export const findCard = (deck: StarterDeck, codeOrId: string): Card | undefined => {
  const key = codeOrId.toUpperCase()
  return deck.cards.find((c) => c.code.toUpperCase() === key || c.id.toUpperCase() === key)
}

export const explainCard = (card: Card): ExplainedCard => ({
  code: card.code,
  id: card.id,
  name: card.name,
  header:
    `${card.name} — ${card.type}, cost ${card.cost}, tones ${card.tones.join("/") || "none"}` +
    (card.type === "star" ? `, starting Scandal ${card.starting_scandal ?? 0}, buzz ${card.buzz ?? 0}` : ""),
  rulesText: card.rules_text,
  effects: card.effects.map((e) => ({ id: e.id, kind: e.kind, printed: e.text, generated: explainEffect(e) }))
})

/** The side-by-side text `cardfx hhx explain` prints. */
export const renderExplanation = (x: ExplainedCard): string => {
  const lines = [`${x.code} (${x.id}) ${x.header}`, `rules_text: ${x.rulesText}`, ""]
  for (const e of x.effects) {
    lines.push(`${e.id} [${e.kind}]`)
    lines.push(`  printed:   ${e.printed}`)
    lines.push(`  generated: ${e.generated}`)
  }
  return lines.join("\n")
}

const player = (p: PlayerSelector, subject = false): string => {
  switch (p) {
    case "self":
      return subject ? "you" : "you"
    case "opponent":
      return "your opponent"
    case "each":
      return "each player"
    case "pending-controller":
      return "the pending card's controller"
  }
}

const filterWords = (f: CardFilter, noun = "card"): string => {
  const parts: Array<string> = []
  if (f.tone !== undefined) parts.push(f.tone)
  if (f.tag !== undefined) parts.push(`[${f.tag}]`)
  parts.push(f.type ?? noun)
  let s = parts.join(" ")
  if (f.card !== undefined) s += ` named ${f.card}`
  return s
}

const controllerWords = (c: string): string => (c === "self" ? "you control" : c === "opponent" ? "your opponent controls" : "any player controls")

const group = (g: CardGroup): string =>
  g.zone === "stage" ? `each ${filterWords(g)} ${controllerWords(g.controller)}` : `each ${filterWords(g)} in ${g.controller === "any" ? "any player's" : g.controller === "self" ? "your" : "your opponent's"} ${g.zone}`

const card = (s: CardSelector, e: EffectRecord): string => {
  if (s === "self") return "this card"
  if (s === "pending-card") return "the pending card"
  if (s === "each") return "that card"
  if ("target" in s) {
    const t = e.targets?.find((x) => x.id === s.target)
    return t === undefined ? `target ${s.target}` : `target ${filterWords(t)} in ${t.zone} ${controllerWords(t.controller)} (${t.id})`
  }
  return group(s.group)
}

const amount = (a: Amount): string => {
  if (typeof a === "number") return String(a)
  if (a === "all") return "all"
  return `the number of ${a.filter === undefined ? "cards" : filterWords(a.filter) + "s"} ${player(a.player)} cast ${a.period.replace(/-/g, " ")}`
}

const condition = (c: Condition): string => {
  switch (c.fact) {
    case "controls@1":
      return `${player(c.player)} control at least ${c.at_least} ${filterWords(c.filter)}`
    case "events-this-turn@1":
      return `the number of ${c.event} events for ${player(c.player)} this turn is ${compare(c.compare)} ${c.value}`
    case "damage-pending@1":
      return `damage is pending to ${player(c.player)}`
    case "resource@1":
      return `${player(c.player)} have ${c.resource} ${compare(c.compare)} ${c.value}`
    case "pending-has-target@1":
      return "the pending card has a target"
    case "counters@1":
      return `the ${c.counter} counters on the card are ${compare(c.compare)} ${c.value}`
  }
}

const compare = (c: string): string => (c === "gte" ? "at least" : c === "lte" ? "at most" : "exactly")

const cond = (a: { readonly condition?: Condition }, body: string): string =>
  a.condition === undefined ? body : `if ${condition(a.condition)}, ${body}`

/** Generated text for one action (nested actions included). */
export const explainAction = (a: Action, e: EffectRecord): string => {
  const body = ((): string => {
    switch (a.op) {
      case "add-counter":
        return `put ${amount(a.amount)} ${a.counter} counter(s) on ${card(a.card, e)}`
      case "remove-counter":
        return `remove ${amount(a.amount)} ${a.counter} counter(s) from ${card(a.card, e)}`
      case "move-counter":
        return `move up to ${amount(a.amount)} ${a.counter} counter(s) from ${card(a.from, e)} to ${card(a.to, e)}`
      case "change-tone":
        return `${card(a.card, e)} has tone ${a.to} instead of ${a.from} (${a.duration})`
      case "choose-one":
        return `${player(a.player)} choose one: ${a.options
          .map((o, i) => `(${i + 1}) ${o.label}${o.condition === undefined ? "" : ` [only if ${condition(o.condition)}]`}: ${list(o.actions, e)}`)
          .join("; ")}`
      case "counter-card":
        return (
          `counter ${card(a.card, e)}` +
          (a.unless === undefined
            ? ""
            : ` unless ${player(a.unless.optional_payment.player)} choose to ${list(a.unless.optional_payment.actions, e)}`)
        )
      case "deal-damage":
        return (
          `deal ${amount(a.amount)} damage to ${player(a.player)}` +
          (a.on_prevented === undefined
            ? ""
            : `; if any is prevented, ${a.on_prevented.replace ? "instead of the damage, " : "also "}${list(a.on_prevented.actions, e)}`)
        )
      case "draw":
        return `${player(a.player)} draw ${amount(a.amount)} card(s)`
      case "gain-resource":
        return `${player(a.player)} gain ${amount(a.amount)} ${a.resource}`
      case "lose-resource":
        return `${player(a.player)} lose ${amount(a.amount)} ${a.resource}`
      case "look-at-top":
        return `${a.players.map((p) => player(p)).join(" and ")} look at the top ${amount(a.amount)} card(s) of ${a.deck === undefined ? "your" : player(a.deck) + "'s"} deck`
      case "modify-cost":
        return `${card(a.card, e)} cost ${typeof a.amount === "number" && a.amount < 0 ? `${-a.amount} less` : `${amount(a.amount)} more`} (${a.duration}; never below 0)`
      case "move-top-to-bottom":
        return `move the top card of ${player(a.player) === "you" ? "your" : player(a.player) + "'s"} deck to the bottom`
      case "prevent-damage":
        return `prevent ${amount(a.amount)} of the pending damage to ${player(a.player)}${a.source === undefined ? "" : ` from a ${filterWords(a.source)}`}`
      case "redirect-target":
        return `change one target of ${card(a.source, e)} to another legal target`
      case "return-card":
        return `return ${card(a.card, e)} from ${a.from_zone} to its owner's ${a.to_zone}`
    }
  })()
  return cond(a, body)
}

const list = (xs: ReadonlyArray<Action>, e: EffectRecord): string => xs.map((x) => explainAction(x, e)).join(", then ")

/** Generated text for one effect record. */
export const explainEffect = (e: EffectRecord): string => {
  const head: Array<string> = []
  switch (e.kind) {
    case "activated":
      head.push(`Activated (main)${e.activation_cost === undefined ? "" : `, cost: ${explainAction(e.activation_cost, e)}`}`)
      break
    case "on-enter":
      head.push("When this card enters the stage")
      break
    case "on-resolve":
      head.push(`When cast (windows: ${(e.play_windows ?? ["main"]).join(", ")})`)
      break
    case "replacement":
      head.push(`Replacement, before ${e.trigger?.event ?? "?"} (${e.trigger?.player ?? "?"})`)
      break
    case "response":
      head.push(`Response in ${e.window ?? "?"}`)
      break
    case "static":
      head.push("Static, while on the stage")
      break
    case "triggered":
      head.push(
        `When ${e.trigger?.event ?? "?"} happens for ${e.trigger?.player ?? "?"}${e.trigger?.filter === undefined ? "" : ` with a ${filterWords(e.trigger.filter)}`}`
      )
      break
  }
  const mods: Array<string> = []
  if (e.limit !== undefined) mods.push(`at most ${e.limit.count} time(s) per ${e.limit.per}`)
  if (e.optional === true) mods.push("optional")
  if (e.condition !== undefined) mods.push(`only if ${condition(e.condition)}`)
  if (e.for_each !== undefined) mods.push(`for ${group(e.for_each)}`)
  const prefix = head.join("") + (mods.length > 0 ? ` [${mods.join("; ")}]` : "")
  return `${prefix}: ${list(e.actions, e)}.`
}
