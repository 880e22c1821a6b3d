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
  header: `${card.name} — ${card.type}, cost ${card.cost}, tones ${card.tones.join("/") || "none"}` +
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

// ------------------------------------------------------------------ English

/** A grammatical subject: its words, whether its verb takes the third person, its possessive. */
interface Subject {
  readonly text: string
  readonly third: boolean
  readonly possessive: string
}

const subject = (p: PlayerSelector | "any"): Subject => {
  switch (p) {
    case "self":
      return { text: "you", third: false, possessive: "your" }
    case "opponent":
      return { text: "your opponent", third: true, possessive: "your opponent's" }
    case "each":
      return { text: "each player", third: true, possessive: "their own" }
    case "any":
      return { text: "any player", third: true, possessive: "that player's" }
    case "pending-controller":
      return { text: "the pending card's controller", third: true, possessive: "the pending card's controller's" }
  }
}

/** A verb agreeing with its subject ("you lose", "your opponent loses"). */
const verb = (s: Subject, base: string): string => (s.third ? thirdPerson(base) : base)
const thirdPerson = (
  base: string
): string => (base === "have" ? "has" : /(s|sh|ch|x|z|o)$/.test(base) ? `${base}es` : `${base}s`)
const clause = (s: Subject, base: string, rest: string): string => `${s.text} ${verb(s, base)} ${rest}`

/** Proper names (resources, counters, card types) are capitalized, as the printed text does. */
const title = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1)

/** "1 card", "2 cards". */
const counted = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`
const article = (phrase: string): string => `${/^[aeiou]/i.test(phrase) ? "an" : "a"} ${phrase}`
const times = (n: number): string => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`)

/** A card described by filter fields, singular or plural: "bright Star", "dreamy Moments", "cards". */
const filterNoun = (f: CardFilter, plural = false): string => {
  const parts: Array<string> = []
  if (f.tone !== undefined) parts.push(f.tone)
  if (f.tag !== undefined) parts.push(`[${f.tag}]`)
  const noun = f.type === undefined ? "card" : title(f.type)
  parts.push(plural ? `${noun}s` : noun)
  return parts.join(" ") + (f.card === undefined ? "" : ` named ${f.card}`)
}

/** "you control", "your opponent controls", "is on the stage". */
const controls = (
  c: string
): string => (c === "self" ? "you control" : c === "opponent" ? "your opponent controls" : "on the stage")
const owner = (c: string): string => (c === "self" ? "your" : c === "opponent" ? "your opponent's" : "any player's")
const zoneName = (z: string): string => (z === "pending" ? "pending zone" : z)

/** A group or target: `lead` + the filtered card + where it is ("each Star you control", "target card in your hand"). */
const group = (lead: string, g: CardGroup): string =>
  g.zone === "stage"
    ? `${lead} ${filterNoun(g)} ${controls(g.controller)}`
    : `${lead} ${filterNoun(g)} in ${owner(g.controller)} ${zoneName(g.zone)}`

/** A card selector; every selector names one card at a time, so its verb is singular. */
const card = (s: CardSelector, e: EffectRecord): string => {
  if (s === "self") return "this card"
  if (s === "pending-card") return "the pending card"
  if (s === "each") return "that card"
  if ("target" in s) {
    const t = e.targets?.find((x) => x.id === s.target)
    return t === undefined ? `target ${s.target}` : `${group("target", t)} (${t.id})`
  }
  return group("each", s.group)
}

/**
 * An amount of a unit: the literal ("2 Fandom", "3 cards"), or one unit with a
 * trailing "for each …" for the count expression. `mass` nouns (resources,
 * damage) take no plural.
 */
const quantity = (a: Amount, singular: string, mass = false): { readonly head: string; readonly tail: string } => {
  if (typeof a === "number") return { head: mass ? `${a} ${singular}` : counted(a, singular), tail: "" }
  if (a === "all") return { head: `all of the ${singular}`, tail: "" }
  const who = subject(a.player)
  const noun = a.filter === undefined ? "card" : filterNoun(a.filter)
  return { head: `1 ${singular}`, tail: ` for each ${noun} ${clause(who, "cast", a.period.replace(/-/g, " "))}` }
}

const durationWords = (d: string): string =>
  d === "end-of-turn"
    ? "until end of turn"
    : d === "until-your-next-turn"
    ? "until your next turn"
    : "while this card is on the stage"

const compare = (c: string): string => (c === "gte" ? "at least" : c === "lte" ? "at most" : "exactly")

