/**
 * The Hallyu Hex deck validator: Schema decode (through the kernel's
 * hardened input and `makeDecoder`) plus every semantic check of effect
 * schema 0.1.0. Pure: a document in, the decoded deck (only when there is no
 * error) and every diagnostic out, each with file, JSON pointer, line and
 * column, and the card code and effect ID where one applies.
 *
 * Two passes share the work. A raw pass over the JSON walks every action
 * (nested ones included) and condition and reports the vocabulary problems
 * that a discriminated Schema would only call `schema_invalid`:
 * `unknown_operation`, `unknown_fact`, `missing_field` and `all` outside
 * damage prevention. Schema issues under a path the raw pass already reported
 * are dropped, so one mistake gives one diagnostic. Cards are decoded one by
 * one, so a broken card hides no problem in another, and the semantic checks
 * run over every card that decoded.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { makeDecoder, MISSING_FIELD } from "../kernel/Decode.js"
import { type Diagnostic, diagnostic, isError, sortDiagnostics } from "../kernel/Diagnostic.js"
import type { DiagnosticCode } from "../kernel/DiagnosticCode.js"
import { type JsonDocument, locate, pointerSegment } from "../kernel/Json.js"
import {
  type Action,
  type Amount,
  Card,
  type CardFilter,
  type CardGroup,
  type CardSelector,
  type Condition,
  DeckShell,
  type EffectRecord,
  type StarterDeck
} from "./Schema.js"
import { markValidated } from "./Validated.js"
import {
  CARD_TYPES,
  COUNT_EXPRESSIONS,
  COUNT_PERIODS,
  COUNTER_ID,
  DURATIONS_ENGINE,
  EFFECT_KINDS,
  EVENTS,
  FACTS,
  isEffectKind,
  isEvent,
  isFact,
  isOperation,
  isWindow,
  OPERATIONS,
  PENDING_CARD_WINDOWS,
  PERSISTENT_KINDS,
  PERSISTENT_TYPES,
  PLAY_WINDOWS,
  RESOURCES,
  SCANDAL,
  SUPPORTED,
  WINDOWS,
  ZONES
} from "./Vocabulary.js"

/** The result of validating one deck document. */
export interface DeckValidation {
  readonly deck?: StarterDeck
  readonly diagnostics: Array<Diagnostic>
}

/** How `cardfx validate` recognises a Hallyu Hex deck file. */
export const isDeckDocument = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.prototype.hasOwnProperty.call(value, "manifest_version") &&
  Object.prototype.hasOwnProperty.call(value, "effect_schema")

const decodeShell = makeDecoder(DeckShell)
const decodeCard = makeDecoder(Card)

interface Where {
  readonly cardCode?: string | undefined
  readonly effectId?: string | undefined
  readonly subject?: string | undefined
}

class Report {
  readonly diagnostics: Array<Diagnostic> = []
  readonly covered: Array<string> = []
  constructor(readonly doc: JsonDocument) {}

  add(code: DiagnosticCode, message: string, path: string, where: Where = {}, cover = false): void {
    const { line, column } = locate(this.doc, path)
    this.diagnostics.push(
      diagnostic(code, message, {
        file: this.doc.file,
        path,
        line,
        column,
        cardCode: where.cardCode,
        effectId: where.effectId,
        subject: where.subject
      })
    )
    if (cover) this.covered.push(path)
  }

  /**
   * Schema diagnostics not under a path the raw pass already explained, one
   * line per mistake: a union whose members all fail reports each member's
   * failure, so a `schema_invalid` at a path is dropped when the same decode
   * found a problem strictly under that path (the member the value was meant
   * to be explains it). A missing key is `missing_field` at its record,
   * naming the field.
   */
  addSchema(ds: ReadonlyArray<Diagnostic>, where: Where = {}): void {
    const paths = ds.map((d) => d.path ?? "")
    ds.forEach((d, i) => {
      const p = paths[i] ?? ""
      if (this.covered.some((c) => p === c || p.startsWith(c + "/"))) return
      if (d.code === "schema_invalid" && paths.some((q) => q.startsWith(p + "/"))) return
      const w = {
        ...d,
        cardCode: where.cardCode ?? effectWhere(this.doc.value, p).cardCode,
        effectId: where.effectId ?? effectWhere(this.doc.value, p).effectId
      }
      // The kernel reports a missing key as "at <path>: missing field `key`", at the key's own path.
      if (d.code === "schema_invalid" && d.message.includes(`: ${MISSING_FIELD} \``)) {
        const parent = p.slice(0, p.lastIndexOf("/"))
        const key = unescapeSegment(p.slice(p.lastIndexOf("/") + 1))
        this.add("missing_field", missingField(key), parent, { ...w, subject: key })
        return
      }
      this.diagnostics.push(diagnostic(d.code, d.message, w, d.severity))
    })
  }
}

