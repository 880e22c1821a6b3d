/**
 * The declarations: what the deck file declares before any card — supported
 * versions, rules parameters, the effect schema's kinds, operations, facts,
 * events, windows, counters, zones, resources, card types, durations and
 * tones, the tag namespace, card IDs and codes, and the deck lists (RULES.md
 * §1, §4, §8, §9). Each is checked against the engine's vocabulary; what
 * passes becomes the set the card checks resolve names against.
 *
 * @since 0.1.0
 */
import { pointerSegment } from "../../kernel/Json.js"
import type { Card, DeckShell } from "../Schema.js"
import {
  CARD_TYPES,
  COUNTER_ID,
  DURATIONS_ENGINE,
  EFFECT_KINDS,
  FACTS,
  isEffectKind,
  isEvent,
  isFact,
  isOperation,
  isWindow,
  OPERATIONS,
  RESOURCES,
  SCANDAL,
  SUPPORTED,
  WINDOWS,
  ZONES
} from "../Vocabulary.js"
import { isObject, missingField, type Report } from "./Report.js"

/** The names the deck file declares, which every card reference must resolve against. */
export interface Declared {
  readonly events: ReadonlySet<string>
  readonly windows: ReadonlySet<string>
  readonly counters: ReadonlySet<string>
  readonly zones: ReadonlySet<string>
  readonly resources: ReadonlySet<string>
  readonly types: ReadonlySet<string>
  readonly tones: ReadonlySet<string>
  readonly durations: ReadonlySet<string>
  readonly tags: ReadonlySet<string>
  readonly cardIds: ReadonlySet<string>
}

type Shell = typeof DeckShell.Type

export const rawCardIds = (rawCards: ReadonlyArray<unknown>): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const c of rawCards) if (isObject(c) && typeof c["id"] === "string") out.add(c["id"])
  return out
}

