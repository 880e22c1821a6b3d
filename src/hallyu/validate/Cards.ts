/**
 * The card rules: each card's printed fields (type, cost, tones, tags, a
 * star's scandal and buzz), its rules text against its effects' texts, its
 * effect IDs, and each effect's window and zone rules — an effect kind that
 * needs a persistent zone on a card that never reaches one (RULES.md §1.4),
 * fields allowed only on some kinds, response and play windows (§8.1),
 * trigger events and replacement (§6.2, §9), limits, targets and costs — then
 * the reference checks over its conditions and actions.
 *
 * @since 0.1.0
 */
import type { Card, EffectRecord } from "../Schema.js"
import { PENDING_CARD_WINDOWS, PERSISTENT_KINDS, PERSISTENT_TYPES, PLAY_WINDOWS } from "../Vocabulary.js"
import type { Declared } from "./Declarations.js"
import { checkAction, checkCondition, checkFilter, checkGroup, type EffectScope } from "./References.js"
import { missingField, type Report, type Where } from "./Report.js"

export const checkCard = (card: Card, index: number, ctx: Declared, r: Report): void => {
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

const checkEffect = (
  effect: EffectRecord,
  cardType: string,
  p: string,
  where: Where,
  ctx: Declared,
  r: Report
): void => {
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