const condition = (c: Condition, e: EffectRecord): string => {
  switch (c.fact) {
    case "controls@1":
      return clause(
        subject(c.player),
        "control",
        `${compare("gte")} ${c.at_least} ${c.at_least === 1 ? filterNoun(c.filter) : filterNoun(c.filter, true)}`
      )
    case "events-this-turn@1":
      return `the number of ${c.event.replace(/-/g, " ")} events for ${subject(c.player).text} this turn is ${
        compare(c.compare)
      } ${c.value}`
    case "damage-pending@1":
      return `damage is pending to ${subject(c.player).text}`
    case "resource@1":
      return clause(subject(c.player), "have", `${compare(c.compare)} ${c.value} ${title(c.resource)}`)
    case "pending-has-target@1":
      return "the pending card has a target"
    case "counters@1":
      return `${card(c.card, e)} has ${compare(c.compare)} ${counted(c.value, `${title(c.counter)} counter`)}`
  }
}

const cond = (a: { readonly condition?: Condition }, e: EffectRecord, body: string): string =>
  a.condition === undefined ? body : `if ${condition(a.condition, e)}, ${body}`

/** An action whose player is the subject; `bare` drops a subject already named ("chooses to lose 2 Fandom"). */
const playerClause = (p: PlayerSelector, bare: PlayerSelector | undefined, base: string, rest: string): string =>
  p === bare ? `${base} ${rest}` : clause(subject(p), base, rest)

/** Generated text for one action (nested actions included). */
export const explainAction = (a: Action, e: EffectRecord): string => render(a, e, undefined)

const render = (a: Action, e: EffectRecord, bare: PlayerSelector | undefined): string => {
  const body = ((): string => {
    switch (a.op) {
      case "add-counter": {
        const q = quantity(a.amount, `${title(a.counter)} counter`)
        return `put ${q.head} on ${card(a.card, e)}${q.tail}`
      }
      case "remove-counter": {
        const q = quantity(a.amount, `${title(a.counter)} counter`)
        return `remove ${q.head} from ${card(a.card, e)}${q.tail}`
      }
      case "move-counter": {
        const q = quantity(a.amount, `${title(a.counter)} counter`)
        return `move up to ${q.head} from ${card(a.from, e)} to ${card(a.to, e)}${q.tail}`
      }
      case "change-tone":
        return `${card(a.card, e)} becomes ${a.to} instead of ${a.from} ${durationWords(a.duration)}`
      case "choose-one":
        return playerClause(
          a.player,
          bare,
          "choose",
          `one — ${
            a.options
              .map((o, i) =>
                `(${i + 1}) ${o.label}${o.condition === undefined ? "" : ` [only if ${condition(o.condition, e)}]`}: ${
                  list(o.actions, e, undefined)
                }`
              )
              .join("; ")
          }`
        )
      case "counter-card": {
        const pay = a.unless?.optional_payment
        return `counter ${card(a.card, e)}` +
          (pay === undefined
            ? ""
            : ` unless ${clause(subject(pay.player), "choose", `to ${list(pay.actions, e, pay.player)}`)}`)
      }
      case "deal-damage": {
        const q = quantity(a.amount, "damage", true)
        const p = a.on_prevented
        return (
          `deal ${q.head} to ${subject(a.player).text}${q.tail}` +
          (p === undefined
            ? ""
            : `; if any of it is prevented, ${
              p.replace ? `${list(p.actions, e, undefined)} instead` : `also ${list(p.actions, e, undefined)}`
            }`)
        )
      }
      case "draw": {
        const q = quantity(a.amount, "card")
        return playerClause(a.player, bare, "draw", `${q.head}${q.tail}`)
      }
      case "gain-resource":
      case "lose-resource": {
        const q = quantity(a.amount, title(a.resource), true)
        return playerClause(a.player, bare, a.op === "gain-resource" ? "gain" : "lose", `${q.head}${q.tail}`)
      }
      case "look-at-top": {
        const lookers = a.players.map((p) => subject(p))
        const who: Subject = lookers.length === 1 && lookers[0] !== undefined
          ? lookers[0]
          : { text: lookers.map((l) => l.text).join(" and "), third: false, possessive: "their" }
        const q = typeof a.amount === "number" && a.amount === 1
          ? { head: "card", tail: "" }
          : quantity(a.amount, "card")
        return clause(who, "look", `at the top ${q.head} of ${subject(a.deck ?? "self").possessive} deck${q.tail}`)
      }
      case "modify-cost": {
        const n = typeof a.amount === "number" ? a.amount : 0
        return `${card(a.card, e)} costs ${n < 0 ? `${-n} less` : `${n} more`} ${
          durationWords(a.duration)
        } (never below 0)`
      }
      case "move-top-to-bottom":
        return `move the top card of ${subject(a.player).possessive} deck to the bottom`
      case "prevent-damage": {
        const q = quantity(a.amount, "damage", true)
        const of = a.amount === "all" ? "all" : typeof a.amount === "number" ? String(a.amount) : q.head
        return `prevent ${of} of the pending damage to ${subject(a.player).text}${
          a.source === undefined ? "" : ` from ${article(filterNoun(a.source))}`
        }${q.tail}`
      }
      case "redirect-target":
        return `change one target of ${card(a.source, e)} to another legal target`
      case "return-card":
        return `return ${card(a.card, e)} from ${
          a.from_zone === "stage" ? "the stage" : `the ${zoneName(a.from_zone)}`
        } to its owner's ${zoneName(a.to_zone)}`
    }
  })()
  return cond(a, e, body)
}

