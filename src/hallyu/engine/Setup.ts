/**
 * Game setup (RULES.md §4): instance numbering of the two deck lists
 * (§1.2), the seeded first player and shuffles, opening hands, and the first
 * turn's start resolved up to the first decision.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { budgetExceeded } from "../../kernel/Budget.js"
import { type Diagnostic, diagnostic } from "../../kernel/Diagnostic.js"
import { RngStream, seedState } from "../../kernel/Rng.js"
import { Draft } from "./Draft.js"
import { run, turnStartWork } from "./Resolution.js"
import type { Runtime } from "./Runtime.js"
import type { GameState, PlayerState, Seat } from "./State.js"

/** Options for a new game. */
export interface GameOptions {
  readonly seed: number | string
  /** Deck list IDs for seat 0 and seat 1 (default: the file's first and second decks). */
  readonly decks?: readonly [string, string]
}

export interface Lineup {
  readonly cardOf: Readonly<Record<string, number>>
  readonly decks: ReadonlyArray<ReadonlyArray<string>>
}

/** Instance numbering for a pair of deck lists (§1.2), kept in the engine's memo: every game that uses them shares it. */
const lineupOf = (c: Runtime, lists: readonly [string, string]): Either.Either<Lineup, Diagnostic> => {
  const byLists = c.memo.lineups
  const key = `${lists[0]}\u0000${lists[1]}`
  const cached = byLists.get(key)
  if (cached !== undefined) return Either.right(cached)
  const cardOf: Record<string, number> = {}
  const decks: Array<Array<string>> = []
  for (let seat = 0; seat < 2; seat++) {
    const list = c.deck.decks.find((d) => d.id === lists[seat])
    if (list === undefined) {
      return Either.left(
        diagnostic("unknown_reference", `no deck list ${String(lists[seat])} in the deck file`, {
          subject: String(lists[seat])
        })
      )
    }
    const ids: Array<string> = []
    for (const e of list.cards) {
      const idx = c.byId.get(e.card)
      if (idx === undefined) {
        return Either.left(diagnostic("unknown_reference", `unknown card ${e.card}`, { subject: e.card }))
      }
      for (let k = 0; k < e.count; k++) {
        const inst = `p${seat}-${String(ids.length + 1).padStart(2, "0")}`
        ids.push(inst)
        cardOf[inst] = idx
      }
    }
    decks.push(ids)
  }
  // The names as the record's own keys: property keys are internalized strings, flat and unique, so
  // every comparison of two names is a pointer comparison and every read of a character a direct
  // load; the names built above are concatenations (ropes) read through an indirection each time.
  const keyOf = new Map<string, string>()
  for (const k of Object.keys(cardOf)) keyOf.set(k, k)
  for (const ids of decks) {
    for (let k = 0; k < ids.length; k++) ids[k] = keyOf.get(ids[k] as string) ?? (ids[k] as string)
  }
  const lineup: Lineup = { cardOf, decks }
  byLists.set(key, lineup)
  return Either.right(lineup)
}

export const newGame = (c: Runtime, o: GameOptions): Either.Either<GameState, Diagnostic> => {
  const d = setupDraft(c, o)
  return Either.isLeft(d) ? Either.left(d.left) : Either.right(d.right.finish())
}

/**
 * The draft of a new game resolved up to its first decision, unfinished: `newGame` writes it out,
 * and a playout in place goes on playing on it (`Playout.ts`: one draft and one state copy per game
 * instead of two).
 */
export const setupDraft = (c: Runtime, o: GameOptions): Either.Either<Draft, Diagnostic> => {
  const lists: readonly [string, string] = o.decks ??
    [c.deck.decks[0]?.id ?? "", c.deck.decks[1]?.id ?? c.deck.decks[0]?.id ?? ""]
  const lineup = lineupOf(c, lists)
  if (Either.isLeft(lineup)) return Either.left(lineup.left)
  const cardOf = lineup.right.cardOf
  const decks = lineup.right.decks.map((d) => d.slice())
  const seed = String(o.seed)
  const rng = new RngStream(seedState(seed, "hhx.game"))
  const first: Seat = rng.int(2) === 0 ? 0 : 1
  for (const d of decks) {
    for (let i = d.length - 1; i >= 1; i--) {
      const j = rng.int(i + 1)
      const t = d[i] as string
      d[i] = d[j] as string
      d[j] = t
    }
  }
  const p = c.params
  const players = decks.map(
    (d): PlayerState => ({
      composure: p.starting_composure,
      fandom: 0,
      trend: 0,
      deck: d.slice(p.opening_hand),
      hand: d.slice(0, p.opening_hand),
      stage: [],
      archive: [],
      pending: []
    })
  ) as unknown as readonly [PlayerState, PlayerState] // two decks were built above
  const s0: GameState = {
    format: "hhx-state/1",
    deckHash: c.hash,
    seed,
    rng: rng.state(),
    cardOf,
    turn: 1,
    active: first,
    first,
    players,
    counters: {},
    toneChanges: [],
    costChanges: [],
    damage: [],
    castTargets: {},
    cast: [],
    events: new Array<number>(c.eventIndex.size * 2).fill(0),
    uses: {},
    looks: [],
    work: turnStartWork,
    queue: [],
    decision: null,
    result: null,
    ply: 0
  }
  const d = new Draft(c, s0, true) // s0 is this call's own
  if (!run(d)) return Either.left(budgetExceeded(d.budget, "resolution steps of setup", "newGame"))
  return Either.right(d)
}
