/**
 * `StepBus`: what the processes serving one store tell each other — "game G
 * reached step N" and the content switches of a reload (see
 * `ContentFollow.ts`). A notice carries no game data: a receiver reads the
 * step from the game store, so the order and exactly-once of the steps a
 * subscriber sees come from the store's step numbers, never from the bus
 * (a notice lost, repeated or late costs a read, not a step).
 *
 * Three transports, one per way of sharing a store:
 *
 * - **PostgreSQL** (`layerPg`): `LISTEN`/`NOTIFY` on the channel
 *   `cardfx_bus<prefix>` of the store's database. The game store sends a
 *   step's notice *inside* the transaction that appends it
 *   (`GameStore.append`), so PostgreSQL delivers it exactly when the step
 *   commits — a server SIGKILLed after its commit cannot leave a step
 *   unannounced. Every server on the database (every worker of every
 *   machine) listens.
 * - **IPC** (`layerIpc`): the workers of one `cardfx serve --workers N` on a
 *   SQLite file; a notice goes to the primary process, which relays it to the
 *   other workers (src/server/Workers.ts).
 * - **none** (no layer): one process; `Games` publishes its own steps only.
 *
 * @since 0.1.0
 */
import { Context, Deferred, Duration, Effect, Layer, Redacted, type Scope, Stream } from "effect"
import { randomBytes } from "node:crypto"

/** A notice between processes serving one store. */
export type BusNotice =
  | { readonly _tag: "step"; readonly gameId: string; readonly step: number }
  | { readonly _tag: "content"; readonly generation: number; readonly phase: "prepare" | "commit" | "abort" }
  | { readonly _tag: "ping"; readonly nonce: string }

export interface StepBusService {
  /** `postgres`: every server on the database hears; `ipc`: the workers of one machine. */
  readonly transport: "postgres" | "ipc"
  /**
   * Tells the others. A step's notice on PostgreSQL is sent by the game
   * store's append itself (in its transaction): `step` here is then a no-op.
   */
  readonly publish: (notice: BusNotice) => Effect.Effect<void>
  /** Calls `f` with every notice heard (on PostgreSQL: this process's own too) until the scope closes. */
  readonly subscribe: (f: (notice: BusNotice) => void) => Effect.Effect<void, never, Scope.Scope>
}

/** The PostgreSQL channel of a store (its table prefix: one bus per store in a database). */
export const channelOf = (prefix: string): string => `cardfx_bus${prefix === "" ? "" : `_${prefix}`}`

/** A notice as a NOTIFY payload (short: `s <game> <step>`, `c <generation> <phase>`, `p <nonce>`). */
export const encodeNotice = (n: BusNotice): string =>
  n._tag === "step" ? `s ${n.gameId} ${n.step}` : n._tag === "content" ? `c ${n.generation} ${n.phase}` : `p ${n.nonce}`

/** A payload as a notice; undefined for anything else (another program's NOTIFY on the channel is ignored). */
export const decodeNotice = (payload: string): BusNotice | undefined => {
  const [kind, a, b] = payload.split(" ")
  if (kind === "s" && a !== undefined && b !== undefined && /^\d+$/.test(b)) {
    return { _tag: "step", gameId: a, step: Number(b) }
  }
  if (kind === "c" && a !== undefined && /^\d+$/.test(a) && (b === "prepare" || b === "commit" || b === "abort")) {
    return { _tag: "content", generation: Number(a), phase: b }
  }
  if (kind === "p" && a !== undefined) return { _tag: "ping", nonce: a }
  return undefined
}

/** The IPC message a worker and its primary exchange for a notice. */
export interface IpcNotice {
  readonly cardfx: "bus"
  readonly notice: BusNotice
}

export const isIpcNotice = (m: unknown): m is IpcNotice =>
  typeof m === "object" && m !== null && "cardfx" in m && m.cardfx === "bus" && "notice" in m

/** How long a bus may take to prove it listens (its own ping comes back) before the server starts anyway. */
const LISTEN_PROOF = Duration.seconds(10)

const makeHandlers = () => {
  const handlers = new Set<(n: BusNotice) => void>()
  const deliver = (n: BusNotice) => {
    for (const f of handlers) f(n)
  }
  const subscribe = (f: (n: BusNotice) => void) =>
    Effect.acquireRelease(Effect.sync(() => void handlers.add(f)), () => Effect.sync(() => void handlers.delete(f)))
  return { deliver, subscribe }
}

