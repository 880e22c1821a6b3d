import { Bundled, Cards, Instances, Served } from "cardfx"
import { Effect } from "effect"

// The services `cardfx serve` runs, without HTTP: the content shipped with cardfx (Bundled), the card instances
// and games in one SQLite file (or a `postgres://...` URL).
export const layer = (store: string) =>
  Served.layer({ packages: Bundled.packages, deckFile: Bundled.starterDeck, store })

export const upgrade = Effect.gen(function*() {
  const cards = yield* Cards.Cards
  const instances = yield* Instances.Instances
  const instanceId = "hero.basic_attack"
  const command = { kind: "apply", upgradeId: "core.ember.affinity" } as const

  // Assess (a pure query) against the stored instance, then apply with the revision it saw. The command ID names
  // that plan, so a retry is answered with the recorded outcome. Run again, the upgrade is stored already (its slot
  // is taken, so the assessment says incompatible): nothing to apply, the stored card is read.
  const assessment = yield* cards.assess({
    cardId: "basic_attack",
    command,
    activity: "scenario",
    source: { _tag: "Stored", instanceId }
  })
  if (assessment.isCompatible) {
    yield* instances.command({
      instanceId,
      cardId: "basic_attack",
      commandId: `${instanceId}/${command.upgradeId}:${assessment.revision}`,
      expectedRevision: assessment.revision,
      activity: "scenario",
      command
    })
  }

  // The stored instance: its revision, its effective card's fingerprint and the upgrades composed into it.
  const stored = yield* instances.get(instanceId)
  const upgrades = stored.effective.compositionTrace.map((step) => step.transformationId)
  return { revision: stored.revision, fingerprint: stored.fingerprint, upgrades }
})

// Every failure, the layer's included (content that does not load, a store that cannot be opened), is a tagged
// error of the one diagnostic table: match on _tag, never on message text. Nothing is left in the error channel.
export const main = (store: string) =>
  upgrade.pipe(
    Effect.provide(layer(store)),
    Effect.catchTags({
      // Another writer changed the instance between the assessment and the command: assess again.
      RevisionConflict: (e) => Effect.succeed({ retry: e.code })
    }),
    Effect.catchAll((e) => Effect.succeed({ failed: e.code, diagnostics: e.diagnostics }))
  )

// Run it (Node 20: `npx tsc && node embed.js`). A second run prints the same: the upgrade is stored once.
console.log(JSON.stringify(await Effect.runPromise(main(".cardfx/ledger.db"))))