/** Validates a parsed deck document. */
export const validateDeck = (doc: JsonDocument): DeckValidation => {
  const r = new Report(doc)
  const raw = doc.value
  if (!isObject(raw)) {
    r.add("schema_invalid", "a deck file must be a JSON object", "")
    return { diagnostics: r.diagnostics }
  }
  const vocab = rawVocabulary(raw)
  rawPass(raw, vocab, r)

  const shell = decodeShell(raw, doc)
  if (Either.isLeft(shell)) r.addSchema(shell.left)
  const rawCards = Array.isArray(raw["cards"]) ? raw["cards"] : []
  const cards: Array<{ card: Card; index: number }> = []
  rawCards.forEach((c, index) => {
    const code = isObject(c) && typeof c["code"] === "string" ? c["code"] : undefined
    const decoded = decodeCard(c, doc, `/cards/${index}`)
    if (Either.isLeft(decoded)) r.addSchema(decoded.left, { cardCode: code })
    else cards.push({ card: decoded.right, index })
  })

  if (Either.isRight(shell)) {
    const s = shell.right
    const ctx = semanticVocabulary(s, cards, rawCardIds(rawCards), r)
    for (const { card, index } of cards) checkCard(card, index, ctx, r)
  }

  const diagnostics = sortDiagnostics(r.diagnostics)
  if (diagnostics.some(isError) || Either.isLeft(shell) || cards.length !== rawCards.length) return { diagnostics }
  return { deck: markValidated({ ...shell.right, cards: cards.map((c) => c.card) }), diagnostics }
}

// ------------------------------------------------------------------ raw pass

const unescapeSegment = (s: string): string => s.replace(/~1/g, "/").replace(/~0/g, "~")

/** The one wording of a missing field, naming it. */
const missingField = (field: string, why?: string): string =>
  `missing field \`${field}\`${why === undefined ? "" : ` (${why})`}`

/** Reports each required field `record` lacks at `path` (covering the field's own path), or nothing when it is not an object. */
const requireFields = (
  record: unknown,
  fields: ReadonlyArray<string>,
  why: string,
  path: string,
  where: Where,
  r: Report
): void => {
  if (!isObject(record)) return
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(record, f)) {
      r.add("missing_field", missingField(f, why), path, { ...where, subject: f })
      r.covered.push(`${path}/${pointerSegment(f)}`)
    }
  }
}

type Obj = Record<string, unknown>
const isObject = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

interface RawVocabulary {
  readonly operations: Map<string, ReadonlyArray<string>>
  readonly facts: Map<string, ReadonlyArray<string>>
  readonly kinds: Map<string, ReadonlyArray<string>>
}

/** The file's declared vocabulary intersected with the engine's (the engine's alone when the file's is unreadable). */
const rawVocabulary = (raw: Obj): RawVocabulary => {
  const es = isObject(raw["effect_schema"]) ? raw["effect_schema"] : {}
  const pick = (key: string, engine: Record<string, ReadonlyArray<string>>): Map<string, ReadonlyArray<string>> => {
    const declared = es[key]
    const out = new Map<string, ReadonlyArray<string>>()
    for (const [name, fields] of Object.entries(engine)) {
      if (isObject(declared) && !Object.prototype.hasOwnProperty.call(declared, name)) continue
      const entry = isObject(declared) ? declared[name] : undefined
      const fileFields = isObject(entry) && Array.isArray(entry["required_fields"])
        ? entry["required_fields"].filter((f): f is string => typeof f === "string")
        : []
      out.set(name, [...new Set([...fields, ...fileFields])])
    }
    return out
  }
  return {
    operations: pick("operations", OPERATIONS),
    facts: pick("facts", FACTS),
    kinds: pick("effect_kinds", EFFECT_KINDS)
  }
}

