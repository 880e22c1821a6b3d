/**
 * A validated deck prepared for the engine: per card, the indexes of its
 * effects by kind and the windows it may be cast in. Built once per deck.
 * Only `validateDeck` output can be compiled (see `Engine.ts`).
 *
 * @since 0.1.0
 */
import { hashCanonical } from "../../kernel/Canonical.js"
import type { Action, Card, Condition, EffectRecord, RulesParameters, StarterDeck } from "../Schema.js"
import { EVENTS, PERSISTENT_TYPES } from "../Vocabulary.js"

export interface CompiledCard {
  readonly index: number
  /** The card, its effect, action and condition records rebuilt with one shape each (see `uniformEffect`). */
  readonly def: Card
  readonly persistent: boolean
  readonly isStar: boolean
  /** Windows this card may be cast in (§7.1). */
  readonly castWindows: ReadonlyArray<string>
  /** Whether the card is a response card (cast only through its response effects). */
  readonly response: boolean
  readonly onResolve: ReadonlyArray<number>
  readonly onEnter: ReadonlyArray<number>
  readonly activated: ReadonlyArray<number>
  /** `[i]` for each effect index `i`: the effect list of one activation, built once. */
  readonly single: ReadonlyArray<ReadonlyArray<number>>
  readonly triggered: ReadonlyArray<number>
  /** The triggered effects listening to each event, by event index (`eventIndex`): what `emit` scans. */
  readonly triggersOn: ReadonlyArray<ReadonlyArray<number>>
  /** Bit `ev` set when some triggered effect listens to event index `ev` (`triggersOn[ev]` not empty). */
  readonly triggerMask: number
  readonly replacement: ReadonlyArray<number>
  readonly statics: ReadonlyArray<number>
  /** Whether any effect of the card has targets. */
  readonly hasTargets: boolean
  /** Whether the card may be cast in `main` (`castWindows` includes it). */
  readonly castInMain: boolean
  /** Per cast window, the effects that resolve when the card is cast in it (§7.3, §7.4). */
  readonly windowEffects: ReadonlyMap<string, ReadonlyArray<number>>
}

export interface CompiledDeck {
  readonly deck: StarterDeck
  readonly hash: string
  readonly params: RulesParameters
  readonly cards: ReadonlyArray<CompiledCard>
  readonly byId: ReadonlyMap<string, number>
  readonly eventIndex: ReadonlyMap<string, number>
  /** Events some triggered effect listens to: other events skip the trigger scan. */
  readonly triggerEvents: ReadonlySet<string>
  /** `triggerEvents` by event index (`eventIndex`), for the per-event check. */
  readonly triggerOn: ReadonlyArray<boolean>
  /** Whether some card has a static effect: without one, costs need no stage scan. */
  readonly hasStatics: boolean
}

/** The effects that resolve when `card` is cast in `win` (§7.3, §7.4): `main` runs the on-resolve effects. */
export const effectsCastIn = (def: Card, onResolve: ReadonlyArray<number>, win: string): ReadonlyArray<number> => {
  if (win === "main") return onResolve
  const out: Array<number> = []
  def.effects.forEach((e, i) => {
    if (
      (e.kind === "response" && e.window === win) || (e.kind === "on-resolve" && (e.play_windows ?? []).includes(win))
    ) out.push(i)
  })
  return out
}

// The decoded records of one kind have as many shapes as there are combinations of optional
// fields (a dozen effect shapes, fifteen action shapes in the starter deck), so every field
// read in the resolution loop was a megamorphic property load. The engine reads copies with
// every field of the kind present, in one order (absent fields hold undefined, which reads as
// absent everywhere the engine looks); selectors and filters are shared, not copied. These
// copies never reach a game state.

type Fields = Readonly<Record<string, unknown>>

const uniformCondition = (x: Condition | undefined): Condition | undefined => {
  if (x === undefined) return undefined
  const r = x as unknown as Fields
  return {
    fact: r["fact"],
    player: r["player"],
    filter: r["filter"],
    at_least: r["at_least"],
    event: r["event"],
    resource: r["resource"],
    card: r["card"],
    counter: r["counter"],
    compare: r["compare"],
    value: r["value"]
  } as unknown as Condition // the same fields, plus absent ones as undefined
}

const uniformActions = (xs: ReadonlyArray<Action>): ReadonlyArray<Action> => xs.map(uniformAction)

