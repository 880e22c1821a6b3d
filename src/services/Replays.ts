/**
 * `Replays`: Hallyu Hex game logs (as `cardfx simulate --log` writes them)
 * re-executed against a deck, checking every action is legal and the state
 * fingerprint after every step. `cardfx replay` is an adapter over it (the
 * HTTP face may call the same method); the per-log check is the engine's
 * pure `replay`, and {@link replayDocument} is the pure core over a parsed
 * log document.
 *
 * ```ts
 * const report = yield* Effect.flatMap(Replays, (r) => r.replay({ log: "games.json", deck: "deck.json" }))
 * ```
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Context, Effect, Either, Layer } from "effect"
import type { Engine } from "../hallyu/engine/Engine.js"
import { fingerprint, type GameLog, GameLogSchema, replay } from "../hallyu/engine/Simulate.js"
import type { GameResult } from "../hallyu/engine/State.js"
import { HallyuHex } from "../hallyu/Service.js"
import { makeDecoder } from "../kernel/Decode.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { type CardfxError, errorFromDiagnostic, errorFromDiagnostics } from "../kernel/Errors.js"
import type { JsonDocument } from "../kernel/Json.js"
import { readJsonFile } from "../kernel/JsonFile.js"
import { wrongKind } from "./DocumentKinds.js"

/** One log's replay: its seed and steps, and the result and final fingerprint, or the diagnostic where it failed. */
export interface GameReplay {
  readonly seed: string
  readonly steps: number
  readonly ok: boolean
  readonly result: GameResult | null
  readonly fingerprint: string | null
  /** Why the log does not replay (with the log's file), when it does not. */
  readonly diagnostic?: Diagnostic
}

/** Every log of a document replayed, in its order; `ok` when every one replays to its fingerprints. */
export interface ReplayReport {
  readonly ok: boolean
  readonly games: number
  readonly replays: ReadonlyArray<GameReplay>
}

/** Log and deck files. */
export interface ReplayRequest {
  /** A game log file: one log, or an array of logs. */
  readonly log: string
  /** The deck file the logs were recorded with. */
  readonly deck: string
}

export interface ReplaysService {
  /**
   * Replays every log of a log file against a deck file. A deck or log that
   * cannot be read or decoded fails (the deck first); a log that does not
   * replay is a report with `ok: false` and its diagnostic.
   */
  readonly replay: (request: ReplayRequest) => Effect.Effect<ReplayReport, CardfxError>
}

const decodeLog = makeDecoder(GameLogSchema)

/** The logs of a document: one log or an array of them; every diagnostic of the first log that does not decode. */
const decodeLogs = (doc: JsonDocument): Either.Either<ReadonlyArray<GameLog>, Array<Diagnostic>> => {
  const value = doc.value
  if (!Array.isArray(value)) return Either.map(decodeLog(value, doc), (l) => [l])
  const out: Array<GameLog> = []
  for (let k = 0; k < value.length; k++) {
    const r = decodeLog(value[k], doc, `/${k}`)
    if (Either.isLeft(r)) return Either.left(r.left)
    out.push(r.right)
  }
  return Either.right(out)
}

/** One log replayed; a failure's diagnostic names `file`. */
const replayOne = (engine: Engine, log: GameLog, file: string | undefined): GameReplay => {
  const r = replay(engine, log)
  return Either.isRight(r)
    ? { seed: log.seed, steps: log.actions.length, ok: true, result: r.right.result, fingerprint: fingerprint(r.right) }
    : {
      seed: log.seed,
      steps: log.actions.length,
      ok: false,
      result: null,
      fingerprint: null,
      diagnostic: file === undefined ? r.left : { ...r.left, file }
    }
}

/**
 * The pure core: a parsed log document replayed against an engine, or the
 * diagnostics of a document that is not a game log (another kind, or every
 * diagnostic of the first log that does not decode).
 */
export const replayDocument = (
  engine: Engine,
  doc: JsonDocument
): Either.Either<ReplayReport, ReadonlyArray<Diagnostic>> => {
  const other = wrongKind(doc, "game log")
  if (other !== undefined) return Either.left([other])
  return Either.map(decodeLogs(doc), (logs) => {
    const replays = logs.map((l) => replayOne(engine, l, doc.file))
    return { ok: replays.every((r) => r.ok), games: replays.length, replays }
  })
}

const make = (hallyu: Context.Tag.Service<HallyuHex>, fs: FileSystem.FileSystem): ReplaysService => ({
  replay: ({ deck, log }) =>
    Effect.gen(function*() {
      const engine = yield* hallyu.engine(deck)
      const doc = yield* Effect.provideService(readJsonFile(log), FileSystem.FileSystem, fs)
      if (Either.isLeft(doc)) return yield* Effect.fail(errorFromDiagnostic(doc.left))
      const report = replayDocument(engine, doc.right)
      return Either.isRight(report)
        ? report.right
        : yield* Effect.fail(
          errorFromDiagnostics(report.left, diagnostic("schema_invalid", `${log} is not a game log`, { file: log }))
        )
    })
})

/** The replay service. */
export class Replays extends Context.Tag("cardfx/Replays")<Replays, ReplaysService>() {
  /** Over the Hallyu Hex service (the deck's engine) and the platform file system (the log). */
  static readonly layer: Layer.Layer<Replays, never, HallyuHex | FileSystem.FileSystem> = Layer.effect(
    Replays,
    Effect.map(Effect.all([HallyuHex, FileSystem.FileSystem]), ([h, fs]) => make(h, fs))
  )
}
