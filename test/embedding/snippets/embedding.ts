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

  // Assess (a pure query) on the stored ledger, then apply the same plan with the revision it saw. The command ID
  // names that plan, so a retry is answered with the recorded outcome. Run again, the upgrade is stored already
  // (its slot is taken, so the assessment says incompatible): nothing to apply, the stored card is played.
  const assessment = yield* planner.assessStored(runtime, card, command, "scenario")
  if (assessment.isCompatible) {
    yield* planner.apply(runtime, {
      commandId: `${card.instanceId}/${command.upgradeId}:${assessment.revision}`,
      ...card,
      expectedRevision: assessment.revision,
      activity: "scenario",
      command
    })
  }

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
})

// Every failure, the layer's included (content that does not load, a store that cannot be opened), is a tagged
// error of the one diagnostic table: match on _tag, never on message text. Nothing is left in the error channel.
export const main = (store: string) =>
  upgradeAndPlay.pipe(
    Effect.provide(layer(store)),
    Effect.catchTags({
      // Another writer changed the instance between the assessment and the apply: assess again.
      RevisionConflict: (e) => Effect.succeed({ retry: e.code }),
      NotAuthorized: (e) => Effect.succeed({ notAuthorized: e.subject })
    }),
    Effect.catchAll((e) => Effect.succeed({ failed: e.code, diagnostics: e.diagnostics }))
  )

// const result = await Effect.runPromise(main(".cardfx/ledger.db"))