const uniformAction = (x: Action): Action => {
  const r = x as unknown as Fields
  const options = r["options"] as
    | ReadonlyArray<{ readonly label: string; readonly condition?: Condition; readonly actions: ReadonlyArray<Action> }>
    | undefined
  const unless = r["unless"] as {
    readonly optional_payment: { readonly player: unknown; readonly actions: ReadonlyArray<Action> }
  } | undefined
  const onPrevented = r["on_prevented"] as
    | { readonly replace: boolean; readonly actions: ReadonlyArray<Action> }
    | undefined
  return {
    op: r["op"],
    condition: uniformCondition(r["condition"] as Condition | undefined),
    player: r["player"],
    players: r["players"],
    deck: r["deck"],
    card: r["card"],
    counter: r["counter"],
    resource: r["resource"],
    amount: r["amount"],
    from: r["from"],
    to: r["to"],
    duration: r["duration"],
    source: r["source"],
    destination: r["destination"],
    from_zone: r["from_zone"],
    to_zone: r["to_zone"],
    options: options?.map((o) => ({
      label: o.label,
      condition: uniformCondition(o.condition),
      actions: uniformActions(o.actions)
    })),
    unless: unless === undefined
      ? undefined
      : {
        optional_payment: {
          player: unless.optional_payment.player,
          actions: uniformActions(unless.optional_payment.actions)
        }
      },
    on_prevented: onPrevented === undefined
      ? undefined
      : { replace: onPrevented.replace, actions: uniformActions(onPrevented.actions) }
  } as unknown as Action // the same fields, plus absent ones as undefined
}

const uniformEffect = (e: EffectRecord): EffectRecord =>
  ({
    id: e.id,
    kind: e.kind,
    text: e.text,
    window: e.window,
    play_windows: e.play_windows,
    trigger: e.trigger === undefined
      ? undefined
      : { event: e.trigger.event, player: e.trigger.player, filter: e.trigger.filter },
    condition: uniformCondition(e.condition),
    limit: e.limit,
    optional: e.optional,
    activation_cost: e.activation_cost === undefined ? undefined : uniformAction(e.activation_cost),
    for_each: e.for_each,
    targets: e.targets,
    actions: uniformActions(e.actions)
  }) as unknown as EffectRecord // the same fields, plus absent ones as undefined

const indexes = (effects: ReadonlyArray<EffectRecord>, kind: EffectRecord["kind"]): Array<number> =>
  effects.flatMap((e, i) => (e.kind === kind ? [i] : []))

export const compileDeck = (deck: StarterDeck): CompiledDeck => {
  const cards = deck.cards.map((printed, index): CompiledCard => {
    // Every field in one order (absent ones undefined): stars carry `buzz` and `starting_scandal`,
    // other cards not, and a spread copy kept those shapes apart, so reads of `def.cost`, `def.type`
    // and `def.tones` in enumeration and resolution were polymorphic.
    const def: Card = {
      id: printed.id,
      code: printed.code,
      name: printed.name,
      type: printed.type,
      cost: printed.cost,
      tones: printed.tones,
      tags: printed.tags,
      starting_scandal: printed.starting_scandal,
      buzz: printed.buzz,
      rules_text: printed.rules_text,
      effects: printed.effects.map(uniformEffect)
    } as Card // the same fields, plus absent ones as undefined
    const responses = def.effects.filter((e) => e.kind === "response")
    const onResolve = indexes(def.effects, "on-resolve")
    const windows = new Set<string>()
    if (responses.length > 0) { for (const e of responses) windows.add(e.window ?? "") }
    else {
      let listed = false
      for (const i of onResolve) {
        const pw = def.effects[i]?.play_windows
        if (pw !== undefined) {
          listed = true
          for (const w of pw) windows.add(w)
        }
      }
      if (!listed) windows.add("main")
    }
    const castWindows = [...windows]
    const triggersOn = EVENTS.map((ev) =>
      def.effects.flatMap((e, i) => (e.kind === "triggered" && e.trigger?.event === ev ? [i] : []))
    )
    return {
      index,
      def,
      persistent: PERSISTENT_TYPES.has(def.type),
      isStar: def.type === "star",
      castWindows,
      response: responses.length > 0,
      onResolve,
      onEnter: indexes(def.effects, "on-enter"),
      activated: indexes(def.effects, "activated"),
      single: def.effects.map((_, i) => [i]),
      triggered: indexes(def.effects, "triggered"),
      triggersOn,
      triggerMask: triggersOn.reduce((m, xs, ev) => (xs.length > 0 ? m | (1 << ev) : m), 0),
      replacement: indexes(def.effects, "replacement"),
      statics: indexes(def.effects, "static"),
      hasTargets: def.effects.some((e) => (e.targets?.length ?? 0) > 0),
      castInMain: castWindows.includes("main"),
      windowEffects: new Map(castWindows.map((w) => [w, effectsCastIn(def, onResolve, w)]))
    }
  })
  const triggerEvents = new Set(
    deck.cards.flatMap((card) =>
      card.effects.flatMap((e) => (e.kind === "triggered" && e.trigger !== undefined ? [e.trigger.event] : []))
    )
  )
  // `$schema` names the JSON Schema for editors: not content, so not part of the deck's hash.
  const { $schema: _schema, ...content } = deck
  return {
    deck,
    hash: hashCanonical(content),
    params: deck.rules.parameters,
    cards,
    byId: new Map(deck.cards.map((c, i) => [c.id, i])),
    eventIndex: new Map(EVENTS.map((e, i) => [e, i])),
    triggerEvents,
    triggerOn: EVENTS.map((e) => triggerEvents.has(e)),
    hasStatics: cards.some((card) => card.statics.length > 0)
  }
}
