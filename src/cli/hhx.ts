/**
 * `cardfx hhx ...`: Hallyu Hex commands. `explain CARD_CODE` prints a card's
 * effect records as generated text beside its printed `rules_text`.
 * `simulateCommand` and `replayCommand` are mounted by the lead as
 * `cardfx simulate` and `cardfx replay`.
 *
 * @since 0.1.0
 */
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either } from "effect"
import { type Diagnostic, diagnostic } from "../kernel/Diagnostic.js"
import { parseJson } from "../kernel/Json.js"
import { explainCard, findCard, renderExplanation } from "../hallyu/Explain.js"
import type { StarterDeck } from "../hallyu/Schema.js"
import { validateDeck } from "../hallyu/Validate.js"
import { CommandExit, ExitCode } from "./Exit.js"
import { humanLine } from "./Output.js"

/** The deck every Hallyu Hex command uses unless `--deck` names another. */
export const defaultDeckPath = "data/hallyu-hex/starter-deck.v0.json"

export const deckOption = Options.file("deck").pipe(
  Options.withDefault(defaultDeckPath),
  Options.withDescription("A Hallyu Hex deck file (default: the starter deck).")
)

const printDiagnostics = (ds: ReadonlyArray<Diagnostic>) => Effect.forEach(ds, (d) => Console.error(humanLine(d)), { discard: true })

/** Reads, parses and validates a deck file; on any error prints the diagnostics and exits 1. */
export const loadDeck = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const bytes = yield* fs.readFile(file).pipe(
      Effect.catchAll((e) =>
        printDiagnostics([diagnostic("file_unreadable", `cannot read ${file}: ${e.message}`, { file })]).pipe(
          Effect.zipRight(Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors })))
        )
      )
    )
    const doc = parseJson(bytes, { file })
    if (Either.isLeft(doc)) {
      yield* printDiagnostics([doc.left])
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    }
    const v = validateDeck(doc.right)
    if (v.deck === undefined) {
      yield* printDiagnostics(v.diagnostics)
      return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.contentErrors }))
    }
    return v.deck as StarterDeck
  })

const explainCommand = Command.make(
  "explain",
  { card: Args.text({ name: "CARD_CODE" }), deck: deckOption },
  ({ card, deck }) =>
    Effect.gen(function* () {
      const d = yield* loadDeck(deck)
      const found = findCard(d, card)
      if (found === undefined) {
        yield* Console.error(humanLine(diagnostic("unknown_card", `no card with code or ID ${card} in ${deck}`, { file: deck, subject: card })))
        return yield* Effect.fail(new CommandExit({ exitCode: ExitCode.usage }))
      }
      yield* Console.log(renderExplanation(explainCard(found)))
    })
).pipe(Command.withDescription("Print a card's effect records as generated text beside its printed rules_text."))

/** `cardfx hhx`: Hallyu Hex tools. */
export const hhxCommand = Command.make("hhx").pipe(
  Command.withDescription("Hallyu Hex tools."),
  Command.withSubcommands([explainCommand])
)
