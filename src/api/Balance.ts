/**
 * The documents of a balance run (`POST /v1/hhx/balance`): its request, the
 * progress events streamed while the games play, and the statistics it ends
 * with — `cardfx simulate --stats --format json`'s document
 * ({@link BalanceReport}, defined once beside the fold that counts it).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { BalanceReport } from "./Schemas.js"

export { BalanceReport }

/** The most games one balance run may ask for (a few seconds of one core). */
export const BALANCE_GAMES_LIMIT = 20_000

/** `POST /v1/hhx/balance`. */
export const BalanceRequest = Schema.Struct({
  games: Schema.Int.pipe(Schema.between(1, BALANCE_GAMES_LIMIT)).annotations({
    description: `an integer from 1 to ${BALANCE_GAMES_LIMIT} (the most games one run may play)`
  }),
  seed: Schema.Int.pipe(Schema.between(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).annotations({
    description: "The seed, an integer as for `cardfx simulate --seed`; game k uses `<seed>/k`."
  })
}).annotations({
  identifier: "BalanceRequest",
  description: "A balance run: games [0, games) of the served deck with seeds `<seed>/<k>`.",
  parseOptions: { onExcessProperty: "error" }
})
export type BalanceRequest = typeof BalanceRequest.Type

/** The data of a `progress` event. */
export const BalanceProgress = Schema.Struct({
  done: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Games played so far." }),
  total: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Games of the run." })
}).annotations({ identifier: "BalanceProgress", description: "How far a balance run is." })
export type BalanceProgress = typeof BalanceProgress.Type
