/**
 * The messages a cardfx worker thread answers, as `Schema.TaggedRequest`s (a
 * serialized worker pool): each carries everything its pure core needs, so a
 * worker holds no state a request depends on (it only caches what it built
 * from a request's own bytes).
 *
 * - `SimulateGames` (in ./SimulateGames.ts): games [from, to) of a seeded simulation → a partial.
 * - `FuzzRuns`: runs [from, to) of one fuzz property → a partial.
 * - `ValidateFiles`: standalone files → one validation per file, in order.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Diagnostic } from "../kernel/Diagnostic.js"
import { FuzzPartialSchema } from "../services/Fuzz.js"
import { DeckSource } from "../services/Simulation.js"
import { FileValidation } from "../services/Validation.js"
import { SimulateGames } from "./SimulateGames.js"

export { SimulateGames }

/** Runs [from, to) of fuzz property `property`. */
export class FuzzRuns extends Schema.TaggedRequest<FuzzRuns>()("FuzzRuns", {
  failure: Diagnostic,
  success: FuzzPartialSchema,
  payload: {
    seed: Schema.Int,
    property: Schema.String,
    from: Schema.Int,
    to: Schema.Int,
    path: Schema.optional(Schema.String),
    /** The Hallyu Hex deck's text and file name (absent: the Hallyu Hex properties are skipped). */
    deck: Schema.optional(DeckSource),
    /** Content package folders the generated content is published beside. */
    packages: Schema.optional(Schema.Array(Schema.String))
  }
}) {}

/** Standalone files to classify and validate, answered in the same order. */
export class ValidateFiles extends Schema.TaggedRequest<ValidateFiles>()("ValidateFiles", {
  failure: Diagnostic,
  success: Schema.Array(FileValidation),
  payload: { files: Schema.Array(Schema.String) }
}) {}

/** Every request a worker answers. */
export const WorkerRequest = Schema.Union(SimulateGames, FuzzRuns, ValidateFiles)
export type WorkerRequest = typeof WorkerRequest.Type