/** The notices between the processes serving one store. */
export class StepBus extends Context.Tag("cardfx/StepBus")<StepBus, StepBusService>() {
  /**
   * `LISTEN`/`NOTIFY` on the store's PostgreSQL database. Built only once the
   * listening connection has heard its own ping: a stream opened after the
   * server starts cannot miss a step notified before LISTEN took effect.
   */
  static readonly layerPg = (url: string, options: { readonly tablePrefix?: string } = {}) =>
    Layer.scoped(
      StepBus,
      Effect.gen(function*() {
        const { PgClient } = yield* Effect.promise(() => import("@effect/sql-pg"))
        const channel = channelOf(options.tablePrefix ?? "")
        const built = yield* Layer.build(PgClient.layer({
          url: Redacted.make(url),
          maxConnections: 2,
          connectTimeout: "5 seconds",
          applicationName: "cardfx-bus"
        }))
        const client = Context.get(built, PgClient.PgClient)
        // Not `client.notify`: it sends `NOTIFY channel, $1`, which PostgreSQL refuses (NOTIFY takes no parameters).
        const notify = (n: BusNotice) => client`SELECT pg_notify(${channel}, ${encodeNotice(n)})`
        const { deliver, subscribe } = makeHandlers()
        const nonce = randomBytes(9).toString("base64url")
        const heard = yield* Deferred.make<void>()
        yield* client.listen(channel).pipe(
          Stream.runForEach((payload) =>
            Effect.sync(() => {
              const n = decodeNotice(payload)
              if (n === undefined) return
              if (n._tag === "ping") {
                if (n.nonce === nonce) Deferred.unsafeDone(heard, Effect.void)
                return
              }
              deliver(n)
            })
          ),
          Effect.catchAll((e) => Effect.logError("step bus: the LISTEN connection failed", e.message)),
          Effect.forkScoped
        )
        // LISTEN is in effect once our own NOTIFY comes back.
        yield* Effect.retry(
          notify({ _tag: "ping", nonce }).pipe(
            Effect.zipRight(
              Deferred.await(heard).pipe(Effect.timeoutFail({ duration: "1 second", onTimeout: () => "slow" }))
            )
          ),
          { times: Math.ceil(Duration.toSeconds(LISTEN_PROOF)) }
        ).pipe(Effect.catchAll(() => Effect.logWarning("step bus: LISTEN not confirmed; serving anyway")))
        return {
          transport: "postgres",
          // Steps are notified by the game store's append, in its transaction.
          publish: (n) => n._tag === "step" ? Effect.void : Effect.ignore(notify(n)),
          subscribe
        } satisfies StepBusService
      })
    ).pipe(Layer.orDie)

  /** The workers of one machine: notices go over the worker's IPC channel to the primary, which relays them. */
  static readonly layerIpc: Layer.Layer<StepBus> = Layer.scoped(
    StepBus,
    Effect.gen(function*() {
      const { deliver, subscribe } = makeHandlers()
      const onMessage = (m: unknown) => {
        if (isIpcNotice(m)) deliver(m.notice)
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => void process.on("message", onMessage)),
        () => Effect.sync(() => void process.off("message", onMessage))
      )
      return {
        transport: "ipc",
        publish: (notice) =>
          Effect.sync(() => {
            const m: IpcNotice = { cardfx: "bus", notice }
            if (process.connected) process.send?.(m)
          }),
        subscribe
      } satisfies StepBusService
    })
  )

  /**
   * The bus for a store: PostgreSQL's for a `postgres://` URL; between the
   * workers of one machine (`ipc`) for a SQLite file served by several; none
   * (an empty layer: `Games` works alone) otherwise.
   */
  static readonly layerFor = (
    store: string,
    options: { readonly tablePrefix?: string | undefined; readonly ipc?: boolean | undefined } = {}
  ): Layer.Layer<StepBus> | undefined =>
    /^postgres(ql)?:\/\//.test(store)
      ? StepBus.layerPg(store, options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix })
      : options.ipc === true
      ? StepBus.layerIpc
      : undefined
}