const rawPass = (raw: Obj, vocab: RawVocabulary, r: Report): void => {
  if (!Object.prototype.hasOwnProperty.call(raw, "manifest_version")) {
    r.add("missing_field", missingField("manifest_version", "the deck file's manifest version"), "", {
      subject: "manifest_version"
    })
    r.covered.push("/manifest_version")
  }
  for (const [parent, key] of [["rules", "version"], ["effect_schema", "version"]] as const) {
    const p = raw[parent]
    if (isObject(p) && !Object.prototype.hasOwnProperty.call(p, key)) {
      r.add("missing_field", missingField(key, `${parent}'s version`), `/${parent}`, { subject: key })
      r.covered.push(`/${parent}/${key}`)
    }
  }
  const cards = raw["cards"]
  if (!Array.isArray(cards)) return
  cards.forEach((card, i) => {
    if (!isObject(card)) return
    const cardCode = typeof card["code"] === "string" ? card["code"] : undefined
    const effects = card["effects"]
    if (!Array.isArray(effects)) return
    effects.forEach((effect, j) => {
      if (!isObject(effect)) return
      const where: Where = { cardCode, effectId: typeof effect["id"] === "string" ? effect["id"] : undefined }
      const base = `/cards/${i}/effects/${j}`
      const kind = effect["kind"]
      if (typeof kind === "string") {
        for (const f of vocab.kinds.get(kind) ?? []) {
          if (!Object.prototype.hasOwnProperty.call(effect, f)) {
            r.add("missing_field", missingField(f, `a ${kind} effect requires it`), base, { ...where, subject: f })
          }
        }
      }
      if (effect["condition"] !== undefined) rawCondition(effect["condition"], `${base}/condition`, vocab, where, r)
      if (effect["activation_cost"] !== undefined) {
        rawAction(effect["activation_cost"], `${base}/activation_cost`, vocab, where, r)
      }
      const actions = effect["actions"]
      if (Array.isArray(actions)) actions.forEach((a, k) => rawAction(a, `${base}/actions/${k}`, vocab, where, r))
    })
  })
}

const rawAction = (a: unknown, path: string, vocab: RawVocabulary, where: Where, r: Report): void => {
  if (!isObject(a)) return
  const op = a["op"]
  if (typeof op !== "string") {
    r.add(
      "missing_field",
      missingField("op", "every action names its operation"),
      path,
      { ...where, subject: "op" },
      true
    )
    return
  }
  const required = vocab.operations.get(op)
  if (required === undefined) {
    r.add("unknown_operation", `"${op}" is not an operation of effect schema 0.1.0`, `${path}/op`, {
      ...where,
      subject: op
    }, true)
    r.covered.push(path)
    return
  }
  const missing = required.filter((f) => !Object.prototype.hasOwnProperty.call(a, f))
  for (const f of missing) {
    r.add("missing_field", missingField(f, `the operation ${op} requires it`), path, { ...where, subject: f }, true)
  }
  if (a["amount"] === "all" && op !== "prevent-damage") {
    r.add("invalid_amount", `"all" is valid only for prevent-damage, not ${op}`, `${path}/amount`, where, true)
  }
  if (a["condition"] !== undefined) rawCondition(a["condition"], `${path}/condition`, vocab, where, r)
  const nested = (list: unknown, p: string): void => {
    if (Array.isArray(list)) list.forEach((x, k) => rawAction(x, `${p}/${k}`, vocab, where, r))
  }
  if (op === "choose-one" && Array.isArray(a["options"])) {
    a["options"].forEach((o, k) => {
      if (!isObject(o)) return
      requireFields(o, ["label", "actions"], "a choose-one option requires it", `${path}/options/${k}`, where, r)
      if (o["condition"] !== undefined) rawCondition(o["condition"], `${path}/options/${k}/condition`, vocab, where, r)
      nested(o["actions"], `${path}/options/${k}/actions`)
    })
  }
  if (op === "deal-damage" && isObject(a["on_prevented"])) {
    requireFields(
      a["on_prevented"],
      ["replace", "actions"],
      "on_prevented requires it",
      `${path}/on_prevented`,
      where,
      r
    )
    nested(a["on_prevented"]["actions"], `${path}/on_prevented/actions`)
  }
  if (op === "counter-card" && isObject(a["unless"])) {
    requireFields(a["unless"], ["optional_payment"], "unless requires it", `${path}/unless`, where, r)
    const payment = a["unless"]["optional_payment"]
    requireFields(
      payment,
      ["player", "actions"],
      "optional_payment requires it",
      `${path}/unless/optional_payment`,
      where,
      r
    )
    if (isObject(payment)) nested(payment["actions"], `${path}/unless/optional_payment/actions`)
  }
}

