/**
 * A Hallyu Hex deck from its text, as the worker threads and the embedding
 * service read it.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import type { StarterDeck } from "../hallyu/Schema.js"
import { validateDeck } from "../hallyu/Validate.js"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { parseJson } from "../kernel/Json.js"

/** A validated deck from its text (the first error diagnostic otherwise). */
export const deckFromJson = (json: string, file: string): Either.Either<StarterDeck, Diagnostic> => {
  const doc = parseJson(json, { file })
  if (Either.isLeft(doc)) return Either.left(doc.left)
  const v = validateDeck(doc.right)
  return v.deck !== undefined
    ? Either.right(v.deck)
    : Either.left(
      v.diagnostics.find((d) => d.severity === "error") ??
        diagnostic("schema_invalid", `${file} is not a valid deck`, { file })
    )
}
