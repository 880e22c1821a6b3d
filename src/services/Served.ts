/**
 * The services of a served application (what `cardfx serve` runs, without
 * HTTP): the served content (`ContentCatalog` and its `LiveCatalog`), the
 * ledger store and the planner, the card queries, the stored instances,
 * the scenarios and the Hallyu Hex games of one deck, all over the real
 * file system. An embedder gets the server's behaviour without the server.
 *
 * @since 0.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Effect, Layer } from "effect"
import { CardTransformationPlanner } from "../composition/planner/Planner.js"
import { SharedPlanningCaches } from "../composition/planner/PlanningCache.js"
import { LedgerStore } from "../composition/store/LedgerStore.js"
import { HallyuHex } from "../hallyu/Service.js"
import { Cards } from "./Cards.js"
import { ContentLoader } from "./Catalog.js"
import { AgentDecider, ComputerSeats, type ComputerSeatsOptions, ComputerSeatStore } from "./ComputerSeats.js"
import { ContentCatalog } from "./ContentCatalog.js"
import * as ContentFollow from "./ContentFollow.js"
import { Games } from "./Games.js"
import { GameStore } from "./GameStore.js"
import { Instances } from "./Instances.js"
import { Scenarios } from "./Scenarios.js"
import type { ServingLimits } from "./ServingLimits.js"
import { StepBus } from "./StepBus.js"

/** How a served application runs. */
export interface ServedOptions {
  /** Content package folders published together. */
  readonly packages: ReadonlyArray<string>
  /** SQLite path or postgres:// URL (both the ledger store and the Hallyu Hex games). */
  readonly store: string
  readonly tablePrefix?: string | undefined
  /** The Hallyu Hex deck file the games are played with. */
  readonly deckFile: string
  /** Milliseconds between heartbeats on open game event streams (default 15 000). */
  readonly heartbeatMs?: number | undefined
  /**
   * Serve content that breaks stored instances (each is logged as a
   * warning); by default the start fails with `start_rejected` naming them.
   */
  readonly allowBroken?: boolean | undefined
  /** Computer seats: decisions at once and the largest iteration budget (src/services/ComputerSeats.ts). */
  readonly computerSeats?: ComputerSeatsOptions | undefined
  /** Where computer seats' decisions run (the `cardfx` bin: worker threads); default: in this process. */
  readonly agentDecider?: Layer.Layer<AgentDecider> | undefined
  /**
   * This process is one worker of several on the store (`serve --workers N`):
   * with SQLite, steps travel between the workers over IPC; with PostgreSQL
   * they always travel by LISTEN/NOTIFY (src/services/StepBus.ts).
   */
  readonly worker?: boolean | undefined
  /** Start even when the other servers on the store serve other content (src/services/ContentFollow.ts). */
  readonly allowContentMismatch?: boolean | undefined
  /** The games' limits (stream slots, live games); absent ones keep their defaults. */
  readonly limits?: ServingLimits | undefined
}

/** Every service of a served application. */
export const layer = (options: ServedOptions) => {
  const prefix = options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }
  const platform = Layer.merge(NodeFileSystem.layer, NodePath.layer)
  const files = Layer.mergeAll(ContentLoader.layer, HallyuHex.layer).pipe(Layer.provideMerge(platform))
  // One set of planning caches for the planner and the Cards queries (built once: the same layer value).
  const planning = SharedPlanningCaches.layer
  const store = CardTransformationPlanner.layer.pipe(
    Layer.provide(planning),
    Layer.provideMerge(LedgerStore.layerFor(options.store, prefix))
  )
  // The start check: the stored instances under the content served (refused when one breaks, unless allowBroken).
  const catalog = ContentCatalog.serve(options.packages, { allowBroken: options.allowBroken }).pipe(
    Layer.provideMerge(Layer.merge(files, store))
  )
  // Several processes on the store (a shared store's bus): one reload switches them all (ContentFollow.ts).
  const bus = StepBus.layerFor(options.store, { tablePrefix: options.tablePrefix, ipc: options.worker })
  const followed = bus === undefined ? catalog : ContentFollow.layer({
    store: options.store,
    tablePrefix: options.tablePrefix,
    packages: options.packages,
    allowMismatch: options.allowContentMismatch
  }).pipe(Layer.provideMerge(catalog), Layer.provide(bus))
  const queries = Layer.mergeAll(Cards.layer.pipe(Layer.provide(planning)), Instances.layer, Scenarios.layer).pipe(
    Layer.provideMerge(followed)
  )
  const games = Layer.unwrapEffect(
    Effect.map(
      Effect.flatMap(HallyuHex, (h) => h.engine(options.deckFile)),
      (engine) =>
        Games.layer(engine, {
          heartbeatMs: options.heartbeatMs,
          streams: options.limits?.streams,
          games: options.limits?.games
        })
    )
  ).pipe(Layer.provide(GameStore.layerFor(options.store, prefix)), Layer.provide(files))
  // Steps applied by any process on the store reach this one's streams (StepBus.ts), when the store is shared.
  const gamesOnBus = bus === undefined ? games : games.pipe(Layer.provide(bus))
  // The computer seats play the games' seats the server holds (off the request path, on the decider).
  const computerSeats = ComputerSeats.layer(options.computerSeats).pipe(
    Layer.provide(ComputerSeatStore.layerFor(options.store, prefix)),
    Layer.provide(options.agentDecider ?? AgentDecider.inProcess),
    Layer.provideMerge(gamesOnBus)
  )
  return Layer.merge(queries, computerSeats)
}