const rawCondition = (c: unknown, path: string, vocab: RawVocabulary, where: Where, r: Report): void => {
  if (!isObject(c)) return
  const fact = c["fact"]
  if (typeof fact !== "string") {
    r.add(
      "missing_field",
      missingField("fact", "every condition names its fact"),
      path,
      { ...where, subject: "fact" },
      true
    )
    return
  }
  const required = vocab.facts.get(fact)
  if (required === undefined) {
    r.add(
      "unknown_fact",
      `"${fact}" is not a fact of effect schema 0.1.0`,
      `${path}/fact`,
      { ...where, subject: fact },
      true
    )
    r.covered.push(path)
    return
  }
  for (const f of required) {
    if (!Object.prototype.hasOwnProperty.call(c, f)) {
      r.add("missing_field", missingField(f, `the fact ${fact} requires it`), path, { ...where, subject: f }, true)
    }
  }
}

/** Card code and effect ID of the card/effect a pointer points into. */
const effectWhere = (raw: unknown, path: string): Where => {
  const m = /^\/cards\/(\d+)(?:\/effects\/(\d+))?/.exec(path)
  if (m === null || !isObject(raw) || !Array.isArray(raw["cards"])) return {}
  const card: unknown = raw["cards"][Number(m[1])]
  if (!isObject(card)) return {}
  const cardCode = typeof card["code"] === "string" ? card["code"] : undefined
  if (m[2] === undefined || !Array.isArray(card["effects"])) return { cardCode }
  const effect: unknown = card["effects"][Number(m[2])]
  return { cardCode, effectId: isObject(effect) && typeof effect["id"] === "string" ? effect["id"] : undefined }
}

// ------------------------------------------------------------------ semantic pass

interface Ctx {
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

const rawCardIds = (rawCards: ReadonlyArray<unknown>): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const c of rawCards) if (isObject(c) && typeof c["id"] === "string") out.add(c["id"])
  return out
}

