/**
 * The reference checks: every name an effect's conditions, actions, amounts,
 * selectors and filters use — zones, card types, tones, tags, cards,
 * counters, resources, durations, events, targets — resolves to a
 * declaration, and the selectors and players that exist only in some effects
 * (`each` with `for_each`, `pending-card` and `pending-controller` in
 * responses, RULES.md §8) are used only there.
 *
 * @since 0.1.0
 */
import type { Action, Amount, CardFilter, CardGroup, CardSelector, Condition, EffectRecord } from "../Schema.js"
import { COUNT_EXPRESSIONS, COUNT_PERIODS, PENDING_CARD_WINDOWS } from "../Vocabulary.js"
import type { Declared } from "./Declarations.js"
import type { Report, Where } from "./Report.js"

export interface EffectScope {
  readonly where: Where
  readonly effect: EffectRecord
  readonly targets: ReadonlySet<string>
  /** The declared response window of this effect when no card is pending in it. */
  readonly pendingCardless: string | undefined
}

export const checkFilter = (f: CardFilter, p: string, where: Where, ctx: Declared, r: Report): void => {
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

export const checkGroup = (g: CardGroup, p: string, where: Where, ctx: Declared, r: Report): void => {
  if (!ctx.zones.has(g.zone)) {
    r.add("unknown_reference", `zone "${g.zone}" is not declared`, `${p}/zone`, { ...where, subject: g.zone })
  }
  checkFilter(g, p, where, ctx, r)
}

export const checkSelector = (s: CardSelector, p: string, scope: EffectScope, ctx: Declared, r: Report): void => {
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

export const checkPlayer = (player: string, p: string, scope: EffectScope, r: Report): void => {
  if (player === "pending-controller" && scope.effect.kind !== "response") {
    r.add("unknown_reference", `"pending-controller" is available only in response effects`, p, scope.where)
  }
}

export const checkAmount = (a: Amount, op: string, p: string, scope: EffectScope, ctx: Declared, r: Report): void => {
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

export const checkCounter = (c: string, p: string, where: Where, ctx: Declared, r: Report): void => {
  if (!ctx.counters.has(c)) r.add("unknown_reference", `counter "${c}" is not declared`, p, { ...where, subject: c })
}
export const checkResource = (c: string, p: string, where: Where, ctx: Declared, r: Report): void => {
  if (!ctx.resources.has(c)) r.add("unknown_reference", `resource "${c}" is not declared`, p, { ...where, subject: c })
}

export const checkCondition = (c: Condition, p: string, scope: EffectScope, ctx: Declared, r: Report): void => {
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

export const checkAction = (a: Action, p: string, scope: EffectScope, ctx: Declared, r: Report): void => {
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
