import { FetchHttpClient } from "@effect/platform"
import { makeClient } from "cardfx/client"
import { Effect } from "effect"

// A game server's view of `cardfx serve`: typed calls, typed errors (matchable by tag, with the diagnostic `code`).
export const upgradeOverHttp = (baseUrl: string, instanceId: string) =>
  Effect.gen(function*() {
    const client = yield* makeClient(baseUrl) // { token } when the server runs with --token-env
    const command = { kind: "apply", upgradeId: "core.ember.affinity" } as const

    // Assess (a pure query), then apply with the revision it saw; a retry with the same commandId is answered
    // with the recorded outcome, a stale expectedRevision is a 409 `revision_conflict`.
    const assessment = yield* client.cards.assess({ payload: { cardId: "basic_attack", command } })
    const outcome = yield* client.instances.command({
      path: { instanceId },
      payload: { commandId: `${instanceId}-ember`, cardId: "basic_attack", expectedRevision: 0, command }
    })
    const missing = yield* client.cards.effective({ path: { cardId: "no_such_card" }, urlParams: {} }).pipe(
      Effect.map(() => "found"),
      Effect.catchTag("NotFound", (e) => Effect.succeed(e.code))
    )
    return { compatible: assessment.isCompatible, status: outcome.status, revision: outcome.revision, missing }
  }).pipe(Effect.provide(FetchHttpClient.layer))