const semanticVocabulary = (
  s: Shell,
  cards: ReadonlyArray<{ card: Card; index: number }>,
  allCardIds: ReadonlySet<string>,
  r: Report
): Ctx => {
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

interface EffectScope {
  readonly where: Where
  readonly effect: EffectRecord
  readonly targets: ReadonlySet<string>
  /** The declared response window of this effect when no card is pending in it. */
  readonly pendingCardless: string | undefined
}

const checkCard = (card: Card, index: number, ctx: Ctx, r: Report): void => {
  const base = `/cards/${index}`
  const cw: Where = { cardCode: card.code }
  if (!ctx.types.has(card.type)) {
    r.add("unknown_reference", `card type "${card.type}" is not declared`, `${base}/type`, {
      ...cw,
      subject: card.type
    })
  }
  if (card.cost < 0) r.add("invalid_amount", `a card's cost must not be negative`, `${base}/cost`, cw)
  card.tones.forEach((t, i) => {
    if (!ctx.tones.has(t)) {
      r.add("unknown_reference", `tone "${t}" is not declared`, `${base}/tones/${i}`, { ...cw, subject: t })
    }
  })
  card.tags.forEach((t, i) => {
    if (!ctx.tags.has(t)) {
      r.add("unknown_reference", `tag "${t}" is not declared`, `${base}/tags/${i}`, { ...cw, subject: t })
    }
  })
  if (card.type === "star") {
    for (const f of ["starting_scandal", "buzz"] as const) {
      const v = card[f]
      if (v === undefined) r.add("missing_field", missingField(f, "a star requires it"), base, { ...cw, subject: f })
      else if (v < 0) r.add("invalid_amount", `${f} must not be negative`, `${base}/${f}`, cw)
    }
  } else {
    for (const f of ["starting_scandal", "buzz"] as const) {
      if (card[f] !== undefined) {
        r.add("schema_invalid", `only stars have "${f}"`, `${base}/${f}`, { ...cw, subject: f })
      }
    }
  }
  const joined = card.effects.map((e) => e.text).join(" ")
  if (joined !== card.rules_text) {
    r.add(
      "text_link_mismatch",
      `the effects' texts joined with one space differ from rules_text at character ${
        firstDifference(joined, card.rules_text)
      }`,
      `${base}/rules_text`,
      cw
    )
  }
  const ids = new Set<string>()
  card.effects.forEach((effect, j) => {
    const p = `${base}/effects/${j}`
    const where: Where = { cardCode: card.code, effectId: effect.id }
    const expected = `${card.code}-E${j + 1}`
    if (ids.has(effect.id)) {
      r.add("duplicate_id", `effect ID "${effect.id}" is used twice on ${card.code}`, `${p}/id`, where)
    } else if (effect.id !== expected) {
      r.add("effect_id_mismatch", `effect ID "${effect.id}" should be "${expected}"`, `${p}/id`, where)
    }
    ids.add(effect.id)
    checkEffect(effect, card.type, p, where, ctx, r)
  })
}

const firstDifference = (a: string, b: string): number => {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

const allowedOn: Record<string, ReadonlyArray<string>> = {
  window: ["response"],
  play_windows: ["on-resolve"],
  trigger: ["triggered", "replacement"],
  activation_cost: ["activated"],
  targets: ["on-resolve", "activated"],
  for_each: ["on-resolve", "activated", "on-enter", "triggered"]
}

const checkEffect = (effect: EffectRecord, cardType: string, p: string, where: Where, ctx: Ctx, r: Report): void => {
  if (ctx.types.has(cardType) && !PERSISTENT_TYPES.has(cardType) && PERSISTENT_KINDS.includes(effect.kind)) {
    r.add(
      "unreachable_effect",
      `a ${cardType} never reaches a persistent zone, so its ${effect.kind} effect can never run (${
        PERSISTENT_KINDS.join(" and ")
      } effects need a star or venue)`,
      `${p}/kind`,
      { ...where, subject: effect.kind }
    )
  }
  for (const [field, kinds] of Object.entries(allowedOn)) {
    if (Object.prototype.hasOwnProperty.call(effect, field) && !kinds.includes(effect.kind)) {
      r.add(
        "schema_invalid",
        `"${field}" is not allowed on a ${effect.kind} effect (only on ${kinds.join(", ")})`,
        `${p}/${field}`,
        where
      )
    }
  }
  if (effect.window !== undefined) {
    if (!ctx.windows.has(effect.window)) {
      r.add("unknown_window", `window "${effect.window}" is not declared`, `${p}/window`, {
        ...where,
        subject: effect.window
      })
    } else if (effect.window === "main") {
      r.add("unknown_window", `a response needs a response window, not main`, `${p}/window`, {
        ...where,
        subject: effect.window
      })
    }
  }
  effect.play_windows?.forEach((w, i) => {
    if (!ctx.windows.has(w)) {
      r.add("unknown_window", `play window "${w}" is not declared`, `${p}/play_windows/${i}`, { ...where, subject: w })
    } else if (!(PLAY_WINDOWS as ReadonlyArray<string>).includes(w)) {
      r.add(
        "unknown_window",
        `"${w}" is not a play window of effect schema 0.1.0 (only ${PLAY_WINDOWS.join(" and ")})`,
        `${p}/play_windows/${i}`,
        { ...where, subject: w }
      )
    }
  })
  if (effect.trigger !== undefined) {
    const ev = effect.trigger.event
    if (!ctx.events.has(ev)) {
      r.add("unknown_event", `trigger event "${ev}" is not declared`, `${p}/trigger/event`, { ...where, subject: ev })
    } else if (effect.kind === "replacement" && ev !== "damage-pending") {
      r.add(
        "unknown_event",
        `replacement effects replace only damage-pending in effect schema 0.1.0`,
        `${p}/trigger/event`,
        { ...where, subject: ev }
      )
    }
    if (effect.trigger.filter !== undefined) checkFilter(effect.trigger.filter, `${p}/trigger/filter`, where, ctx, r)
  }
  if (effect.limit !== undefined && effect.limit.count < 1) {
    r.add("invalid_amount", `a limit must be at least 1`, `${p}/limit/count`, where)
  }
  const targets = new Set<string>()
  effect.targets?.forEach((t, i) => {
    if (targets.has(t.id)) {
      r.add("duplicate_id", `target "${t.id}" is declared twice`, `${p}/targets/${i}/id`, { ...where, subject: t.id })
    }
    targets.add(t.id)
    checkGroup(t, `${p}/targets/${i}`, where, ctx, r)
  })
  if (effect.for_each !== undefined) checkGroup(effect.for_each, `${p}/for_each`, where, ctx, r)
  const w = effect.kind === "response" ? effect.window : undefined
  const pendingCardless = w !== undefined && ctx.windows.has(w) && w !== "main" &&
      !(PENDING_CARD_WINDOWS as ReadonlyArray<string>).includes(w)
    ? w
    : undefined
  const scope: EffectScope = { where, effect, targets, pendingCardless }
  if (effect.condition !== undefined) checkCondition(effect.condition, `${p}/condition`, scope, ctx, r)
  if (effect.activation_cost !== undefined) {
    const a = effect.activation_cost
    if (a.op !== "remove-counter" && a.op !== "lose-resource") {
      r.add(
        "unknown_operation",
        `an activation cost must be remove-counter or lose-resource, not ${a.op}`,
        `${p}/activation_cost/op`,
        where
      )
    } else if (typeof a.amount !== "number") {
      r.add("invalid_amount", `an activation cost must be a literal amount`, `${p}/activation_cost/amount`, where)
    }
    checkAction(a, `${p}/activation_cost`, scope, ctx, r)
  }
  effect.actions.forEach((a, k) => {
    const ap = `${p}/actions/${k}`
    if (effect.kind === "static" && a.op !== "modify-cost") {
      r.add("unknown_operation", `static effects support only modify-cost in effect schema 0.1.0`, `${ap}/op`, where)
    }
    if (effect.kind === "replacement" && a.op !== "prevent-damage") {
      r.add(
        "unknown_operation",
        `replacement effects support only prevent-damage in effect schema 0.1.0`,
        `${ap}/op`,
        where
      )
    }
    checkAction(a, ap, scope, ctx, r)
  })
}

const checkFilter = (f: CardFilter, p: string, where: Where, ctx: Ctx, r: Report): void => {
  if (f.type !== undefined && !ctx.types.has(f.type)) {
    r.add("unknown_reference", `card type "${f.type}" is not declared`, `${p}/type`, { ...where, subject: f.type })
  }
  if (f.tone !== undefined && !ctx.tones.has(f.tone)) {
    r.add("unknown_reference", `tone "${f.tone}" is not declared`, `${p}/tone`, { ...where, subject: f.tone })
  }
  if (f.tag !== undefined && !ctx.tags.has(f.tag)) {
    r.add("unknown_reference", `tag "${f.tag}" is not declared`, `${p}/tag`, { ...where, subject: f.tag })
  }
  if (f.card !== undefined && !ctx.cardIds.has(f.card)) {
    r.add("unknown_reference", `card "${f.card}" is not in this file`, `${p}/card`, { ...where, subject: f.card })
  }
}

const checkGroup = (g: CardGroup, p: string, where: Where, ctx: Ctx, r: Report): void => {
  if (!ctx.zones.has(g.zone)) {
    r.add("unknown_reference", `zone "${g.zone}" is not declared`, `${p}/zone`, { ...where, subject: g.zone })
  }
  checkFilter(g, p, where, ctx, r)
}

const checkSelector = (s: CardSelector, p: string, scope: EffectScope, ctx: Ctx, r: Report): void => {
  if (s === "each" && scope.effect.for_each === undefined) {
    r.add("unknown_reference", `"each" refers to for_each, which this effect does not declare`, p, scope.where)
  } else if (s === "pending-card" && scope.effect.kind !== "response") {
    r.add("unknown_reference", `"pending-card" is available only in response effects`, p, scope.where)
  } else if (s === "pending-card" && scope.pendingCardless !== undefined) {
    r.add(
      "unknown_reference",
      `no card is pending in the ${scope.pendingCardless} window, so "pending-card" selects nothing (only in ${
        PENDING_CARD_WINDOWS.join(", ")
      })`,
      p,
      scope.where
    )
  } else if (typeof s === "object" && "target" in s) {
    if (!scope.targets.has(s.target)) {
      r.add("unknown_reference", `target "${s.target}" is not declared by this effect`, `${p}/target`, {
        ...scope.where,
        subject: s.target
      })
    }
  } else if (typeof s === "object") {
    checkGroup(s.group, `${p}/group`, scope.where, ctx, r)
  }
}

const checkPlayer = (player: string, p: string, scope: EffectScope, r: Report): void => {
  if (player === "pending-controller" && scope.effect.kind !== "response") {
    r.add("unknown_reference", `"pending-controller" is available only in response effects`, p, scope.where)
  }
}

const checkAmount = (a: Amount, op: string, p: string, scope: EffectScope, ctx: Ctx, r: Report): void => {
  if (typeof a === "number") {
    if (op === "modify-cost" ? a === 0 : a < 1) {
      r.add(
        "invalid_amount",
        op === "modify-cost" ? "a cost change must not be 0" : `an amount must be at least 1`,
        p,
        scope.where
      )
    }
  } else if (a === "all") {
    // The raw pass reports `all` outside prevent-damage.
  } else {
    if (op === "modify-cost") r.add("invalid_amount", `a cost change must be a literal integer`, p, scope.where)
    if (!(COUNT_EXPRESSIONS as ReadonlyArray<string>).includes(a.count)) {
      r.add("invalid_amount", `"${a.count}" is not a count expression of effect schema 0.1.0`, `${p}/count`, {
        ...scope.where,
        subject: a.count
      })
    }
    if (!(COUNT_PERIODS as ReadonlyArray<string>).includes(a.period)) {
      r.add("invalid_amount", `"${a.period}" is not a count period of effect schema 0.1.0`, `${p}/period`, {
        ...scope.where,
        subject: a.period
      })
    }
    checkPlayer(a.player, `${p}/player`, scope, r)
    if (a.filter !== undefined) checkFilter(a.filter, `${p}/filter`, scope.where, ctx, r)
  }
}

const checkCounter = (c: string, p: string, where: Where, ctx: Ctx, r: Report): void => {
  if (!ctx.counters.has(c)) r.add("unknown_reference", `counter "${c}" is not declared`, p, { ...where, subject: c })
}
const checkResource = (c: string, p: string, where: Where, ctx: Ctx, r: Report): void => {
  if (!ctx.resources.has(c)) r.add("unknown_reference", `resource "${c}" is not declared`, p, { ...where, subject: c })
}

const checkCondition = (c: Condition, p: string, scope: EffectScope, ctx: Ctx, r: Report): void => {
  const w = scope.where
  if ("player" in c) checkPlayer(c.player, `${p}/player`, scope, r)
  switch (c.fact) {
    case "controls@1":
      checkFilter(c.filter, `${p}/filter`, w, ctx, r)
      break
    case "events-this-turn@1":
      if (!ctx.events.has(c.event)) {
        r.add("unknown_event", `event "${c.event}" is not declared`, `${p}/event`, { ...w, subject: c.event })
      }
      break
    case "resource@1":
      checkResource(c.resource, `${p}/resource`, w, ctx, r)
      break
    case "counters@1":
      checkSelector(c.card, `${p}/card`, scope, ctx, r)
      checkCounter(c.counter, `${p}/counter`, w, ctx, r)
      break
    case "damage-pending@1":
    case "pending-has-target@1":
      break
  }
}

const checkAction = (a: Action, p: string, scope: EffectScope, ctx: Ctx, r: Report): void => {
  const w = scope.where
  if (a.condition !== undefined) checkCondition(a.condition, `${p}/condition`, scope, ctx, r)
  if ("amount" in a) checkAmount(a.amount, a.op, `${p}/amount`, scope, ctx, r)
  if ("player" in a) checkPlayer(a.player, `${p}/player`, scope, r)
  if ("card" in a) checkSelector(a.card, `${p}/card`, scope, ctx, r)
  if ("counter" in a) checkCounter(a.counter, `${p}/counter`, w, ctx, r)
  if ("resource" in a) checkResource(a.resource, `${p}/resource`, w, ctx, r)
  if ("duration" in a) {
    if (!ctx.durations.has(a.duration)) {
      r.add("unknown_reference", `duration "${a.duration}" is not declared`, `${p}/duration`, {
        ...w,
        subject: a.duration
      })
    } else if ((a.duration === "while-source-active") !== (scope.effect.kind === "static")) {
      r.add(
        "schema_invalid",
        `"while-source-active" is the duration of static effects, and only of them`,
        `${p}/duration`,
        w
      )
    }
  }
  const nested = (list: ReadonlyArray<Action>, np: string): void =>
    list.forEach((x, k) => checkAction(x, `${np}/${k}`, scope, ctx, r))
  switch (a.op) {
    case "change-tone":
      for (const f of ["from", "to"] as const) {
        if (!ctx.tones.has(a[f])) {
          r.add("unknown_reference", `tone "${a[f]}" is not declared`, `${p}/${f}`, { ...w, subject: a[f] })
        }
      }
      break
    case "choose-one": {
      const labels = new Set<string>()
      a.options.forEach((o, k) => {
        const op = `${p}/options/${k}`
        if (labels.has(o.label)) {
          r.add("duplicate_id", `option label "${o.label}" is used twice`, `${op}/label`, { ...w, subject: o.label })
        }
        labels.add(o.label)
        if (o.condition !== undefined) checkCondition(o.condition, `${op}/condition`, scope, ctx, r)
        nested(o.actions, `${op}/actions`)
      })
      if (a.options.length < 2) r.add("invalid_amount", `choose-one needs at least two options`, `${p}/options`, w)
      break
    }
    case "counter-card":
      if (a.unless !== undefined) {
        checkPlayer(a.unless.optional_payment.player, `${p}/unless/optional_payment/player`, scope, r)
        nested(a.unless.optional_payment.actions, `${p}/unless/optional_payment/actions`)
      }
      break
    case "deal-damage":
      if (a.on_prevented !== undefined) nested(a.on_prevented.actions, `${p}/on_prevented/actions`)
      break
    case "look-at-top":
      a.players.forEach((pl, k) => checkPlayer(pl, `${p}/players/${k}`, scope, r))
      break
    case "move-counter":
      checkSelector(a.from, `${p}/from`, scope, ctx, r)
      checkSelector(a.to, `${p}/to`, scope, ctx, r)
      break
    case "prevent-damage":
      if (a.source !== undefined) checkFilter(a.source, `${p}/source`, w, ctx, r)
      break
    case "redirect-target":
      checkSelector(a.source, `${p}/source`, scope, ctx, r)
      break
    case "return-card":
      for (const f of ["from_zone", "to_zone"] as const) {
        if (!ctx.zones.has(a[f])) {
          r.add("unknown_reference", `zone "${a[f]}" is not declared`, `${p}/${f}`, { ...w, subject: a[f] })
        }
      }
      break
    default:
      break
  }
}

/** Every event name this engine knows (re-exported for tests and docs). */
export const knownEvents: ReadonlyArray<string> = EVENTS
