import { Cardfx, Catalog, Executor, LedgerStore, Planner, Resolver } from "cardfx"
import { Effect } from "effect"

// Every service in one layer: packages from disk, the ledger store in a SQLite file
// (`store: "postgres://..."` for PostgreSQL; default ".cardfx/ledger.db").
export const layer = (store: string) => Cardfx.CardfxLive({ packages: ["data/heroscript.base"], store })

export const upgradeAndPlay = Effect.gen(function*() {
  const { runtime } = yield* Catalog.Catalog
  const planner = yield* Planner.CardTransformationPlanner
  const card = { branch: LedgerStore.MAIN, instanceId: "hero.basic_attack", cardId: "basic_attack" }
  const command = { kind: "apply", upgradeId: "core.ember.affinity" } as const

  // Assess (a pure query), then apply the same plan with the revision it saw.
  const assessment = yield* planner.assessStored(runtime, card, command, "scenario")
  yield* planner.apply(runtime, {
    commandId: "upgrade-1",
    ...card,
    expectedRevision: assessment.revision,
    activity: "scenario",
    command
  })

  // Resolve the effective card from the stored (sealed) ledger and play it.
  const { ledger } = yield* (yield* LedgerStore.LedgerStore).read(LedgerStore.MAIN, card.instanceId, card.cardId)
  const baseCard = runtime.cards.get(card.cardId)
  if (baseCard === undefined) return yield* Effect.dieMessage("basic_attack is not published")
  const effective = yield* (yield* Resolver.CardResolver).resolve({ baseCard, ledger, statuses: runtime.statuses })
  const played = yield* (yield* Executor.CardExecutor).play(effective, {
    turn: 1,
    activeSide: "ally",
    characters: [
      { characterId: "hero", side: "ally", hp: 30, maxHp: 40, statuses: [], attributes: {}, relics: [], buffs: [] },
      { characterId: "slime", side: "enemy", hp: 30, maxHp: 30, statuses: [], attributes: {}, relics: [], buffs: [] }
    ]
  }, { actorId: "hero", targetIds: ["slime"], seed: 1 })
  return { fingerprint: effective.fingerprint, events: played.events }
}).pipe(
  // Every failure is a tagged error of the one diagnostic table: match on _tag, never on text.
  Effect.catchTags({
    RevisionConflict: (e) => Effect.succeed({ conflict: e.code }),
    NotAuthorized: (e) => Effect.succeed({ notAuthorized: e.subject })
  })
)

// await Effect.runPromise(Effect.scoped(Effect.provide(upgradeAndPlay, layer(".cardfx/ledger.db"))))