const list = (xs: ReadonlyArray<Action>, e: EffectRecord, bare: PlayerSelector | undefined): string =>
  xs.map((x) => render(x, e, bare)).join(", then ")

/** Who a trigger is about, as a subject ("you", "your opponent", "any player"). */
const triggerHead = (event: string, who: string, filter: CardFilter | undefined): string => {
  const s = subject(who === "self" || who === "opponent" ? who : "any")
  const thing = filter === undefined ? "card" : filterNoun(filter)
  const theirs = who === "any" ? article(thing) : `${article(thing)} ${controls(who)}`
  switch (event) {
    case "turn-start":
      return `At the start of ${who === "any" ? "each" : s.possessive} turn`
    case "turn-end":
      return `At the end of ${who === "any" ? "each" : s.possessive} turn`
    case "card-cast":
      return `Whenever ${clause(s, "cast", article(thing))}`
    case "card-resolved":
      return `Whenever ${theirs} resolves`
    case "card-entered":
      return `Whenever ${theirs} enters the stage`
    case "card-countered":
      return `Whenever ${theirs} is countered`
    case "card-archived":
      return `Whenever ${theirs} is archived`
    case "card-drawn":
      return `Whenever ${clause(s, "draw", article(thing))}`
    case "draw-failed":
      return `Whenever ${clause(s, "fail", "to draw from an empty deck")}`
    case "damage-pending":
      return `Whenever damage would be dealt to ${s.text}${filter === undefined ? "" : ` by ${article(thing)}`}`
    case "damage-dealt":
      return `Whenever damage is dealt to ${s.text}${filter === undefined ? "" : ` by ${article(thing)}`}`
    case "damage-prevented":
      return `Whenever damage to ${s.text} is prevented`
    case "counter-added":
      return `Whenever a counter is put on ${theirs}`
    case "counter-removed":
      return `Whenever a counter is removed from ${theirs}`
    case "resource-gained":
      return `Whenever ${clause(s, "gain", "a resource")}`
    case "resource-lost":
      return `Whenever ${clause(s, "lose", "a resource")}`
    default:
      return `Whenever the event ${event} happens to ${s.text}`
  }
}

/** Generated text for one effect record. */
export const explainEffect = (e: EffectRecord): string => {
  const head = ((): string => {
    switch (e.kind) {
      case "activated":
        return `Activated (main)${
          e.activation_cost === undefined ? "" : `, cost: ${explainAction(e.activation_cost, e)}`
        }`
      case "on-enter":
        return "When this card enters the stage"
      case "on-resolve":
        return `When cast (windows: ${(e.play_windows ?? ["main"]).join(", ")})`
      case "replacement":
        return e.trigger === undefined
          ? "Replacement"
          : `Replacement: ${
            triggerHead(e.trigger.event, e.trigger.player, e.trigger.filter).replace(/^Whenever/, "before")
          }`
      case "response":
        return `Response in ${e.window ?? "its window"}`
      case "static":
        // Its modify-cost says "while this card is on the stage" already.
        return "Static"
      case "triggered":
        return e.trigger === undefined ? "Triggered" : triggerHead(e.trigger.event, e.trigger.player, e.trigger.filter)
    }
  })()
  const mods: Array<string> = []
  if (e.limit !== undefined) mods.push(`at most ${times(e.limit.count)} per ${e.limit.per}`)
  if (e.optional === true) mods.push("optional")
  if (e.condition !== undefined) mods.push(`only if ${condition(e.condition, e)}`)
  if (e.for_each !== undefined) mods.push(`for ${group("each", e.for_each)}`)
  const prefix = head + (mods.length > 0 ? ` [${mods.join("; ")}]` : "")
  return `${prefix}: ${list(e.actions, e, undefined)}.`
}