export const checkDeclarations = (
  s: Shell,
  cards: ReadonlyArray<{ card: Card; index: number }>,
  allCardIds: ReadonlySet<string>,
  r: Report
): Declared => {
  const es = s.effect_schema
  if (s.manifest_version !== SUPPORTED.manifestVersion) {
    r.add(
      "unsupported_version",
      `manifest_version ${s.manifest_version} is not supported (expected ${SUPPORTED.manifestVersion})`,
      "/manifest_version"
    )
  }
  if (s.rules.version !== SUPPORTED.rulesVersion) {
    r.add(
      "unsupported_version",
      `rules.version ${s.rules.version} is not supported (expected ${SUPPORTED.rulesVersion})`,
      "/rules/version"
    )
  }
  if (es.version !== SUPPORTED.effectSchemaVersion) {
    r.add(
      "unsupported_version",
      `effect_schema.version ${es.version} is not supported (expected ${SUPPORTED.effectSchemaVersion})`,
      "/effect_schema/version"
    )
  }
  for (const [k, v] of Object.entries(s.rules.parameters)) {
    if (v < 0 || (v === 0 && k !== "empty_deck_composure_loss")) {
      r.add("invalid_amount", `rules parameter ${k} must be positive`, `/rules/parameters/${k}`)
    }
  }
  const sameFields = (
    what: string,
    key: string,
    declared: ReadonlyArray<string>,
    engine: ReadonlyArray<string>,
    path: string
  ) => {
    const a = [...declared].sort().join(",")
    const b = [...engine].sort().join(",")
    if (a !== b) {
      r.add(
        "schema_invalid",
        `${what} ${key} declares required fields [${a}]; effect schema 0.1.0 requires [${b}]`,
        path
      )
    }
  }
  for (const [k, v] of Object.entries(es.effect_kinds)) {
    const p = `/effect_schema/effect_kinds/${pointerSegment(k)}`
    if (!isEffectKind(k)) {
      r.add("schema_invalid", `"${k}" is not an effect kind of effect schema 0.1.0`, p, { subject: k })
    } else sameFields("effect kind", k, v.required_fields, EFFECT_KINDS[k], p)
  }
  for (const [k, v] of Object.entries(es.operations)) {
    const p = `/effect_schema/operations/${pointerSegment(k)}`
    if (!isOperation(k)) {
      r.add("unknown_operation", `"${k}" is not an operation of effect schema 0.1.0`, p, { subject: k })
    } else sameFields("operation", k, v.required_fields, OPERATIONS[k], p)
  }
  for (const [k, v] of Object.entries(es.facts)) {
    const p = `/effect_schema/facts/${pointerSegment(k)}`
    if (!isFact(k)) r.add("unknown_fact", `"${k}" is not a fact of effect schema 0.1.0`, p, { subject: k })
    else sameFields("fact", k, v.required_fields, FACTS[k], p)
  }
  const events = new Set<string>()
  es.events.forEach((e, i) => {
    if (!isEvent(e)) {
      r.add("unknown_event", `"${e}" is not an event of effect schema 0.1.0`, `/effect_schema/events/${i}`, {
        subject: e
      })
    } else if (events.has(e)) {
      r.add("duplicate_id", `the event "${e}" is declared twice`, `/effect_schema/events/${i}`, { subject: e })
    } else events.add(e)
  })
  const windows = new Set<string>()
  for (const [k, v] of Object.entries(es.windows)) {
    const p = `/effect_schema/windows/${pointerSegment(k)}`
    if (!isWindow(k)) {
      r.add("unknown_window", `"${k}" is not a window of effect schema 0.1.0`, p, { subject: k })
      continue
    }
    if (!events.has(v.opens_on)) {
      r.add("unknown_event", `window ${k} opens on the undeclared event "${v.opens_on}"`, `${p}/opens_on`, {
        subject: v.opens_on
      })
    } else if (v.opens_on !== WINDOWS[k].opens_on || v.responder !== WINDOWS[k].responder) {
      r.add("schema_invalid", `window ${k} must open on ${WINDOWS[k].opens_on} for ${WINDOWS[k].responder}`, p, {
        subject: k
      })
    }
    windows.add(k)
  }
  const counters = new Set<string>()
  for (const k of Object.keys(es.counters)) {
    if (!COUNTER_ID.test(k)) {
      r.add(
        "invalid_id",
        `counter identifier "${k}" must be lowercase`,
        `/effect_schema/counters/${pointerSegment(k)}`,
        { subject: k }
      )
    } else counters.add(k)
  }
  if (!counters.has(SCANDAL)) {
    r.add("missing_field", missingField(SCANDAL, "the counter vocabulary must declare it"), "/effect_schema/counters", {
      subject: SCANDAL
    })
  }
  const subset = (
    key: "zones" | "resources" | "card_types" | "durations",
    engine: ReadonlyArray<string>
  ): Set<string> => {
    const out = new Set<string>()
    es[key].forEach((z, i) => {
      if (!engine.includes(z)) {
        r.add("unknown_reference", `"${z}" is not one of the ${key} of rules 0.2.0`, `/effect_schema/${key}/${i}`, {
          subject: z
        })
      } else if (out.has(z)) {
        r.add("duplicate_id", `"${z}" is declared twice in ${key}`, `/effect_schema/${key}/${i}`, { subject: z })
      } else out.add(z)
    })
    return out
  }
  const zones = subset("zones", ZONES)
  const resources = subset("resources", RESOURCES)
  const types = subset("card_types", CARD_TYPES)
  const durations = subset("durations", DURATIONS_ENGINE)
  const tones = new Set<string>()
  es.tones.forEach((t, i) => {
    if (tones.has(t)) {
      r.add("duplicate_id", `tone "${t}" is declared twice`, `/effect_schema/tones/${i}`, { subject: t })
    }
    tones.add(t)
  })
  const tags = new Set<string>()
  s.tags.forEach((t, i) => {
    const p = `/tags/${i}/id`
    if (!t.id.startsWith(s.tag_namespace + ".")) {
      r.add("invalid_id", `tag "${t.id}" is outside the namespace ${s.tag_namespace}`, p, { subject: t.id })
    }
    if (tags.has(t.id)) r.add("duplicate_id", `tag "${t.id}" is declared twice`, p, { subject: t.id })
    tags.add(t.id)
  })
  const cardIds = new Set<string>()
  const codes = new Set<string>()
  for (const { card, index } of cards) {
    if (cardIds.has(card.id)) {
      r.add("duplicate_id", `card ID "${card.id}" is used twice`, `/cards/${index}/id`, {
        cardCode: card.code,
        subject: card.id
      })
    }
    if (codes.has(card.code)) {
      r.add("duplicate_id", `card code "${card.code}" is used twice`, `/cards/${index}/code`, {
        cardCode: card.code,
        subject: card.code
      })
    }
    cardIds.add(card.id)
    codes.add(card.code)
  }
  // A game is set up from a deck list: a file with none validates nothing that can be played.
  if (s.decks.length === 0) {
    r.add("no_deck_list", "the deck file declares no deck list; a game needs at least one", "/decks")
  }
  const deckIds = new Set<string>()
  s.decks.forEach((d, i) => {
    if (deckIds.has(d.id)) r.add("duplicate_id", `deck ID "${d.id}" is used twice`, `/decks/${i}/id`, { subject: d.id })
    deckIds.add(d.id)
    const seen = new Set<string>()
    d.cards.forEach((e, k) => {
      const p = `/decks/${i}/cards/${k}`
      if (!allCardIds.has(e.card)) {
        r.add("unknown_reference", `deck ${d.id} lists the unknown card "${e.card}"`, `${p}/card`, { subject: e.card })
      }
      if (seen.has(e.card)) {
        r.add("duplicate_id", `deck ${d.id} lists "${e.card}" twice`, `${p}/card`, { subject: e.card })
      }
      seen.add(e.card)
      if (e.count < 1) {
        r.add("invalid_amount", `a deck entry's count must be at least 1`, `${p}/count`, { subject: e.card })
      }
    })
  })
  return { events, windows, counters, zones, resources, types, tones, durations, tags, cardIds: allCardIds }
}
